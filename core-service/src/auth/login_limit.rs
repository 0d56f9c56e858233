//! Backoff on wrong passwords, so that a password cannot be guessed by brute force and nobody
//! can lock its owner out. Failures count per (account, client address) pair and per client
//! address; once a subject has used its free failures, each further one doubles the wait before
//! the next try (1 s, 2 s, 4 s ... up to 15 min), answered 429 `too-many-login-attempts` with
//! Retry-After. An attacker's failures from their addresses slow down only those addresses:
//! the owner, from an address that failed little, logs in at once with the right password.
//! This is Auth0's and django-axes' counting per identifier and address, with Nextcloud's
//! exponential delay per address (attempts counted over 12 h) instead of a hard lock, as the
//! OWASP authentication cheat sheet advises (a lockout per account is a denial of service).
//!
//! Wrong current passwords on the password-change form count the same way, per account (only
//! someone holding one of its sessions can try) and per address. Sign-ups are limited per
//! address too, so Free accounts cannot be minted by a script to multiply the daily quota.
//! Events are rows of `login_failures`, by subject.

use chrono::{DateTime, Duration, Utc};
use quire_proto::{ErrorCode, metadata};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, sea_query::Expr,
};

use crate::{
    db::login_failure,
    error::{ApiError, ApiResult},
};

/// Failures older than this no longer count.
pub const FAILURE_WINDOW: Duration = Duration::hours(12);
/// The longest wait between two tries of one subject.
pub const MAX_DELAY: Duration = Duration::minutes(15);
/// Failures of one account from one address before the first wait (a few typos).
pub const FREE_PER_PAIR: u64 = 3;
/// Failures of one address, whatever account, before the first wait (several people behind
/// one NAT mistype too).
pub const FREE_PER_ADDRESS: u64 = 10;
/// Wrong current passwords of one account before the first wait.
pub const FREE_PER_CHANGE: u64 = 3;
pub const SIGN_UP_WINDOW: Duration = Duration::minutes(15);
pub const SIGN_UPS_PER_ADDRESS: u64 = 5;

/// One subject failures count for, and how many it may have before it waits.
pub struct Limit {
    subject: String,
    free: u64,
    /// What the subject is, for the refusal's words.
    what: &'static str,
}

fn address_subject(address: &str) -> String {
    // Callers always know an address; never let an empty one be a budget of its own.
    let address = if address.is_empty() {
        "unknown"
    } else {
        address
    };
    format!("address:{address}")
}

/// What a log-in attempt for `email` (normalized) from `address` counts for.
pub fn log_in_limits(email: &str, address: &str) -> [Limit; 2] {
    [
        Limit {
            // E-mail addresses hold no whitespace, so the pair's subject is unambiguous.
            subject: format!("pair:{} {email}", address_subject(address)),
            free: FREE_PER_PAIR,
            what: "this account from this address",
        },
        Limit {
            subject: address_subject(address),
            free: FREE_PER_ADDRESS,
            what: "this address",
        },
    ]
}

/// What a password change of account `account_id` from `address` counts for.
pub fn password_change_limits(account_id: i64, address: &str) -> [Limit; 2] {
    [
        Limit {
            subject: format!("change:{account_id}"),
            free: FREE_PER_CHANGE,
            what: "this account",
        },
        Limit {
            subject: address_subject(address),
            free: FREE_PER_ADDRESS,
            what: "this address",
        },
    ]
}

/// The wait after `failures` failures of a subject that has `free` free ones: none before,
/// then 1 s doubling with each failure, up to `MAX_DELAY`.
pub fn delay(failures: u64, free: u64) -> Duration {
    match failures.checked_sub(free) {
        None => Duration::zero(),
        Some(over) if over >= 20 => MAX_DELAY,
        Some(over) => Duration::seconds(1 << over).min(MAX_DELAY),
    }
}

/// A try counted before it is decided: its row per subject, recorded as a failure.
#[must_use = "a try that succeeds must be passed to `succeeded`"]
pub struct Try {
    rows: Vec<i64>,
}

/// Counts a try for every subject before the password is checked: its rows go in first, as
/// failures, and then only the failures recorded before them (by id) decide the wait. Tries
/// that arrive together, on one replica or several, each see those ahead of them, so a burst
/// of guesses gets no more free tries than guesses made one at a time; checking first and
/// recording after would let every try of the burst through. A try that must wait is forgotten
/// and refused: 429 `too-many-login-attempts` with Retry-After. A wrong password then leaves
/// the try's rows as its failures; the right one calls [`succeeded`].
pub async fn begin_try(
    db: &DatabaseConnection,
    limits: &[Limit],
    now: DateTime<Utc>,
) -> ApiResult<Try> {
    let mut rows = Vec::with_capacity(limits.len());
    for limit in limits {
        rows.push(insert(db, &limit.subject, now).await?);
    }
    let attempt = Try { rows };
    let mut longest: Option<(Duration, &Limit)> = None;
    for (limit, &row) in limits.iter().zip(&attempt.rows) {
        let earlier = login_failure::Entity::find()
            .filter(login_failure::Column::Subject.eq(limit.subject.as_str()))
            .filter(login_failure::Column::FailedAt.gt(now - FAILURE_WINDOW))
            .filter(login_failure::Column::Id.lt(row));
        let failures = earlier.clone().count(db).await?;
        let wait = delay(failures, limit.free);
        if wait.is_zero() {
            continue;
        }
        let Some(last) = earlier
            .order_by_desc(login_failure::Column::FailedAt)
            .one(db)
            .await?
        else {
            continue;
        };
        let left = last.failed_at + wait - now;
        if left > Duration::zero() && longest.is_none_or(|(l, _)| left > l) {
            longest = Some((left, limit));
        }
    }
    let Some((left, limit)) = longest else {
        return Ok(attempt);
    };
    forget(db, &attempt.rows).await?;
    // Whole seconds, rounded up: a client that waits that long is let in.
    let retry_after = (left.num_milliseconds() + 999) / 1000;
    Err(ApiError::new(
        ErrorCode::TooManyLoginAttempts,
        format!(
            "too many wrong passwords for {}: try again in {retry_after} s (each further failure doubles the wait)",
            limit.what
        ),
    )
    .with_metadata(metadata::RETRY_AFTER, retry_after))
}

