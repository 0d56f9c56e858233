//! `quire-core`: the gRPC core alone, for deployments that run edges and cores separately.

use clap::Parser;
use quire_core::{Core, CoreConfig, config, grpc, telemetry};

#[derive(Parser)]
#[command(
    name = "quire-core",
    version,
    about = "Quire gRPC core (auth, quotas, scanned storage, processing)"
)]
struct Cli {
    #[command(flatten)]
    core: CoreConfig,
    /// Address of this core's Prometheus page (`GET /metrics`: engine jobs and queue, clamd
    /// scans, quota refusals, database pool), a listener of its own. Off when unset.
    #[arg(long, env = "QUIRE_METRICS_ADDR")]
    metrics_addr: Option<std::net::SocketAddr>,
    #[command(subcommand)]
    worker: Option<WorkerCommand>,
}

#[derive(clap::Subcommand)]
enum WorkerCommand {
    /// Runs one engine worker process (started by the core; not for direct use).
    #[command(hide = true)]
    Worker(quire_core::workers::WorkerArgs),
}

// The upload path allocates a buffer per chunk on one thread and frees it on another; glibc's
// per-thread arenas then keep handing pages back to the kernel and faulting fresh ones in, which
// cost about 0.9 CPU-s per GiB uploaded (scripts/bench.sh upload, see the README). jemalloc
// reuses them. C libraries (PDFium, Tesseract) keep glibc's malloc.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> anyhow::Result<()> {
    telemetry::init();
    config::reject_unknown_env()?;
    let cli = Cli::parse();
    if let Some(WorkerCommand::Worker(args)) = cli.worker {
        return quire_core::workers::worker::run(args);
    }
    tokio::runtime::Runtime::new()?.block_on(async {
        let listener = tokio::net::TcpListener::bind(cli.core.grpc_addr).await?;
        quire_proto::metrics_page::start(cli.metrics_addr).await?;
        let socket = cli.core.grpc_socket.as_deref().map(grpc::bind_socket);
        let (unix, _socket_file) = socket.transpose()?.unzip();
        let core = Core::open(cli.core).await?;
        core.processing.pool.warm_up().await?;
        grpc::Services::start(&core)?
            .serve(listener, unix, async {
                quire_proto::shutdown::signal().await;
                tracing::info!("shutting down");
            })
            .await
    })
}
