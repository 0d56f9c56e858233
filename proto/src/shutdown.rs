//! The shutdown signal both binaries wait for: Ctrl-C, or SIGTERM from systemd, Docker or
//! Kubernetes. Either one shuts down gracefully, so requests in flight finish and socket files
//! are removed.

pub async fn signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            // Without a SIGTERM handler the default action (exit) still applies.
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}
