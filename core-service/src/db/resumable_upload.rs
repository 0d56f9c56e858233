//! `resumable_uploads`: a tus upload in progress, or finished (then `file_token` is set).

use sea_orm::entity::prelude::*;

/// Waiting for its next append.
pub const STATE_OPEN: &str = "open";
/// An append is writing to it (since `appending_since`).
pub const STATE_APPENDING: &str = "appending";
/// Its last byte is in and the file is being stored: the upload's reservation became the
/// file's storage in the transaction that set this state.
pub const STATE_STORING: &str = "storing";
/// Stored as the file `file_token`.
pub const STATE_DONE: &str = "done";
/// The states of an upload that reserves its `length` in the storage quota and counts as open.
pub const STATES_RESERVING: [&str; 2] = [STATE_OPEN, STATE_APPENDING];
/// The states of an unfinished upload: what the cap on open uploads counts.
pub const STATES_UNFINISHED: [&str; 3] = [STATE_OPEN, STATE_APPENDING, STATE_STORING];

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "resumable_uploads")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub token: String,
    pub account_id: i64,
    pub filename: String,
    /// Lifetime of the stored file, in seconds.
    pub expires_in: Option<i64>,
    /// Full downloads the stored file's link allows; `None`: no limit.
    pub max_downloads: Option<i64>,
    /// The seal of the encrypted share the upload becomes; `None` for a plain file.
    pub share_seal: Option<Vec<u8>>,
    pub length: i64,
    /// Bytes received: the sum of the parts' sizes.
    pub received: i64,
    /// Blobs `resumable/<token>/<index>`, index 0 to parts - 1.
    pub parts: i32,
    pub state: String,
    pub appending_since: Option<ChronoDateTimeUtc>,
    pub file_token: Option<String>,
    pub created_at: ChronoDateTimeUtc,
    pub expires_at: ChronoDateTimeUtc,
}

impl ActiveModelBehavior for ActiveModel {}
