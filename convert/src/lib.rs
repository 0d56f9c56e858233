//! Conversions that need a whole program as their engine, kept warm between jobs: LibreOffice
//! for office documents and Chromium for HTML and Markdown. Synchronous: used by the worker
//! processes, one job at a time, each worker owning at most one instance of each engine.
//!
//! Each engine runs supervised (`process`): its own process group, killed with the worker, cut
//! from the network where the machine allows it, and bounded per job in time and in memory
//! (the resident size of its whole process tree); an engine that overruns is killed and started
//! again for the next job.

pub mod chromium;
pub mod markdown;
pub mod office;
pub mod process;
pub mod site;

use std::time::Duration;

/// Why a conversion failed; the service maps each to an HTTP status / gRPC code.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The document cannot be read (corrupt, not the type it claims, protected by a password). -> 422
    #[error("{0}")]
    Unreadable(String),
    /// The options do not fit (an unknown paper size, margins larger than the page). -> 400
    #[error("{0}")]
    BadOptions(String),
    /// The job went past its time or memory limit; the engine was killed and is started again
    /// for the next job. -> 422 over-limit
    #[error("{0}")]
    OverLimit(String),
    /// The document does what a conversion refuses (a page that navigates away from itself or
    /// closes its window); the engine is fine. -> 422 unprocessable-file
    #[error("{0}")]
    Refused(String),
    /// The engine is missing or failed for a reason that says nothing about the input. -> 500
    #[error("{0}")]
    Engine(String),
}

/// What one job may use.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock time for the conversion, engine start included when it has to start.
    pub time: Duration,
    /// Resident memory of the engine's whole process tree, in bytes.
    pub memory: u64,
}
