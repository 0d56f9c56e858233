//! HTML and Markdown to PDF with a warm headless Chromium.
//!
//! One browser per worker, started once and reused: each job gets a fresh browser context (an
//! incognito-like profile of its own, disposed after), so nothing is shared between users' jobs
//! but the browser's code. The browser is driven over `--remote-debugging-pipe` (see `cdp`),
//! never a DevTools port. Nothing outside the uploaded files is ever fetched: every request of
//! the page is answered by `intercept` from the upload or refused, and the browser's own
//! network is dead underneath (see `launch`). JavaScript stays on (reports draw charts with it).
//! The page's top frame stays on the uploaded document: navigations away are refused, and a page
//! that replaces or closes itself anyway is refused at once (see `navigation`).
//!
//! Every print runs under `process::watch_group` over the browser's process tree; an overrun
//! kills it and the next job starts a new one. The browser is also started again after a crash
//! and after `JOBS_PER_BROWSER` jobs (a long-lived browser's memory only grows).

mod cdp;
mod intercept;
mod job;
mod launch;
mod navigation;
mod options;
mod prepare;

pub use crate::site::Source;
pub use intercept::ORIGIN;
pub use options::{MAX_MARGIN_MM, Paper, PrintOptions};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use self::cdp::CdpError;
use self::job::JobError;
use self::launch::Running;
use crate::process::{Overrun, watch_group};
use crate::{ConvertError, Limits, site};

/// A browser is replaced after this many jobs.
pub const JOBS_PER_BROWSER: u32 = 500;
/// How long `start` waits for a browser that is not started within a job's limits.
const START_TIME: Duration = Duration::from_secs(30);
/// How long past the job's time limit our own waits last: the watcher ends the job first.
const GRACE: Duration = Duration::from_secs(5);

#[derive(Debug, Clone)]
pub struct ChromiumConfig {
    /// The browser binary. Debian's `/usr/bin/chromium` is a shell script that sources API keys
    /// and extension flags from /etc/chromium.d; `debian()` runs the binary behind it.
    pub program: PathBuf,
    /// Where each browser's fresh profile folder is made (and removed when it stops).
    pub profile_root: PathBuf,
}

impl ChromiumConfig {
    /// Debian's chromium package: `/usr/lib/chromium/chromium`, or the `/usr/bin/chromium`
    /// wrapper when the binary is elsewhere.
    pub fn debian(profile_root: impl Into<PathBuf>) -> ChromiumConfig {
        let binary = Path::new("/usr/lib/chromium/chromium");
        let program = if binary.is_file() {
            binary.to_path_buf()
        } else {
            PathBuf::from("/usr/bin/chromium")
        };
        ChromiumConfig {
            program,
            profile_root: profile_root.into(),
        }
    }
}

/// What the page asked for and did not get; the PDF was made without it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Printed {
    /// URLs the document asked for and was refused (the first 20): outside the upload, or a
    /// navigation of the page away from itself (the uploaded document is what is printed).
    pub blocked: Vec<String>,
    /// Files the document referenced inside the upload that are not in it (the first 20).
    pub missing: Vec<String>,
}

/// Whether the configured browser binary is there to be started.
pub fn is_available(config: &ChromiumConfig) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(&config.program)
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

pub struct Chromium {
    config: ChromiumConfig,
    running: Option<Running>,
}

impl Chromium {
    /// Nothing is started until `start` or the first `print`.
    pub fn new(config: ChromiumConfig) -> Chromium {
        Chromium {
            config,
            running: None,
        }
    }

    /// Starts the browser now and makes a page ready for the next job, so that job finds both
    /// warm. Does nothing when they are. Call it when the worker is idle (at start and after
    /// replying to each job): making the page costs a renderer start, a few hundred ms that
    /// `print` otherwise spends inside the job.
    pub fn start(&mut self) -> Result<(), ConvertError> {
        let deadline = Instant::now() + START_TIME;
        self.ensure_running(deadline)?;
        let Some(running) = self.running.as_mut() else {
            return Ok(());
        };
        if running.spare.is_none() {
            match prepare::prepare(&mut running.cdp, deadline) {
                Ok(prepared) => running.spare = Some(prepared),
                Err(error) => {
                    self.stop();
                    return Err(ConvertError::Engine(format!(
                        "chromium could not open a page: {error:?}"
                    )));
                }
            }
        }
        Ok(())
    }

