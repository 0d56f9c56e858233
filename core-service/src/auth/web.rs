//! What a person does from the web: sign up, log in, change the password, and see their
//! account's usage. The API-key and file operations the dashboard offers are the ones in
//! `accounts` and `files`, so the pages and the admin CLI share their code.

use chrono::{DateTime, Utc};
use quire_proto::ErrorCode;
use sea_orm::{
    ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, TransactionTrait, sea_query::Expr,
};

use super::{
    accounts::{self, normalize_email},
    login_limit, password,
    sessions::{self, OpenedSession},
};
use crate::{
    config::CoreConfig,
    db::account,
    error::{ApiError, ApiResult},
    quota::{Plan, daily::day_number, storage},
};

/// Creates a Free account with a password. The answer is the same whether the address was new
/// or already had an account, and takes as long (the password is hashed either way): no
/// session in either case, the person logs in next. So sign-up cannot be used to find out which
/// e-mail addresses have accounts; an attempt for an existing one changes nothing and counts
/// toward the address's sign-ups like any other.
pub async fn sign_up(
    db: &DatabaseConnection,
    email: &str,
    new_password: &str,
    client_address: &str,
) -> ApiResult<()> {
    let email = normalize_email(email)?;
    password::check_strength(new_password)?;
    let now = Utc::now();
    let subject = login_limit::sign_up_subject(client_address);
    let counted = login_limit::take_sign_up(db, &subject, now).await?;
    let hash = password::hash(new_password).await?;
    // One commit that writes either way (the sign-up touched, and the account when it is new),
    // so a known address does not answer sooner by skipping a write.
    let txn = db.begin().await?;
    login_limit::touch_sign_up(&txn, counted, now).await?;
    match accounts::insert_account(&txn, &email, Plan::Free, Some(hash)).await {
        Ok(created) => tracing::info!(account_id = created.id, "account signed up"),
        Err(error) if error.code == ErrorCode::EmailTaken => {
            tracing::info!("sign-up for an address that has an account, answered as for a new one")
        }
        Err(error) => return Err(error),
    }
    txn.commit().await?;
    Ok(())
}

/// Checks the password and opens a session that ends after `idle` unused. Wrong e-mail and
/// wrong password get the same answer; failures slow down further tries per (account, address)
/// pair and per address (`login_limit`), never the owner on another address.
pub async fn log_in(
    db: &DatabaseConnection,
    email: &str,
    given_password: &str,
    client_address: &str,
    idle: std::time::Duration,
) -> ApiResult<(account::Model, OpenedSession)> {
    let email = normalize_email(email).map_err(|_| wrong_credentials())?;
    let now = Utc::now();
    let limits = login_limit::log_in_limits(&email, client_address);
    let attempt = login_limit::begin_try(db, &limits, now).await?;
    let account = account::Entity::find()
        .filter(account::Column::Email.eq(email.as_str()))
        .one(db)
        .await?;
    let stored = account.as_ref().and_then(|a| a.password_hash.clone());
    let Some(account) = account.filter(|_| stored.is_some()) else {
        // The try's rows stay: they are its failure.
        password::verify(given_password, None).await;
        return Err(wrong_credentials());
    };
    if !password::verify(given_password, stored).await {
        tracing::info!(account_id = account.id, "failed login");
        return Err(wrong_credentials());
    }
    login_limit::succeeded(db, &limits, attempt).await?;
    let session = sessions::open(db, account.id, idle).await?;
    Ok((account, session))
}

fn wrong_credentials() -> ApiError {
    ApiError::new(
        ErrorCode::InvalidCredentials,
        "wrong e-mail or password: check both, or sign up if you have no account",
    )
}

/// Sets a new password after checking the current one (wrong ones slow down further tries per
/// account and per address, as log-ins do), ends every session of the account and opens a new
/// one for the browser that made the change: whoever held a session, this browser's old token
/// and its anti-CSRF token included, is out.
pub async fn change_password(
    db: &DatabaseConnection,
    account: &account::Model,
    current: &str,
    new_password: &str,
    client_address: &str,
    idle: std::time::Duration,
) -> ApiResult<OpenedSession> {
    let now = Utc::now();
    let limits = login_limit::password_change_limits(account.id, client_address);
    let attempt = login_limit::begin_try(db, &limits, now).await?;
    if !password::verify(current, account.password_hash.clone()).await {
        tracing::info!(account_id = account.id, "wrong current password");
        return Err(ApiError::new(
            ErrorCode::InvalidCredentials,
            "the current password is wrong: the password was not changed",
        ));
    }
    login_limit::succeeded(db, &limits, attempt).await?;
    password::check_strength(new_password)?;
    let hash = password::hash(new_password).await?;
    account::Entity::update_many()
        .col_expr(account::Column::PasswordHash, Expr::value(hash.as_str()))
        .filter(account::Column::Id.eq(account.id))
        .exec(db)
        .await?;
    sessions::end_all(db, account.id).await?;
    let session = sessions::open(db, account.id, idle).await?;
    tracing::info!(
        account_id = account.id,
        "password changed, other sessions ended"
    );
    Ok(session)
}

/// An account's plan and usage, as the dashboard shows it.
pub struct Usage {
    pub plan: Plan,
    pub calls_today: u64,
    pub daily_limit: Option<u64>,
    /// What counts against the quota: the stored files and `storage_reserved`.
    pub storage_used: u64,
    /// Of `storage_used`, the bytes reserved by unfinished resumable uploads and held by
    /// answers kept for Idempotency-Key retries.
    pub storage_reserved: u64,
    pub storage_quota: u64,
    pub created_at: DateTime<Utc>,
}

pub async fn usage(
    db: &DatabaseConnection,
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
    let reserved = storage::held(db, account.id, now, None).await?.bytes();
    Ok(Usage {
        plan,
        calls_today,
        daily_limit: plan.daily_calls(config),
        storage_used: (account.storage_used.max(0) as u64).saturating_add(reserved),
        storage_reserved: reserved,
        storage_quota: plan.storage_quota(config),
        created_at: account.created_at,
    })
}
