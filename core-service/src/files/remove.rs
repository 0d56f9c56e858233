//! Removing a file row and its blob, releasing the storage it held. One path for deletion,
//! expiry and the sweeping of unfinished uploads, so the quota bookkeeping cannot drift.

use chrono::Utc;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};

use super::blobs;
use crate::{
    Core,
    db::file::{self, STATE_COMMITTING, STATE_GONE, STATE_READY},
    error::ApiResult,
    quota::storage,
};

/// Deletes the row if it is still in the state it was read in (another replica may have won
/// the race), then releases its reserved bytes and deletes its blob. Returns whether this call
/// removed it.
pub async fn remove(core: &Core, row: &file::Model) -> ApiResult<bool> {
    let deleted = file::Entity::delete_many()
        .filter(file::Column::Id.eq(row.id))
        .filter(file::Column::State.eq(row.state.as_str()))
        .exec(&core.db)
        .await?;
    if deleted.rows_affected == 0 {
        return Ok(false);
    }
    // Committing and ready rows hold `size` bytes; pending rows never had storage reserved,
    // gone rows gave theirs back when they were retired.
    if matches!(row.state.as_str(), STATE_COMMITTING | STATE_READY) && row.size > 0 {
        storage::release(&core.db, row.account_id, row.size as u64).await?;
    }
    // A file made of a resumable upload's parts owns them once ready (the upload hands them
    // over in the same transaction); until then they stay the upload's, kept for a retry.
    if row.blob_parts.is_none() || row.state == STATE_READY {
        blobs::delete(core, row).await;
    }
    Ok(true)
}

/// Retires a ready file whose link was used up or expired: its blob is deleted and its storage
/// released, and its row stays, in state `gone`, with the time it went as its expiry, so that
/// the link answers 410 until the sweeper forgets it. Returns whether this call retired it
/// (another download, or another replica's sweeper, may have won the race).
pub async fn retire(core: &Core, row: &file::Model) -> ApiResult<bool> {
    let mut retire = file::Entity::update_many()
        .col_expr(file::Column::State, Expr::value(STATE_GONE))
        .col_expr(file::Column::ExpiresAt, Expr::value(Some(Utc::now())));
    if row.is_share() {
        // Nothing of the sender's stays: the proof key and the sealed name go with the
        // ciphertext; an empty seal still marks the row as a share.
        retire = retire
            .col_expr(file::Column::ShareSeal, Expr::value(Some(Vec::<u8>::new())))
            .col_expr(
                file::Column::ShareNonce,
                Expr::value(Option::<Vec<u8>>::None),
            );
    }
    let retired = retire
        .filter(file::Column::Id.eq(row.id))
        .filter(file::Column::State.eq(STATE_READY))
        .exec(&core.db)
        .await?;
    if retired.rows_affected == 0 {
        return Ok(false);
    }
    if row.size > 0 {
        storage::release(&core.db, row.account_id, row.size as u64).await?;
    }
    blobs::delete(core, row).await;
    Ok(true)
}
