//! Typed configuration of the core, from flags and `QUIRE_*` environment variables.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use clap::Args;

const MIB: u64 = 1024 * 1024;
const GIB: u64 = 1024 * MIB;
/// Room for the fields around a support ticket's text in its gRPC message.
const TICKET_ENVELOPE: usize = 64 * 1024;

/// Every `QUIRE_*` variable any Quire binary reads. A variable outside this list is a typo or a
/// setting from another version, and starting anyway would silently ignore it.
pub const KNOWN_ENV: &[&str] = &[
    "QUIRE_HTTP_ADDR",
    "QUIRE_GRPC_ADDR",
    "QUIRE_GRPC_SOCKET",
    "QUIRE_CORE_URL",
    "QUIRE_TRUSTED_PROXIES",
    "QUIRE_ALLOWED_HOSTS",
    "QUIRE_EDGE_SECRET",
    "QUIRE_METRICS_ADDR",
    "QUIRE_DATA_DIR",
    "QUIRE_DATABASE_URL",
    "QUIRE_STORE_URL",
    "QUIRE_BASE_URL",
    "QUIRE_CLAMD",
    "QUIRE_CLAMD_TIMEOUT",
    "QUIRE_INSECURE_NO_SCAN",
    "QUIRE_FREE_DAILY_CALLS",
    "QUIRE_FREE_STORAGE_QUOTA",
    "QUIRE_PRO_STORAGE_QUOTA",
    "QUIRE_FREE_OPEN_UPLOADS",
    "QUIRE_PRO_OPEN_UPLOADS",
    "QUIRE_MAX_UPLOAD_SIZE",
    "QUIRE_MAX_EXPIRES_IN",
    "QUIRE_UPLOAD_TIMEOUT",
    "QUIRE_IDEMPOTENCY_TTL",
    "QUIRE_RESUMABLE_TTL",
    "QUIRE_SESSION_IDLE_TIMEOUT",
    "QUIRE_GRPC_MAX_MESSAGE_SIZE",
    "QUIRE_MAX_TICKET_SIZE",
    "QUIRE_WORKERS",
    "QUIRE_WORKER_PROGRAM",
    "QUIRE_WORKER_MEMORY",
    "QUIRE_JOB_TIMEOUT",
    "QUIRE_JOB_QUEUE",
    "QUIRE_OFFICE_DIR",
    "QUIRE_OFFICE_PYTHON",
    "QUIRE_CHROMIUM",
    "QUIRE_PREWARM",
    "QUIRE_PDFIUM_LIB",
    "QUIRE_TESSDATA",
    "QUIRE_MAX_PIXELS",
    "QUIRE_SANDBOX",
    "QUIRE_LOG",
    "QUIRE_LOG_FORMAT",
];

/// Prefixes of variables read by the test suite and the benchmarks, never by a binary.
const TOOLING_PREFIXES: &[&str] = &["QUIRE_TEST_", "QUIRE_BENCH_"];

/// Fails on any `QUIRE_*` variable that no Quire binary knows.
pub fn reject_unknown_env() -> anyhow::Result<()> {
    // The `quire` client's settings: a shell that exported them for `quire upload` can still
    // start a server.
    const CLIENT_ENV: &[&str] = &["QUIRE_URL", "QUIRE_API_KEY"];
    let unknown: Vec<String> = std::env::vars_os()
        .filter_map(|(key, _)| key.into_string().ok())
        .filter(|key| key.starts_with("QUIRE_") && !KNOWN_ENV.contains(&key.as_str()))
        .filter(|key| !CLIENT_ENV.contains(&key.as_str()))
        .filter(|key| {
            !TOOLING_PREFIXES
                .iter()
                .any(|prefix| key.starts_with(prefix))
        })
        .collect();
    if unknown.is_empty() {
        Ok(())
    } else {
        anyhow::bail!(
            "unknown setting(s) {}: known settings are {}",
            unknown.join(", "),
            KNOWN_ENV.join(", ")
        )
    }
}

#[derive(Args, Clone, Debug)]
pub struct CoreConfig {
    /// Address the gRPC API listens on.
    #[arg(long, env = "QUIRE_GRPC_ADDR", default_value = "127.0.0.1:50051")]
    pub grpc_addr: SocketAddr,

