//! One append: hold the upload (one append at a time, from the offset the server has), store
//! the bytes that arrive as a new part, and when the last byte is in, store the file.

use bytes::Bytes;
use chrono::Utc;
use futures::{Stream, StreamExt};
use quire_proto::ErrorCode;
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, sea_query::Expr};

use super::{find, forget, parts, stored_file};
use crate::{
    Core,
    auth::Caller,
    db::{
        file,
        resumable_upload::{self, Column, STATE_APPENDING, STATE_DONE, STATE_OPEN, STATE_STORING},
    },
    error::{ApiError, ApiResult},
    files::{
        tee::digest_text,
        upload::{self, StoredParts, UploadMeta, UploadPiece},
    },
    quota::{self, RateLimit},
    shares::Seal,
};

pub struct Appended {
    pub upload: resumable_upload::Model,
    /// The stored file, when this append brought the last byte (or the upload was done).
    pub file: Option<file::Model>,
    /// The daily call counted for the file, on the append that stored it.
    pub rate_limit: Option<RateLimit>,
}

/// Appends `chunks` at `offset`. The work runs on its own task: when the caller goes away
/// mid-append the bytes that arrived are kept all the same, and a last byte still becomes
/// the file.
pub async fn append<S>(
    core: &Core,
    caller: &Caller,
    token: &str,
    offset: u64,
    chunks: S,
) -> ApiResult<Appended>
where
    S: Stream<Item = ApiResult<Bytes>> + Send + 'static,
{
    let row = find(core, caller.account_id, token).await?;
    if row.state == STATE_DONE {
        // A client that lost the answer to its last append asks again with the full length.
        if offset == row.length as u64 {
            let file = stored_file(core, &row).await?;
            return Ok(Appended {
                upload: row,
                file,
                rate_limit: None,
            });
        }
        return Err(mismatch(&row, offset));
    }
    hold(core, &row, offset).await?;
    let task = tokio::spawn({
        let (core, caller) = (core.clone(), caller.clone());
        async move { write_then_complete(&core, &caller, row, chunks).await }
    });
    task.await
        .map_err(|e| ApiError::internal("appending to an upload", e))?
}

/// Marks the upload as held by this append, if it is at `offset` and no live append holds it.
/// An append (or a storing) older than the upload timeout belongs to a core that went away.
async fn hold(core: &Core, row: &resumable_upload::Model, offset: u64) -> ApiResult<()> {
    let now = Utc::now();
    let stale = now - chrono::Duration::from_std(core.config.upload_timeout()).unwrap_or_default();
    let held = resumable_upload::Entity::update_many()
        .col_expr(Column::State, Expr::value(STATE_APPENDING))
        .col_expr(Column::AppendingSince, Expr::value(now))
        .filter(Column::Id.eq(row.id))
        .filter(Column::Received.eq(offset as i64))
        .filter(
            Condition::any().add(Column::State.eq(STATE_OPEN)).add(
                Condition::all()
                    .add(Column::State.is_in([STATE_APPENDING, STATE_STORING]))
                    .add(Column::AppendingSince.lt(stale)),
            ),
        )
        .exec(&core.db)
        .await?;
    if held.rows_affected == 1 {
        return Ok(());
    }
    if row.received as u64 != offset {
        return Err(mismatch(row, offset));
    }
    Err(ApiError::new(
        ErrorCode::UploadOffsetMismatch,
        "another request is appending to this upload: wait for it to end, then resume from \
         the offset the upload reports (HEAD)",
    )
    .with_metadata("retry-after", 1))
}

fn mismatch(row: &resumable_upload::Model, offset: u64) -> ApiError {
    ApiError::new(
        ErrorCode::UploadOffsetMismatch,
        format!(
            "the upload holds {} of {} bytes, not {offset}: resume from offset {} (HEAD reports it)",
            row.received, row.length, row.received
        ),
    )
}

async fn write_then_complete<S>(
    core: &Core,
    caller: &Caller,
    mut row: resumable_upload::Model,
    chunks: S,
) -> ApiResult<Appended>
where
    S: Stream<Item = ApiResult<Bytes>> + Send,
{
    let room = (row.length - row.received).max(0) as u64;
    let digest = core
        .running_digests
        .take(&row.token, row.received as u64, row.parts);
    let written = match parts::write(core, &row.token, (row.parts, room), digest, chunks).await {
        Ok(written) => written,
        Err(err) => {
            save(core, &row, Hold::Release).await?;
            return Err(err);
        }
    };
    row.received += written.size as i64;
    row.parts += i32::from(written.size > 0);
    if row.received == row.length {
        // The completion goes on holding the upload, so no other append can store it twice.
        save(core, &row, Hold::Keep).await?;
        return store_file(core, caller, row, written.digest).await;
    }
    keep_digest(core, &row, written.digest);
    save(core, &row, Hold::Release).await?;
    row.state = STATE_OPEN.to_owned();
    match written.broke_off {
        Some(err) => Err(err),
        None => Ok(Appended {
            upload: row,
            file: None,
            rate_limit: None,
        }),
    }
}

