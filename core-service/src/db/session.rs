//! `sessions`: a logged-in browser. Only the token's SHA-256 is stored.

use sea_orm::entity::prelude::*;

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "sessions")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    #[sea_orm(unique)]
    pub token_hash: String,
    pub csrf_token: String,
    pub created_at: ChronoDateTimeUtc,
    /// The absolute end, `LIFETIME` after log-in, however much the session is used.
    pub expires_at: ChronoDateTimeUtc,
    /// When the session was last seen (recorded at most about once a minute).
    pub last_used_at: ChronoDateTimeUtc,
    /// When the session ends unless it is used before: `last_used_at` plus the idle timeout
    /// it was opened with.
    pub idle_expires_at: ChronoDateTimeUtc,
}

impl ActiveModelBehavior for ActiveModel {}
