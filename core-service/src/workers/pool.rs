//! A pool of worker processes (the same binary, hidden `worker` subcommand), one job at a time
//! each. A job waits in a fair FIFO queue for a free worker; a full queue is refused at once.
//! A worker that dies, garbles its output or overruns the time limit fails its job and is
//! replaced by a fresh process on the next job.

use std::{
    ffi::OsString,
    os::unix::process::ExitStatusExt,
    path::PathBuf,
    process::{ExitStatus, Stdio},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use quire_convert::process;
use tokio::{
    process::{Child, ChildStdin, ChildStdout},
    sync::Semaphore,
};

use super::protocol::{self, Answer, Job, Outcome};
use super::view::{self, Home, WorkerView};

/// Time a new worker has to load PDFium and its first Tesseract engine.
const WORKER_START: Duration = Duration::from_secs(30);

/// How to start a worker and what it may use.
#[derive(Clone, Debug)]
pub struct PoolSettings {
    /// Executable with the hidden `worker` subcommand (the running binary by default).
    pub program: PathBuf,
    /// Arguments before the worker's own flags (`["worker"]`).
    pub args: Vec<OsString>,
    pub workers: usize,
    /// Jobs that may wait for a worker before new ones are refused.
    pub queue: usize,
    pub job_timeout: Duration,
    /// Flags passed to every worker (engine paths, memory limit).
    pub worker_flags: Vec<OsString>,
    /// What a worker sees when it runs in a bubblewrap view.
    pub view: WorkerView,
}

#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("all {workers} workers are busy and {queued} jobs are already waiting")]
    Busy { workers: usize, queued: usize },
    #[error("the job ran past its {0:?} time limit")]
    TimedOut(Duration),
    /// Killed by a fault signal (SIGSEGV, SIGABRT, ...): the engine crashed or ran out of
    /// memory on this input.
    #[error("the engine crashed on this input ({0})")]
    Crashed(String),
    /// Gone for a reason that says nothing about the input (killed, failed to start, broken
    /// pipe).
    #[error("the worker failed: {0}")]
    Lost(String),
}

#[derive(Clone)]
pub struct WorkerPool {
    inner: Arc<Inner>,
}

struct Inner {
    settings: PoolSettings,
    permits: Semaphore,
    waiting: AtomicUsize,
    idle: Mutex<Vec<Worker>>,
}

struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// Started through bwrap, which reports a signal that killed the worker as 128 + signal.
    sandboxed: bool,
    /// The worker's own folder in a view, removed with it.
    _home: Option<Home>,
}

impl WorkerPool {
    /// A pool that starts workers as jobs need them (see [`WorkerPool::warm_up`]).
    pub fn new(settings: PoolSettings) -> Self {
        let workers = settings.workers.max(1);
        Self {
            inner: Arc::new(Inner {
                permits: Semaphore::new(workers),
                waiting: AtomicUsize::new(0),
                idle: Mutex::new(Vec::with_capacity(workers)),
                settings: PoolSettings {
                    workers,
                    ..settings
                },
            }),
        }
    }

    /// Starts every worker now and waits until each has loaded its engines, so a broken
    /// installation (no PDFium, no Tesseract data) stops the service at start, not at the
    /// first request.
    pub async fn warm_up(&self) -> anyhow::Result<()> {
        let missing = self.inner.settings.workers - self.inner.idle_count();
        for _ in 0..missing {
            let worker = self.inner.spawn().await?;
            self.inner.put_idle(worker);
        }
        Ok(())
    }

    pub fn workers(&self) -> usize {
        self.inner.settings.workers
    }

    /// Runs one job on the next free worker. Dropping the future kills the worker running it
    /// (its answer would no longer be wanted) and a fresh one takes its place.
    pub async fn run(&self, job: Job) -> Result<Answer, PoolError> {
        let engine = engine(&job);
        let start = std::time::Instant::now();
        let result = self.run_counted(job).await;
        let outcome = match &result {
            Ok(_) => "done",
            Err(PoolError::Busy { .. }) => "busy",
            Err(PoolError::TimedOut(_)) => "timed-out",
            Err(PoolError::Crashed(_)) => "crashed",
            Err(PoolError::Lost(_)) => "lost",
        };
        metrics::counter!("quire_worker_jobs_total", "engine" => engine, "outcome" => outcome)
            .increment(1);
        if result.is_ok() {
            // Queue wait included: the time a request spends on the engine.
            metrics::histogram!("quire_worker_job_duration_seconds", "engine" => engine)
                .record(start.elapsed().as_secs_f64());
        }
        result
    }

    async fn run_counted(&self, job: Job) -> Result<Answer, PoolError> {
        let inner = &self.inner;
        let queued = inner.waiting.fetch_add(1, Ordering::SeqCst);
        metrics::gauge!("quire_worker_queue_depth").set((queued + 1) as f64);
        let _waiting = WaitingGuard(&inner.waiting);
        if queued >= inner.settings.queue {
            return Err(PoolError::Busy {
                workers: inner.settings.workers,
                queued,
            });
        }
        let _permit = inner
            .permits
            .acquire()
            .await
            .map_err(|e| PoolError::Lost(e.to_string()))?;
        drop(_waiting);
        let mut worker = match inner.take_idle() {
            Some(worker) => worker,
            None => inner
                .spawn()
                .await
                .map_err(|e| PoolError::Lost(e.to_string()))?,
        };
        let answer = tokio::time::timeout(inner.settings.job_timeout, worker.exchange(&job)).await;
        match answer {
            Ok(Ok(answer)) => {
                inner.put_idle(worker);
                Ok(answer)
            }
            Ok(Err(io_error)) => Err(worker.diagnose(io_error).await),
            Err(_) => {
                let _ = worker.child.start_kill();
                tracing::warn!(timeout = ?inner.settings.job_timeout, "worker job timed out; worker killed");
                Err(PoolError::TimedOut(inner.settings.job_timeout))
            }
        }
    }
}