    /// Unix socket the gRPC API also listens on, for edges and services on the same host
    /// (`quire serve --core-url unix:///path`). `quire serve`'s own edge needs none: it calls
    /// its core in process.
    #[arg(long, env = "QUIRE_GRPC_SOCKET")]
    pub grpc_socket: Option<PathBuf>,

    /// Secret a remote edge (`quire serve --core-url`, given the same setting) proves itself
    /// with. Only the edge may state the client address that sign-up and log-in limits count;
    /// any other caller is counted by its own address. Not needed by `quire serve`'s own edge,
    /// which calls its core in process.
    #[arg(long, env = "QUIRE_EDGE_SECRET", hide_env_values = true)]
    pub edge_secret: Option<crate::grpc::EdgeSecret>,

    /// Directory for the SQLite database and the stored blobs.
    #[arg(long, env = "QUIRE_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// sqlite://... or postgres://...; default: SQLite at <data dir>/quire.db.
    #[arg(long, env = "QUIRE_DATABASE_URL")]
    pub database_url: Option<String>,

    /// Where blobs are stored: file:///path or s3://bucket/prefix (with the usual AWS_*
    /// variables); default: <data dir>/blobs.
    #[arg(long, env = "QUIRE_STORE_URL")]
    pub store_url: Option<String>,

    /// S3 settings (object_store's keys, such as aws_endpoint) applied after the AWS_*
    /// variables: set by tests, which run several stores in one process.
    #[arg(skip)]
    pub store_options: Vec<(String, String)>,

    /// Public base URL of share links; default: http://<http addr>.
    #[arg(long, env = "QUIRE_BASE_URL")]
    pub base_url: Option<String>,

    /// clamd address: tcp://host:port or unix:///path/to/clamd.ctl; several comma-separated
    /// share the scans, and one that cannot be reached is passed over for the next.
    #[arg(long, env = "QUIRE_CLAMD", default_value = "tcp://127.0.0.1:3310")]
    pub clamd: String,

    /// Seconds to wait for clamd to connect, take a chunk or give its verdict.
    #[arg(long, env = "QUIRE_CLAMD_TIMEOUT", default_value_t = 60)]
    pub clamd_timeout: u64,

    /// Accept uploads without scanning them. Never do this in production.
    #[arg(long, env = "QUIRE_INSECURE_NO_SCAN", default_value_t = false)]
    pub insecure_no_scan: bool,

    /// Calls a Free account may make per UTC day.
    #[arg(long, env = "QUIRE_FREE_DAILY_CALLS", default_value_t = 100)]
    pub free_daily_calls: u64,

    /// Storage quota of a Free account, in bytes.
    #[arg(long, env = "QUIRE_FREE_STORAGE_QUOTA", default_value_t = GIB)]
    pub free_storage_quota: u64,

    /// Storage quota of a Pro account, in bytes.
    #[arg(long, env = "QUIRE_PRO_STORAGE_QUOTA", default_value_t = 100 * GIB)]
    pub pro_storage_quota: u64,

    /// Unfinished resumable (tus) uploads a Free account may have at once.
    #[arg(long, env = "QUIRE_FREE_OPEN_UPLOADS", default_value_t = 10)]
    pub free_open_uploads: u64,

    /// Unfinished resumable (tus) uploads a Pro account may have at once.
    #[arg(long, env = "QUIRE_PRO_OPEN_UPLOADS", default_value_t = 100)]
    pub pro_open_uploads: u64,

    /// Largest file accepted, in bytes.
    #[arg(long, env = "QUIRE_MAX_UPLOAD_SIZE", default_value_t = 512 * MIB)]
    pub max_upload_size: u64,

    /// Longest lifetime a client may ask for with expiresIn, in seconds (default 1 year).
    #[arg(long, env = "QUIRE_MAX_EXPIRES_IN", default_value_t = 366 * 24 * 3600)]
    pub max_expires_in: u64,

    /// Seconds an upload may take; unfinished uploads older than this are swept.
    #[arg(long, env = "QUIRE_UPLOAD_TIMEOUT", default_value_t = 3600)]
    pub upload_timeout: u64,

