//! Browser sessions: an opaque random token (in an HttpOnly cookie on the edge), stored as its
//! SHA-256 with an expiry and a per-session anti-CSRF token. A session ends 7 days after log-in
//! (`LIFETIME`), or sooner when it goes unused for the idle timeout (QUIRE_SESSION_IDLE_TIMEOUT,
//! kept in the row it was opened with). Logging out ends one session; logging in and changing
//! the password give the browser a new one (new token, new anti-CSRF token), and a password
//! change ends all the others.

use chrono::{DateTime, Duration, Utc};
use quire_proto::ErrorCode;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, Condition, DatabaseConnection, EntityTrait,
    QueryFilter, sea_query::Expr,
};

use super::key;
use crate::{
    db::{account, session},
    error::{ApiError, ApiResult},
};

/// How long a session lasts from log-in at most, however much it is used.
pub const LIFETIME: Duration = Duration::days(7);
/// Last use is written at most this often, so a page with many requests costs no writes; a
/// short idle timeout (tests) is tracked more finely.
const TOUCH_EVERY: Duration = Duration::seconds(60);
const TOKEN_PREFIX: &str = "qs_";
const TOKEN_RANDOM_LEN: usize = 43;
const CSRF_LEN: usize = 32;

pub struct OpenedSession {
    pub token: String,
    pub csrf_token: String,
    pub expires_at: DateTime<Utc>,
}

/// Opens a session that ends after `idle` unused, and at most `LIFETIME` from now.
pub async fn open(
    db: &DatabaseConnection,
    account_id: i64,
    idle: std::time::Duration,
) -> ApiResult<OpenedSession> {
    let token = format!("{TOKEN_PREFIX}{}", key::random_base62(TOKEN_RANDOM_LEN));
    let csrf_token = key::random_base62(CSRF_LEN);
    let now = Utc::now();
    let expires_at = now + LIFETIME;
    let idle = Duration::from_std(idle).unwrap_or(LIFETIME).min(LIFETIME);
    session::ActiveModel {
        account_id: Set(account_id),
        token_hash: Set(key::hash(&token)),
        csrf_token: Set(csrf_token.clone()),
        created_at: Set(now),
        expires_at: Set(expires_at),
        last_used_at: Set(now),
        idle_expires_at: Set(now + idle),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(OpenedSession {
        token,
        csrf_token,
        expires_at,
    })
}

/// The live session for `token` and its account; 401 `invalid-session` for an unknown, ended,
/// expired or idle one. A use is recorded (moving the idle end on) when the last one recorded
/// is older than a minute.
pub async fn resolve(
    db: &DatabaseConnection,
    token: &str,
) -> ApiResult<(session::Model, account::Model)> {
    let expired = || {
        ApiError::new(
            ErrorCode::InvalidSession,
            "the session is unknown, ended or expired: log in again",
        )
    };
    let well_formed = token.strip_prefix(TOKEN_PREFIX).is_some_and(|rest| {
        rest.len() == TOKEN_RANDOM_LEN && rest.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    if !well_formed {
        return Err(expired());
    }
    let now = Utc::now();
    let session = session::Entity::find()
        .filter(session::Column::TokenHash.eq(key::hash(token)))
        .one(db)
        .await?
        .filter(|s| s.expires_at > now && s.idle_expires_at > now)
        .ok_or_else(expired)?;
    let account = account::Entity::find_by_id(session.account_id)
        .one(db)
        .await?
        .ok_or_else(expired)?;
    touch(db, &session, now).await?;
    Ok((session, account))
}

/// Records a use of `session` at `now` unless one was recorded lately: at most once a minute,
/// or once a tenth of the idle timeout when that is shorter.
async fn touch(
    db: &DatabaseConnection,
    session: &session::Model,
    now: DateTime<Utc>,
) -> ApiResult<()> {
    let idle = session.idle_expires_at - session.last_used_at;
    let every = TOUCH_EVERY.min(idle / 10);
    if now - session.last_used_at < every {
        return Ok(());
    }
    // Conditional, so concurrent requests of one page write once.
    session::Entity::update_many()
        .col_expr(session::Column::LastUsedAt, Expr::value(now))
        .col_expr(session::Column::IdleExpiresAt, Expr::value(now + idle))
        .filter(session::Column::Id.eq(session.id))
        .filter(session::Column::LastUsedAt.lte(now - every))
        .exec(db)
        .await?;
    Ok(())
}

pub async fn end(db: &DatabaseConnection, session_id: i64) -> ApiResult<()> {
    session::Entity::delete_by_id(session_id).exec(db).await?;
    Ok(())
}

/// Ends every session of the account.
pub async fn end_all(db: &DatabaseConnection, account_id: i64) -> ApiResult<()> {
    session::Entity::delete_many()
        .filter(session::Column::AccountId.eq(account_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Deletes the sessions that expired or went idle before `now` (the sweeper's job); returns
/// how many.
pub async fn purge_expired(db: &DatabaseConnection, now: DateTime<Utc>) -> ApiResult<u64> {
    Ok(session::Entity::delete_many()
        .filter(
            Condition::any()
                .add(session::Column::ExpiresAt.lte(now))
                .add(session::Column::IdleExpiresAt.lte(now)),
        )
        .exec(db)
        .await?
        .rows_affected)
}
