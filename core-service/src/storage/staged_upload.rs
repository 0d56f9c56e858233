//! A multipart upload into a staging file that is flushed to disk while it grows, then made
//! durable and renamed into the store when complete.
//!
//! Flushing as the bytes arrive is the point: `LocalFileSystem` leaves every byte in the page
//! cache until `complete`, whose fsync then writes the whole object at once (≈ 1.3 s per GiB on
//! this class of disk, after the last byte arrived). Here a background fdatasync starts each time
//! another [`FLUSH_EVERY`] bytes are written, so writeback overlaps the transfer and `complete`
//! waits only for the tail.

use std::{
    fs::{File, OpenOptions},
    io,
    os::unix::fs::FileExt,
    path::{Path, PathBuf},
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    thread::JoinHandle,
};

use async_trait::async_trait;
use futures::FutureExt;
use object_store::{MultipartUpload, PutPayload, PutResult, UploadPart};

use super::local_store::generic;

/// Bytes written between two background flushes: large enough that the journal commit each
/// fdatasync costs is noise, small enough that little is left to flush at the end (and that a
/// 16 MiB tus part is flushed while it arrives). 1 GiB uploads (scripts/bench.sh upload) took
/// 1.21–1.30 s with 32 MiB, 1.05–1.30 s with 8, 0.92–1.46 s with 4 and 1.10–1.16 s with 1.
const FLUSH_EVERY: u64 = 4 * 1024 * 1024;

#[derive(Debug)]
pub struct StagedUpload {
    shared: Arc<Shared>,
    /// Where the next part goes: parts are numbered in order but may be written out of order.
    offset: u64,
    /// Set once completed or aborted; a staged file still here on drop is removed.
    done: bool,
}

#[derive(Debug)]
struct Shared {
    staging: PathBuf,
    dest: PathBuf,
    file: Mutex<Writer>,
}

#[derive(Debug)]
struct Writer {
    file: File,
    /// Bytes written since the last flush started.
    unflushed: u64,
    /// The flush in progress, if any; at most one runs at a time.
    flush: Option<JoinHandle<io::Result<()>>>,
}

impl StagedUpload {
    /// Creates the staging file `staging`, which becomes `dest` on completion.
    pub fn create(staging: PathBuf, dest: PathBuf) -> io::Result<StagedUpload> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&staging)?;
        Ok(StagedUpload {
            shared: Arc::new(Shared {
                staging,
                dest,
                file: Mutex::new(Writer {
                    file,
                    unflushed: 0,
                    flush: None,
                }),
            }),
            offset: 0,
            done: false,
        })
    }
}

impl Writer {
    fn write_at(&mut self, payload: &PutPayload, mut offset: u64) -> io::Result<()> {
        for bytes in payload.iter() {
            self.file.write_all_at(bytes, offset)?;
            offset += bytes.len() as u64;
            self.unflushed += bytes.len() as u64;
        }
        if self.unflushed >= FLUSH_EVERY && self.flush.as_ref().is_none_or(|f| f.is_finished()) {
            self.join_flush()?;
            let file = self.file.try_clone()?;
            self.flush = Some(std::thread::spawn(move || file.sync_data()));
            self.unflushed = 0;
        }
        Ok(())
    }

    /// Waits for the flush in progress and reports its error.
    fn join_flush(&mut self) -> io::Result<()> {
        match self.flush.take() {
            None => Ok(()),
            Some(flush) => flush
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("flush thread panicked"))),
        }
    }
}

#[async_trait]
impl MultipartUpload for StagedUpload {
    fn put_part(&mut self, data: PutPayload) -> UploadPart {
        let offset = self.offset;
        self.offset += data.content_length() as u64;
        let shared = Arc::clone(&self.shared);
        tokio::task::spawn_blocking(move || {
            shared
                .writer()
                .write_at(&data, offset)
                .map_err(|e| shared.error("write", e))
        })
        .map(flatten)
        .boxed()
    }

    async fn complete(&mut self) -> object_store::Result<PutResult> {
        self.done = true;
        let shared = Arc::clone(&self.shared);
        tokio::task::spawn_blocking(move || {
            let published = shared.publish();
            if published.is_err() {
                // Nothing will retry this upload: its bytes go now rather than at the next sweep.
                let _ = std::fs::remove_file(&shared.staging);
            }
            published
        })
        .map(flatten)
        .await?;
        Ok(PutResult {
            e_tag: None,
            version: None,
            extensions: Default::default(),
        })
    }

    async fn abort(&mut self) -> object_store::Result<()> {
        self.done = true;
        let shared = Arc::clone(&self.shared);
        tokio::task::spawn_blocking(move || {
            let flushed = shared.writer().join_flush();
            let removed = std::fs::remove_file(&shared.staging);
            flushed.and(removed).map_err(|e| shared.error("remove", e))
        })
        .map(flatten)
        .await
    }
}

impl Shared {
    /// Flushes what is left, renames the staging file into place and makes the rename durable.
    fn publish(&self) -> object_store::Result<()> {
        let mut writer = self.writer();
        writer.join_flush().map_err(|e| self.error("flush", e))?;
        writer.file.sync_all().map_err(|e| self.error("flush", e))?;
        let dir = self.dest.parent().unwrap_or(Path::new("/"));
        if let Err(e) = std::fs::rename(&self.staging, &self.dest) {
            if e.kind() != io::ErrorKind::NotFound || !self.staging.exists() {
                return Err(self.error("publish", e));
            }
            // The destination's directory did not exist yet.
            create_dir_durably(dir).map_err(|e| self.error("publish", e))?;
            std::fs::rename(&self.staging, &self.dest).map_err(|e| self.error("publish", e))?;
        }
        fsync_dir(dir).map_err(|e| self.error("publish", e))
    }

    /// The writer; a panic while it was held leaves nothing worse than a failed upload.
    fn writer(&self) -> MutexGuard<'_, Writer> {
        self.file.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn error(&self, action: &str, source: io::Error) -> object_store::Error {
        generic(
            format!(
                "could not {action} staged upload {}: {source}",
                self.staging.display()
            )
            .into(),
        )
    }
}

impl Drop for StagedUpload {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        // Neither completed nor aborted: the upload was given up, so its bytes go.
        let staging = self.shared.staging.clone();
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => drop(handle.spawn_blocking(move || std::fs::remove_file(staging))),
            Err(_) => drop(std::fs::remove_file(staging)),
        }
    }
}

/// Creates `dir` and any missing parents, fsyncing each parent whose entries changed.
fn create_dir_durably(dir: &Path) -> io::Result<()> {
    let mut missing = Vec::new();
    let mut probe = Some(dir);
    while let Some(p) = probe.filter(|p| !p.exists()) {
        missing.push(p);
        probe = p.parent();
    }
    std::fs::create_dir_all(dir)?;
    for created in missing.iter().rev() {
        if let Some(parent) = created.parent() {
            fsync_dir(parent)?;
        }
    }
    Ok(())
}

fn fsync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

fn flatten<T>(
    joined: Result<object_store::Result<T>, tokio::task::JoinError>,
) -> object_store::Result<T> {
    joined.map_err(|e| generic(Box::new(e)))?
}
