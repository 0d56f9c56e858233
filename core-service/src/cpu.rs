//! CPU-bound work (the support workflow today) off the async runtime, at most one job per core
//! at a time, so a burst of large tickets queues instead of starving uploads and health checks.

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::error::{ApiError, ApiResult};

#[derive(Clone)]
pub struct CpuPool {
    permits: Arc<Semaphore>,
}

impl CpuPool {
    pub fn new(jobs: usize) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(jobs.max(1))),
        }
    }

    /// One job per available core.
    pub fn per_core() -> Self {
        Self::new(std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// Runs `job` on the blocking pool once a core is free.
    pub async fn run<T, F>(&self, what: &'static str, job: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|err| ApiError::internal(what, err))?;
        tokio::task::spawn_blocking(job)
            .await
            .map_err(|err| ApiError::internal(what, err))
    }
}
