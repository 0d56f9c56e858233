//! `calls_in_flight`: one row per counted call still running, on the replica that runs it and
//! with the UTC day it was counted on, so it can be given back if that replica dies (see
//! `quota::in_flight`).

use sea_orm::entity::prelude::*;

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "calls_in_flight")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub replica: String,
    pub account_id: i64,
    pub usage_day: i64,
    pub started_at: ChronoDateTimeUtc,
}

impl ActiveModelBehavior for ActiveModel {}