struct WaitingGuard<'a>(&'a AtomicUsize);

impl Drop for WaitingGuard<'_> {
    fn drop(&mut self) {
        let left = self.0.fetch_sub(1, Ordering::SeqCst).saturating_sub(1);
        metrics::gauge!("quire_worker_queue_depth").set(left as f64);
    }
}

/// The engine a job runs, as the metrics label it.
fn engine(job: &Job) -> &'static str {
    match job.task {
        Some(protocol::Task::Inspect(_)) => "inspect",
        Some(protocol::Task::Render(_)) => "pdfium",
        Some(protocol::Task::Ocr(_)) => "tesseract",
        Some(protocol::Task::Compress(_)) => "compress",
        Some(protocol::Task::CompressCheck(_)) => "pdfium",
        Some(protocol::Task::Tool(_)) => "toolbox",
        None => "none",
    }
}

impl Inner {
    async fn spawn(&self) -> anyhow::Result<Worker> {
        let (mut command, home) = view::command(&self.settings)?;
        let sandboxed = process::worker_sandbox();
        view::scrub_env(&mut command);
        let mut child = command
            .args(&self.settings.args)
            .args(&self.settings.worker_flags)
            // Debian's Tesseract is built with OpenMP, which is 7-9x slower here than one
            // thread per engine; parallelism comes from the worker processes instead.
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot start worker {}: {e}",
                    self.settings.program.display()
                )
            })?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| anyhow::anyhow!("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow::anyhow!("no stdout"))?;
        let mut worker = Worker {
            child,
            stdin,
            stdout,
            sandboxed,
            _home: home,
        };
        // The worker says it is ready once its engines are loaded.
        let ready = tokio::time::timeout(
            WORKER_START,
            protocol::read_frame_async::<Outcome>(&mut worker.stdout),
        )
        .await;
        match ready {
            Ok(Ok(Outcome { answer: None })) => {
                tracing::debug!(pid = worker.child.id(), "worker ready");
                Ok(worker)
            }
            Ok(Ok(Outcome { answer: Some(_) })) => {
                anyhow::bail!("worker sent an answer before it was ready")
            }
            Ok(Err(_)) => {
                let status = worker.child.wait().await?;
                anyhow::bail!(
                    "the worker could not load its engines ({}; its error is in the log above)",
                    describe(status, worker.sandboxed)
                )
            }
            Err(_) => anyhow::bail!("the worker did not load its engines within {WORKER_START:?}"),
        }
    }

    fn idle_count(&self) -> usize {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn take_idle(&self) -> Option<Worker> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    fn put_idle(&self, worker: Worker) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(worker);
    }
}

impl Worker {
    async fn exchange(&mut self, job: &Job) -> std::io::Result<Answer> {
        protocol::write_frame_async(&mut self.stdin, job).await?;
        let outcome: Outcome = protocol::read_frame_async(&mut self.stdout).await?;
        outcome
            .answer
            .ok_or_else(|| std::io::Error::other("worker sent an empty outcome"))
    }

    /// Tells a crash on the input from a worker lost for other reasons.
    async fn diagnose(mut self, io_error: std::io::Error) -> PoolError {
        let status = match tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await {
            Ok(Ok(status)) => Some(status),
            _ => {
                let _ = self.child.start_kill();
                None
            }
        };
        let sandboxed = self.sandboxed;
        let error = match status {
            Some(status) if crashed(status, sandboxed) => {
                PoolError::Crashed(describe(status, sandboxed))
            }
            Some(status) => PoolError::Lost(describe(status, sandboxed)),
            None => PoolError::Lost(format!("worker protocol error: {io_error}")),
        };
        tracing::warn!(error = %error, "worker lost; a new one will take its place");
        error
    }
}

/// Signals a native engine raises on its own when an input drives it off the rails: a bad
/// memory access, an abort (failed allocation under the memory limit), a CPU limit.
fn crashed(status: ExitStatus, sandboxed: bool) -> bool {
    const SIGILL: i32 = 4;
    const SIGABRT: i32 = 6;
    const SIGBUS: i32 = 7;
    const SIGFPE: i32 = 8;
    const SIGSEGV: i32 = 11;
    const SIGXCPU: i32 = 24;
    matches!(
        signal(status, sandboxed),
        Some(SIGILL | SIGABRT | SIGBUS | SIGFPE | SIGSEGV | SIGXCPU)
    )
}

/// The signal that ended the worker: bwrap exits with 128 + the signal that killed its command.
fn signal(status: ExitStatus, sandboxed: bool) -> Option<i32> {
    status.signal().or_else(|| {
        status
            .code()
            .filter(|&code| sandboxed && code > 128 && code < 128 + 65)
            .map(|code| code - 128)
    })
}

fn describe(status: ExitStatus, sandboxed: bool) -> String {
    match (signal(status, sandboxed), status.code()) {
        (Some(signal), _) => format!("worker killed by signal {signal}"),
        (None, Some(code)) => format!("worker exited with status {code}"),
        _ => "worker ended".to_owned(),
    }
}
