//! Blob storage through object_store: a local directory by default, or an S3-compatible bucket
//! (`QUIRE_STORE_URL`). Nothing else in the core knows where blobs live: it writes through
//! [`Store::writer`], reads and deletes through object_store's API, and the sweeper calls
//! [`Store::sweep_abandoned`].

/// `impl ObjectStore` for a wrapping store whose field `inner` is the store it wraps: its own
/// `put_multipart_opts` (the items given), and every other method passed to `inner`
/// unchanged. The trait's types must be in scope. (`async_trait` must see the whole impl, so
/// the impl, attribute and all, is the macro's output.)
macro_rules! impl_object_store_over_inner {
    ($store:ty, $($own:tt)*) => {
        #[async_trait::async_trait]
        impl ObjectStore for $store {
            $($own)*

        async fn put_opts(
            &self,
            location: &Path,
            payload: PutPayload,
            opts: PutOptions,
        ) -> Result<PutResult> {
            self.inner.put_opts(location, payload, opts).await
        }

        async fn get_opts(&self, location: &Path, options: GetOptions) -> Result<GetResult> {
            self.inner.get_opts(location, options).await
        }

        async fn get_ranges(
            &self,
            location: &Path,
            ranges: &[std::ops::Range<u64>],
        ) -> Result<Vec<bytes::Bytes>> {
            self.inner.get_ranges(location, ranges).await
        }

        fn delete_stream(
            &self,
            locations: futures::stream::BoxStream<'static, Result<Path>>,
        ) -> futures::stream::BoxStream<'static, Result<Path>> {
            self.inner.delete_stream(locations)
        }

        fn list(
            &self,
            prefix: Option<&Path>,
        ) -> futures::stream::BoxStream<'static, Result<ObjectMeta>> {
            self.inner.list(prefix)
        }

        fn list_with_offset(
            &self,
            prefix: Option<&Path>,
            offset: &Path,
        ) -> futures::stream::BoxStream<'static, Result<ObjectMeta>> {
            self.inner.list_with_offset(prefix, offset)
        }

        async fn list_with_delimiter(&self, prefix: Option<&Path>) -> Result<ListResult> {
            self.inner.list_with_delimiter(prefix).await
        }

        async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> Result<()> {
            self.inner.copy_opts(from, to, options).await
        }

        async fn rename_opts(&self, from: &Path, to: &Path, options: RenameOptions) -> Result<()> {
            self.inner.rename_opts(from, to, options).await
        }
        }
    };
}

mod local_store;
mod s3_store;
mod staged_upload;
mod store_url;

use std::{ops::Deref, path::PathBuf, sync::Arc, time::Duration};

use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart, path::Path};

pub use local_store::LocalStore;
pub use s3_store::S3Store;
pub use store_url::StoreUrl;

/// Part size of an upload's multipart write on the local store, which writes each part as soon
/// as it fills, so small parts keep an upload's memory low: two parts in flight and one filling
/// are held, and with 5 MiB parts one 1 GiB bench round grew the process by 149 MiB.
const LOCAL_PART_SIZE: usize = 1024 * 1024;
/// S3's smallest part but the last.
const S3_PART_SIZE: usize = 5 * 1024 * 1024;

/// The blob store, and how it takes uploads and is swept.
#[derive(Clone)]
pub struct Store {
    objects: Arc<dyn ObjectStore>,
    backend: Backend,
}

#[derive(Clone)]
enum Backend {
    Local { staging: PathBuf },
    S3(Arc<S3Store>),
}

impl Store {
    /// Opens the store `url` names; `s3_options` are object_store configuration keys applied
    /// after the `AWS_*` variables (empty in production).
    pub fn open(url: &StoreUrl, s3_options: &[(String, String)]) -> anyhow::Result<Store> {
        match url {
            StoreUrl::Local { root, staging } => Ok(Store {
                objects: Arc::new(LocalStore::open(root, staging.clone())?),
                backend: Backend::Local {
                    staging: staging.clone(),
                },
            }),
            StoreUrl::S3 { bucket, prefix } => {
                let s3 = Arc::new(S3Store::open(bucket, prefix, s3_options)?);
                Ok(Store {
                    objects: s3.clone(),
                    backend: Backend::S3(s3),
                })
            }
        }
    }

    /// A writer of the object `key`, visible only once finished; aborting it leaves nothing.
    pub async fn writer(&self, key: &str) -> object_store::Result<WriteMultipart> {
        let upload = self.objects.put_multipart(&Path::from(key)).await?;
        let part_size = match self.backend {
            Backend::Local { .. } => LOCAL_PART_SIZE,
            Backend::S3(_) => S3_PART_SIZE,
        };
        Ok(WriteMultipart::new_with_chunk_size(upload, part_size))
    }

    /// Removes what uploads a killed process left half-written, once older than `older_than`
    /// (the longest an upload may run): staging files on local disk, open multipart uploads on
    /// S3. Returns how many.
    pub async fn sweep_abandoned(&self, older_than: Duration) -> anyhow::Result<usize> {
        match &self.backend {
            Backend::Local { staging } => {
                let staging = staging.clone();
                let removed = tokio::task::spawn_blocking(move || {
                    local_store::remove_stale(&staging, older_than)
                })
                .await??;
                Ok(removed)
            }
            Backend::S3(s3) => Ok(s3.abort_abandoned(older_than).await?),
        }
    }
}

impl Deref for Store {
    type Target = dyn ObjectStore;

    fn deref(&self) -> &Self::Target {
        &*self.objects
    }
}

impl std::fmt::Display for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&*self.objects, f)
    }
}