/// Keeps the digest of the upload's bytes so far for its next append.
fn keep_digest(core: &Core, row: &resumable_upload::Model, digest: Option<blake3::Hasher>) {
    if let Some(digest) = digest {
        let received = row.received as u64;
        core.running_digests
            .keep(&row.token, received, row.parts, digest);
    }
}

/// Whether an append lets the upload go when it saves its progress.
enum Hold {
    Keep,
    Release,
}

/// Saves received and parts as `row` has them, letting the upload go or not.
async fn save(core: &Core, row: &resumable_upload::Model, hold: Hold) -> ApiResult<()> {
    let mut update = resumable_upload::Entity::update_many()
        .col_expr(Column::Received, Expr::value(row.received))
        .col_expr(Column::Parts, Expr::value(row.parts));
    if let Hold::Release = hold {
        update = update
            .col_expr(Column::State, Expr::value(STATE_OPEN))
            .col_expr(
                Column::AppendingSince,
                Expr::value(Option::<chrono::DateTime<Utc>>::None),
            );
    }
    update.filter(Column::Id.eq(row.id)).exec(&core.db).await?;
    Ok(())
}

/// The last byte is in: count the call, then store the file through the plain upload's path
/// (scan, storage quota, commit), which keeps the parts where they are as the file's bytes. A
/// refusal that may pass later (daily quota, scanner down) keeps the bytes for a retry (an
/// empty append at the full length); any other removes them. `digest`: that of all the bytes,
/// when this replica saw every append.
async fn store_file(
    core: &Core,
    caller: &Caller,
    row: resumable_upload::Model,
    digest: Option<blake3::Hasher>,
) -> ApiResult<Appended> {
    let (file, rate_limit) = match charge_and_store(core, caller, &row, digest.as_ref()).await {
        Ok(stored) => stored,
        Err(err) => {
            if matches!(
                err.code,
                ErrorCode::DailyQuotaExceeded | ErrorCode::ScannerUnavailable | ErrorCode::Internal
            ) {
                keep_digest(core, &row, digest);
                save(core, &row, Hold::Release).await?;
            } else {
                forget(core, &row).await?;
            }
            return Err(err);
        }
    };
    resumable_upload::Entity::update_many()
        .col_expr(Column::State, Expr::value(STATE_DONE))
        .col_expr(Column::FileToken, Expr::value(file.token.clone()))
        .col_expr(Column::Parts, Expr::value(0))
        .col_expr(
            Column::AppendingSince,
            Expr::value(Option::<chrono::DateTime<Utc>>::None),
        )
        .filter(Column::Id.eq(row.id))
        .exec(&core.db)
        .await?;
    let upload = resumable_upload::Model {
        state: STATE_DONE.to_owned(),
        file_token: Some(file.token.clone()),
        parts: 0,
        ..row
    };
    Ok(Appended {
        upload,
        file: Some(file),
        rate_limit,
    })
}

async fn charge_and_store(
    core: &Core,
    caller: &Caller,
    row: &resumable_upload::Model,
    digest: Option<&blake3::Hasher>,
) -> ApiResult<(file::Model, Option<RateLimit>)> {
    let sizes = parts::sizes(core, &row.token, row.parts).await?;
    let cap = caller.plan.daily_calls(&core.config);
    let quota::Charged { rate_limit, ticket } =
        quota::charge_call(&core.db, &core.replica, caller.account_id, cap, Utc::now()).await?;
    let meta = UploadMeta {
        filename: row.filename.clone(),
        expires_in: row.expires_in.map(|s| s.max(0) as u64),
        max_downloads: row.max_downloads.map(|n| n.max(0) as u64),
        declared_size: Some(row.length as u64),
        reservation: Some(row.id),
        share: row.share_seal.as_deref().and_then(Seal::decode),
        stored_parts: Some(StoredParts {
            prefix: parts::prefix(&row.token),
            sizes,
            digest: digest.map(digest_text),
        }),
    };
    let pieces = parts::read(core, &row.token, row.parts).map(|c| c.map(UploadPiece::Chunk));
    match upload::ingest(core, caller, meta, pieces).await {
        Ok(file) => Ok((file, rate_limit)),
        Err(err) => {
            ticket.fail(err.code).await;
            Err(err)
        }
    }
}
