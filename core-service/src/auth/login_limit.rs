//! Limits on failed logins, so a password cannot be guessed by brute force: per account
//! (whoever tries) and per client address (whatever account it tries). Failures are rows
//! counted over a sliding window; a successful login clears its account's failures.

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
        let recent = login_failure::Entity::find()
            .filter(login_failure::Column::Subject.eq(subject.as_str()))
            .filter(login_failure::Column::FailedAt.gt(now - WINDOW));
        if recent.clone().count(db).await? < *limit {
            continue;
        }
        let oldest = recent
            .order_by_asc(login_failure::Column::FailedAt)
            .one(db)
            .await?
            .map_or(now, |f| f.failed_at);
        let retry_after = ((oldest + WINDOW) - now).num_seconds().max(1);
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

pub async fn record_failure(
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
