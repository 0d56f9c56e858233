//! Limits on failed logins, so a password cannot be guessed by brute force: per account
//! (whoever tries) and per client address (whatever account it tries); and on sign-ups per
//! address, so Free accounts cannot be minted by a script to multiply the daily quota. Events
//! are rows (`login_failures`, by subject) counted over a sliding window; a successful login
//! clears its account's failures.

use chrono::{DateTime, Duration, Utc};
use quire_proto::{ErrorCode, metadata};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder,
};

use crate::{
    db::login_failure,
    error::{ApiError, ApiResult},
};

pub const WINDOW: Duration = Duration::minutes(15);
pub const PER_ACCOUNT: u64 = 5;
pub const PER_ADDRESS: u64 = 20;
pub const SIGN_UPS_PER_ADDRESS: u64 = 5;

/// The subjects one attempt counts for: the account, and the address when known.
pub fn subjects(email: &str, address: &str) -> Vec<(String, u64)> {
    let mut subjects = vec![(format!("account:{email}"), PER_ACCOUNT)];
    if !address.is_empty() {
        subjects.push((format!("address:{address}"), PER_ADDRESS));
    }
    subjects
}

/// 429 `too-many-login-attempts` with Retry-After when a subject used up its failures.
pub async fn check(
    db: &DatabaseConnection,
    subjects: &[(String, u64)],
    now: DateTime<Utc>,
) -> ApiResult<()> {
    for (subject, limit) in subjects {
        let Some(retry_after) = exhausted(db, subject, *limit, now).await? else {
            continue;
        };
        let what = if subject.starts_with("account:") {
            "this account"
        } else {
            "this address"
        };
        return Err(ApiError::new(
            ErrorCode::TooManyLoginAttempts,
            format!(
                "too many failed logins for {what}: try again in {retry_after} s, or reset the password"
            ),
        )
        .with_metadata(metadata::RETRY_AFTER, retry_after));
    }
    Ok(())
}

/// The subject a sign-up counts for: its address (none when unknown).
pub fn sign_up_subject(address: &str) -> Option<(String, u64)> {
    (!address.is_empty()).then(|| (format!("signup:{address}"), SIGN_UPS_PER_ADDRESS))
}

/// 429 `too-many-sign-ups` with Retry-After when the address made its sign-ups for the window.
pub async fn check_sign_up(
    db: &DatabaseConnection,
    subject: &(String, u64),
    now: DateTime<Utc>,
) -> ApiResult<()> {
    match exhausted(db, &subject.0, subject.1, now).await? {
        None => Ok(()),
        Some(retry_after) => Err(ApiError::new(
            ErrorCode::TooManySignUps,
            format!(
                "too many accounts were created from this address lately: try again in {retry_after} s"
            ),
        )
        .with_metadata(metadata::RETRY_AFTER, retry_after)),
    }
}

/// Seconds until `subject` has room again, when its events in the window reached `limit`.
async fn exhausted(
    db: &DatabaseConnection,
    subject: &str,
    limit: u64,
    now: DateTime<Utc>,
) -> ApiResult<Option<i64>> {
    let recent = login_failure::Entity::find()
        .filter(login_failure::Column::Subject.eq(subject))
        .filter(login_failure::Column::FailedAt.gt(now - WINDOW));
    if recent.clone().count(db).await? < limit {
        return Ok(None);
    }
    let oldest = recent
        .order_by_asc(login_failure::Column::FailedAt)
        .one(db)
        .await?
        .map_or(now, |f| f.failed_at);
    Ok(Some(((oldest + WINDOW) - now).num_seconds().max(1)))
}

/// Records one event (a failed login, a sign-up) for each subject.
pub async fn record(
    db: &DatabaseConnection,
    subjects: &[(String, u64)],
    now: DateTime<Utc>,
) -> ApiResult<()> {
    for (subject, _) in subjects {
        login_failure::ActiveModel {
            subject: Set(subject.clone()),
            failed_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(())
}

/// Deletes failures that no longer count (the sweeper's job); returns how many.
pub async fn purge_old(db: &DatabaseConnection, now: DateTime<Utc>) -> ApiResult<u64> {
    Ok(login_failure::Entity::delete_many()
        .filter(login_failure::Column::FailedAt.lte(now - WINDOW))
        .exec(db)
        .await?
        .rows_affected)
}

pub async fn clear_account(db: &DatabaseConnection, email: &str) -> ApiResult<()> {
    login_failure::Entity::delete_many()
        .filter(login_failure::Column::Subject.eq(format!("account:{email}")))
        .exec(db)
        .await?;
    Ok(())
}
