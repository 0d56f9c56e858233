//! Time and memory limits over a running job.

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::{Supervised, tree};
use crate::{ConvertError, Limits};

/// How often the watcher looks at the engine.
const TICK: Duration = Duration::from_millis(50);

/// Which limit a job went past.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overrun {
    Time,
    /// The tree's resident size when it was seen past the limit, in bytes.
    Memory {
        rss: u64,
    },
}

impl Overrun {
    /// The user-facing error: `ConvertError::OverLimit` saying which limit.
    pub fn into_error(self, limits: Limits) -> ConvertError {
        ConvertError::OverLimit(match self {
            Overrun::Time => format!(
                "the conversion took longer than {}: try a smaller document or split it",
                human_duration(limits.time)
            ),
            Overrun::Memory { .. } => format!(
                "the conversion needed more than {} MB of memory: try a smaller document or split it",
                limits.memory / 1_000_000
            ),
        })
    }
}

fn human_duration(time: Duration) -> String {
    if time.subsec_millis() == 0 {
        format!("{} s", time.as_secs())
    } else if time < Duration::from_secs(1) {
        format!("{} ms", time.as_millis())
    } else {
        format!("{:.1} s", time.as_secs_f64())
    }
}

/// Runs `job` on the calling thread while a watcher thread checks the engine every 50 ms: past
/// `limits.time`, or with `tree_rss() > limits.memory`, it kills the engine's process tree (so
/// the job's pipe reads fail and it returns) and `watch` returns `Err(Overrun)`, whatever the
/// job returned. Otherwise `Ok(job's result)`.
///
/// The caller should `kill()` the engine after an overrun (to reap it) and start a new one.
pub fn watch<T>(
    engine: &Supervised,
    limits: Limits,
    job: impl FnOnce() -> T,
) -> Result<T, Overrun> {
    if engine.reaped {
        return Ok(job());
    }
    watch_group(engine.pid(), limits, job)
}

/// `watch` by process group id, for a caller that needs `&mut` on the engine inside the job.
/// The leader of `pgid` must not be reaped before this returns.
pub fn watch_group<T>(pgid: u32, limits: Limits, job: impl FnOnce() -> T) -> Result<T, Overrun> {
    watch_groups(&[pgid], limits, job)
}

/// `watch` over an engine made of several supervised processes (LibreOffice and its bridge):
/// memory is the sum over all their trees, and an overrun kills all of them.
pub fn watch_groups<T>(
    pgids: &[u32],
    limits: Limits,
    job: impl FnOnce() -> T,
) -> Result<T, Overrun> {
    let deadline = Instant::now() + limits.time;
    let (done, done_seen) = mpsc::channel::<()>();
    thread::scope(|scope| {
        let watcher = scope.spawn(move || watch_loop(pgids, deadline, limits.memory, &done_seen));
        let result = job();
        let _ = done.send(());
        // A watcher that panicked watched nothing: the job's own result stands.
        match watcher.join().ok().flatten() {
            Some(overrun) => Err(overrun),
            None => Ok(result),
        }
    })
}

fn watch_loop(
    pgids: &[u32],
    deadline: Instant,
    memory: u64,
    done: &mpsc::Receiver<()>,
) -> Option<Overrun> {
    loop {
        let overrun = if Instant::now() >= deadline {
            Some(Overrun::Time)
        } else {
            let rss = pgids.iter().map(|&pgid| tree::tree_rss(pgid)).sum();
            (rss > memory).then_some(Overrun::Memory { rss })
        };
        if let Some(overrun) = overrun {
            for &pgid in pgids {
                tree::kill_tree(pgid);
            }
            return Some(overrun);
        }
        let wait = TICK.min(deadline.saturating_duration_since(Instant::now()));
        match done.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            _ => return None,
        }
    }
}
