//! `files`: one stored upload. Only rows in state `ready` are visible to anyone.

use sea_orm::entity::prelude::*;

pub const STATE_PENDING: &str = "pending";
pub const STATE_COMMITTING: &str = "committing";
pub const STATE_READY: &str = "ready";
/// Used up or expired: the blob is deleted and the storage released; the row stays so that the
/// link answers 410 Gone, until the sweeper forgets it.
pub const STATE_GONE: &str = "gone";

#[sea_orm::model]
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "files")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub token: String,
    pub account_id: i64,
    pub key_id: Option<i64>,
    pub filename: String,
    pub mime_type: String,
    pub size: i64,
    /// "<algorithm>:<lowercase hex>" of the content: "blake3:…", or "sha256:…" for files stored
    /// before uploads switched to BLAKE3. Empty until the upload is committed.
    pub digest: String,
    pub blob_key: String,
    /// For a file kept as a resumable upload's parts (`<blob_key>/<index>`), their sizes in
    /// order, comma-separated; `None` for a file kept as one blob at `blob_key`.
    pub blob_parts: Option<String>,
    pub state: String,
    pub created_at: ChronoDateTimeUtc,
    pub expires_at: Option<ChronoDateTimeUtc>,
    pub downloads: i64,
    /// Full downloads the share link allows; `None`: no limit.
    pub max_downloads: Option<i64>,
    /// An end-to-end encrypted share's seal (see `shares::Seal`): `None` for a plain file.
    pub share_seal: Option<Vec<u8>>,
    /// Wrong proofs of the secret so far; the share is deleted at `shares::MAX_WRONG_TRIES`.
    pub share_wrong_tries: i32,
    /// The challenge a recipient may answer, once, until `share_nonce_expires_at`.
    pub share_nonce: Option<Vec<u8>>,
    pub share_nonce_expires_at: Option<ChronoDateTimeUtc>,
}

impl Model {
    /// Whether this is an end-to-end encrypted share rather than a plain file.
    pub fn is_share(&self) -> bool {
        self.share_seal.is_some()
    }

    /// Full downloads a limited link has left; `None` when there is no limit.
    pub fn downloads_left(&self) -> Option<u64> {
        self.max_downloads
            .map(|max| max.saturating_sub(self.downloads).max(0) as u64)
    }
}

impl ActiveModelBehavior for ActiveModel {}
