//! Quire's HTTP edge: translates the REST API of SPEC.md into quire.v1 gRPC calls, streams
#![cfg_attr(test, allow(clippy::unwrap_used))]
//! bodies both ways, maps errors to problem+json, and serves share links. It owns no rule: every
//! decision is the core's, so a gRPC client gets exactly what a REST client gets.

#[cfg(feature = "embedded-core")]
pub mod admin;
pub mod app;
pub mod config;
pub mod core_client;
pub mod core_pool;
pub mod forward;
pub mod host;
pub mod linger;
pub mod metrics;
pub mod multipart;
pub mod openapi;
pub mod problem;
pub mod routes;
pub mod serve;
pub mod toolbox;
pub mod web;

pub use app::{EdgeState, app};
pub use config::EdgeConfig;
pub use core_client::CoreClients;
