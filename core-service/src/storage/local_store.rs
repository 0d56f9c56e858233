//! The local blob store: object_store's `LocalFileSystem` for everything except multipart
//! uploads, which go through [`StagedUpload`] so that their bytes reach the disk while they
//! arrive. Staging files live in a directory of their own, outside the store, so they are never
//! listed or served; the sweeper removes the ones a crash left behind ([`remove_stale`]).

use std::{
    fmt,
    path::{Path as FsPath, PathBuf},
    time::{Duration, SystemTime},
};

use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult, RenameOptions, Result,
    local::LocalFileSystem, path::Path,
};

use super::staged_upload::StagedUpload;

#[derive(Debug)]
pub struct LocalStore {
    inner: LocalFileSystem,
    staging: PathBuf,
}

impl LocalStore {
    /// Opens the store rooted at `root`, staging uploads in `staging` (same filesystem, so a
    /// completed upload is a rename).
    pub fn open(root: &FsPath, staging: PathBuf) -> anyhow::Result<Self> {
        for dir in [root, staging.as_path()] {
            std::fs::create_dir_all(dir)
                .map_err(|e| anyhow::anyhow!("cannot create directory {}: {e}", dir.display()))?;
        }
        // A 201 promises the file is kept: objects and their directory entries are on stable
        // storage before a write returns, as an object store such as S3 guarantees.
        Ok(LocalStore {
            inner: LocalFileSystem::new_with_prefix(root)?.with_fsync(true),
            staging,
        })
    }
}

/// Deletes staging files untouched for `stale_after` (no live upload goes that long without
/// writing); a missing directory has none.
pub fn remove_stale(staging: &FsPath, stale_after: Duration) -> std::io::Result<usize> {
    if !staging.exists() {
        return Ok(0);
    }
    let cutoff = SystemTime::now() - stale_after;
    let mut removed = 0;
    for entry in std::fs::read_dir(staging)? {
        // An upload that completes or is aborted meanwhile (here or on another replica sharing
        // the directory) takes its file away: gone is as good as removed.
        let outcome = entry.and_then(|entry| {
            if entry.metadata()?.modified()? < cutoff {
                std::fs::remove_file(entry.path())?;
                return Ok(1);
            }
            Ok(0)
        });
        match outcome {
            Ok(n) => removed += n,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
    }
    Ok(removed)
}

impl fmt::Display for LocalStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LocalStore({}, staging {})",
            self.inner,
            self.staging.display()
        )
    }
}

impl_object_store_over_inner! {
    LocalStore,
    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        if !opts.attributes.is_empty() {
            return Err(object_store::Error::NotImplemented {
                operation: "`put_multipart_opts` with `opts.attributes` specified".into(),
                implementer: self.to_string(),
            });
        }
        let dest = self.inner.path_to_filesystem(location)?;
        // Random, as object names are: replicas may share the directory.
        let staging = self.staging.join(crate::files::names::new_token());
        let upload = tokio::task::spawn_blocking(move || StagedUpload::create(staging, dest))
            .await
            .map_err(|e| generic(Box::new(e)))?
            .map_err(|e| generic(Box::new(e)))?;
        Ok(Box::new(upload))
    }
}

/// An error of this store, as object_store reports errors of its backends.
pub(super) fn generic(source: Box<dyn std::error::Error + Send + Sync>) -> object_store::Error {
    object_store::Error::Generic {
        store: "quire-local",
        source,
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use futures::TryStreamExt;
    use object_store::{ObjectStoreExt, WriteMultipart};

    use super::*;

    fn open(dir: &tempfile::TempDir) -> LocalStore {
        LocalStore::open(&dir.path().join("blobs"), dir.path().join("staging")).unwrap()
    }

    fn staged(dir: &tempfile::TempDir) -> usize {
        std::fs::read_dir(dir.path().join("staging"))
            .unwrap()
            .count()
    }

    /// Bytes that differ at every offset, so a part written at the wrong place shows.
    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[tokio::test]
    async fn a_completed_upload_holds_every_byte_in_order_and_leaves_no_staging_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(&dir);
        let location = Path::from("files/abc");
        // Over two flush intervals, in parts of an odd size, two in flight.
        let data = pattern(70 * 1024 * 1024 + 13);
        let upload = store.put_multipart(&location).await.unwrap();
        let mut writer = WriteMultipart::new_with_chunk_size(upload, 5 * 1024 * 1024 + 7);
        for chunk in data.chunks(256 * 1024) {
            writer.wait_for_capacity(2).await.unwrap();
            writer.put(Bytes::copy_from_slice(chunk));
        }
        assert_eq!(staged(&dir), 1);
        assert!(
            store.head(&location).await.is_err(),
            "visible before complete"
        );
        writer.finish().await.unwrap();
        let stored = store.get(&location).await.unwrap().bytes().await.unwrap();
        assert!(stored == data, "stored bytes differ");
        assert_eq!(staged(&dir), 0);
        let listed: Vec<_> = store.list(None).try_collect().await.unwrap();
        assert_eq!(listed.len(), 1);
    }

    #[tokio::test]
    async fn aborted_and_dropped_uploads_leave_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(&dir);
        let mut upload = store.put_multipart(&Path::from("files/a")).await.unwrap();
        upload.put_part(pattern(1000).into()).await.unwrap();
        upload.abort().await.unwrap();
        let mut upload = store.put_multipart(&Path::from("files/b")).await.unwrap();
        upload.put_part(pattern(1000).into()).await.unwrap();
        drop(upload);
        for _ in 0..100 {
            if staged(&dir) == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(staged(&dir), 0);
        let listed: Vec<_> = store.list(None).try_collect().await.unwrap();
        assert!(listed.is_empty());
    }

    #[tokio::test]
    async fn stale_staging_files_are_removed_and_fresh_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(&dir);
        let upload = store
            .put_multipart(&Path::from("files/live"))
            .await
            .unwrap();
        let staging = dir.path().join("staging");
        assert_eq!(remove_stale(&staging, Duration::from_secs(60)).unwrap(), 0);
        assert_eq!(staged(&dir), 1);
        // What a crash leaves: nobody completes or removes it.
        std::mem::forget(upload);
        assert_eq!(remove_stale(&staging, Duration::ZERO).unwrap(), 1);
        assert_eq!(staged(&dir), 0);
        assert_eq!(
            remove_stale(&dir.path().join("absent"), Duration::ZERO).unwrap(),
            0
        );
    }
}
