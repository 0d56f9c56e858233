//! `idempotency_keys`: the first answer to an `Idempotency-Key`, kept for retries.

use sea_orm::entity::prelude::*;

pub const STATE_RUNNING: &str = "running";
pub const STATE_DONE: &str = "done";

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_keys")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub account_id: i64,
    pub key: String,
    pub state: String,
    /// "<rpc>:<blake3 hex>" of the request as the core understood it; empty while running.
    pub fingerprint: String,
    /// The answer's message (protobuf), or its summary message for a file answer.
    pub response: Option<Vec<u8>>,
    /// The answer's metadata as a JSON object of ASCII values.
    pub metadata: String,
    /// The blob holding a file answer (compressed PDF, ZIP of pages).
    pub body_key: Option<String>,
    /// Bytes of the file answer's blob: they count in the account's storage quota while kept.
    pub body_size: i64,
    pub created_at: ChronoDateTimeUtc,
    pub expires_at: ChronoDateTimeUtc,
    /// The core replica that runs the first request (see `quota::replicas`); none on rows
    /// written before replicas were named.
    pub replica: Option<String>,
}

impl ActiveModelBehavior for ActiveModel {}
