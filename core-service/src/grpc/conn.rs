//! One connection type for the core's two kinds of listener: TCP, for services in any
//! language, and a unix socket (QUIRE_GRPC_SOCKET), for edges and services on the same host,
//! whose uploads then skip the TCP stack. (`quire serve`'s own edge needs neither: it calls
//! the core in process.)

use std::{
    io,
    os::unix::fs::FileTypeExt,
    path::{Path, PathBuf},
    pin::Pin,
    task::{Context, Poll},
};

use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream, UnixListener, UnixStream},
};
use tokio_stream::{
    Stream, StreamExt,
    wrappers::{TcpListenerStream, UnixListenerStream},
};
use tonic::transport::server::Connected;

use super::peer::Peer;

pub enum CoreConn {
    Tcp(TcpStream),
    Unix(UnixStream),
}

/// Binds the unix socket at `path`. A socket file that nobody listens on any more (a crash
/// leaves one behind) is replaced; a live socket or any other file is an error, never taken.
/// The file goes when the returned [`SocketFile`] is dropped.
pub fn bind_socket(path: &Path) -> anyhow::Result<(UnixListener, SocketFile)> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        anyhow::ensure!(
            meta.file_type().is_socket(),
            "{} exists and is not a socket: choose another QUIRE_GRPC_SOCKET",
            path.display()
        );
        anyhow::ensure!(
            std::os::unix::net::UnixStream::connect(path).is_err(),
            "another process listens on {}: stop it or choose another QUIRE_GRPC_SOCKET",
            path.display()
        );
        std::fs::remove_file(path)?;
    }
    let listener = UnixListener::bind(path)
        .map_err(|e| anyhow::anyhow!("cannot listen on the unix socket {}: {e}", path.display()))?;
    Ok((listener, SocketFile(path.to_owned())))
}

/// Removes a bound socket's file when dropped: after serving, and on a start-up that fails
/// after the bind, so only a crash leaves one for the next start to replace.
#[derive(Debug)]
#[must_use = "dropping it removes the socket file at once"]
pub struct SocketFile(PathBuf);

impl Drop for SocketFile {
    fn drop(&mut self) {
        if let Err(error) = std::fs::remove_file(&self.0) {
            tracing::warn!(path = %self.0.display(), %error, "cannot remove the grpc socket file");
        }
    }
}

/// Connections from `tcp` and, when given, from `unix`, as they arrive.
pub fn incoming(
    tcp: TcpListener,
    unix: Option<UnixListener>,
) -> Pin<Box<dyn Stream<Item = io::Result<CoreConn>> + Send>> {
    // No Nagle, as tonic's own TCP server sets it: a streamed answer's small frames go at once.
    let tcp = TcpListenerStream::new(tcp).map(|conn| {
        conn.map(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "tcp_nodelay not set");
            }
            CoreConn::Tcp(stream)
        })
    });
    match unix {
        Some(unix) => {
            let unix = UnixListenerStream::new(unix).map(|conn| conn.map(CoreConn::Unix));
            Box::pin(tcp.merge(unix))
        }
        None => Box::pin(tcp),
    }
}

/// Callers are told apart by their keys; the peer counts only for the per-address limits of
/// sign-ups and log-ins (tonic puts it in every request's extensions).
impl Connected for CoreConn {
    type ConnectInfo = Peer;

    fn connect_info(&self) -> Peer {
        match self {
            CoreConn::Tcp(stream) => Peer::Tcp(stream.peer_addr().ok()),
            CoreConn::Unix(stream) => Peer::Unix(stream.peer_cred().ok().map(|cred| cred.uid())),
        }
    }
}

impl AsyncRead for CoreConn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            CoreConn::Tcp(stream) => Pin::new(stream).poll_read(cx, buf),
            CoreConn::Unix(stream) => Pin::new(stream).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for CoreConn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            CoreConn::Tcp(stream) => Pin::new(stream).poll_write(cx, buf),
            CoreConn::Unix(stream) => Pin::new(stream).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            CoreConn::Tcp(stream) => Pin::new(stream).poll_write_vectored(cx, bufs),
            CoreConn::Unix(stream) => Pin::new(stream).poll_write_vectored(cx, bufs),
        }
    }

    // HTTP/2 writes frames as vectors: both streams take them in one system call.
    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            CoreConn::Tcp(stream) => Pin::new(stream).poll_flush(cx),
            CoreConn::Unix(stream) => Pin::new(stream).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            CoreConn::Tcp(stream) => Pin::new(stream).poll_shutdown(cx),
            CoreConn::Unix(stream) => Pin::new(stream).poll_shutdown(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stale_socket_is_replaced_and_a_live_one_or_a_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grpc.sock");

        let live = bind_socket(&path).unwrap();
        let err = bind_socket(&path).unwrap_err().to_string();
        assert!(err.contains("another process listens"), "{err}");

        // A crash closes the listener and leaves the file behind.
        let (listener, file) = live;
        drop(listener);
        std::mem::forget(file);
        assert!(path.exists());
        let again = bind_socket(&path).unwrap();
        assert!(UnixStream::connect(&path).await.is_ok());
        drop(again);
        assert!(!path.exists(), "the guard removes the socket file");

        let file = dir.path().join("data.bin");
        std::fs::write(&file, b"keep me").unwrap();
        let err = bind_socket(&file).unwrap_err().to_string();
        assert!(err.contains("is not a socket"), "{err}");
        assert_eq!(std::fs::read(&file).unwrap(), b"keep me");
    }
}