/// After the right password: the try was no failure, and the first subject's failures (the
/// pair, or the account's password changes) are forgotten, so the owner's typos do not add up.
/// The address's stay: an attacker who owns one account must not reset their address's count
/// by logging in to it.
pub async fn succeeded(db: &DatabaseConnection, limits: &[Limit], attempt: Try) -> ApiResult<()> {
    forget(db, &attempt.rows).await?;
    if let Some(first) = limits.first() {
        login_failure::Entity::delete_many()
            .filter(login_failure::Column::Subject.eq(first.subject.as_str()))
            .exec(db)
            .await?;
    }
    Ok(())
}

async fn forget(db: &impl ConnectionTrait, rows: &[i64]) -> ApiResult<()> {
    login_failure::Entity::delete_many()
        .filter(login_failure::Column::Id.is_in(rows.iter().copied()))
        .exec(db)
        .await?;
    Ok(())
}

/// Records an event of `subject`; returns its row's id.
async fn insert(db: &impl ConnectionTrait, subject: &str, now: DateTime<Utc>) -> ApiResult<i64> {
    let row = login_failure::ActiveModel {
        subject: Set(subject.to_owned()),
        failed_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(row.id)
}

/// The subject a sign-up counts for: its address.
pub fn sign_up_subject(address: &str) -> String {
    let address = if address.is_empty() {
        "unknown"
    } else {
        address
    };
    format!("signup:{address}")
}

/// Counts a sign-up of the address, first, and then refuses it (429 `too-many-sign-ups` with
/// Retry-After, forgotten again) when the address made its sign-ups for the window before it:
/// as with log-in tries, sign-ups sent together each see those ahead of them, so a burst on
/// several replicas gets no more than the window allows. Returns the sign-up's row.
pub async fn take_sign_up(
    db: &DatabaseConnection,
    subject: &str,
    now: DateTime<Utc>,
) -> ApiResult<i64> {
    let row = insert(db, subject, now).await?;
    let earlier = login_failure::Entity::find()
        .filter(login_failure::Column::Subject.eq(subject))
        .filter(login_failure::Column::FailedAt.gt(now - SIGN_UP_WINDOW))
        .filter(login_failure::Column::Id.lt(row));
    if earlier.clone().count(db).await? < SIGN_UPS_PER_ADDRESS {
        return Ok(row);
    }
    forget(db, &[row]).await?;
    let oldest = earlier
        .order_by_asc(login_failure::Column::FailedAt)
        .one(db)
        .await?
        .map_or(now, |f| f.failed_at);
    let retry_after = ((oldest + SIGN_UP_WINDOW) - now).num_seconds().max(1);
    Err(ApiError::new(
        ErrorCode::TooManySignUps,
        format!(
            "too many accounts were created from this address lately: try again in {retry_after} s"
        ),
    )
    .with_metadata(metadata::RETRY_AFTER, retry_after))
}

/// Writes the sign-up's row again, in the transaction that may create the account, so that the
/// commit writes whether or not the address was new.
pub async fn touch_sign_up(
    db: &impl ConnectionTrait,
    row: i64,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    login_failure::Entity::update_many()
        .col_expr(login_failure::Column::FailedAt, Expr::value(now))
        .filter(login_failure::Column::Id.eq(row))
        .exec(db)
        .await?;
    Ok(())
}

/// Deletes events that no longer count (the sweeper's job); returns how many.
pub async fn purge_old(db: &DatabaseConnection, now: DateTime<Utc>) -> ApiResult<u64> {
    Ok(login_failure::Entity::delete_many()
        .filter(login_failure::Column::FailedAt.lte(now - FAILURE_WINDOW.max(SIGN_UP_WINDOW)))
        .exec(db)
        .await?
        .rows_affected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_after_the_free_failures_up_to_the_cap() {
        let waits: Vec<i64> = (0..8).map(|n| delay(n, 3).num_seconds()).collect();
        assert_eq!(waits, [0, 0, 0, 1, 2, 4, 8, 16]);
        assert_eq!(delay(13, 3), MAX_DELAY);
        assert_eq!(delay(u64::MAX, 3), MAX_DELAY);
        assert!(delay(9, 10).is_zero());
    }

    #[test]
    fn subjects_separate_the_pair_from_the_address() {
        let [pair, address] = log_in_limits("ada@example.com", "192.0.2.1");
        assert_eq!(pair.subject, "pair:address:192.0.2.1 ada@example.com");
        assert_eq!(address.subject, "address:192.0.2.1");
        let [_, unknown] = log_in_limits("ada@example.com", "");
        assert_eq!(unknown.subject, "address:unknown");
    }
}