    /// Seconds the first answer to an `Idempotency-Key` is kept for retries (default 24 h).
    #[arg(long, env = "QUIRE_IDEMPOTENCY_TTL", default_value_t = 24 * 3600)]
    pub idempotency_ttl: u64,

    /// Seconds an unfinished resumable (tus) upload may take before it and its bytes are
    /// deleted (default 24 h).
    #[arg(long, env = "QUIRE_RESUMABLE_TTL", default_value_t = 24 * 3600)]
    pub resumable_ttl: u64,

    /// Seconds a web session may go unused before it ends (default 12 h); however much it is
    /// used, it ends 7 days after log-in.
    #[arg(long, env = "QUIRE_SESSION_IDLE_TIMEOUT", default_value_t = 12 * 3600)]
    pub session_idle_timeout: u64,

    /// Largest support ticket (JSON body on HTTP; log plus context on gRPC), in bytes.
    #[arg(long, env = "QUIRE_MAX_TICKET_SIZE", default_value_t = quire_proto::transport::DEFAULT_MAX_TICKET_SIZE)]
    pub max_ticket_size: usize,

    /// Largest gRPC message, in bytes (file bytes travel in 256 KiB chunks; a support ticket
    /// travels whole).
    #[arg(long, env = "QUIRE_GRPC_MAX_MESSAGE_SIZE", default_value_t = 16 * MIB as usize)]
    pub grpc_max_message_size: usize,

    /// Worker processes for OCR and PDF work (0: one per core).
    #[arg(long, env = "QUIRE_WORKERS", default_value_t = 0)]
    pub workers: usize,

    /// Executable started as `<program> worker` (default: the running binary).
    #[arg(long, env = "QUIRE_WORKER_PROGRAM")]
    pub worker_program: Option<PathBuf>,

    /// Memory (address space) a worker may use, in bytes; a job that needs more fails with 422.
    #[arg(long, env = "QUIRE_WORKER_MEMORY", default_value_t = 4 * GIB)]
    pub worker_memory: u64,

    /// Seconds one job (one page, one image, one compression) may take.
    #[arg(long, env = "QUIRE_JOB_TIMEOUT", default_value_t = 120)]
    pub job_timeout: u64,

    /// Jobs that may wait for a free worker; more are refused with 503.
    #[arg(long, env = "QUIRE_JOB_QUEUE", default_value_t = 64)]
    pub job_queue: usize,

    /// libpdfium.so to load; default: next to the binary, then .cache/pdfium/ (where
    /// scripts/setup.sh puts it), then the system library path.
    #[arg(long, env = "QUIRE_PDFIUM_LIB")]
    pub pdfium_lib: Option<PathBuf>,

    /// Tesseract's tessdata folder; default: $TESSDATA_PREFIX, else Debian's.
    #[arg(long, env = "QUIRE_TESSDATA")]
    pub tessdata: Option<PathBuf>,

    /// LibreOffice's program folder, for office to PDF.
    #[arg(
        long,
        env = "QUIRE_OFFICE_DIR",
        default_value = "/usr/lib/libreoffice/program"
    )]
    pub office_dir: PathBuf,

    /// A Python with LibreOffice's UNO bindings (Debian's python3-uno).
    #[arg(long, env = "QUIRE_OFFICE_PYTHON", default_value = "/usr/bin/python3")]
    pub office_python: PathBuf,

    /// Chromium's binary, for HTML and Markdown to PDF (not Debian's /usr/bin/chromium
    /// wrapper script, which adds flags and API keys from /etc/chromium.d).
    #[arg(
        long,
        env = "QUIRE_CHROMIUM",
        default_value = "/usr/lib/chromium/chromium"
    )]
    pub chromium: PathBuf,

    /// Warm engines each worker starts with itself rather than at their first job: `office`,
    /// `html`, comma-separated (each costs 100-200 MB per worker while idle).
    #[arg(long, env = "QUIRE_PREWARM", value_delimiter = ',')]
    pub prewarm: Vec<String>,

    /// Largest image or rendered page, in pixels; larger is refused with 400 (a decompression
    /// bomb costs nothing).
    #[arg(long, env = "QUIRE_MAX_PIXELS", default_value_t = 100_000_000)]
    pub max_pixels: u64,
}

