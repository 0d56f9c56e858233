//! Removing a file row and its blob, releasing the storage it held. One path for deletion,
//! expiry and the sweeping of unfinished uploads, so the quota bookkeeping cannot drift.

use object_store::{ObjectStoreExt, path::Path};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::{
    Core,
    db::file::{self, STATE_PENDING},
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
    // Pending rows never had storage reserved; committing and ready rows hold `size` bytes.
    if row.state != STATE_PENDING && row.size > 0 {
        storage::release(&core.db, row.account_id, row.size as u64).await?;
    }
    delete_blob(core, &row.blob_key).await;
    Ok(true)
}

/// Best effort: a blob left behind is invisible without its row, and logged.
pub async fn delete_blob(core: &Core, key: &str) {
    match core.store.delete(&Path::from(key)).await {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
        Err(error) => tracing::warn!(%error, blob = key, "could not delete blob"),
    }
}
