//! `replicas`: each running core, by a random id drawn at start, with when it was last seen.
//! A row not refreshed for a while is a dead core (see `quota::replicas`).

use sea_orm::entity::prelude::*;

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "replicas")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub seen_at: ChronoDateTimeUtc,
}

impl ActiveModelBehavior for ActiveModel {}
