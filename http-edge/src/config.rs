//! Typed configuration of the edge.

use std::net::{IpAddr, SocketAddr};

use clap::Args;

#[derive(Args, Clone, Debug)]
pub struct EdgeConfig {
    /// Address the HTTP API listens on.
    #[arg(long, env = "QUIRE_HTTP_ADDR", default_value = "127.0.0.1:8080")]
    pub http_addr: SocketAddr,

    /// URL of a running core (http://host:port, or unix:///path on this host); several replicas
    /// comma-separated, or a name that resolves to several, share the calls (the healthy one
    /// with the fewest in flight). Without it, `quire serve` runs a core in-process.
    #[arg(long, env = "QUIRE_CORE_URL")]
    pub core_url: Option<String>,

    /// Reverse proxies in front of the edge (comma-separated IP addresses): for connections
    /// from them, the client's address is the last one of `X-Forwarded-For` (log-in limits).
    #[arg(long, env = "QUIRE_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<IpAddr>,

    /// Host names the edge answers for besides QUIRE_BASE_URL's (comma-separated; `host` or
    /// `host:port`, the port is not compared; `.example.com` takes its subdomains too; `*`
    /// turns the check off). Other hosts get 421, so DNS rebinding cannot reach the service.
    #[arg(long, env = "QUIRE_ALLOWED_HOSTS", value_delimiter = ',')]
    pub allowed_hosts: Vec<String>,

    /// Address of the Prometheus metrics page (`GET /metrics`), a listener of its own so that
    /// it is never public by accident. Off when unset.
    #[arg(long, env = "QUIRE_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
}
