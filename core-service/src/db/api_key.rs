//! `api_keys`: only the SHA-256 of a key is stored, with a short prefix to recognise it by.

use sea_orm::entity::prelude::*;

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_keys")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    pub name: String,
    pub display_prefix: String,
    #[sea_orm(unique)]
    pub key_hash: String,
    /// Comma-separated scope names.
    pub scopes: String,
    pub created_at: ChronoDateTimeUtc,
    pub last_used_at: Option<ChronoDateTimeUtc>,
    pub revoked_at: Option<ChronoDateTimeUtc>,
}

impl ActiveModelBehavior for ActiveModel {}
