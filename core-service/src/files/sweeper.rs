//! Background sweeping: expired files, uploads a crash or a lost connection left unfinished,
//! blobs no row names (hourly), the account tables' dead rows (expired sessions, failed log-ins
//! that no longer count), expired idempotency keys with their kept answers, and expired
//! resumable uploads.

use std::time::Duration;

use chrono::Utc;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use super::remove::{remove, retire};
use crate::{
    Core, auth,
    db::file::{self, STATE_COMMITTING, STATE_GONE, STATE_PENDING, STATE_READY},
    error::ApiError,
    error::ApiResult,
    idempotency, resumable,
};

const BATCH: u64 = 500;

/// How often the store is listed for blobs no row names: a whole listing of a large bucket is
/// hundreds of requests, and such blobs only come from crashes and failed deletes.
const ORPHANS_EVERY: Duration = Duration::from_secs(3600);

/// Runs one sweep now and then one every `every`, until the task is dropped.
pub async fn run(core: Core, every: Duration) {
    let mut ticker = tokio::time::interval(every);
    let mut orphans_swept: Option<std::time::Instant> = None;
    loop {
        ticker.tick().await;
        if orphans_swept.is_none_or(|at| at.elapsed() >= ORPHANS_EVERY) {
            orphans_swept = Some(std::time::Instant::now());
            match super::orphans::sweep(&core, core.config.upload_timeout()).await {
                Ok(0) => {}
                Ok(blobs) => tracing::info!(blobs, "swept blobs no row names"),
                Err(error) => tracing::warn!(%error, "orphan blob sweep failed"),
            }
        }
        match sweep_once(&core).await {
            Ok((0, 0)) => {}
            Ok((expired, stale)) => tracing::info!(expired, stale, "swept files"),
            Err(error) => tracing::warn!(%error, "file sweep failed"),
        }
        if let Err(error) = sweep_accounts(&core).await {
            tracing::warn!(%error, "session sweep failed");
        }
        match idempotency::ledger::sweep(&core, Utc::now()).await {
            Ok(0) => {}
            Ok(keys) => tracing::info!(keys, "swept idempotency keys"),
            Err(error) => tracing::warn!(%error, "idempotency key sweep failed"),
        }
        match resumable::sweep(&core, Utc::now()).await {
            Ok(0) => {}
            Ok(uploads) => tracing::info!(uploads, "swept expired resumable uploads"),
            Err(error) => tracing::warn!(%error, "resumable upload sweep failed"),
        }
    }
}

/// Deletes expired sessions and failed log-ins older than the limit's window.
pub async fn sweep_accounts(core: &Core) -> ApiResult<(u64, u64)> {
    let now = Utc::now();
    let sessions = auth::sessions::purge_expired(&core.db, now).await?;
    let failures = auth::login_limit::purge_old(&core.db, now).await?;
    Ok((sessions, failures))
}

/// How long a used-up or expired link keeps answering 410 before it is forgotten (404).
const GONE_KEPT: chrono::Duration = chrono::Duration::days(30);

/// Retires expired files (blob and storage freed, the link answering 410), forgets links gone
/// for [`GONE_KEPT`], and removes unfinished uploads older than the upload timeout (younger
/// ones may still be streaming into another replica). Returns (expired, stale) counts.
pub async fn sweep_once(core: &Core) -> ApiResult<(usize, usize)> {
    let now = Utc::now();
    let forgotten = file::Entity::find()
        .filter(file::Column::State.eq(STATE_GONE))
        .filter(file::Column::ExpiresAt.lte(now - GONE_KEPT))
        .limit(BATCH)
        .all(&core.db)
        .await?;
    for row in &forgotten {
        remove(core, row).await?;
    }
    let expired = file::Entity::find()
        .filter(file::Column::State.eq(STATE_READY))
        .filter(file::Column::ExpiresAt.lte(now))
        .limit(BATCH)
        .all(&core.db)
        .await?;
    let stale_before =
        now - chrono::Duration::from_std(core.config.upload_timeout()).unwrap_or_default();
    let stale = file::Entity::find()
        .filter(file::Column::State.is_in([STATE_PENDING, STATE_COMMITTING]))
        .filter(file::Column::CreatedAt.lt(stale_before))
        .limit(BATCH)
        .all(&core.db)
        .await?;
    let mut counts = (0, 0);
    for row in &expired {
        counts.0 += usize::from(retire(core, row).await?);
    }
    for row in &stale {
        counts.1 += usize::from(remove(core, row).await?);
    }
    // Their rows are gone with the crash that left them, so half-written uploads (staging files,
    // open multipart uploads on S3) are swept apart.
    counts.1 += core
        .store
        .sweep_abandoned(core.config.upload_timeout())
        .await
        .map_err(|e| ApiError::internal("sweeping abandoned uploads", e))?;
    Ok(counts)
}