impl CoreConfig {
    pub fn database_url(&self) -> String {
        self.database_url.clone().unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("quire.db").display()
            )
        })
    }

    pub fn store_url(&self) -> anyhow::Result<crate::storage::StoreUrl> {
        crate::storage::StoreUrl::parse(self.store_url.as_deref(), &self.data_dir)
    }

    pub fn base_url(&self) -> String {
        self.base_url
            .clone()
            .unwrap_or_else(|| "http://127.0.0.1:8080".to_owned())
            .trim_end_matches('/')
            .to_owned()
    }

    pub fn clamd_timeout(&self) -> Duration {
        Duration::from_secs(self.clamd_timeout.max(1))
    }

    pub fn upload_timeout(&self) -> Duration {
        Duration::from_secs(self.upload_timeout.max(1))
    }

    pub fn workers(&self) -> usize {
        match self.workers {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        }
    }

    pub fn job_timeout(&self) -> Duration {
        Duration::from_secs(self.job_timeout.max(1))
    }

    pub fn resumable_ttl(&self) -> Duration {
        Duration::from_secs(self.resumable_ttl.max(1))
    }

    pub fn idempotency_ttl(&self) -> Duration {
        Duration::from_secs(self.idempotency_ttl.max(1))
    }

    pub fn session_idle_timeout(&self) -> Duration {
        Duration::from_secs(self.session_idle_timeout.max(1))
    }

    /// The longest one request may run: its upload, then an inspection and a job per page.
    /// A request still marked running after this belongs to a core that went away.
    pub fn request_lifetime(&self) -> Duration {
        self.upload_timeout() + self.job_timeout() * (crate::process::MAX_PAGES + 1)
    }

    /// The PDFium library: the setting, else the first that exists of `<binary dir>/libpdfium.so`
    /// and `.cache/pdfium/libpdfium.so`, else the bare name for the system loader.
    pub fn pdfium_lib(&self) -> PathBuf {
        if let Some(path) = &self.pdfium_lib {
            return path.clone();
        }
        let beside_binary = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(|dir| dir.join("libpdfium.so")));
        let candidates = beside_binary
            .into_iter()
            .chain([PathBuf::from(".cache/pdfium/libpdfium.so")]);
        for candidate in candidates {
            if candidate.is_file() {
                return candidate;
            }
        }
        PathBuf::from("libpdfium.so")
    }

    /// Checks relations between settings that clap cannot express.
    pub fn validate(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.max_upload_size > 0,
            "QUIRE_MAX_UPLOAD_SIZE must be positive"
        );
        anyhow::ensure!(
            self.grpc_max_message_size >= 512 * 1024,
            "QUIRE_GRPC_MAX_MESSAGE_SIZE must be at least 524288 (file chunks are 256 KiB)"
        );
        anyhow::ensure!(
            self.max_ticket_size > 0,
            "QUIRE_MAX_TICKET_SIZE must be positive"
        );
        anyhow::ensure!(
            self.grpc_max_message_size >= self.max_ticket_size + TICKET_ENVELOPE,
            "QUIRE_GRPC_MAX_MESSAGE_SIZE must be at least QUIRE_MAX_TICKET_SIZE + {TICKET_ENVELOPE} \
             (a support ticket travels in one message)"
        );
        if let Some(url) = &self.base_url {
            anyhow::ensure!(
                url.starts_with("http://") || url.starts_with("https://"),
                "QUIRE_BASE_URL must start with http:// or https://, got {url:?}"
            );
        }
        crate::scan::ClamdAddr::parse_list(&self.clamd)?;
        self.store_url()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use clap::{Args, Command};

    use super::*;

    /// A setting missing from the list would make every binary refuse to start with it set.
    #[test]
    fn every_core_setting_is_a_known_variable() {
        let command = CoreConfig::augment_args(Command::new("quire"));
        let mut read = 0;
        for arg in command.get_arguments() {
            if let Some(env) = arg.get_env().and_then(|env| env.to_str()) {
                assert!(
                    KNOWN_ENV.contains(&env),
                    "{env} is read but not in KNOWN_ENV"
                );
                read += 1;
            }
        }
        assert!(read >= 20, "{read} settings read from the environment");
    }
}
