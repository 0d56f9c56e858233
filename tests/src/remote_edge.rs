//! An edge in front of cores reached over TCP or a unix socket, as `quire serve --core-url`
//! runs on another host.

use tokio::net::TcpListener;

/// An edge on its own, as on another host, reaching the core at `core_url` (`http://...` or
/// `unix:///...`); it stops when dropped.
pub struct RemoteEdge {
    pub base: String,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl RemoteEdge {
    pub async fn start(core_url: &str, limits: quire_edge::serve::EdgeSettings) -> RemoteEdge {
        let http = TcpListener::bind("127.0.0.1:0").await.expect("bind http");
        RemoteEdge::serve_on(http, core_url, limits)
    }

    /// As [`RemoteEdge::start`], on a listener bound already.
    pub fn serve_on(
        http: TcpListener,
        core_url: &str,
        limits: quire_edge::serve::EdgeSettings,
    ) -> RemoteEdge {
        let base = format!("http://{}", http.local_addr().expect("http addr"));
        let clients = quire_edge::CoreClients::connect_lazy(
            core_url,
            limits.max_message,
            limits.edge_secret.as_deref(),
        )
        .expect("core url");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(quire_edge::serve::serve_edge(
            http,
            clients,
            limits,
            async {
                let _ = stopped.await;
            },
        ));
        RemoteEdge { base, _stop: stop }
    }
}
