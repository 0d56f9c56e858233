//! Blob storage through object_store: a local directory by default. Nothing else in the core
//! knows where blobs live, so an S3-compatible store only changes this file.

use std::sync::Arc;

use object_store::{ObjectStore, local::LocalFileSystem};

pub fn open_local(data_dir: &std::path::Path) -> anyhow::Result<Arc<dyn ObjectStore>> {
    let dir = data_dir.join("blobs");
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create blob directory {}: {e}", dir.display()))?;
    Ok(Arc::new(LocalFileSystem::new_with_prefix(&dir)?))
}
