//! Resumable uploads (tus 1.0 at the edge): an upload of a known length arrives in appends
//! that may break off anywhere, and becomes a stored file through the same scanned, quota-
//! checked path as a plain upload once its last byte is in. Unfinished uploads go away with
//! their bytes after `QUIRE_RESUMABLE_TTL`.
//!
//! From its creation an unfinished upload reserves its declared length in the account's
//! storage quota (see `quota::storage`), and a plan allows only so many at once: the bytes a
//! client promised cannot be more than the room it has, however many uploads it opens. The
//! reservation becomes the file's storage when the file is stored, and ends with the upload's
//! row (terminated, refused, or swept after it expired).

mod append;
mod parts;
mod running_digest;

use chrono::Utc;
use quire_proto::{ErrorCode, v1};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QuerySelect,
    TransactionTrait,
};

use crate::{
    Core,
    auth::Caller,
    config::CoreConfig,
    db::{
        file,
        resumable_upload::{self, STATE_DONE, STATE_OPEN},
    },
    error::{ApiError, ApiResult},
    files::{self, names, upload_options},
    quota::{Plan, storage},
    shares::{self, Seal},
};
pub use append::{Appended, append};
pub(crate) use parts::hand_over as hand_over_parts;
pub(crate) use parts::prefix as parts_prefix;
pub use running_digest::RunningDigests;

/// Starts an upload of `length` bytes, refused at once when it could never be stored.
pub async fn create(
    core: &Core,
    caller: &Caller,
    length: u64,
    filename: &str,
    (expires_in, max_downloads): (Option<u64>, Option<u64>),
    share: Option<Seal>,
) -> ApiResult<resumable_upload::Model> {
    let config = &core.config;
    if length == 0 {
        return Err(ApiError::new(
            ErrorCode::EmptyFile,
            "Upload-Length is 0: a file needs at least one byte",
        ));
    }
    if length > config.max_upload_size {
        return Err(ApiError::new(
            ErrorCode::FileTooLarge,
            format!(
                "the upload is {length} bytes and the limit is {}: send a smaller file",
                config.max_upload_size
            ),
        ));
    }
    let expires_in = upload_options::lifetime(config.max_expires_in, expires_in)?;
    let max_downloads = upload_options::download_limit(max_downloads)?;
    // The account's lock is held from the check to the insert, so concurrent creations (and
    // files being stored) see each other's reservation: only as many fit as there is room.
    let txn = core.db.begin().await?;
    let standing = storage::lock(&txn, config, caller.account_id, None).await?;
    let cap = standing.plan.open_uploads(config);
    if standing.held.open_uploads >= cap {
        return Err(too_many_open(
            standing.held.open_uploads,
            cap,
            standing.plan,
            config,
        ));
    }
    if length > standing.room() {
        return Err(standing.refuse(length));
    }
    let now = Utc::now();
    let ttl = chrono::Duration::from_std(config.resumable_ttl()).unwrap_or_default();
    let row = resumable_upload::ActiveModel {
        token: Set(names::new_token()),
        account_id: Set(caller.account_id),
        filename: Set(match share {
            Some(_) => shares::FILENAME.to_owned(),
            None => names::sanitize_filename(filename),
        }),
        expires_in: Set(expires_in.map(|s| s as i64)),
        max_downloads: Set(max_downloads),
        share_seal: Set(share.as_ref().map(Seal::encode)),
        length: Set(length as i64),
        received: Set(0),
        parts: Set(0),
        state: Set(STATE_OPEN.to_owned()),
        appending_since: Set(None),
        file_token: Set(None),
        created_at: Set(now),
        expires_at: Set(now + ttl),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(row)
}

/// 429 when the account has as many unfinished uploads as its plan allows.
fn too_many_open(open: u64, cap: u64, plan: Plan, config: &CoreConfig) -> ApiError {
    ApiError::new(
        ErrorCode::TooManyOpenUploads,
        format!(
            "this account has {open} unfinished resumable uploads and the {} plan allows {cap} \
             at once: finish them (PATCH their remaining bytes) or terminate those you no longer \
             need (DELETE /api/tus/<id>, CancelResumableUpload over gRPC); unfinished uploads \
             also expire {} s after their creation",
            match plan {
                Plan::Free => "Free",
                Plan::Pro => "Pro",
            },
            config.resumable_ttl().as_secs()
        ),
    )
}

/// One of the account's uploads; another account's, or an expired one, is not found.
pub async fn find(core: &Core, account_id: i64, token: &str) -> ApiResult<resumable_upload::Model> {
    resumable_upload::Entity::find()
        .filter(resumable_upload::Column::Token.eq(token))
        .filter(resumable_upload::Column::AccountId.eq(account_id))
        .filter(resumable_upload::Column::ExpiresAt.gt(Utc::now()))
        .one(&core.db)
        .await?
        .ok_or_else(not_found)
}

fn not_found() -> ApiError {
    ApiError::new(
        ErrorCode::UploadNotFound,
        "no upload with this id in this account (unknown, cancelled, or expired): create a new one",
    )
}

/// Deletes an unfinished upload and its bytes; a finished one is the file's now (delete the
/// file instead).
pub async fn cancel(core: &Core, account_id: i64, token: &str) -> ApiResult<()> {
    let row = find(core, account_id, token).await?;
    if row.state == STATE_DONE {
        return Err(ApiError::new(
            ErrorCode::UploadIncomplete,
            "this upload is finished and stored as a file: delete the file instead",
        ));
    }
    forget(core, &row).await
}

async fn forget(core: &Core, row: &resumable_upload::Model) -> ApiResult<()> {
    core.running_digests.forget(&row.token);
    let deleted = resumable_upload::Entity::delete_by_id(row.id)
        .exec(&core.db)
        .await?;
    if deleted.rows_affected > 0 {
        parts::delete(core, &row.token, row.parts).await;
    }
    Ok(())
}

/// The public view; `file` once the upload is stored.
pub fn to_proto(
    row: &resumable_upload::Model,
    file: Option<&file::Model>,
    base_url: &str,
) -> v1::ResumableUpload {
    v1::ResumableUpload {
        id: row.token.clone(),
        offset: row.received.max(0) as u64,
        length: row.length.max(0) as u64,
        expires_at: Some(files::timestamp(row.expires_at)),
        file: file.map(|f| files::to_proto(f, base_url)),
    }
}

/// The stored file of a finished upload.
pub async fn stored_file(
    core: &Core,
    row: &resumable_upload::Model,
) -> ApiResult<Option<file::Model>> {
    let Some(token) = &row.file_token else {
        return Ok(None);
    };
    Ok(file::Entity::find()
        .filter(file::Column::Token.eq(token.as_str()))
        .filter(file::Column::State.eq(file::STATE_READY))
        .one(&core.db)
        .await?)
}

/// Deletes expired uploads with their bytes. Returns how many.
pub async fn sweep(core: &Core, now: chrono::DateTime<Utc>) -> ApiResult<usize> {
    let expired = resumable_upload::Entity::find()
        .filter(resumable_upload::Column::ExpiresAt.lte(now))
        .limit(500)
        .all(&core.db)
        .await?;
    for row in &expired {
        forget(core, row).await?;
    }
    Ok(expired.len())
}
