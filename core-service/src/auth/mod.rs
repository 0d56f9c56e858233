//! Who is calling and what they may do: API keys, scopes, accounts.

pub mod accounts;
pub mod key;
pub mod login_limit;
pub mod password;
pub mod scope;
pub mod sessions;
pub mod web;

use chrono::Utc;
use quire_proto::{ErrorCode, metadata::AUTHORIZATION};
use sea_orm::{
    ColumnTrait, DatabaseConnection, EntityTrait, ExprTrait, QueryFilter, sea_query::Expr,
};
use tonic::metadata::MetadataMap;

use crate::{
    db::{account, api_key},
    error::{ApiError, ApiResult},
    quota::Plan,
};
pub use scope::{Scope, ScopeRule};

/// An authenticated caller.
#[derive(Clone, Debug)]
pub struct Caller {
    pub account_id: i64,
    /// The API key the call came with; none for a browser session.
    pub key_id: Option<i64>,
    /// The browser session the call came with; none for an API key.
    pub session_id: Option<i64>,
    pub plan: Plan,
    pub scopes: Vec<Scope>,
}

const BEARER_HELP: &str = "send the header `Authorization: Bearer <API key>` with a key created \
                           from the dashboard or with `quire admin key create`";

/// Resolves the `authorization` metadata to a caller; 401 for a missing, malformed, unknown or
/// revoked key. Revocation is read from the database on every call, so it is immediate.
pub async fn authenticate(db: &DatabaseConnection, metadata: &MetadataMap) -> ApiResult<Caller> {
    let Some(header) = metadata.get(AUTHORIZATION) else {
        return Err(ApiError::new(
            ErrorCode::MissingApiKey,
            format!("no API key: {BEARER_HELP}"),
        ));
    };
    let header = header.to_str().unwrap_or_default();
    if let Some(token) = header.strip_prefix("Session ") {
        return session_caller(db, token.trim()).await;
    }
    let Some(token) = header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
    else {
        return Err(ApiError::new(
            ErrorCode::InvalidApiKey,
            format!("the Authorization header is not a Bearer token: {BEARER_HELP}"),
        ));
    };
    let token = token.trim();
    if !key::is_well_formed(token) {
        return Err(ApiError::new(
            ErrorCode::InvalidApiKey,
            format!(
                "malformed API key: keys start with `{}` followed by {} letters and digits",
                key::PREFIX,
                key::RANDOM_LEN
            ),
        ));
    }
    let key = api_key::Entity::find()
        .filter(api_key::Column::KeyHash.eq(key::hash(token)))
        .one(db)
        .await?;
    let account = match &key {
        Some(key) => account::Entity::find_by_id(key.account_id).one(db).await?,
        None => None,
    };
    let (Some(key), Some(account)) = (key, account) else {
        return Err(ApiError::new(
            ErrorCode::InvalidApiKey,
            "unknown API key: check that the whole key was copied, or create a new one",
        ));
    };
    if key.revoked_at.is_some() {
        return Err(ApiError::new(
            ErrorCode::RevokedApiKey,
            format!(
                "this API key ({}…) was revoked: create a new key",
                key.display_prefix
            ),
        ));
    }
    touch_last_used(db.clone(), key.id);
    Ok(Caller {
        account_id: account.id,
        key_id: Some(key.id),
        session_id: None,
        plan: Plan::parse(&account.plan)?,
        scopes: scope::parse_list(&key.scopes)?,
    })
}

/// A logged-in browser (`authorization: Session <token>`, sent by the edge from the session
/// cookie): the account's own calls, with every scope.
async fn session_caller(db: &DatabaseConnection, token: &str) -> ApiResult<Caller> {
    let (session, account) = sessions::resolve(db, token).await?;
    Ok(Caller {
        account_id: account.id,
        key_id: None,
        session_id: Some(session.id),
        plan: Plan::parse(&account.plan)?,
        scopes: Scope::ALL.to_vec(),
    })
}

/// A session call, for the AccountService methods that only a logged-in person may make.
pub async fn authenticate_session(
    db: &DatabaseConnection,
    metadata: &MetadataMap,
) -> ApiResult<(crate::db::session::Model, account::Model)> {
    let token = metadata
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Session "))
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidSession,
                "this call needs a logged-in session (`authorization: Session <token>`): log in first",
            )
        })?;
    sessions::resolve(db, token.trim()).await
}

/// Records when a key was last used, off the request path and at most once a minute, so that
/// a burst of calls does not queue behind writes of the same timestamp.
fn touch_last_used(db: DatabaseConnection, key_id: i64) {
    tokio::spawn(async move {
        let now = Utc::now();
        let result = api_key::Entity::update_many()
            .col_expr(api_key::Column::LastUsedAt, Expr::value(now))
            .filter(api_key::Column::Id.eq(key_id))
            .filter(
                api_key::Column::LastUsedAt
                    .is_null()
                    .or(api_key::Column::LastUsedAt.lt(now - chrono::Duration::seconds(60))),
            )
            .exec(&db)
            .await;
        if let Err(error) = result {
            tracing::warn!(%error, key_id, "could not record key use");
        }
    });
}

/// 403 unless the caller holds one of the scopes the rule accepts.
pub fn authorize(caller: &Caller, rule: ScopeRule) -> ApiResult<()> {
    if rule.accepts(&caller.scopes) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::MissingScope,
            format!(
                "this API key has scope(s) [{}] but this call needs {}: create a key with that scope",
                scope::join(&caller.scopes),
                rule.describe()
            ),
        ))
    }
}
