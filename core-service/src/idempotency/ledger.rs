//! The `idempotency_keys` rows: claiming a key for a request, keeping its answer, and letting
//! the key go again when the request fails.

use chrono::{DateTime, Utc};
use quire_proto::ErrorCode;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, Condition, EntityTrait, QueryFilter,
    QuerySelect, SqlErr, TransactionTrait,
};

use crate::{
    Core,
    db::idempotency_key::{self, STATE_DONE, STATE_RUNNING},
    error::{ApiError, ApiResult},
    files::blobs::delete_blob,
    quota::{replicas, storage},
};

/// What a key's row says about the request that carries it.
pub enum Claim {
    /// The first request with this key: it runs, and its answer is kept through the lease.
    Fresh(Lease),
    /// A request with this key was answered before.
    Done(idempotency_key::Model),
}

/// Claims `key` for this account, or finds the answer kept under it. A key whose request is
/// still running gets 409; one whose row expired, or whose request's core went away (a dead
/// replica, or running past the longest a request may run), is claimed afresh.
pub async fn claim(core: &Core, account_id: i64, key: String) -> ApiResult<Claim> {
    let now = Utc::now();
    if let Some(row) = find(core, account_id, &key).await? {
        let abandoned = row.state == STATE_RUNNING
            && (row.created_at < now - lifetime(core) || on_dead_replica(core, &row, now).await?);
        if row.expires_at <= now || abandoned {
            forget(core, &row).await?;
        } else if row.state == STATE_DONE {
            return Ok(Claim::Done(row));
        } else {
            return Err(in_use());
        }
    }
    let expires_at =
        now + chrono::Duration::from_std(core.config.idempotency_ttl()).unwrap_or_default();
    let row = idempotency_key::ActiveModel {
        account_id: Set(account_id),
        key: Set(key),
        state: Set(STATE_RUNNING.to_owned()),
        fingerprint: Set(String::new()),
        response: Set(None),
        metadata: Set(String::new()),
        body_key: Set(None),
        body_size: Set(0),
        created_at: Set(now),
        expires_at: Set(expires_at),
        replica: Set(Some(core.replica.to_string())),
        ..Default::default()
    }
    .insert(&core.db)
    .await;
    match row {
        Ok(row) => Ok(Claim::Fresh(Lease {
            core: core.clone(),
            id: row.id,
            account_id,
            armed: true,
        })),
        // Another request with this key claimed it between the lookup and the insert.
        Err(err) if matches!(err.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            Err(in_use())
        }
        Err(err) => Err(err.into()),
    }
}

async fn find(
    core: &Core,
    account_id: i64,
    key: &str,
) -> ApiResult<Option<idempotency_key::Model>> {
    Ok(idempotency_key::Entity::find()
        .filter(idempotency_key::Column::AccountId.eq(account_id))
        .filter(idempotency_key::Column::Key.eq(key))
        .one(&core.db)
        .await?)
}

/// Whether the running row's request was on a replica that has died since (the rule that gives
/// its calls back: silent for `DEAD_AFTER`, the row at least that old).
async fn on_dead_replica(
    core: &Core,
    row: &idempotency_key::Model,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    match &row.replica {
        Some(replica) if **replica != *core.replica => Ok(row.created_at
            < replicas::dead_before(now)
            && !replicas::is_alive(&core.db, replica, now).await?),
        _ => Ok(false),
    }
}

fn lifetime(core: &Core) -> chrono::Duration {
    chrono::Duration::from_std(core.config.request_lifetime()).unwrap_or_default()
}

fn in_use() -> ApiError {
    ApiError::new(
        ErrorCode::IdempotencyKeyInUse,
        "a request with this Idempotency-Key is still running: wait for its answer, then \
         retry with the same key to get it",
    )
    .with_metadata("retry-after", 2)
}

/// Deletes a row (if it is still the one read) and the file answer it held.
async fn forget(core: &Core, row: &idempotency_key::Model) -> ApiResult<()> {
    let deleted = idempotency_key::Entity::delete_many()
        .filter(idempotency_key::Column::Id.eq(row.id))
        .filter(idempotency_key::Column::State.eq(row.state.as_str()))
        .exec(&core.db)
        .await?;
    if deleted.rows_affected > 0
        && let Some(body_key) = &row.body_key
    {
        delete_blob(core, body_key).await;
    }
    Ok(())
}

/// A claimed key while its request runs. Dropped without [`Lease::keep`] (the request failed
/// or was cancelled), it lets the key go, so a retry runs the request again.
pub struct Lease {
    core: Core,
    id: i64,
    pub account_id: i64,
    armed: bool,
}

/// The answer to keep under a key.
pub struct Kept {
    pub fingerprint: String,
    pub response: Vec<u8>,
    pub metadata: String,
    pub body_key: Option<String>,
    /// Bytes of the blob `body_key`: they count in the account's storage quota while kept.
    pub body_size: u64,
}

impl Lease {
    /// Keeps the answer. One with a file is kept only if the file fits the account's storage
    /// quota (413 otherwise, and the key is let go): checked under the account's lock, as
    /// every addition to its storage is.
    pub async fn keep(mut self, kept: Kept) -> ApiResult<()> {
        let Kept {
            fingerprint,
            response,
            metadata,
            body_key,
            body_size,
        } = kept;
        let row = idempotency_key::ActiveModel {
            id: sea_orm::ActiveValue::Unchanged(self.id),
            state: Set(STATE_DONE.to_owned()),
            fingerprint: Set(fingerprint),
            response: Set(Some(response)),
            metadata: Set(metadata),
            body_key: Set(body_key),
            body_size: Set(body_size as i64),
            ..Default::default()
        };
        if body_size == 0 {
            row.update(&self.core.db).await?;
        } else {
            let txn = self.core.db.begin().await?;
            let standing = storage::lock(&txn, &self.core.config, self.account_id, None).await?;
            if body_size > standing.room() {
                return Err(standing.refuse(body_size));
            }
            row.update(&txn).await?;
            txn.commit().await?;
        }
        self.armed = false;
        Ok(())
    }

    /// Lets the key go at once.
    pub async fn release(mut self) {
        self.armed = false;
        release(self.core.db.clone(), self.id).await;
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(release(self.core.db.clone(), self.id));
        }
    }
}

async fn release(db: sea_orm::DatabaseConnection, id: i64) {
    let released = idempotency_key::Entity::delete_many()
        .filter(idempotency_key::Column::Id.eq(id))
        .filter(idempotency_key::Column::State.eq(STATE_RUNNING))
        .exec(&db)
        .await;
    if let Err(error) = released {
        tracing::warn!(%error, id, "idempotency key not released");
    }
}

/// Deletes expired rows and rows left running by a core that went away. Returns how many.
pub async fn sweep(core: &Core, now: DateTime<Utc>) -> ApiResult<usize> {
    let expired = idempotency_key::Entity::find()
        .filter(
            Condition::any()
                .add(idempotency_key::Column::ExpiresAt.lte(now))
                .add(
                    Condition::all()
                        .add(idempotency_key::Column::State.eq(STATE_RUNNING))
                        .add(idempotency_key::Column::CreatedAt.lt(now - lifetime(core))),
                ),
        )
        .limit(500)
        .all(&core.db)
        .await?;
    for row in &expired {
        forget(core, row).await?;
    }
    Ok(expired.len())
}
