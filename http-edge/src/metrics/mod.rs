//! Prometheus metrics on their own listener (QUIRE_METRICS_ADDR), never on the public one:
//! the HTTP traffic by route and status (count, latency, bytes in and out), and whatever the
//! core records in the same process (engine jobs and queue, clamd scans, quota refusals,
//! database pool). One recorder per process, installed by the first caller.

mod body;
mod http;

use std::sync::OnceLock;

use axum::{Router, http::header, response::IntoResponse, routing::get};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

pub use http::{mark_route, track};

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
) -> anyhow::Result<()> {
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
        .await?;
    Ok(())
}
