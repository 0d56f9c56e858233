//! Running the edge: alone against a remote core, or with a core in the same process that it
//! calls through the core's gRPC stack without a socket (the core still listens on
//! QUIRE_GRPC_ADDR, and on QUIRE_GRPC_SOCKET when set, for other services).

use axum::serve::ListenerExt;
use tokio::net::TcpListener;

use crate::{CoreClients, EdgeConfig, EdgeState, app, host::AllowedHosts};

/// What the edge takes from the core's configuration: the sizes it enforces before the core
/// sees a request, and whether the public address is https (session cookies are then Secure).
#[derive(Clone, Debug)]
pub struct EdgeSettings {
    /// QUIRE_GRPC_MAX_MESSAGE_SIZE.
    pub max_message: usize,
    /// QUIRE_MAX_TICKET_SIZE: the largest JSON body of the support workflow.
    pub max_ticket: usize,
    /// QUIRE_BASE_URL starts with https://.
    pub secure_cookies: bool,
    /// QUIRE_TRUSTED_PROXIES (an edge setting).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// QUIRE_EDGE_SECRET: sent to a remote core, which then takes the client addresses this
    /// edge states (the core in the same process needs none).
    pub edge_secret: Option<String>,
    /// The hosts answered for: QUIRE_BASE_URL's and QUIRE_ALLOWED_HOSTS (an edge setting).
    pub allowed_hosts: AllowedHosts,
}

impl Default for EdgeSettings {
    /// The core's defaults, for an edge-only build that has no core configuration at hand.
    fn default() -> Self {
        Self {
            max_message: crate::core_client::DEFAULT_MAX_MESSAGE,
            max_ticket: quire_proto::transport::DEFAULT_MAX_TICKET_SIZE,
            secure_cookies: false,
            trusted_proxies: Vec::new(),
            edge_secret: std::env::var("QUIRE_EDGE_SECRET").ok(),
            // The edge's default address (QUIRE_HTTP_ADDR) when no public one is set.
            allowed_hosts: AllowedHosts::new(
                Some(
                    &std::env::var("QUIRE_BASE_URL")
                        .unwrap_or_else(|_| "http://127.0.0.1:8080".to_owned()),
                ),
                &[],
            ),
        }
    }
}

#[cfg(feature = "embedded-core")]
impl EdgeSettings {
    pub fn of(core: &quire_core::CoreConfig) -> Self {
        Self {
            max_message: core.grpc_max_message_size,
            max_ticket: core.max_ticket_size,
            secure_cookies: core.base_url().starts_with("https://"),
            trusted_proxies: Vec::new(),
            edge_secret: core.edge_secret.as_ref().map(|s| s.expose().to_owned()),
            allowed_hosts: AllowedHosts::new(Some(&core.base_url()), &[]),
        }
    }
}

/// Serves the edge on a bound listener until `shutdown` resolves.
pub async fn serve_edge(
    listener: TcpListener,
    core: CoreClients,
    limits: EdgeSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let state = EdgeState {
        core,
        max_ticket: limits.max_ticket,
        secure_cookies: limits.secure_cookies,
        trusted_proxies: limits.trusted_proxies.into(),
        allowed_hosts: limits.allowed_hosts.into(),
    };
    tracing::info!(addr = %listener.local_addr()?, "http edge listening");
    // The peer address feeds the core's per-address login limits.
    let app = app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    // No Nagle: a streamed answer is written as its headers, then its chunks, and a client that
    // delays its ACKs held the first chunk back 40 ms (every toolbox call, measured).
    let listener = listener.tap_io(|tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "tcp_nodelay not set");
        }
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await?;
    Ok(())
}

/// `quire serve`: with `--core-url` the edge only; otherwise a core on QUIRE_GRPC_ADDR too.
#[cfg(feature = "embedded-core")]
pub async fn run(edge: EdgeConfig, mut core: quire_core::CoreConfig) -> anyhow::Result<()> {
    let http = TcpListener::bind(edge.http_addr).await?;
    quire_proto::metrics_page::start(edge.metrics_addr).await?;
    if core.base_url.is_none() {
        core.base_url = Some(format!("http://{}", http.local_addr()?));
    }
    let shutdown = shutdown_signal();
    let limits = EdgeSettings {
        trusted_proxies: edge.trusted_proxies,
        allowed_hosts: AllowedHosts::new(Some(&core.base_url()), &edge.allowed_hosts),
        ..EdgeSettings::of(&core)
    };
    match edge.core_url {
        Some(url) => serve_remote(http, &url, limits, shutdown).await,
        None => {
            let grpc = TcpListener::bind(core.grpc_addr).await?;
            let socket = core
                .grpc_socket
                .as_deref()
                .map(quire_core::grpc::bind_socket);
            let (unix, _socket_file) = socket.transpose()?.unzip();
            let core = quire_core::Core::open(core).await?;
            core.processing.pool.warm_up().await?;
            let services = quire_core::grpc::Services::start(&core)?;
            // Every uploaded byte crosses this hop: in the same process it needs no socket.
            let clients = CoreClients::in_process(services.in_process(), limits.max_message);
            let core_task = tokio::spawn(services.serve(grpc, unix, shutdown_signal()));
            let edge_result = serve_edge(http, clients, limits, shutdown).await;
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
    quire_proto::metrics_page::start(edge.metrics_addr).await?;
    let base_url =
        std::env::var("QUIRE_BASE_URL").unwrap_or_else(|_| format!("http://{}", edge.http_addr));
    let settings = EdgeSettings {
        trusted_proxies: edge.trusted_proxies,
        allowed_hosts: AllowedHosts::new(Some(&base_url), &edge.allowed_hosts),
        ..EdgeSettings::default()
    };
    serve_remote(http, &url, settings, shutdown_signal()).await
}

async fn serve_remote(
    http: TcpListener,
    core_url: &str,
    limits: EdgeSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    tracing::info!(core = core_url, "the core is remote");
    if limits.edge_secret.is_none() {
        tracing::warn!(
            "no QUIRE_EDGE_SECRET: the core counts every sign-up and log-in from this edge under \
             the edge's own address (set the same secret on both)"
        );
    }
    let clients =
        CoreClients::connect_lazy(core_url, limits.max_message, limits.edge_secret.as_deref())?;
    serve_edge(http, clients, limits, shutdown).await
}

async fn shutdown_signal() {
    quire_proto::shutdown::signal().await;
    tracing::info!("shutting down");
}
