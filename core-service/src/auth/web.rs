//! What a person does from the web: sign up, log in, change the password, and see their
//! account's usage. The API-key and file operations the dashboard offers are the ones in
//! `accounts` and `files`, so the pages and the admin CLI share their code.

use chrono::{DateTime, Utc};
use quire_proto::ErrorCode;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, sea_query::Expr};

use super::{
    accounts::{self, normalize_email},
    login_limit, password,
    sessions::{self, OpenedSession},
};
use crate::{
    config::CoreConfig,
    db::account,
    error::{ApiError, ApiResult},
    quota::{Plan, daily::day_number},
};

/// Creates a Free account with a password and opens its first session.
pub async fn sign_up(
    db: &DatabaseConnection,
    email: &str,
    new_password: &str,
    client_address: &str,
) -> ApiResult<(account::Model, OpenedSession)> {
    password::check_strength(new_password)?;
    let now = Utc::now();
    let limit = login_limit::sign_up_subject(client_address);
    if let Some(subject) = &limit {
        login_limit::check_sign_up(db, subject, now).await?;
    }
    let hash = password::hash(new_password).await?;
    let created = accounts::insert_account(db, email, Plan::Free, Some(hash)).await?;
    if let Some(subject) = limit {
        login_limit::record(db, &[subject], now).await?;
    }
    let session = sessions::open(db, created.id).await?;
    tracing::info!(account_id = created.id, "account signed up");
    Ok((created, session))
}

/// Checks the password and opens a session. Wrong e-mail and wrong password get the same
/// answer; failures are limited per account and per client address.
pub async fn log_in(
    db: &DatabaseConnection,
    email: &str,
    given_password: &str,
    client_address: &str,
) -> ApiResult<(account::Model, OpenedSession)> {
    let email = normalize_email(email).map_err(|_| wrong_credentials())?;
    let now = Utc::now();
    let subjects = login_limit::subjects(&email, client_address);
    login_limit::check(db, &subjects, now).await?;
    let account = account::Entity::find()
        .filter(account::Column::Email.eq(email.as_str()))
        .one(db)
        .await?;
    let stored = account.as_ref().and_then(|a| a.password_hash.clone());
    let Some(account) = account.filter(|_| stored.is_some()) else {
        password::verify(given_password, None).await;
        login_limit::record(db, &subjects, now).await?;
        return Err(wrong_credentials());
    };
    if !password::verify(given_password, stored).await {
        login_limit::record(db, &subjects, now).await?;
        tracing::info!(account_id = account.id, "failed login");
        return Err(wrong_credentials());
    }
    login_limit::clear_account(db, &email).await?;
    let session = sessions::open(db, account.id).await?;
    Ok((account, session))
}

fn wrong_credentials() -> ApiError {
    ApiError::new(
        ErrorCode::InvalidCredentials,
        "wrong e-mail or password: check both, or sign up if you have no account",
    )
}

/// Sets a new password after checking the current one, and ends every session.
pub async fn change_password(
    db: &DatabaseConnection,
    account: &account::Model,
    current: &str,
    new_password: &str,
) -> ApiResult<()> {
    if !password::verify(current, account.password_hash.clone()).await {
        return Err(ApiError::new(
            ErrorCode::InvalidCredentials,
            "the current password is wrong: the password was not changed",
        ));
    }
    password::check_strength(new_password)?;
    let hash = password::hash(new_password).await?;
    account::Entity::update_many()
        .col_expr(account::Column::PasswordHash, Expr::value(hash.as_str()))
        .filter(account::Column::Id.eq(account.id))
        .exec(db)
        .await?;
    sessions::end_all(db, account.id).await?;
    tracing::info!(account_id = account.id, "password changed, sessions ended");
    Ok(())
}

/// An account's plan and usage, as the dashboard shows it.
pub struct Usage {
    pub plan: Plan,
    pub calls_today: u64,
    pub daily_limit: Option<u64>,
    pub storage_used: u64,
    pub storage_quota: u64,
    pub created_at: DateTime<Utc>,
}

pub fn usage(
    config: &CoreConfig,
    account: &account::Model,
    now: DateTime<Utc>,
) -> ApiResult<Usage> {
    let plan = Plan::parse(&account.plan)?;
    // The counter belongs to the day it was last charged on; a new day starts at zero.
    let calls_today = if account.usage_day == day_number(now) {
        account.calls_today.max(0) as u64
    } else {
        0
    };
    Ok(Usage {
        plan,
        calls_today,
        daily_limit: plan.daily_calls(config),
        storage_used: account.storage_used.max(0) as u64,
        storage_quota: plan.storage_quota(config),
        created_at: account.created_at,
    })
}
