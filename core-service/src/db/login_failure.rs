//! `login_failures`: one row per event, by subject: a wrong password (`pair:address:<ip>
//! <email>` and `address:<ip>`), a wrong current password (`change:<account id>`), a sign-up
//! (`signup:<ip>`); counted over a sliding window by `auth::login_limit` to slow down guessing.

use sea_orm::entity::prelude::*;

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "login_failures")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub subject: String,
    pub failed_at: ChronoDateTimeUtc,
}

impl ActiveModelBehavior for ActiveModel {}
