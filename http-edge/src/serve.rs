//! Running the edge: alone against a remote core, or with a core in the same process that it
//! still reaches over real gRPC on the loopback.

use tokio::net::TcpListener;

use crate::{CoreClients, EdgeConfig, EdgeState, app};

/// Serves the edge on a bound listener until `shutdown` resolves; `max_message` is the gRPC
/// message limit (QUIRE_GRPC_MAX_MESSAGE_SIZE).
pub async fn serve_edge(
    listener: TcpListener,
    core_url: &str,
    max_message: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let state = EdgeState {
        core: CoreClients::connect_lazy(core_url, max_message)?,
    };
    tracing::info!(addr = %listener.local_addr()?, core = core_url, "http edge listening");
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown)
        .await?;
    Ok(())
}

/// `quire serve`: with `--core-url` the edge only; otherwise a core on QUIRE_GRPC_ADDR too.
#[cfg(feature = "embedded-core")]
pub async fn run(edge: EdgeConfig, mut core: quire_core::CoreConfig) -> anyhow::Result<()> {
    let http = TcpListener::bind(edge.http_addr).await?;
    if core.base_url.is_none() {
        core.base_url = Some(format!("http://{}", http.local_addr()?));
    }
    let shutdown = shutdown_signal();
    let max_message = core.grpc_max_message_size;
    match edge.core_url {
        Some(url) => serve_edge(http, &url, max_message, shutdown).await,
        None => {
            let grpc = TcpListener::bind(core.grpc_addr).await?;
            let url = format!("http://{}", grpc.local_addr()?);
            let core = quire_core::Core::open(core).await?;
            let core_task = tokio::spawn(quire_core::grpc::serve_with_shutdown(
                core,
                grpc,
                shutdown_signal(),
            ));
            let edge_result = serve_edge(http, &url, max_message, shutdown).await;
            core_task.abort();
            edge_result
        }
    }
}

#[cfg(not(feature = "embedded-core"))]
pub async fn run(edge: EdgeConfig) -> anyhow::Result<()> {
    let url = edge
        .core_url
        .ok_or_else(|| anyhow::anyhow!("this build has no embedded core: pass --core-url"))?;
    let http = TcpListener::bind(edge.http_addr).await?;
    serve_edge(
        http,
        &url,
        crate::core_client::DEFAULT_MAX_MESSAGE,
        shutdown_signal(),
    )
    .await
}

async fn shutdown_signal() {
    let _ = tokio::signal::ctrl_c().await;
    tracing::info!("shutting down");
}
