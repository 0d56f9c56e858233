//! Blob storage through object_store: a local directory by default. Nothing else in the core
//! knows where blobs live, so an S3-compatible store only changes this file.

use std::sync::Arc;

use object_store::{ObjectStore, local::LocalFileSystem};

pub fn open_local(data_dir: &std::path::Path) -> anyhow::Result<Arc<dyn ObjectStore>> {
    let dir = data_dir.join("blobs");
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create blob directory {}: {e}", dir.display()))?;
    // A 201 promises the file is kept: each blob and its directory entry are on stable storage
    // (fsync) before the upload is committed, as an object store such as S3 guarantees.
    Ok(Arc::new(
        LocalFileSystem::new_with_prefix(&dir)?.with_fsync(true),
    ))
}
