//! `accounts`: an owner of keys and files, with its plan and usage counters.

use sea_orm::entity::prelude::*;

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "accounts")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub email: String,
    pub plan: String,
    pub usage_day: i64,
    pub calls_today: i64,
    pub calls_total: i64,
    pub storage_used: i64,
    pub created_at: ChronoDateTimeUtc,
    /// Argon2id PHC string; none for accounts made by the admin CLI until a password is set.
    pub password_hash: Option<String>,
}

impl ActiveModelBehavior for ActiveModel {}
