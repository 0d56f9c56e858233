//! `login_failures`: one row per failed login, by subject (`account:<email>`, `address:<ip>`),
//! counted over a sliding window to slow down password guessing.

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
