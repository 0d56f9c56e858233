//! Blob storage through object_store: a local directory by default. Nothing else in the core
//! knows where blobs live, so an S3-compatible store only changes this module.

mod local_store;
mod staged_upload;

use std::{sync::Arc, time::Duration};

use object_store::ObjectStore;

pub use local_store::LocalStore;

/// Part size of an upload's multipart write. The local store writes each part as soon as it
/// fills, so small parts keep an upload's memory low: two parts in flight and one filling are
/// held, and with 5 MiB parts one 1 GiB bench round grew the process by 149 MiB. An S3 store
/// needs 5 MiB or more.
pub const PART_SIZE: usize = 1024 * 1024;

/// The store under `data_dir/blobs`, staging uploads in `data_dir/staging`.
pub fn open_local(data_dir: &std::path::Path) -> anyhow::Result<Arc<dyn ObjectStore>> {
    Ok(Arc::new(LocalStore::open(
        &data_dir.join("blobs"),
        staging_dir(data_dir),
    )?))
}

/// Deletes uploads a crashed process left in the local store's staging directory, once they
/// are older than `upload_timeout`, the longest an upload may run. Returns how many.
pub fn remove_stale_uploads(
    data_dir: &std::path::Path,
    upload_timeout: Duration,
) -> std::io::Result<usize> {
    local_store::remove_stale(&staging_dir(data_dir), upload_timeout)
}

fn staging_dir(data_dir: &std::path::Path) -> std::path::PathBuf {
    data_dir.join("staging")
}
