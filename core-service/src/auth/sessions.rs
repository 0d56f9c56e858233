//! Browser sessions: an opaque random token (in an HttpOnly cookie on the edge), stored as its
//! SHA-256 with an expiry and a per-session anti-CSRF token. Logging out ends one session;
//! changing the password ends them all.

use chrono::{DateTime, Duration, Utc};
use quire_proto::ErrorCode;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter,
};

use super::key;
use crate::{
    db::{account, session},
    error::{ApiError, ApiResult},
};

/// How long a session lasts from log-in (no sliding renewal: log in again after that).
pub const LIFETIME: Duration = Duration::days(7);
const TOKEN_PREFIX: &str = "qs_";
const TOKEN_RANDOM_LEN: usize = 43;
const CSRF_LEN: usize = 32;

pub struct OpenedSession {
    pub token: String,
    pub csrf_token: String,
    pub expires_at: DateTime<Utc>,
}

pub async fn open(db: &DatabaseConnection, account_id: i64) -> ApiResult<OpenedSession> {
    let token = format!("{TOKEN_PREFIX}{}", key::random_base62(TOKEN_RANDOM_LEN));
    let csrf_token = key::random_base62(CSRF_LEN);
    let now = Utc::now();
    let expires_at = now + LIFETIME;
    session::ActiveModel {
        account_id: Set(account_id),
        token_hash: Set(key::hash(&token)),
        csrf_token: Set(csrf_token.clone()),
        created_at: Set(now),
        expires_at: Set(expires_at),
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

/// The live session for `token` and its account; 401 `invalid-session` for an unknown, ended
/// or expired one.
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
    let session = session::Entity::find()
        .filter(session::Column::TokenHash.eq(key::hash(token)))
        .one(db)
        .await?
        .filter(|s| s.expires_at > Utc::now())
        .ok_or_else(expired)?;
    let account = account::Entity::find_by_id(session.account_id)
        .one(db)
        .await?
        .ok_or_else(expired)?;
    Ok((session, account))
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

/// Deletes the sessions that expired before `now` (the sweeper's job); returns how many.
pub async fn purge_expired(db: &DatabaseConnection, now: DateTime<Utc>) -> ApiResult<u64> {
    Ok(session::Entity::delete_many()
        .filter(session::Column::ExpiresAt.lte(now))
        .exec(db)
        .await?
        .rows_affected)
}
