//! The Prometheus page both binaries serve on a listener of their own (QUIRE_METRICS_ADDR),
//! never on a public one: whatever the process records through the `metrics` facade (the
//! edge's HTTP traffic; the core's engine jobs and queue, clamd scans, quota refusals and
//! database pool). One recorder per process, installed by the first caller.

use std::{net::SocketAddr, sync::OnceLock};

use axum::{Router, http::header, response::IntoResponse, routing::get};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

/// Latency buckets in seconds: from a cached page to a long OCR job.
const BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use. Tests start several stacks in one process:
/// they share it, as the stacks of one process share one metrics page.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("static buckets are valid")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed: /metrics shows only its own");
        }
        handle
    })
}

/// Serves `GET /metrics` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let handle = handle();
    tracing::info!(addr = %listener.local_addr()?, "metrics listening");
    let app = Router::new().route(
        "/metrics",
        get(move || async move {
            handle.run_upkeep();
            (
                [(
                    header::CONTENT_TYPE,
                    "text/plain; version=0.0.4; charset=utf-8",
                )],
                handle.render(),
            )
                .into_response()
        }),
    );
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}

/// Binds `addr`, when set, and serves the metrics page there until the process is told to
/// stop; returns the bound address. The recorder is installed before this returns, so nothing
/// recorded after is lost.
pub async fn start(addr: Option<SocketAddr>) -> std::io::Result<Option<SocketAddr>> {
    let Some(addr) = addr else {
        return Ok(None);
    };
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    handle();
    tokio::spawn(async move {
        if let Err(error) = serve(listener, crate::shutdown::signal()).await {
            tracing::error!(%error, "metrics listener failed");
        }
    });
    Ok(Some(bound))
}
