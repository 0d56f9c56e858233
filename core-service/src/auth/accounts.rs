//! Account and key administration, shared by the admin CLI and the dashboard.

use chrono::{DateTime, Utc};
use quire_proto::ErrorCode;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, QueryFilter, QueryOrder, SqlErr, sea_query::Expr,
};

use super::{key, scope};
use crate::{
    db::{account, api_key},
    error::{ApiError, ApiResult},
    quota::Plan,
};

/// An account without a password (the admin CLI's): it cannot log in to the web interface.
pub async fn create_account(
    db: &DatabaseConnection,
    email: &str,
    plan: Plan,
) -> ApiResult<account::Model> {
    insert_account(db, email, plan, None).await
}

/// Creates an account, with its password hash when it has one, in one statement.
pub async fn insert_account(
    db: &impl ConnectionTrait,
    email: &str,
    plan: Plan,
    password_hash: Option<String>,
) -> ApiResult<account::Model> {
    let email = normalize_email(email)?;
    let taken = || {
        ApiError::new(
            ErrorCode::EmailTaken,
            format!("an account for {email} already exists: log in, or use another address"),
        )
    };
    if find_account(db, &email).await.is_ok() {
        return Err(taken());
    }
    let model = account::ActiveModel {
        email: Set(email.clone()),
        plan: Set(plan.as_str().to_owned()),
        usage_day: Set(0),
        calls_today: Set(0),
        calls_total: Set(0),
        storage_used: Set(0),
        created_at: Set(Utc::now()),
        password_hash: Set(password_hash),
        ..Default::default()
    };
    // Two sign-ups of one address at once: the second is refused by the unique index.
    model
        .insert(db)
        .await
        .map_err(|error| match error.sql_err() {
            Some(SqlErr::UniqueConstraintViolation(_)) => taken(),
            _ => error.into(),
        })
}

pub async fn set_plan(db: &DatabaseConnection, email: &str, plan: Plan) -> ApiResult<()> {
    let account = find_account(db, email).await?;
    account::Entity::update_many()
        .col_expr(account::Column::Plan, Expr::value(plan.as_str()))
        .filter(account::Column::Id.eq(account.id))
        .exec(db)
        .await?;
    Ok(())
}

pub async fn find_account(db: &impl ConnectionTrait, email: &str) -> ApiResult<account::Model> {
    let email = normalize_email(email)?;
    account::Entity::find()
        .filter(account::Column::Email.eq(email.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("no account for {email}")))
}

/// A key as shown once at creation: the only time the full key exists outside the client.
pub struct NewKey {
    pub id: i64,
    pub key: String,
    pub scopes: Vec<scope::Scope>,
}

pub async fn create_key(
    db: &DatabaseConnection,
    email: &str,
    name: &str,
    scopes: &str,
) -> ApiResult<NewKey> {
    let account = find_account(db, email).await?;
    create_key_for(db, account.id, name, scope::parse_list(scopes)?).await
}

/// Creates a key of the account `account_id`; `scopes` parsed already (at least one).
pub async fn create_key_for(
    db: &DatabaseConnection,
    account_id: i64,
    name: &str,
    scopes: Vec<scope::Scope>,
) -> ApiResult<NewKey> {
    let name = crate::files::names::visible_text(name);
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(ApiError::invalid(
            "a key name must have 1 to 100 characters",
        ));
    }
    let secret = key::generate();
    let model = api_key::ActiveModel {
        account_id: Set(account_id),
        name: Set(name.to_owned()),
        display_prefix: Set(key::display_prefix(&secret)),
        key_hash: Set(key::hash(&secret)),
        scopes: Set(scope::join(&scopes)),
        created_at: Set(Utc::now()),
        last_used_at: Set(None),
        revoked_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(NewKey {
        id: model.id,
        key: secret,
        scopes,
    })
}

pub async fn list_keys(db: &DatabaseConnection, email: &str) -> ApiResult<Vec<api_key::Model>> {
    let account = find_account(db, email).await?;
    list_keys_for(db, account.id).await
}

/// The account's keys, oldest first, revoked ones included.
pub async fn list_keys_for(
    db: &DatabaseConnection,
    account_id: i64,
) -> ApiResult<Vec<api_key::Model>> {
    Ok(api_key::Entity::find()
        .filter(api_key::Column::AccountId.eq(account_id))
        .order_by_asc(api_key::Column::Id)
        .all(db)
        .await?)
}

/// The account's key `key_id`; 404 when it does not exist or belongs to someone else (the
/// same answer, so ids of other accounts' keys cannot be probed).
pub async fn own_key(
    db: &DatabaseConnection,
    account_id: i64,
    key_id: i64,
) -> ApiResult<api_key::Model> {
    api_key::Entity::find_by_id(key_id)
        .filter(api_key::Column::AccountId.eq(account_id))
        .one(db)
        .await?
        .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("no API key with id {key_id}")))
}

/// Revokes a key; the next call made with it gets 401. Revoking twice keeps the first date.
pub async fn revoke_key(db: &DatabaseConnection, key_id: i64) -> ApiResult<DateTime<Utc>> {
    let key = api_key::Entity::find_by_id(key_id)
        .one(db)
        .await?
        .ok_or_else(|| {
            ApiError::new(ErrorCode::NotFound, format!("no API key with id {key_id}"))
        })?;
    if let Some(at) = key.revoked_at {
        return Ok(at);
    }
    let now = Utc::now();
    api_key::Entity::update_many()
        .col_expr(api_key::Column::RevokedAt, Expr::value(now))
        .filter(api_key::Column::Id.eq(key_id))
        .filter(api_key::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(now)
}

pub fn normalize_email(email: &str) -> ApiResult<String> {
    let email = email.trim().to_lowercase();
    let valid = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.')
        })
        && !email
            .chars()
            .any(|c| c.is_whitespace() || crate::files::names::is_hidden_control(c));
    if valid {
        Ok(email)
    } else {
        Err(ApiError::invalid(format!(
            "{email:?} is not an e-mail address"
        )))
    }
}
