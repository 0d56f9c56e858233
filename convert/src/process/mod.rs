//! Supervised engine processes: how LibreOffice and Chromium are started, measured and killed.
//!
//! The API of this module (`Spawn`, `Supervised`, `watch`, `watch_group`, `watch_groups`, `Overrun`,
//! `network_isolation`) is stable: both engines are written against it.
//!
//! An engine is started through small util-linux wrappers rather than code between fork and
//! exec (which would need `unsafe`): `setpriv --pdeathsig KILL` so it dies with the worker,
//! `prlimit --as=<hard>:` so it escapes the worker's soft address-space limit (Chromium reserves
//! terabytes of address space), and `unshare --net` so it has no network where the machine
//! allows it. Its memory is bounded instead by `watch`, which sums the resident size of its
//! whole process tree.

mod isolation;
mod tree;
mod watch;

pub use isolation::network_isolation;
pub use watch::{Overrun, watch, watch_group, watch_groups};

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use command_fds::{CommandFdExt, FdMapping};
use rustix::process::{Resource, getrlimit};

/// How to start an engine. `Spawn::new(program)` fills the rest with defaults.
#[derive(Debug, Default)]
pub struct Spawn {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Added to (not replacing) the worker's environment.
    pub env: Vec<(OsString, OsString)>,
    /// Extra file descriptors for the child, as (parent's fd, child fd number): Chromium's
    /// `--remote-debugging-pipe` reads fd 3 and writes fd 4.
    pub fds: Vec<(OwnedFd, i32)>,
    /// Piped stdin / stdout for the caller (a line protocol), else /dev/null.
    pub stdin_piped: bool,
    pub stdout_piped: bool,
    /// Where the engine's stderr goes (appended): `None` inherits the worker's.
    pub stderr_log: Option<PathBuf>,
}

impl Spawn {
    pub fn new(program: impl Into<PathBuf>) -> Spawn {
        Spawn {
            program: program.into(),
            ..Spawn::default()
        }
    }
}

/// A running engine: the leader of its own process group (its pid is the group id).
///
/// Its death signal is tied to the *thread* that called `spawn` (that is how
/// `PR_SET_PDEATHSIG` works): spawn engines from a thread that lives as long as the worker.
#[derive(Debug)]
pub struct Supervised {
    child: Child,
    /// Set once the leader is reaped: from then on its pid may be reused and is not signalled.
    reaped: bool,
}

impl Supervised {
    /// Starts the engine in its own process group, killed if the worker dies, with the
    /// address-space limit lifted and, when `network_isolation()`, without network.
    pub fn spawn(spawn: Spawn) -> io::Result<Supervised> {
        let mut command = Command::new(first_wrapper());
        command.args(wrapper_args());
        command.arg(&spawn.program).args(&spawn.args);
        command.envs(spawn.env.iter().map(|(k, v)| (k, v)));
        command.process_group(0);
        command.stdin(piped_or_null(spawn.stdin_piped));
        command.stdout(piped_or_null(spawn.stdout_piped));
        if let Some(log) = &spawn.stderr_log {
            let file = File::options().create(true).append(true).open(log)?;
            command.stderr(Stdio::from(file));
        }
        if !spawn.fds.is_empty() {
            let mappings = spawn
                .fds
                .into_iter()
                .map(|(parent_fd, child_fd)| FdMapping {
                    parent_fd,
                    child_fd,
                })
                .collect();
            command
                .fd_mappings(mappings)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        }
        let child = command.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot start {} (through util-linux's setpriv, prlimit and unshare): {e}",
                    spawn.program.display()
                ),
            )
        })?;
        Ok(Supervised {
            child,
            reaped: false,
        })
    }

    /// The engine's pid, which is also its process group id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stdin(&mut self) -> Option<&mut ChildStdin> {
        self.child.stdin.as_mut()
    }

    pub fn stdout(&mut self) -> Option<&mut ChildStdout> {
        self.child.stdout.as_mut()
    }

    /// Takes the piped stdin out, e.g. to write to it while `watch` borrows the engine.
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.child.stdin.take()
    }

    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    /// Resident memory, in bytes, of the engine and all its descendants (found through their
    /// parent links and through the process group, so a child that left the group counts).
    pub fn tree_rss(&self) -> u64 {
        if self.reaped {
            return 0;
        }
        tree::tree_rss(self.pid())
    }

    /// SIGKILL to the whole process group and to descendants that left it, then reaps the
    /// leader. Idempotent.
    pub fn kill(&mut self) {
        if !self.reaped {
            tree::kill_tree(self.pid());
            let _ = self.child.wait();
            self.reaped = true;
        }
    }

    /// Whether the leader still runs. When it has exited, what is left of its group is killed.
    pub fn is_alive(&mut self) -> bool {
        if self.reaped {
            return false;
        }
        match self.child.try_wait() {
            Ok(None) => true,
            _ => {
                // The group id cannot be reused while members are left, so this hits only ours.
                tree::kill_tree(self.pid());
                self.reaped = true;
                false
            }
        }
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        self.kill();
    }
}

fn piped_or_null(piped: bool) -> Stdio {
    if piped { Stdio::piped() } else { Stdio::null() }
}

/// `[unshare --net [--map-root-user] --] setpriv --pdeathsig KILL -- [prlimit --as=N: --]`:
/// `unshare` comes first so that the death signal is set after the namespace change (changing
/// credentials clears it); none of the wrappers forks, so the engine keeps the wrapper's pid.
fn first_wrapper() -> &'static str {
    if isolation::unshare_args().is_some() {
        "unshare"
    } else {
        "setpriv"
    }
}

fn wrapper_args() -> Vec<OsString> {
    let mut args: Vec<OsString> = Vec::new();
    if let Some(unshare) = isolation::unshare_args() {
        args.extend(unshare.iter().map(OsString::from));
        args.extend(["--", "setpriv"].map(OsString::from));
    }
    args.extend(["--pdeathsig", "KILL", "--"].map(OsString::from));
    let limit = getrlimit(Resource::As);
    if limit.current.is_some() {
        // Only the soft limit can be raised without privileges, up to the hard one.
        let soft = match limit.maximum {
            Some(hard) => hard.to_string(),
            None => "unlimited".to_owned(),
        };
        args.push("prlimit".into());
        args.push(format!("--as={soft}:").into());
        args.push("--".into());
    }
    args
}
