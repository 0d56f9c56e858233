//! A processing input written to disk before the engines see it: workers open it by path, and
//! PDFium reads it lazily instead of holding it in memory. The file goes away on drop, whatever
//! happens to the request.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use futures::{Stream, StreamExt};
use quire_proto::ErrorCode;
use tokio::io::AsyncWriteExt;

use crate::error::{ApiError, ApiResult};

/// Bytes kept from the start of the file to tell its type.
const HEAD: usize = 1024;

pub struct StagedInput {
    path: PathBuf,
    pub size: u64,
    pub head: Vec<u8>,
    /// BLAKE3 (hex) of the content: what an `Idempotency-Key`'s fingerprint holds of the file.
    pub digest: String,
}

impl StagedInput {
    /// The path as workers receive it.
    pub fn path(&self) -> String {
        self.path.to_string_lossy().into_owned()
    }

    /// A path beside this file for an engine's output, removed on drop like the input.
    pub fn sibling(&self, suffix: &str) -> StagedInput {
        let mut name = self.path.file_name().unwrap_or_default().to_owned();
        name.push(format!("-{suffix}"));
        StagedInput {
            path: self.path.with_file_name(name),
            size: 0,
            head: Vec::new(),
            digest: String::new(),
        }
    }
}

impl Drop for StagedInput {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_file(&self.path)
            && err.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(path = %self.path.display(), error = %err, "staged input not removed");
        }
    }
}

/// Writes `chunks` to a fresh file in `dir`, refusing more than `max_size` bytes.
pub async fn stage<S>(dir: &Path, max_size: u64, chunks: S) -> ApiResult<StagedInput>
where
    S: Stream<Item = ApiResult<Bytes>>,
{
    tokio::fs::create_dir_all(dir)
        .await
        .map_err(|e| ApiError::internal("staging the input", e))?;
    let mut staged = StagedInput {
        path: dir.join(format!("input-{}", uuid::Uuid::new_v4())),
        size: 0,
        head: Vec::with_capacity(HEAD),
        digest: String::new(),
    };
    // Hashed as it is written: BLAKE3 runs at several GB/s, far ahead of any engine.
    let mut hasher = blake3::Hasher::new();
    let mut file = tokio::fs::File::create(&staged.path)
        .await
        .map_err(|e| ApiError::internal("staging the input", e))?;
    let mut chunks = std::pin::pin!(chunks);
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk?;
        staged.size += chunk.len() as u64;
        if staged.size > max_size {
            return Err(ApiError::new(
                ErrorCode::FileTooLarge,
                format!("the file is over the {max_size}-byte limit: send a smaller file"),
            ));
        }
        if staged.head.len() < HEAD {
            let take = (HEAD - staged.head.len()).min(chunk.len());
            staged.head.extend_from_slice(&chunk[..take]);
        }
        hasher.update(&chunk);
        file.write_all(&chunk)
            .await
            .map_err(|e| ApiError::internal("staging the input", e))?;
    }
    staged.digest = hasher.finalize().to_hex().to_string();
    file.flush()
        .await
        .map_err(|e| ApiError::internal("staging the input", e))?;
    if staged.size == 0 {
        return Err(ApiError::new(
            ErrorCode::EmptyFile,
            "the file is empty: send the file's content in the file field",
        ));
    }
    Ok(staged)
}

/// Removes staged files older than `age`: what a crash left behind. Younger files may belong
/// to requests in flight on another core sharing the data directory.
pub fn sweep_stale(dir: &Path, age: std::time::Duration) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|elapsed| elapsed > age);
        if stale && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    if removed > 0 {
        tracing::info!(removed, dir = %dir.display(), "stale staged inputs removed");
    }
}
