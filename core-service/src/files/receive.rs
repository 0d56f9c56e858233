//! An upload's bytes as they arrive: counted against the size limit and the storage left,
//! hashed, fed to clamd and written to the pending blob in parallel (see `tee`); or, for a
//! resumable upload whose digest was computed as its parts arrived and that nothing scans,
//! only the head of its stored parts read back.

use chrono::Utc;
use futures::{Stream, StreamExt};
use quire_proto::ErrorCode;

use super::{
    mime,
    tee::{DigestTee, ScanTee},
    upload::UploadPiece,
    upload_guard::UploadGuard,
    upload_options::{download_limit, expiry},
};
use crate::{
    Core,
    error::{ApiError, ApiResult},
    quota::storage,
    scan::{self, ScanSession},
};

/// Parts in flight to the store at once.
const PART_CONCURRENCY: usize = 2;

/// Storage the account has left when the upload starts, and its whole quota.
#[derive(Clone, Copy)]
pub(super) struct Budget {
    pub headroom: u64,
    pub quota: u64,
}

pub(super) struct Received {
    pub(super) size: u64,
    pub(super) digest: String,
    pub(super) head: Vec<u8>,
    /// The expiry from a lifetime sent after the bytes, already checked.
    pub(super) expires_at: Option<chrono::DateTime<Utc>>,
    /// The download limit sent after the bytes, already checked.
    pub(super) max_downloads: Option<i64>,
    /// The clamd stream, all chunks sent, verdict pending.
    pub(super) scan: Option<ScanTee>,
}

/// Receives the whole stream; hashes it unless its digest is `known` (a resumable upload's,
/// computed as its parts arrived).
pub(super) async fn stream<S>(
    core: &Core,
    guard: &mut UploadGuard,
    (scan, known): (Option<Box<dyn ScanSession>>, Option<&str>),
    chunks: S,
    budget: Budget,
) -> ApiResult<Received>
where
    S: Stream<Item = ApiResult<UploadPiece>> + Send,
{
    let Budget { headroom, quota } = budget;
    let max = core.config.max_upload_size;
    let timeout = core.config.upload_timeout();
    let deadline = tokio::time::Instant::now() + timeout;
    let hashing = known.is_none().then(DigestTee::start);
    let mut scan = scan.map(ScanTee::start);
    let mut head = Vec::with_capacity(mime::SNIFF_LEN);
    let mut size = 0u64;
    let mut expires_at = None;
    let mut max_downloads = None;
    let mut trailer_seen = false;
    let mut chunks = std::pin::pin!(chunks);
    loop {
        let next = tokio::time::timeout_at(deadline, chunks.next())
            .await
            .map_err(|_| {
                ApiError::invalid(format!(
                    "the upload took longer than {} s: retry on a faster link or raise QUIRE_UPLOAD_TIMEOUT",
                    timeout.as_secs()
                ))
            })?;
        let Some(piece) = next else { break };
        let chunk = match piece? {
            UploadPiece::Chunk(_) if trailer_seen => {
                return Err(ApiError::invalid(
                    "a chunk came after the trailing metadata: the trailing metadata must be the last message",
                ));
            }
            UploadPiece::Chunk(chunk) => chunk,
            UploadPiece::Trailer(late) => {
                trailer_seen = true;
                // Checked now, not at the commit: a bad option must not cost a stored blob.
                expires_at = expiry(core.config.max_expires_in, late.expires_in)?;
                max_downloads = download_limit(late.max_downloads)?;
                continue;
            }
        };
        if chunk.is_empty() {
            continue;
        }
        size += chunk.len() as u64;
        check_size(size, max, headroom, quota)?;
        extend_head(&mut head, &chunk);
        if let Some(hashing) = &hashing {
            hashing.push(chunk.clone()).await?;
        }
        if let Some(scan) = scan.as_mut() {
            scan.push(chunk.clone()).await.map_err(scan::unavailable)?;
        }
        if let Some(writer) = guard.writer.as_mut() {
            writer.wait_for_capacity(PART_CONCURRENCY).await?;
            writer.put(chunk);
        }
    }
    Ok(Received {
        size,
        digest: match hashing {
            Some(hashing) => hashing.finish().await?,
            None => known.unwrap_or_default().to_owned(),
        },
        head,
        expires_at,
        max_downloads,
        scan,
    })
}

/// The stored parts of a resumable upload, of these `sizes` and `digest`: only their first
/// bytes are read, as many as MIME sniffing and a share's layout check need.
pub(super) async fn stored<S>(
    core: &Core,
    sizes: &[u64],
    digest: &str,
    chunks: S,
    budget: Budget,
) -> ApiResult<Received>
where
    S: Stream<Item = ApiResult<UploadPiece>> + Send,
{
    let size = sizes.iter().sum();
    check_size(
        size,
        core.config.max_upload_size,
        budget.headroom,
        budget.quota,
    )?;
    Ok(Received {
        size,
        digest: digest.to_owned(),
        head: read_head(chunks).await?,
        expires_at: None,
        max_downloads: None,
        scan: None,
    })
}

async fn read_head<S>(chunks: S) -> ApiResult<Vec<u8>>
where
    S: Stream<Item = ApiResult<UploadPiece>> + Send,
{
    let mut head = Vec::with_capacity(mime::SNIFF_LEN);
    let mut chunks = std::pin::pin!(chunks);
    while head.len() < mime::SNIFF_LEN {
        match chunks.next().await.transpose()? {
            Some(UploadPiece::Chunk(chunk)) => extend_head(&mut head, &chunk),
            Some(UploadPiece::Trailer(_)) => {}
            None => break,
        }
    }
    Ok(head)
}

/// Adds the start of `chunk` to `head` until it holds what sniffing reads.
fn extend_head(head: &mut Vec<u8>, chunk: &[u8]) {
    let take = mime::SNIFF_LEN.saturating_sub(head.len()).min(chunk.len());
    head.extend_from_slice(&chunk[..take]);
}

pub(super) fn check_size(size: u64, max: u64, headroom: u64, quota: u64) -> ApiResult<()> {
    if size > max {
        return Err(ApiError::new(
            ErrorCode::FileTooLarge,
            format!(
                "the file is larger than the maximum upload size of {max} bytes: send a smaller file"
            ),
        ));
    }
    if size > headroom {
        return Err(storage::quota_exceeded(size, quota));
    }
    Ok(())
}
