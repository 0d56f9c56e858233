//! Storage quota: bytes are reserved with one conditional UPDATE before a file is committed and
//! released when it fails, is deleted or expires.

use quire_proto::ErrorCode;
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, ExprTrait, QueryFilter,
    sea_query::{CaseStatement, Expr},
};

use crate::{
    db::account,
    error::{ApiError, ApiResult},
};

/// Adds `bytes` to the account's usage if it stays within `quota`; 413 otherwise.
pub async fn reserve(
    db: &impl ConnectionTrait,
    account_id: i64,
    bytes: u64,
    quota: u64,
) -> ApiResult<()> {
    let bytes = bytes as i64;
    let result = account::Entity::update_many()
        .col_expr(
            account::Column::StorageUsed,
            Expr::col(account::Column::StorageUsed).add(bytes),
        )
        .filter(account::Column::Id.eq(account_id))
        .filter(
            Expr::col(account::Column::StorageUsed)
                .add(bytes)
                .lte(quota as i64),
        )
        .exec(db)
        .await?;
    if result.rows_affected == 1 {
        Ok(())
    } else {
        Err(quota_exceeded(bytes as u64, quota))
    }
}

pub fn quota_exceeded(bytes: u64, quota: u64) -> ApiError {
    metrics::counter!("quire_quota_refusals_total", "quota" => "storage").increment(1);
    ApiError::new(
        ErrorCode::StorageQuotaExceeded,
        format!(
            "storing {bytes} more bytes would exceed this account's storage quota of {quota} bytes: \
             delete files you no longer need or upgrade to Pro"
        ),
    )
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
