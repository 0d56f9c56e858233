//! The edge's metrics: the HTTP traffic by route and status (count, latency, bytes in and out),
//! on the Prometheus page quire-proto's `metrics_page` serves on its own listener
//! (QUIRE_METRICS_ADDR) with whatever the core records in the same process.

mod body;
mod http;

pub use http::{mark_route, track};
