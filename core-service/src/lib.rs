//! Quire's core: every decision (who calls, what they may do, what it costs, what is stored)
#![cfg_attr(test, allow(clippy::unwrap_used))]
//! and all processing, behind the quire.v1 gRPC API. Stateless between requests: all state is
//! in the database and the object store, so replicas can run side by side.

pub mod auth;
pub mod config;
pub mod cpu;
pub mod db;
pub mod error;
pub mod files;
pub mod grpc;
pub mod quota;
pub mod scan;
pub mod storage;
pub mod support;
pub mod telemetry;

use std::sync::Arc;

use object_store::ObjectStore;
use sea_orm::DatabaseConnection;

pub use config::CoreConfig;
use scan::{ClamdAddr, ClamdScanner, Scanner};

/// Everything a request needs; cheap to clone.
#[derive(Clone)]
pub struct Core {
    pub config: Arc<CoreConfig>,
    pub db: DatabaseConnection,
    pub store: Arc<dyn ObjectStore>,
    /// `None` only when started with `--insecure-no-scan`.
    pub scanner: Option<Arc<dyn Scanner>>,
    /// Bounds CPU-bound request work to one job per core.
    pub cpu: cpu::CpuPool,
}

impl Core {
    /// Connects to the database (running migrations), opens the blob store and sets up the
    /// scanner from the configuration.
    pub async fn open(config: CoreConfig) -> anyhow::Result<Core> {
        config.validate()?;
        std::fs::create_dir_all(&config.data_dir).map_err(|e| {
            anyhow::anyhow!("cannot create data dir {}: {e}", config.data_dir.display())
        })?;
        let db = db::connect(&config.database_url()).await?;
        let store = storage::open_local(&config.data_dir)?;
        let scanner: Option<Arc<dyn Scanner>> = if config.insecure_no_scan {
            tracing::warn!(
                "uploads are NOT scanned for viruses (--insecure-no-scan): never run this way in production"
            );
            None
        } else {
            let addr = ClamdAddr::parse(&config.clamd)?;
            Some(Arc::new(ClamdScanner::new(addr, config.clamd_timeout())))
        };
        Ok(Core {
            config: Arc::new(config),
            db,
            store,
            scanner,
            cpu: cpu::CpuPool::per_core(),
        })
    }
}
