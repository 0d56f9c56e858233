//! clamd client over TCP or a unix socket: `zINSTREAM`, length-prefixed chunks, NUL-terminated
//! reply. Any answer but `stream: OK` or `... FOUND` is an error, so a stream clamd did not scan
//! whole (size limits) is never taken as clean.

use std::{path::PathBuf, time::Duration};

use async_trait::async_trait;
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt},
    net::{TcpStream, UnixStream},
    time::timeout,
};

use super::{ScanError, ScanSession, Scanner, Verdict};

/// clamd closes streams with chunks above its StreamMaxLength; slices keep each write modest.
const MAX_SLICE: usize = 1 << 20;
const MAX_REPLY: usize = 4096;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClamdAddr {
    Tcp(String),
    Unix(PathBuf),
}

impl ClamdAddr {
    pub fn parse(spec: &str) -> anyhow::Result<ClamdAddr> {
        if let Some(addr) = spec.strip_prefix("tcp://") {
            anyhow::ensure!(
                addr.contains(':'),
                "QUIRE_CLAMD tcp address needs a port: {spec:?}"
            );
            Ok(ClamdAddr::Tcp(addr.to_owned()))
        } else if let Some(path) = spec.strip_prefix("unix://") {
            anyhow::ensure!(
                path.starts_with('/'),
                "QUIRE_CLAMD unix path must be absolute: {spec:?}"
            );
            Ok(ClamdAddr::Unix(PathBuf::from(path)))
        } else {
            anyhow::bail!("QUIRE_CLAMD must be tcp://host:port or unix:///path, got {spec:?}")
        }
    }

    /// `QUIRE_CLAMD`: one address, or several comma-separated.
    pub fn parse_list(spec: &str) -> anyhow::Result<Vec<ClamdAddr>> {
        let addrs = spec
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(ClamdAddr::parse)
            .collect::<anyhow::Result<Vec<_>>>()?;
        anyhow::ensure!(!addrs.is_empty(), "QUIRE_CLAMD names no daemon");
        Ok(addrs)
    }
}

impl std::fmt::Display for ClamdAddr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClamdAddr::Tcp(addr) => write!(f, "tcp://{addr}"),
            ClamdAddr::Unix(path) => write!(f, "unix://{}", path.display()),
        }
    }
}

trait Conn: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Conn for T {}

pub struct ClamdScanner {
    addr: ClamdAddr,
    timeout: Duration,
}

impl ClamdScanner {
    pub fn new(addr: ClamdAddr, timeout: Duration) -> Self {
        Self { addr, timeout }
    }

    async fn connect(&self) -> Result<Box<dyn Conn>, ScanError> {
        let unreachable = |source| ScanError::Unreachable {
            addr: self.addr.to_string(),
            source,
        };
        let connect = async {
            Ok::<Box<dyn Conn>, std::io::Error>(match &self.addr {
                ClamdAddr::Tcp(addr) => {
                    let stream = TcpStream::connect(addr).await?;
                    stream.set_nodelay(true)?;
                    Box::new(stream)
                }
                ClamdAddr::Unix(path) => Box::new(UnixStream::connect(path).await?),
            })
        };
        match timeout(self.timeout, connect).await {
            Ok(conn) => conn.map_err(unreachable),
            Err(_) => Err(ScanError::Timeout(self.timeout.as_secs())),
        }
    }
}

#[async_trait]
impl Scanner for ClamdScanner {
    async fn start(&self) -> Result<Box<dyn ScanSession>, ScanError> {
        let mut conn = self.connect().await?;
        with_timeout(self.timeout, conn.write_all(b"zINSTREAM\0")).await?;
        Ok(Box::new(ClamdSession {
            conn,
            timeout: self.timeout,
        }))
    }

    async fn ping(&self) -> Result<(), ScanError> {
        let mut conn = self.connect().await?;
        with_timeout(self.timeout, conn.write_all(b"zPING\0")).await?;
        let reply = read_reply(&mut conn, self.timeout).await?;
        if reply == "PONG" {
            Ok(())
        } else {
            Err(ScanError::Refused(reply))
        }
    }
}

struct ClamdSession {
    conn: Box<dyn Conn>,
    timeout: Duration,
}

#[async_trait]
impl ScanSession for ClamdSession {
    async fn write(&mut self, chunk: &[u8]) -> Result<(), ScanError> {
        for slice in chunk.chunks(MAX_SLICE) {
            let len = (slice.len() as u32).to_be_bytes();
            let sent = with_timeout(self.timeout, async {
                self.conn.write_all(&len).await?;
                self.conn.write_all(slice).await
            })
            .await;
            if let Err(err) = sent {
                // clamd closes the socket after a limit error; its reply says which.
                return Err(
                    match read_reply(&mut self.conn, Duration::from_secs(1)).await {
                        Ok(reply) if !reply.is_empty() => ScanError::Refused(reply),
                        _ => err,
                    },
                );
            }
        }
        Ok(())
    }

    async fn finish(mut self: Box<Self>) -> Result<Verdict, ScanError> {
        with_timeout(self.timeout, self.conn.write_all(&[0, 0, 0, 0])).await?;
        let reply = read_reply(&mut self.conn, self.timeout).await?;
        parse_verdict(&reply)
    }
}

async fn with_timeout<T>(
    limit: Duration,
    fut: impl Future<Output = std::io::Result<T>>,
) -> Result<T, ScanError> {
    match timeout(limit, fut).await {
        Ok(result) => result.map_err(ScanError::Io),
        Err(_) => Err(ScanError::Timeout(limit.as_secs())),
    }
}

async fn read_reply(conn: &mut Box<dyn Conn>, limit: Duration) -> Result<String, ScanError> {
    let read = async {
        let mut reply = Vec::new();
        let mut byte = [0u8; 1];
        while reply.len() < MAX_REPLY {
            if conn.read(&mut byte).await? == 0 || byte[0] == 0 {
                break;
            }
            reply.push(byte[0]);
        }
        Ok(String::from_utf8_lossy(&reply).trim().to_owned())
    };
    with_timeout(limit, read).await
}

fn parse_verdict(reply: &str) -> Result<Verdict, ScanError> {
    let body = reply.strip_prefix("stream: ").unwrap_or(reply);
    if body == "OK" {
        Ok(Verdict::Clean)
    } else if let Some(name) = body.strip_suffix(" FOUND") {
        Ok(Verdict::Infected(name.to_owned()))
    } else {
        Err(ScanError::Refused(reply.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_parse_and_anything_else_is_an_error() {
        assert_eq!(parse_verdict("stream: OK").unwrap(), Verdict::Clean);
        assert_eq!(
            parse_verdict("stream: Eicar-Signature FOUND").unwrap(),
            Verdict::Infected("Eicar-Signature".into())
        );
        assert!(parse_verdict("INSTREAM size limit exceeded. ERROR").is_err());
        assert!(parse_verdict("").is_err());
    }

    #[test]
    fn addresses_parse() {
        assert_eq!(
            ClamdAddr::parse("tcp://127.0.0.1:3310").unwrap(),
            ClamdAddr::Tcp("127.0.0.1:3310".into())
        );
        assert!(ClamdAddr::parse("unix:///run/clamav/clamd.ctl").is_ok());
        assert!(ClamdAddr::parse("127.0.0.1:3310").is_err());
        assert!(ClamdAddr::parse("unix://relative").is_err());
    }
}
