//! Each core replica says it is alive every [`BEAT`] in `replicas`; one not seen for [`DEAD_AFTER`]
//! is dead (killed, its machine lost), and whichever replica notices first gives back the
//! calls it left in flight. A core on SQLite is alone: when it restarts after a crash, it gives
//! back its own earlier life's calls the same way.
//!
//! Replicas compare their clocks through `seen_at`, so they must be kept in sync (NTP), as the
//! sweeper's timeouts already ask.

use std::{sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use rand::RngCore;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QuerySelect,
    sea_query::OnConflict,
};

use super::in_flight;
use crate::{
    Core,
    db::{call_in_flight, replica},
    error::ApiResult,
};

/// How often a replica says it is alive.
pub const BEAT: Duration = Duration::from_secs(2);
/// Silence after which a replica is dead: several missed beats, so a slow database or a busy
/// moment never passes for a death.
pub const DEAD_AFTER: Duration = Duration::from_secs(15);
/// Calls given back per statement batch.
const BATCH: u64 = 200;

/// A replica's name in `replicas` and `calls_in_flight`: drawn at start, so a restarted core is
/// a new replica and its earlier life's calls are seen as a dead one's.
pub fn new_id() -> Arc<str> {
    let mut bytes = [0u8; 12];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes).into()
}

/// Beats and gives back dead replicas' calls until the task is dropped.
pub async fn watch(core: Core) {
    let mut ticker = tokio::time::interval(BEAT);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticker.tick().await;
        let now = Utc::now();
        if let Err(error) = beat(&core.db, &core.replica, now).await {
            tracing::warn!(%error, "cannot record this replica as alive");
            continue;
        }
        match give_back_dead(&core.db, now).await {
            Ok(0) => {}
            Ok(calls) => tracing::info!(calls, "gave back calls a dead replica left in flight"),
            Err(error) => tracing::warn!(%error, "cannot give back a dead replica's calls"),
        }
    }
}

/// Records `replica` as alive now.
pub async fn beat(db: &DatabaseConnection, replica: &str, now: DateTime<Utc>) -> ApiResult<()> {
    let row = replica::ActiveModel {
        id: Set(replica.to_owned()),
        seen_at: Set(now),
    };
    replica::Entity::insert(row)
        .on_conflict(
            OnConflict::column(replica::Column::Id)
                .update_column(replica::Column::SeenAt)
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// A replica not seen since this instant is dead at `now`.
pub fn dead_before(now: DateTime<Utc>) -> DateTime<Utc> {
    now - chrono::Duration::from_std(DEAD_AFTER).unwrap_or_default()
}

/// Whether `replica` was seen within `DEAD_AFTER` of `now`.
pub async fn is_alive(
    db: &DatabaseConnection,
    replica: &str,
    now: DateTime<Utc>,
) -> ApiResult<bool> {
    Ok(replica::Entity::find_by_id(replica.to_owned())
        .filter(replica::Column::SeenAt.gte(dead_before(now)))
        .one(db)
        .await?
        .is_some())
}

/// Gives back every call whose replica has not been seen since `now - DEAD_AFTER` (or never
/// was, for a call that old), then forgets those replicas. Safe on every replica at once: each
/// call is given back by the one transaction that deletes its row. Returns the calls given back.
pub async fn give_back_dead(db: &DatabaseConnection, now: DateTime<Utc>) -> ApiResult<u64> {
    let cutoff = dead_before(now);
    let alive: Vec<String> = replica::Entity::find()
        .select_only()
        .column(replica::Column::Id)
        .filter(replica::Column::SeenAt.gte(cutoff))
        .into_tuple()
        .all(db)
        .await?;
    let mut given = 0;
    loop {
        let orphans = call_in_flight::Entity::find()
            .filter(call_in_flight::Column::StartedAt.lt(cutoff))
            .filter(call_in_flight::Column::Replica.is_not_in(alive.iter().cloned()))
            .limit(BATCH)
            .all(db)
            .await?;
        for call in &orphans {
            if in_flight::give_back(db, call.id, call.account_id, call.usage_day).await? {
                given += 1;
            }
        }
        if (orphans.len() as u64) < BATCH {
            break;
        }
    }
    replica::Entity::delete_many()
        .filter(replica::Column::SeenAt.lt(cutoff))
        .exec(db)
        .await?;
    Ok(given)
}
