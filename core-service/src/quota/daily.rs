//! Daily call counting: one conditional UPDATE per call, so concurrent calls and several core
//! replicas on one database can never overshoot the cap.

use chrono::{DateTime, Utc};
use quire_proto::{ErrorCode, metadata};
use sea_orm::{
    ColumnTrait, DatabaseConnection, EntityTrait, ExprTrait, QueryFilter, TransactionTrait,
    sea_query::{CaseStatement, Expr},
};
use tonic::metadata::{MetadataMap, MetadataValue};

use super::in_flight::{self, Ticket};
use crate::{
    db::account,
    error::{ApiError, ApiResult},
};

/// A call just counted: its figures for the answer, and its ticket until it ends.
pub struct Charged {
    pub rate_limit: Option<RateLimit>,
    pub ticket: Ticket,
}

/// Rate-limit figures of a Free-plan call, sent back as metadata and HTTP headers.
#[derive(Clone, Copy, Debug)]
pub struct RateLimit {
    pub limit: u64,
    /// Calls left today after this one.
    pub remaining: u64,
    /// Next UTC midnight, in seconds since the epoch.
    pub reset: i64,
}

/// The policy's name in the IETF fields: one quota, per UTC day.
const POLICY: &str = "\"daily\"";

impl RateLimit {
    /// GitHub's `X-RateLimit-*` trio and the IETF draft's `RateLimit-Policy` and `RateLimit`
    /// (structured fields: quota `q` over a window `w` of seconds; `r` left, reset in `t`
    /// seconds), so that clients of either convention can pace themselves.
    pub fn write_to(&self, map: &mut MetadataMap) {
        let until_reset = std::cmp::max(self.reset - Utc::now().timestamp(), 0);
        for (key, value) in [
            (metadata::RATELIMIT_LIMIT, self.limit.to_string()),
            (metadata::RATELIMIT_REMAINING, self.remaining.to_string()),
            (metadata::RATELIMIT_RESET, self.reset.to_string()),
            (
                metadata::RATELIMIT_POLICY,
                format!("{POLICY};q={};w=86400", self.limit),
            ),
            (
                metadata::RATELIMIT,
                format!("{POLICY};r={};t={until_reset}", self.remaining),
            ),
        ] {
            if let Ok(value) = MetadataValue::try_from(value) {
                map.insert(key, value);
            }
        }
    }
}

/// Days since 1970-01-01 in UTC: the unit the counter resets on.
pub fn day_number(now: DateTime<Utc>) -> i64 {
    now.timestamp().div_euclid(86_400)
}

fn next_midnight(now: DateTime<Utc>) -> i64 {
    (day_number(now) + 1) * 86_400
}

/// Counts one call for the account, on `replica`. With a cap, the UPDATE only matches while
/// the count is under it (or the stored day is over), so a refused call is not counted. The
/// call's ticket is written in the same transaction: no call is ever counted without one.
pub async fn charge_call(
    db: &DatabaseConnection,
    replica: &str,
    account_id: i64,
    cap: Option<u64>,
    now: DateTime<Utc>,
) -> ApiResult<Charged> {
    let today = day_number(now);
    let same_day = Expr::col(account::Column::UsageDay).eq(today);
    let mut update = account::Entity::update_many()
        .col_expr(
            account::Column::CallsToday,
            CaseStatement::new()
                .case(
                    same_day.clone(),
                    Expr::col(account::Column::CallsToday).add(1),
                )
                .finally(Expr::val(1))
                .into(),
        )
        .col_expr(account::Column::UsageDay, Expr::val(today))
        .col_expr(
            account::Column::CallsTotal,
            Expr::col(account::Column::CallsTotal).add(1),
        )
        .filter(account::Column::Id.eq(account_id));
    if let Some(cap) = cap {
        update = update.filter(
            Expr::col(account::Column::UsageDay)
                .ne(today)
                .or(Expr::col(account::Column::CallsToday).lt(cap as i64)),
        );
    }
    let txn = db.begin().await?;
    let updated = update.exec_with_returning(&txn).await?;
    let reset = next_midnight(now);
    let rate_limit = match (updated.first(), cap) {
        (Some(_), None) => None,
        (Some(row), Some(cap)) => Some(RateLimit {
            limit: cap,
            remaining: cap.saturating_sub(u64::try_from(row.calls_today).unwrap_or(0)),
            reset,
        }),
        (None, Some(cap)) => {
            metrics::counter!("quire_quota_refusals_total", "quota" => "daily").increment(1);
            let retry_after = std::cmp::max(reset - now.timestamp(), 1);
            let limit = RateLimit {
                limit: cap,
                remaining: 0,
                reset,
            };
            let mut err = ApiError::new(
                ErrorCode::DailyQuotaExceeded,
                format!(
                    "the Free plan allows {cap} calls per UTC day and today's are used up: retry \
                     after {retry_after} s (next UTC midnight) or upgrade to Pro"
                ),
            )
            .with_metadata(metadata::RETRY_AFTER, retry_after);
            limit.write_to(&mut err.metadata);
            return Err(err);
        }
        (None, None) => {
            return Err(ApiError::internal(
                "call counting",
                format!("account {account_id} vanished"),
            ));
        }
    };
    let ticket = in_flight::open(&txn, db, replica, account_id, today, now).await?;
    txn.commit().await?;
    Ok(Charged { rate_limit, ticket })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_header_conventions_are_written() {
        let mut map = MetadataMap::new();
        let reset = next_midnight(Utc::now());
        RateLimit {
            limit: 100,
            remaining: 42,
            reset,
        }
        .write_to(&mut map);
        let get = |key: &str| {
            map.get(key)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
        };
        assert_eq!(get("x-ratelimit-remaining"), "42");
        assert_eq!(get("ratelimit-policy"), "\"daily\";q=100;w=86400");
        let field = get("ratelimit");
        let seconds: i64 = field
            .strip_prefix("\"daily\";r=42;t=")
            .and_then(|t| t.parse().ok())
            .expect(field);
        assert!((0..=86_400).contains(&seconds), "{field}");
    }

    #[test]
    fn days_turn_at_utc_midnight() {
        let before = DateTime::from_timestamp(86_400 * 20_000 - 1, 0).unwrap();
        let after = DateTime::from_timestamp(86_400 * 20_000, 0).unwrap();
        assert_eq!(day_number(before) + 1, day_number(after));
        assert_eq!(next_midnight(before), 86_400 * 20_000);
    }
}