    /// The browser's pid while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.running.as_ref().map(|running| running.engine.pid())
    }

    /// Prints `input` (of kind `source`) to `output` as a PDF, unpacking it under `work_dir`
    /// (which the caller removes). The time limit counts the browser's start when it has to
    /// start.
    pub fn print(
        &mut self,
        input: &Path,
        source: Source,
        work_dir: &Path,
        options: &PrintOptions,
        output: &Path,
        limits: Limits,
    ) -> Result<Printed, ConvertError> {
        options.validate()?;
        let begun = Instant::now();
        let site = site::unpack(input, source, work_dir)?;
        self.ensure_running(begun + limits.time)?;
        let remaining = limits.time.saturating_sub(begun.elapsed());
        if remaining.is_zero() {
            return Err(Overrun::Time.into_error(limits));
        }
        let Some(running) = self.running.as_mut() else {
            return Err(ConvertError::Engine("chromium is not running".into()));
        };
        running.jobs += 1;
        let deadline = Instant::now() + remaining + GRACE;
        let job_limits = Limits {
            time: remaining,
            memory: limits.memory,
        };
        let pid = running.engine.pid();
        let spare = running.spare.take();
        let cdp = &mut running.cdp;
        let watched = watch_group(pid, job_limits, || {
            let prepared = match spare {
                Some(prepared) => prepared,
                None => prepare::prepare(cdp, deadline)?,
            };
            job::print(cdp, prepared, &site, options, output, deadline)
        });
        match watched {
            Ok(Ok(refusals)) => Ok(Printed {
                blocked: refusals.blocked,
                missing: refusals.missing,
            }),
            Ok(Err(error)) => Err(self.job_failed(error, limits)),
            Err(overrun) => {
                self.stop();
                Err(overrun.into_error(limits))
            }
        }
    }

    /// Kills the browser and removes its profile; the next job starts a new one.
    pub fn stop(&mut self) {
        self.running = None;
    }

    fn ensure_running(&mut self, deadline: Instant) -> Result<(), ConvertError> {
        if let Some(running) = self.running.as_mut()
            && (!running.engine.is_alive() || running.jobs >= JOBS_PER_BROWSER)
        {
            self.stop();
        }
        if self.running.is_none() {
            self.running = Some(launch::launch(
                &self.config.program,
                &self.config.profile_root,
                deadline,
            )?);
        }
        Ok(())
    }

    fn job_failed(&mut self, error: JobError, limits: Limits) -> ConvertError {
        match error {
            JobError::Cdp(CdpError::Closed) => {
                self.stop();
                ConvertError::Engine("chromium stopped while printing; it is started again for the next file".into())
            }
            JobError::Cdp(CdpError::Timeout) => {
                // The watcher should have ended the job first; the browser is not trusted now.
                self.stop();
                Overrun::Time.into_error(limits)
            }
            JobError::Crashed => ConvertError::Unreadable(
                "the page crashed chromium's renderer while printing (too large or too complex); simplify the page or split it"
                    .into(),
            ),
            JobError::Navigation(reason) => {
                ConvertError::Engine(format!("chromium could not open the page ({reason})"))
            }
            // The page's doing, not the browser's: the browser stays for the next job.
            JobError::Left(left) => ConvertError::Refused(left.explain()),
            JobError::PageGone { method, message } => {
                tracing::info!(%method, %message, "chromium refused a command the page had made moot");
                ConvertError::Refused(format!(
                    "the page navigated or closed itself while it was printed (chromium: {message}); only the uploaded page is printed: remove the script that leaves it"
                ))
            }
            JobError::Cdp(other) => {
                self.stop();
                ConvertError::Engine(format!("printing failed: {other}"))
            }
            JobError::Output(error) => ConvertError::Engine(format!("could not write the PDF: {error}")),
        }
    }
}
