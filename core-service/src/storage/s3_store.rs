//! The S3 blob store (`QUIRE_STORE_URL=s3://bucket/prefix`): object_store's `AmazonS3` under the
//! prefix, configured from the usual `AWS_*` variables. Every multipart upload is tracked by a
//! marker object under `multipart/` (the object's key and S3's upload id) from its creation to
//! its completion or abort, so that one a killed replica left open is found and aborted by the
//! sweeper ([`S3Store::abort_abandoned`]) rather than keeping its parts in the bucket: S3 lists
//! no such upload among the objects, and bills its parts.

use std::{
    fmt,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use async_trait::async_trait;
use futures::TryStreamExt;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartId, MultipartUpload, ObjectMeta,
    ObjectStore, ObjectStoreExt, PutMultipartOptions, PutOptions, PutPayload, PutResult,
    RenameOptions, Result, UploadPart,
    aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey},
    multipart::{MultipartStore, PartId},
    path::Path,
    prefix::PrefixStore,
};
use serde::{Deserialize, Serialize};

type Inner = PrefixStore<AmazonS3>;

/// Where the markers of open multipart uploads live, beside `files/`, `resumable/`.
const MARKERS: &str = "multipart";

#[derive(Debug, Clone)]
pub struct S3Store {
    inner: Arc<Inner>,
    url: String,
}

/// An open multipart upload, as its marker records it.
#[derive(Serialize, Deserialize)]
struct Marker {
    key: String,
    upload: MultipartId,
}

impl S3Store {
    /// The bucket's store under `prefix`, from the `AWS_*` variables and then `options`
    /// (object_store's configuration keys, such as `aws_endpoint`: the tests use them).
    pub fn open(bucket: &str, prefix: &str, options: &[(String, String)]) -> anyhow::Result<Self> {
        // S3's HTTPS through rustls with ring, already built for the rest of the workspace; an
        // error only means a provider is installed already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(bucket);
        for (key, value) in options {
            let key: AmazonS3ConfigKey = key
                .parse()
                .map_err(|e| anyhow::anyhow!("unknown S3 setting {key:?}: {e}"))?;
            builder = builder.with_config(key, value);
        }
        let s3 = builder
            .build()
            .map_err(|e| anyhow::anyhow!("cannot configure the S3 store s3://{bucket}: {e}"))?;
        Ok(S3Store {
            inner: Arc::new(PrefixStore::new(s3, prefix)),
            url: format!("s3://{bucket}/{prefix}"),
        })
    }

    /// Aborts the multipart uploads whose marker is older than `older_than` (no live upload
    /// runs that long) and removes their markers. Safe on several replicas at once: an upload
    /// another one aborted first is simply gone. Returns how many were aborted.
    pub async fn abort_abandoned(&self, older_than: Duration) -> Result<usize> {
        let cutoff = chrono::Utc::now()
            - chrono::Duration::from_std(older_than).unwrap_or(chrono::Duration::MAX);
        let markers: Vec<ObjectMeta> = self
            .inner
            .list(Some(&Path::from(MARKERS)))
            .try_collect()
            .await?;
        let mut aborted = 0;
        for meta in markers.into_iter().filter(|m| m.last_modified < cutoff) {
            let body = match self.inner.get(&meta.location).await {
                Ok(found) => found.bytes().await?,
                Err(object_store::Error::NotFound { .. }) => continue,
                Err(error) => return Err(error),
            };
            let Ok(Marker { key, upload }) = serde_json::from_slice::<Marker>(&body) else {
                forget(&self.inner, &meta.location).await;
                continue;
            };
            let location = Path::from(key.as_str());
            match abort_tracked(&self.inner, &location, &upload, &meta.location).await {
                Ok(()) => aborted += 1,
                // Left for the next pass, marker and all.
                Err(error) => {
                    tracing::warn!(%error, blob = key, "abandoned multipart upload not aborted");
                }
            }
        }
        Ok(aborted)
    }
}

/// Aborts a tracked upload (one already gone is fine) and removes its marker; an upload that
/// does not abort keeps its marker, for the sweeper's next pass.
async fn abort_tracked(
    inner: &Inner,
    location: &Path,
    upload: &MultipartId,
    marker: &Path,
) -> Result<()> {
    match inner.abort_multipart(location, upload).await {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
        Err(error) => return Err(error),
    }
    forget(inner, marker).await;
    Ok(())
}

