//! Storage quota: what an account stores in files plus what it holds beyond them (the declared
//! length of each unfinished resumable upload, the file of each kept idempotent answer) stays
//! within its plan's quota.
//!
//! Files are counted in `accounts.storage_used`; holdings are summed from their own rows, so a
//! holding goes away exactly when its row does (an upload finished, terminated or swept, an
//! answer expired) and nothing can drift. Every check that adds bytes first takes the account
//! row's lock in its transaction (a write to the row: PostgreSQL locks the row until the
//! commit, SQLite the whole database), then reads the sums: under READ COMMITTED each later
//! statement sees every transaction that held the lock before, so two requests can never both
//! fit in the last free bytes.

use chrono::{DateTime, Utc};
use quire_proto::ErrorCode;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, ExprTrait, QueryFilter,
    QuerySelect,
    sea_query::{Alias, CaseStatement, Expr, Func, FunctionCall},
};

use super::Plan;
use crate::{
    config::CoreConfig,
    db::{
        account, idempotency_key,
        resumable_upload::{self, STATE_STORING, STATES_RESERVING, STATES_UNFINISHED},
    },
    error::{ApiError, ApiResult},
};

/// What an account holds beyond its files. Expired holdings no longer count: the account can
/// no longer reach them, and the sweeper deletes their bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Unfinished resumable uploads: what the cap on open uploads counts.
    pub open_uploads: u64,
    /// The declared lengths of the unfinished uploads whose file is not stored yet.
    pub upload_bytes: u64,
    /// The files of kept idempotent answers.
    pub answer_bytes: u64,
}

impl Held {
    pub fn bytes(&self) -> u64 {
        self.upload_bytes.saturating_add(self.answer_bytes)
    }
}

/// An account's storage as one check sees it.
#[derive(Clone, Copy, Debug)]
pub struct Standing {
    pub plan: Plan,
    pub quota: u64,
    /// Bytes of its stored files.
    pub used: u64,
    pub held: Held,
}

impl Standing {
    /// Bytes that still fit.
    pub fn room(&self) -> u64 {
        self.quota
            .saturating_sub(self.used.saturating_add(self.held.bytes()))
    }

    /// The 413 for `bytes` that do not fit, with what takes the room.
    pub fn refuse(&self, bytes: u64) -> ApiError {
        let mut parts = vec![format!("{} in files", self.used)];
        if self.held.upload_bytes > 0 {
            parts.push(format!(
                "{} reserved by {} unfinished resumable upload(s)",
                self.held.upload_bytes, self.held.open_uploads
            ));
        }
        if self.held.answer_bytes > 0 {
            parts.push(format!(
                "{} in answers kept for Idempotency-Key retries",
                self.held.answer_bytes
            ));
        }
        let mut fixes = vec!["delete files you no longer need"];
        if self.held.upload_bytes > 0 {
            fixes.push("finish or terminate unfinished uploads (DELETE /api/tus/<id>)");
        }
        if self.plan == Plan::Free {
            fixes.push("upgrade to Pro");
        }
        refusal(format!(
            "storing {bytes} more bytes would exceed this account's storage quota of {} bytes \
             ({}): {}",
            self.quota,
            parts.join(", "),
            fixes.join(", or ")
        ))
    }
}

/// The account's standing without a lock: for checks that stop a request early. The check
/// that decides runs under [`lock`].
pub async fn standing(
    db: &impl ConnectionTrait,
    config: &CoreConfig,
    account_id: i64,
    except_upload: Option<i64>,
) -> ApiResult<Standing> {
    let account = account::Entity::find_by_id(account_id)
        .one(db)
        .await?
        .ok_or_else(|| vanished(account_id))?;
    read(db, config, &account, except_upload).await
}

/// Takes the account row's lock until `txn` ends, then reads its standing. Must be the
/// transaction's first statement: a SQLite transaction that read first cannot take the write
/// lock another writer holds (SQLITE_BUSY without waiting).
pub async fn lock(
    txn: &DatabaseTransaction,
    config: &CoreConfig,
    account_id: i64,
    except_upload: Option<i64>,
) -> ApiResult<Standing> {
    let locked = account::Entity::update_many()
        .col_expr(
            account::Column::StorageUsed,
            Expr::col(account::Column::StorageUsed),
        )
        .filter(account::Column::Id.eq(account_id))
        .exec_with_returning(txn)
        .await?;
    let account = locked
        .into_iter()
        .next()
        .ok_or_else(|| vanished(account_id))?;
    read(txn, config, &account, except_upload).await
}

async fn read(
    db: &impl ConnectionTrait,
    config: &CoreConfig,
    account: &account::Model,
    except_upload: Option<i64>,
) -> ApiResult<Standing> {
    let plan = Plan::parse(&account.plan)?;
    Ok(Standing {
        plan,
        quota: plan.storage_quota(config),
        used: u64::try_from(account.storage_used).unwrap_or(0),
        held: held(db, account.id, Utc::now(), except_upload).await?,
    })
}

