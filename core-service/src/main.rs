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
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init();
    config::reject_unknown_env()?;
    let cli = Cli::parse();
    let listener = tokio::net::TcpListener::bind(cli.core.grpc_addr).await?;
    let core = Core::open(cli.core).await?;
    grpc::serve_with_shutdown(core, listener, async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
    })
    .await
}
