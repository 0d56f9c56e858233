//! Scanned upload: bytes stream into an uncommitted multipart object while clamd scans the same
//! chunks (or, for a finished resumable upload, are read back from its stored parts, which the
//! file then keeps); only a complete, clean upload that fits the quota is committed and made
//! visible.
//! Anything else (virus, scanner down, quota, cancelled stream, crash) leaves no blob, no
//! visible record and no storage charged: [`UploadGuard`] undoes the work on drop.

use bytes::Bytes;
use chrono::Utc;
use futures::Stream;
use quire_proto::ErrorCode;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, TransactionTrait, sea_query::Expr,
};

use super::{
    blobs, mime, names,
    receive::{self, Budget, check_size},
    upload_guard::{UploadGuard, insert_pending},
    upload_options::{LateOptions, download_limit, expiry},
};
use crate::{
    Core,
    auth::Caller,
    db::file::{self, STATE_COMMITTING, STATE_PENDING, STATE_READY},
    error::{ApiError, ApiResult},
    quota::storage,
    resumable,
    scan::{self, Verdict},
    shares::{self, Seal},
};

#[derive(Debug, Default)]
pub struct UploadMeta {
    pub filename: String,
    pub expires_in: Option<u64>,
    /// Full downloads the share link allows; `None`: no limit.
    pub max_downloads: Option<u64>,
    pub declared_size: Option<u64>,
    /// The resumable upload whose bytes these are: its reservation in the storage quota
    /// becomes the file's storage when the file is committed.
    pub reservation: Option<i64>,
    /// Set for an end-to-end encrypted share: the bytes are its ciphertext.
    pub share: Option<Seal>,
    /// The bytes are already stored, as the parts of the resumable upload `reservation`: the
    /// stream reads them back to be hashed, scanned and checked, and the file keeps them where
    /// they are instead of writing them again.
    pub stored_parts: Option<StoredParts>,
}

/// A resumable upload's parts: the prefix of their keys and their sizes, in order, and the
/// digest of their bytes when it was computed as they arrived.
#[derive(Debug, Default)]
pub struct StoredParts {
    pub prefix: String,
    pub sizes: Vec<u64>,
    pub digest: Option<String>,
}

/// What an upload stream carries after its metadata: chunks, then optionally options that
/// arrived after the bytes (a form field after the file part).
pub enum UploadPiece {
    Chunk(Bytes),
    Trailer(LateOptions),
}

pub async fn ingest<S>(
    core: &Core,
    caller: &Caller,
    meta: UploadMeta,
    chunks: S,
) -> ApiResult<file::Model>
where
    S: Stream<Item = ApiResult<UploadPiece>> + Send,
{
    let config = &core.config;
    let now = Utc::now();
    let (expires_in, max_downloads) = match meta.share {
        // A share always expires and is one-time unless its sender says otherwise.
        Some(_) => (
            Some(
                meta.expires_in
                    .unwrap_or(shares::DEFAULT_LIFETIME_SECS.min(config.max_expires_in)),
            ),
            Some(meta.max_downloads.unwrap_or(1)),
        ),
        None => (meta.expires_in, meta.max_downloads),
    };
    let expires_at = expiry(config.max_expires_in, expires_in)?;
    let max_downloads = download_limit(max_downloads)?;
    // Checked as bytes arrive so an oversized upload stops early; the reservation before the
    // commit is what actually enforces the quota under concurrency.
    let standing = storage::standing(&core.db, config, caller.account_id, meta.reservation).await?;
    let (headroom, quota) = (standing.room(), standing.quota);
    if let Some(size) = meta.declared_size {
        check_size(size, config.max_upload_size, headroom, quota)?;
    }

    let token = names::new_token();
    let (blob_key, blob_parts) = match &meta.stored_parts {
        Some(parts) => (
            parts.prefix.clone(),
            Some(blobs::encode_part_sizes(&parts.sizes)),
        ),
        None => (format!("files/{token}"), None),
    };
    let row = file::ActiveModel {
        token: Set(token),
        account_id: Set(caller.account_id),
        key_id: Set(caller.key_id),
        filename: Set(match meta.share {
            Some(_) => shares::FILENAME.to_owned(),
            None => names::sanitize_filename(&meta.filename),
        }),
        mime_type: Set("application/octet-stream".to_owned()),
        size: Set(0),
        digest: Set(String::new()),
        blob_key: Set(blob_key),
        blob_parts: Set(blob_parts),
        state: Set(STATE_PENDING.to_owned()),
        created_at: Set(now),
        expires_at: Set(expires_at),
        downloads: Set(0),
        max_downloads: Set(max_downloads),
        share_seal: Set(meta.share.as_ref().map(Seal::encode)),
        share_wrong_tries: Set(0),
        ..Default::default()
    };
    let mut guard = insert_pending(core, row).await?;
    // Errors clean up before the answer goes out; a dropped future relies on the guard's drop.
    let budget = Budget { headroom, quota };
    match store(core, caller, &meta, &mut guard, chunks, budget).await {
        Ok(stored) => {
            guard.armed = false;
            Ok(stored)
        }
        Err(err) => {
            guard.undo().await;
            Err(err)
        }
    }
}

