//! `quire`: the HTTP edge (`quire serve`, with an in-process core unless `--core-url` is given),
//! the operator's `quire admin` commands, and the client for scripts and pipelines (`quire
//! upload`, `ocr`, `compress`, `pdf-to-images`, `support`: the `quire-cli` crate).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use quire_edge::EdgeConfig;

#[cfg(feature = "embedded-core")]
use quire_edge::admin;
use quire_edge::serve;

#[derive(Parser)]
#[command(
    name = "quire",
    version,
    about = "Quire: scanned file uploads, share links and file processing"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs the HTTP API (and, without --core-url, the gRPC core in the same process).
    Serve {
        #[command(flatten)]
        edge: EdgeConfig,
        #[cfg(feature = "embedded-core")]
        #[command(flatten)]
        core: quire_core::CoreConfig,
    },
    /// Manages accounts and API keys on the configured database.
    #[cfg(feature = "embedded-core")]
    Admin {
        #[command(subcommand)]
        command: admin::AdminCommand,
        #[command(flatten)]
        core: quire_core::CoreConfig,
    },
    /// Runs one engine worker process (started by the core; not for direct use).
    #[cfg(feature = "embedded-core")]
    #[command(hide = true)]
    Worker(quire_core::workers::WorkerArgs),
    #[command(flatten)]
    Client(quire_cli::Command),
}

// The upload path allocates a buffer per chunk on one thread and frees it on another; glibc's
// per-thread arenas then keep handing pages back to the kernel and faulting fresh ones in, which
// cost about 0.9 CPU-s per GiB uploaded (scripts/bench.sh upload, see the README). jemalloc
// reuses them. C libraries (PDFium, Tesseract) keep glibc's malloc.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> anyhow::Result<ExitCode> {
    let command = Cli::parse().command;
    // The client has its own messages and exit codes, and reads only QUIRE_URL and
    // QUIRE_API_KEY: the server's logging and its check of every QUIRE_* setting are not its.
    if let Command::Client(command) = command {
        return Ok(quire_cli::run(command));
    }
    init_server_process()?;
    // A worker is a plain blocking loop around native engines: no async runtime.
    #[cfg(feature = "embedded-core")]
    if let Command::Worker(args) = command {
        quire_core::workers::worker::run(args)?;
        return Ok(ExitCode::SUCCESS);
    }
    tokio::runtime::Runtime::new()?.block_on(async {
        match command {
            #[cfg(feature = "embedded-core")]
            Command::Serve { edge, core } => serve::run(edge, core).await,
            #[cfg(not(feature = "embedded-core"))]
            Command::Serve { edge } => serve::run(edge).await,
            #[cfg(feature = "embedded-core")]
            Command::Admin { command, core } => admin::run(command, &core).await,
            #[cfg(feature = "embedded-core")]
            Command::Worker(_) => unreachable!("handled above"),
            Command::Client(_) => unreachable!("handled above"),
        }
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Logging, and the refusal of unknown `QUIRE_*` settings (a typo must not pass silently).
#[cfg(feature = "embedded-core")]
fn init_server_process() -> anyhow::Result<()> {
    quire_core::telemetry::init();
    quire_core::config::reject_unknown_env()
}

/// The edge-only build has no core, hence neither the core's logging setup (the same filter
/// and format variables, set up here) nor its table of settings.
#[cfg(not(feature = "embedded-core"))]
fn init_server_process() -> anyhow::Result<()> {
    use tracing_subscriber::{EnvFilter, fmt};
    let filter = EnvFilter::try_from_env("QUIRE_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,h2=warn,tower=warn"));
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = if std::env::var("QUIRE_LOG_FORMAT").is_ok_and(|f| f == "json") {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    Ok(())
}
