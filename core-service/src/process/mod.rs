//! What the three processing endpoints share: the worker pool and its settings, staged inputs,
//! the type of an input told from its bytes, and worker failures as API errors.

pub mod staged;

use std::{path::PathBuf, sync::Arc};

use quire_proto::ErrorCode;

use crate::{
    error::{ApiError, ApiResult},
    ocr::languages::Languages,
    workers::{
        PoolError, WorkerPool,
        protocol::{Answer, Failure, FailureKind, Info, Inspect, Job, Source, Task},
    },
};

/// A file streamed back to the caller (a ZIP of pages, a compressed PDF).
pub type ByteStream =
    std::pin::Pin<Box<dyn futures::Stream<Item = ApiResult<bytes::Bytes>> + Send>>;

/// `reader` as an answer's bytes, in the transport's chunks (ReaderStream's default 4 KiB made
/// a message per 4 KiB); `keep`, the temporary file or directory read from, lives as long as
/// the answer streams. A read error is an internal error in `context`.
pub fn read_stream<R, K>(
    reader: R,
    keep: K,
    context: &'static str,
) -> impl futures::Stream<Item = ApiResult<bytes::Bytes>> + Send + 'static
where
    R: tokio::io::AsyncRead + Send + 'static,
    K: Send + 'static,
{
    use futures::StreamExt;
    tokio_util::io::ReaderStream::with_capacity(reader, quire_proto::transport::CHUNK_SIZE).map(
        move |chunk| {
            let _keep = &keep;
            chunk.map_err(|e| ApiError::internal(context, e))
        },
    )
}

/// SPEC 8: OCR and PDF to images take up to 30 pages.
pub const MAX_PAGES: u32 = 30;

#[derive(Clone)]
pub struct Processing {
    pub pool: WorkerPool,
    pub languages: Arc<Languages>,
    /// Pixel cap of one image or rendered page.
    pub max_pixels: u64,
    /// Where inputs are staged for the workers.
    pub staging: PathBuf,
}

impl Processing {
    /// Runs one job; a failure reported by the worker or the pool becomes an API error that
    /// says whose fault it was.
    pub async fn run(&self, job: Job) -> Result<Answer, ApiError> {
        match self.pool.run(job).await {
            Ok(Answer::Failure(failure)) => Err(failure_error(failure)),
            Ok(answer) => Ok(answer),
            Err(err) => Err(pool_error(err)),
        }
    }
}

impl Processing {
    /// Page (or frame) count and PDF page sizes of a staged input, refused when it has no
    /// page or more than [`MAX_PAGES`]; `what` names the endpoint in that refusal.
    pub async fn inspect(&self, path: &str, source: Source, what: &str) -> ApiResult<Info> {
        let answer = self
            .run(Job {
                task: Some(Task::Inspect(Inspect {
                    path: path.to_owned(),
                    source: source as i32,
                })),
            })
            .await?;
        let Answer::Info(info) = answer else {
            return Err(unexpected_answer());
        };
        match info.pages {
            0 => Err(ApiError::new(
                ErrorCode::InvalidFile,
                "the file has no pages",
            )),
            pages if pages > MAX_PAGES => Err(ApiError::new(
                ErrorCode::TooManyPages,
                format!(
                    "the file has {pages} pages and {what} takes at most {MAX_PAGES}: split it \
                     and send the parts"
                ),
            )),
            _ => Ok(info),
        }
    }
}

/// An input's type, told from its first bytes (never from its name or declared type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Pdf,
    /// A TIFF, which may hold several pages.
    Tiff,
    /// A single-frame image (PNG, JPEG, WebP, BMP).
    Image,
}

pub fn sniff(head: &[u8]) -> Result<InputKind, String> {
    // PDF readers accept the header anywhere in the first 1 KiB.
    if head.windows(5).any(|w| w == b"%PDF-") {
        return Ok(InputKind::Pdf);
    }
    match infer::get(head).map(|t| t.mime_type()) {
        Some("image/tiff") => Ok(InputKind::Tiff),
        Some("image/png" | "image/jpeg" | "image/webp" | "image/bmp") => Ok(InputKind::Image),
        Some(mime) => Err(mime.to_owned()),
        None => Err("data of an unknown type".to_owned()),
    }
}

pub fn unexpected_answer() -> ApiError {
    ApiError::internal("processing", "worker answered another job type")
}

/// A failure the worker reported, as the API error that says whose fault it was.
pub fn failure_error(Failure { kind, message }: Failure) -> ApiError {
    let code = match FailureKind::try_from(kind) {
        Ok(FailureKind::InvalidFile) => ErrorCode::InvalidFile,
        Ok(FailureKind::TooManyPixels) => ErrorCode::TooManyPixels,
        Ok(FailureKind::Encrypted) => ErrorCode::EncryptedPdf,
        Ok(FailureKind::OverLimit | FailureKind::CheckFailed) => ErrorCode::UnprocessableFile,
        Ok(FailureKind::BadOptions) => ErrorCode::InvalidArgument,
        Ok(FailureKind::WrongPassword) => ErrorCode::WrongPassword,
        Ok(FailureKind::Engine) | Err(_) => {
            tracing::error!(error = %message, "engine failure");
            ErrorCode::ProcessingFailed
        }
    };
    ApiError::new(code, message)
}

fn pool_error(err: PoolError) -> ApiError {
    match err {
        PoolError::Busy { .. } => ApiError::new(
            ErrorCode::ProcessingBusy,
            format!("{err}: retry in a few seconds"),
        )
        .with_metadata("retry-after", 5),
        PoolError::TimedOut(_) => ApiError::new(
            ErrorCode::UnprocessableFile,
            format!("{err}: the file is too complex to process; simplify or split it"),
        ),
        PoolError::Crashed(_) => ApiError::new(
            ErrorCode::UnprocessableFile,
            format!(
                "{err}: the file could not be processed (it needs more memory than allowed or \
                 is malformed)"
            ),
        ),
        PoolError::Lost(_) => {
            tracing::error!(error = %err, "worker lost");
            ApiError::new(
                ErrorCode::ProcessingFailed,
                "the processing worker stopped during the job; retry the request",
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_by_content() {
        assert_eq!(sniff(b"%PDF-1.7\n..."), Ok(InputKind::Pdf));
        assert_eq!(
            sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
            Ok(InputKind::Image)
        );
        assert_eq!(sniff(b"II*\0\x08\0\0\0\x10\0"), Ok(InputKind::Tiff));
        assert_eq!(
            sniff(b"hello world").unwrap_err(),
            "data of an unknown type"
        );
        assert_eq!(
            sniff(b"PK\x03\x04\x14\0\0\0\0\0").unwrap_err(),
            "application/zip"
        );
    }
}