/// Streams into the pending row's blob, scans, reserves storage and commits.
async fn store<S>(
    core: &Core,
    caller: &Caller,
    meta: &UploadMeta,
    guard: &mut UploadGuard,
    chunks: S,
    budget: Budget,
) -> ApiResult<file::Model>
where
    S: Stream<Item = ApiResult<UploadPiece>> + Send,
{
    let expires_at = guard.row.expires_at;
    // A share's ciphertext is noise to an antivirus: not scanned (docs/sharing.md says what
    // stands in for it: a logged-in sender, and a page that tells the recipient so).
    let scan = match &core.scanner {
        Some(scanner) if meta.share.is_none() => {
            Some(scanner.start().await.map_err(scan::unavailable)?)
        }
        _ => None,
    };
    if meta.stored_parts.is_none() {
        guard.writer = Some(core.store.writer(&guard.row.blob_key).await?);
    }

    let known_digest = meta.stored_parts.as_ref().and_then(|p| p.digest.as_deref());
    let received = match (&meta.stored_parts, scan) {
        // Nothing to scan and the digest known: only the head is read back.
        (
            Some(StoredParts {
                sizes,
                digest: Some(digest),
                ..
            }),
            None,
        ) => receive::stored(core, sizes, digest, chunks, budget).await?,
        (_, scan) => receive::stream(core, guard, (scan, known_digest), chunks, budget).await?,
    };
    if received.size == 0 {
        return Err(ApiError::new(
            ErrorCode::EmptyFile,
            "the file is empty: send a file with at least one byte",
        ));
    }
    if let Some(declared) = meta.declared_size
        && declared != received.size
    {
        return Err(ApiError::new(
            ErrorCode::SizeMismatch,
            format!(
                "the upload declared {declared} bytes but {} arrived: resend the whole file",
                received.size
            ),
        ));
    }
    if meta.share.is_some() {
        shares::layout::check(&received.head, received.size)?;
    }
    if let Some(scan) = received.scan {
        match scan.finish().await.map_err(scan::unavailable)? {
            Verdict::Clean => {}
            Verdict::Infected(signature) => {
                tracing::warn!(
                    signature,
                    account_id = caller.account_id,
                    "upload rejected by antivirus"
                );
                return Err(ApiError::new(
                    ErrorCode::VirusFound,
                    format!(
                        "the antivirus found {signature} in this file; it was not stored: upload a clean file"
                    ),
                ));
            }
        }
    }

    // Reserve the bytes and mark the row before the blob is committed, in one transaction:
    // after a crash from here on the sweeper finds a committing row and gives the bytes back.
    let txn = core.db.begin().await?;
    storage::reserve(
        &txn,
        &core.config,
        caller.account_id,
        received.size,
        meta.reservation,
    )
    .await?;
    file::Entity::update_many()
        .col_expr(file::Column::State, Expr::value(STATE_COMMITTING))
        .col_expr(file::Column::Size, Expr::value(received.size as i64))
        .filter(file::Column::Id.eq(guard.row.id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    guard.row.state = STATE_COMMITTING.to_owned();
    guard.row.size = received.size as i64;

    if let Some(writer) = guard.writer.take() {
        writer.finish().await?;
    }
    let mime_type = match meta.share {
        Some(_) => "application/octet-stream".to_owned(),
        None => mime::sniff(&received.head),
    };
    let expires_at = received.expires_at.or(expires_at);
    let max_downloads = received.max_downloads.or(guard.row.max_downloads);
    let txn = core.db.begin().await?;
    file::Entity::update_many()
        .col_expr(file::Column::State, Expr::value(STATE_READY))
        .col_expr(file::Column::ExpiresAt, Expr::value(expires_at))
        .col_expr(file::Column::MaxDownloads, Expr::value(max_downloads))
        .col_expr(file::Column::Digest, Expr::value(received.digest.as_str()))
        .col_expr(file::Column::MimeType, Expr::value(mime_type.as_str()))
        .filter(file::Column::Id.eq(guard.row.id))
        .exec(&txn)
        .await?;
    if let (Some(_), Some(upload_id)) = (&meta.stored_parts, meta.reservation) {
        resumable::hand_over_parts(&txn, upload_id).await?;
    }
    txn.commit().await?;
    Ok(file::Model {
        state: STATE_READY.to_owned(),
        size: received.size as i64,
        digest: received.digest,
        mime_type,
        expires_at,
        max_downloads,
        ..guard.row.clone()
    })
}
