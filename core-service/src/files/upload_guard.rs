//! The undo of an unfinished upload: [`UploadGuard`] aborts the multipart object, deletes the
//! pending row and gives back any reserved bytes unless disarmed, as pict-rs's ingest guards
//! do, and [`insert_pending`] makes one for a new row whatever becomes of the request.

use object_store::WriteMultipart;
use sea_orm::ActiveModelTrait;

use super::remove;
use crate::{
    Core,
    db::file,
    error::{ApiError, ApiResult},
};

/// Inserts the pending row in a task of its own, which hands its guard back. A request dropped
/// while the insert was in flight (an edge that cut the stream, a client gone) once left the
/// row behind with no guard to remove it until the sweeper's upload timeout: the insert runs on
/// whatever the future does, and here the guard it makes is dropped, armed, when nobody waits.
pub(super) async fn insert_pending(core: &Core, row: file::ActiveModel) -> ApiResult<UploadGuard> {
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let core = core.clone();
    tokio::spawn(async move {
        let guard = row.insert(&core.db).await.map(|row| UploadGuard {
            core,
            row,
            writer: None,
            armed: true,
        });
        // Refused when the request is gone: the guard comes back and cleans up as it drops.
        drop(sender.send(guard));
    });
    match receiver.await {
        Ok(guard) => Ok(guard?),
        Err(gone) => Err(ApiError::internal("creating the upload's record", gone)),
    }
}

/// Undoes an unfinished upload when dropped armed: aborts the multipart object, deletes the
/// row and gives back any reserved bytes. Dropping covers every early return and a cancelled
/// request future alike.
pub(super) struct UploadGuard {
    core: Core,
    pub(super) row: file::Model,
    pub(super) writer: Option<WriteMultipart>,
    pub(super) armed: bool,
}

impl UploadGuard {
    /// The undo work, detached from the guard so it can be awaited or spawned.
    fn take_cleanup(&mut self) -> impl Future<Output = ()> + Send + 'static {
        self.armed = false;
        let core = self.core.clone();
        let row = self.row.clone();
        let writer = self.writer.take();
        async move {
            if let Some(writer) = writer
                && let Err(error) = writer.abort().await
            {
                tracing::warn!(%error, blob = row.blob_key, "could not abort upload");
            }
            if let Err(error) = remove::remove(&core, &row).await {
                tracing::error!(%error, file_id = row.id, "could not clean up failed upload; the sweeper will");
            }
        }
    }

    pub(super) async fn undo(&mut self) {
        self.take_cleanup().await;
    }
}

impl Drop for UploadGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let file_id = self.row.id;
        let cleanup = self.take_cleanup();
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => drop(handle.spawn(cleanup)),
            Err(_) => tracing::error!(
                file_id,
                "no runtime to clean up failed upload; the sweeper will"
            ),
        }
    }
}
