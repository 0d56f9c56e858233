//! Several clamd (`QUIRE_CLAMD=tcp://a:3310,tcp://b:3310`): each scan starts on the next one in
//! turn, so the daemons share the load, and one that cannot be reached (or does not answer in
//! time) is passed over for the next before the upload is refused with 503. A scan streams the
//! upload as it arrives, so only its start can fail over: a daemon lost mid-stream ends that
//! upload with 503, as with one daemon.

use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;

use super::{ClamdAddr, ClamdScanner, ScanError, ScanSession, Scanner};

pub struct ClamdPool {
    daemons: Vec<ClamdScanner>,
    next: AtomicUsize,
}

impl ClamdPool {
    pub fn new(addrs: Vec<ClamdAddr>, timeout: std::time::Duration) -> ClamdPool {
        ClamdPool {
            daemons: addrs
                .into_iter()
                .map(|a| ClamdScanner::new(a, timeout))
                .collect(),
            next: AtomicUsize::new(0),
        }
    }

    /// The daemons in the order this call tries them: the next in turn first.
    fn in_turn(&self) -> impl Iterator<Item = &ClamdScanner> {
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let n = self.daemons.len();
        (0..n).map(move |i| &self.daemons[(start + i) % n])
    }
}

/// Whether another daemon may do better: it could not be reached or did not answer. A daemon
/// that answered (a refusal, a size limit) would answer the same elsewhere.
fn try_next(error: &ScanError) -> bool {
    matches!(
        error,
        ScanError::Unreachable { .. } | ScanError::Timeout(_) | ScanError::Io(_)
    )
}

#[async_trait]
impl Scanner for ClamdPool {
    async fn start(&self) -> Result<Box<dyn ScanSession>, ScanError> {
        let mut last = None;
        for daemon in self.in_turn() {
            match daemon.start().await {
                Ok(session) => return Ok(session),
                Err(error) if try_next(&error) => {
                    tracing::warn!(%error, "clamd unavailable: trying the next");
                    last = Some(error);
                }
                Err(error) => return Err(error),
            }
        }
        Err(last.expect("a pool has at least one daemon"))
    }

    /// Ready when any daemon answers: scans go to the ones that do.
    async fn ping(&self) -> Result<(), ScanError> {
        let mut last = None;
        for daemon in self.in_turn() {
            match daemon.ping().await {
                Ok(()) => return Ok(()),
                Err(error) => last = Some(error),
            }
        }
        Err(last.expect("a pool has at least one daemon"))
    }
}
