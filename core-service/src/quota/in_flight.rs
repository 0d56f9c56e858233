//! A counted call's ticket: the `calls_in_flight` row written with the count, removed when the
//! call ends. A call that fails on the server's side (a 5xx: scanner down, queue full, an
//! engine lost) is given back at once; a call whose replica dies mid-way leaves its row, and
//! another replica gives it back (`quota::replicas`). Either way the key pays only for calls
//! that were served or refused for what the caller sent.

use chrono::{DateTime, Utc};
use quire_proto::ErrorCode;
use sea_orm::{
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, ExprTrait, QueryFilter,
    TransactionTrait,
    sea_query::{CaseStatement, Expr},
};

use crate::{
    db::{account, call_in_flight},
    error::ApiResult,
};

/// The row of one counted call that has not ended yet. Dropped without [`Ticket::give_back`],
/// the call stays counted and the row is removed in the background.
#[must_use = "a ticket dropped at once ends its call"]
pub struct Ticket {
    db: DatabaseConnection,
    id: i64,
    account_id: i64,
    usage_day: i64,
    /// Given back already: nothing left for the drop to do.
    ended: bool,
}

/// Writes the ticket of a call just counted, in the transaction that counted it.
pub(super) async fn open(
    txn: &impl ConnectionTrait,
    db: &DatabaseConnection,
    replica: &str,
    account_id: i64,
    usage_day: i64,
    now: DateTime<Utc>,
) -> ApiResult<Ticket> {
    let row = call_in_flight::ActiveModel {
        replica: Set(replica.to_owned()),
        account_id: Set(account_id),
        usage_day: Set(usage_day),
        started_at: Set(now),
        ..Default::default()
    };
    let id = call_in_flight::Entity::insert(row)
        .exec(txn)
        .await?
        .last_insert_id;
    Ok(Ticket {
        db: db.clone(),
        id,
        account_id,
        usage_day,
        ended: false,
    })
}

/// Whether a call that failed this way is given back: failures on the server's side are,
/// refusals of what the caller sent are not.
fn given_back(code: ErrorCode) -> bool {
    code.http_status() >= 500
}

impl Ticket {
    /// Ends the call with an error `code`: a failure on the server's side is uncounted now,
    /// before the answer goes out. Returns whether it was.
    pub async fn fail(mut self, code: ErrorCode) -> bool {
        if !given_back(code) {
            return false;
        }
        self.ended = true;
        match give_back(&self.db, self.id, self.account_id, self.usage_day).await {
            Ok(done) => done,
            Err(error) => {
                tracing::warn!(%error, call = self.id, "cannot give back a failed call");
                false
            }
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let (db, id) = (self.db.clone(), self.id);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            if let Err(error) = call_in_flight::Entity::delete_by_id(id).exec(&db).await {
                // Left behind, the row is given back once this replica is gone: a served
                // call uncounted, never a failed one counted.
                tracing::warn!(%error, call = id, "cannot end a call's ticket");
            }
        });
    }
}

/// Uncounts one call, once: the row is deleted first and only the transaction that deleted it
/// takes the call off its account, so a replica giving back a dead one's calls and the call's
/// own end cannot both do it. A call counted on an earlier UTC day is only taken off the total.
/// Returns whether this call did it.
pub(super) async fn give_back(
    db: &DatabaseConnection,
    id: i64,
    account_id: i64,
    usage_day: i64,
) -> ApiResult<bool> {
    let txn = db.begin().await?;
    let deleted = call_in_flight::Entity::delete_by_id(id).exec(&txn).await?;
    let done = deleted.rows_affected == 1;
    if done {
        account::Entity::update_many()
            .col_expr(
                account::Column::CallsToday,
                CaseStatement::new()
                    .case(
                        Expr::col(account::Column::UsageDay)
                            .eq(usage_day)
                            .and(Expr::col(account::Column::CallsToday).gt(0)),
                        Expr::col(account::Column::CallsToday).sub(1),
                    )
                    .finally(Expr::col(account::Column::CallsToday))
                    .into(),
            )
            .col_expr(
                account::Column::CallsTotal,
                Expr::col(account::Column::CallsTotal).sub(1),
            )
            .filter(account::Column::Id.eq(account_id))
            .exec(&txn)
            .await?;
        metrics::counter!("quire_calls_given_back_total").increment(1);
    }
    txn.commit().await?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_servers_failures_are_given_back() {
        for code in [
            ErrorCode::ScannerUnavailable,
            ErrorCode::ProcessingBusy,
            ErrorCode::Internal,
            ErrorCode::ProcessingFailed,
            ErrorCode::CoreUnavailable,
        ] {
            assert!(given_back(code), "{code:?}");
        }
        for code in [
            ErrorCode::VirusFound,
            ErrorCode::InvalidFile,
            ErrorCode::StorageQuotaExceeded,
            ErrorCode::UnprocessableFile,
        ] {
            assert!(!given_back(code), "{code:?}");
        }
    }
}