/// What the account holds at `now`; `except_upload` is left out (the upload whose file is
/// being stored: its reservation becomes the file's storage).
pub async fn held(
    db: &impl ConnectionTrait,
    account_id: i64,
    now: DateTime<Utc>,
    except_upload: Option<i64>,
) -> ApiResult<Held> {
    use resumable_upload::Column as U;
    let reserving = CaseStatement::new()
        .case(
            Expr::col(U::State).is_in(STATES_RESERVING),
            Expr::col(U::Length),
        )
        .finally(Expr::val(0i64));
    let mut uploads = resumable_upload::Entity::find()
        .select_only()
        .column_as(Expr::from(Func::count(Expr::col(U::Id))), "open")
        .column_as(bigint(Func::sum(reserving)), "bytes")
        .filter(U::AccountId.eq(account_id))
        .filter(U::State.is_in(STATES_UNFINISHED))
        .filter(U::ExpiresAt.gt(now));
    if let Some(id) = except_upload {
        uploads = uploads.filter(U::Id.ne(id));
    }
    let (open, upload_bytes) = uploads
        .into_tuple::<(i64, Option<i64>)>()
        .one(db)
        .await?
        .unwrap_or_default();
    use idempotency_key::Column as K;
    let answer_bytes = idempotency_key::Entity::find()
        .select_only()
        .column_as(bigint(Func::sum(Expr::col(K::BodySize))), "bytes")
        .filter(K::AccountId.eq(account_id))
        .filter(K::ExpiresAt.gt(now))
        .into_tuple::<Option<i64>>()
        .one(db)
        .await?
        .flatten();
    let count = |n: Option<i64>| n.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
    Ok(Held {
        open_uploads: count(Some(open)),
        upload_bytes: count(upload_bytes),
        answer_bytes: count(answer_bytes),
    })
}

/// PostgreSQL sums BIGINTs as NUMERIC; both engines read a BIGINT back the same way.
fn bigint(sum: FunctionCall) -> Expr {
    Func::cast_as(sum, Alias::new("BIGINT")).into()
}

/// Adds `bytes` of a file being committed to the account's usage if they fit with what it
/// stores and holds; 413 otherwise. `converting` is the resumable upload this file finishes:
/// its reservation is left out of the check and ends in the same transaction (the upload turns
/// `storing`), so at no moment do both count, or neither. Takes the account's lock: call it
/// first in `txn`.
pub async fn reserve(
    txn: &DatabaseTransaction,
    config: &CoreConfig,
    account_id: i64,
    bytes: u64,
    converting: Option<i64>,
) -> ApiResult<()> {
    let standing = lock(txn, config, account_id, converting).await?;
    if bytes > standing.room() {
        return Err(standing.refuse(bytes));
    }
    account::Entity::update_many()
        .col_expr(
            account::Column::StorageUsed,
            Expr::col(account::Column::StorageUsed).add(bytes as i64),
        )
        .filter(account::Column::Id.eq(account_id))
        .exec(txn)
        .await?;
    if let Some(upload_id) = converting {
        resumable_upload::Entity::update_many()
            .col_expr(resumable_upload::Column::State, Expr::value(STATE_STORING))
            .filter(resumable_upload::Column::Id.eq(upload_id))
            .exec(txn)
            .await?;
    }
    Ok(())
}

/// The 413 when only the size and the quota are known (an early check as bytes arrive).
pub fn quota_exceeded(bytes: u64, quota: u64) -> ApiError {
    refusal(format!(
        "storing {bytes} more bytes would exceed this account's storage quota of {quota} bytes: \
         delete files you no longer need or upgrade to Pro"
    ))
}

fn refusal(detail: String) -> ApiError {
    metrics::counter!("quire_quota_refusals_total", "quota" => "storage").increment(1);
    ApiError::new(ErrorCode::StorageQuotaExceeded, detail)
}

fn vanished(account_id: i64) -> ApiError {
    ApiError::internal("storage quota", format!("account {account_id} vanished"))
}

/// Gives `bytes` back, never going below zero.
pub async fn release(db: &impl ConnectionTrait, account_id: i64, bytes: u64) -> ApiResult<()> {
    let bytes = bytes as i64;
    account::Entity::update_many()
        .col_expr(
            account::Column::StorageUsed,
            CaseStatement::new()
                .case(
                    Expr::col(account::Column::StorageUsed).gte(bytes),
                    Expr::col(account::Column::StorageUsed).sub(bytes),
                )
                .finally(Expr::val(0i64))
                .into(),
        )
        .filter(account::Column::Id.eq(account_id))
        .exec(db)
        .await?;
    Ok(())
}
