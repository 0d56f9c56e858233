//! Antivirus scanning of upload streams through clamd's INSTREAM command.

mod clamd;
mod pool;

pub use clamd::{ClamdAddr, ClamdScanner};
pub use pool::ClamdPool;

use async_trait::async_trait;
use quire_proto::ErrorCode;

use crate::error::ApiError;

/// What clamd concluded about a complete stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Clean,
    Infected(String),
}

/// Why a stream could not be scanned. Never a pass: the upload is refused with 503.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("clamd is unreachable at {addr}: {source}")]
    Unreachable {
        addr: String,
        source: std::io::Error,
    },
    #[error("clamd did not answer within {0} s")]
    Timeout(u64),
    #[error("clamd connection failed: {0}")]
    Io(#[from] std::io::Error),
    /// clamd answered with an error, such as `INSTREAM size limit exceeded`.
    #[error("clamd refused the stream: {0}")]
    Refused(String),
}

/// A daemon that scans streams. A trait so tests of the upload path can stand in a failing one.
#[async_trait]
pub trait Scanner: Send + Sync + 'static {
    async fn start(&self) -> Result<Box<dyn ScanSession>, ScanError>;
    async fn ping(&self) -> Result<(), ScanError>;
}

#[async_trait]
pub trait ScanSession: Send {
    async fn write(&mut self, chunk: &[u8]) -> Result<(), ScanError>;
    async fn finish(self: Box<Self>) -> Result<Verdict, ScanError>;
}

/// A scan that could not be made: the file is refused, never passed unscanned.
pub fn unavailable(err: ScanError) -> ApiError {
    tracing::error!(error = %err, "antivirus scan failed");
    ApiError::new(
        ErrorCode::ScannerUnavailable,
        "the antivirus could not scan this file, so it was not stored: retry in a few seconds",
    )
    .with_metadata(quire_proto::metadata::RETRY_AFTER, 5)
}