/// Removes a marker; one already gone is fine, one that stays is found again by the sweeper.
async fn forget(inner: &Inner, marker: &Path) {
    match inner.delete(marker).await {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
        Err(error) => tracing::warn!(%error, %marker, "multipart marker not removed"),
    }
}

impl fmt::Display for S3Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "S3Store({})", self.url)
    }
}

impl_object_store_over_inner! {
    S3Store,
    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> Result<Box<dyn MultipartUpload>> {
        // Created and marked in a task of its own: a caller that goes away meanwhile (a
        // cancelled upload) must not leave an upload with no marker, or a marker with no
        // upload; the task's result is then dropped, which aborts the upload (see `Drop`).
        let (inner, location) = (Arc::clone(&self.inner), location.clone());
        tokio::spawn(async move {
            let id = inner.create_multipart_opts(&location, opts).await?;
            let marker = Path::from(format!("{MARKERS}/{}", crate::files::names::new_token()));
            let record = Marker {
                key: location.to_string(),
                upload: id.clone(),
            };
            let body = serde_json::to_vec(&record).expect("a marker serializes");
            if let Err(error) = inner.put(&marker, body.into()).await {
                // Untracked, an upload could outlive a crash unseen: better not start it.
                let _ = inner.abort_multipart(&location, &id).await;
                return Err(error);
            }
            Ok(Box::new(TrackedUpload {
                inner,
                location,
                id,
                marker,
                next: 0,
                parts: Arc::default(),
                done: false,
            }) as Box<dyn MultipartUpload>)
        })
        .await
        .map_err(|error| object_store::Error::Generic {
            store: "quire-s3",
            source: error.into(),
        })?
    }
}

/// A multipart upload through the low-level API, whose id the marker holds; the marker goes
/// when the upload is completed or aborted.
#[derive(Debug)]
struct TrackedUpload {
    inner: Arc<Inner>,
    location: Path,
    id: MultipartId,
    marker: Path,
    /// The next part's number: parts are numbered in order, and may finish out of order.
    next: usize,
    parts: Arc<Mutex<Vec<Option<PartId>>>>,
    /// Set once completed or aborted; an upload dropped before either is aborted.
    done: bool,
}

impl Drop for TrackedUpload {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        // Given up (its caller cancelled or failed without aborting): its parts go now rather
        // than at the sweeper's next pass. With no runtime left the sweeper still finds it.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let (inner, location, id, marker) = (
            Arc::clone(&self.inner),
            self.location.clone(),
            self.id.clone(),
            self.marker.clone(),
        );
        drop(runtime.spawn(async move {
            if let Err(error) = abort_tracked(&inner, &location, &id, &marker).await {
                tracing::warn!(%error, blob = %location, "given-up multipart upload not aborted");
            }
        }));
    }
}

#[async_trait]
impl MultipartUpload for TrackedUpload {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        let index = self.next;
        self.next += 1;
        let (inner, location, id) = (
            Arc::clone(&self.inner),
            self.location.clone(),
            self.id.clone(),
        );
        let parts = Arc::clone(&self.parts);
        Box::pin(async move {
            let part = inner.put_part(&location, &id, index, data).await?;
            let mut parts = parts.lock().unwrap_or_else(PoisonError::into_inner);
            if parts.len() <= index {
                parts.resize(index + 1, None);
            }
            parts[index] = Some(part);
            Ok(())
        })
    }

    async fn complete(&mut self) -> Result<PutResult> {
        // S3 completes no upload without a part: an empty object is one empty part.
        if self.next == 0 {
            self.put_part(PutPayload::default()).await?;
        }
        let parts: Option<Vec<PartId>> = {
            let parts = self.parts.lock().unwrap_or_else(PoisonError::into_inner);
            parts.iter().cloned().collect()
        };
        let parts =
            parts
                .filter(|p| p.len() == self.next)
                .ok_or_else(|| object_store::Error::Generic {
                    store: "quire-s3",
                    source: "a part of the upload did not finish before it was completed".into(),
                })?;
        let result = self
            .inner
            .complete_multipart(&self.location, &self.id, parts)
            .await?;
        self.done = true;
        forget(&self.inner, &self.marker).await;
        Ok(result)
    }

    async fn abort(&mut self) -> Result<()> {
        self.inner.abort_multipart(&self.location, &self.id).await?;
        self.done = true;
        forget(&self.inner, &self.marker).await;
        Ok(())
    }
}
