//! Native engines (PDFium, Tesseract, the PDF compressor) run in worker processes: a crash or
//! a runaway input takes down one worker, never the service.

pub mod engines;
pub mod pool;
pub mod protocol;
pub(crate) mod toolbox;
mod view;
pub mod worker;

pub use pool::{PoolError, PoolSettings, WorkerPool};
pub use view::WorkerView;
pub use worker::WorkerArgs;
