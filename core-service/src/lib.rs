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
pub mod idempotency;
pub mod ocr;
pub mod pdf;
pub mod process;
pub mod quota;
pub mod resumable;
pub mod scan;
pub mod shares;
pub mod storage;
pub mod support;
pub mod telemetry;
pub mod tools;
pub mod workers;

use std::sync::Arc;

use sea_orm::DatabaseConnection;

pub use config::CoreConfig;
use scan::{ClamdAddr, ClamdPool, Scanner};

/// Everything a request needs; cheap to clone.
#[derive(Clone)]
pub struct Core {
    pub config: Arc<CoreConfig>,
    pub db: DatabaseConnection,
    pub store: storage::Store,
    /// `None` only when started with `--insecure-no-scan`.
    pub scanner: Option<Arc<dyn Scanner>>,
    /// Bounds CPU-bound request work to one job per core.
    pub cpu: cpu::CpuPool,
    /// Worker processes and settings of the OCR and PDF engines.
    pub processing: process::Processing,
    /// This replica's name among the cores on one database (its calls in flight are written
    /// under it).
    pub replica: Arc<str>,
    /// The digests of this replica's resumable uploads in progress.
    pub running_digests: Arc<resumable::RunningDigests>,
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
        let store = storage::Store::open(&config.store_url()?, &config.store_options)?;
        tracing::info!(%store, "blob store");
        let scanner: Option<Arc<dyn Scanner>> = if config.insecure_no_scan {
            tracing::warn!(
                "uploads are NOT scanned for viruses (--insecure-no-scan): never run this way in production"
            );
            None
        } else {
            let addrs = ClamdAddr::parse_list(&config.clamd)?;
            Some(Arc::new(ClamdPool::new(addrs, config.clamd_timeout())))
        };
        let processing = processing(&config)?;
        Ok(Core {
            config: Arc::new(config),
            db,
            store,
            scanner,
            cpu: cpu::CpuPool::per_core(),
            processing,
            replica: quota::replicas::new_id(),
            running_digests: Default::default(),
        })
    }
}

/// The worker pool (started lazily; `quire serve` warms it up) and the engines' settings.
fn processing(config: &CoreConfig) -> anyhow::Result<process::Processing> {
    let languages = ocr::languages::Languages::discover(config.tessdata.as_deref())?;
    tracing::info!(
        languages = %languages.installed().join(","),
        tessdata = %languages.tessdata.display(),
        "ocr languages"
    );
    let pdfium_lib = config.pdfium_lib();
    anyhow::ensure!(
        pdfium_lib
            .parent()
            .is_none_or(|dir| dir.as_os_str().is_empty())
            || pdfium_lib.is_file(),
        "no PDFium library at {}: run scripts/setup.sh or set QUIRE_PDFIUM_LIB",
        pdfium_lib.display()
    );
    let program = match &config.worker_program {
        Some(program) => program.clone(),
        None => std::env::current_exe()
            .map_err(|e| anyhow::anyhow!("cannot find the running binary for workers: {e}"))?,
    };
    let mut worker_flags = vec![
        "--pdfium-lib".into(),
        pdfium_lib.clone().into_os_string(),
        "--tessdata".into(),
        languages.tessdata.clone().into_os_string(),
        "--memory-limit".into(),
        config.worker_memory.to_string().into(),
        "--preload-lang".into(),
        ocr::languages::DEFAULT_LANG.into(),
        "--job-timeout".into(),
        config.job_timeout().as_secs().to_string().into(),
        "--office-dir".into(),
        config.office_dir.clone().into_os_string(),
        "--office-python".into(),
        config.office_python.clone().into_os_string(),
        "--chromium".into(),
        config.chromium.clone().into_os_string(),
        "--engine-dir".into(),
        config.data_dir.join("engines").into_os_string(),
    ];
    if !config.prewarm.is_empty() {
        worker_flags.push("--prewarm".into());
        worker_flags.push(config.prewarm.join(",").into());
    }
    let staging = config.data_dir.join("processing");
    let engine_dir = config.data_dir.join("engines");
    std::fs::create_dir_all(&staging)?;
    std::fs::create_dir_all(&engine_dir)?;
    let view = workers::WorkerView {
        readable: vec![
            pdfium_lib.clone(),
            languages.tessdata.clone(),
            config.office_dir.clone(),
            config.office_python.clone(),
            config
                .chromium
                .parent()
                .unwrap_or(&config.chromium)
                .to_path_buf(),
        ],
        writable: vec![staging.clone()],
        engine_dir: Some(engine_dir),
    };
    let pool = workers::WorkerPool::new(workers::PoolSettings {
        program,
        args: vec!["worker".into()],
        workers: config.workers(),
        queue: config.job_queue,
        job_timeout: config.job_timeout(),
        worker_flags,
        view,
    });
    // A request holds its input for at most one inspection and 30 page jobs, each within the
    // job time limit: anything older belongs to no request still running on any core.
    process::staged::sweep_stale(&staging, config.job_timeout() * (process::MAX_PAGES + 1));
    Ok(process::Processing {
        pool,
        languages: Arc::new(languages),
        max_pixels: config.max_pixels,
        staging,
    })
}
