//! Supervised engine processes: how LibreOffice and Chromium are started, measured and killed.
//!
//! The API of this module (`Spawn`, `Supervised`, `watch`, `watch_group`, `watch_groups`, `Overrun`,
//! `network_isolation`) is stable: both engines are written against it.
//!
//! An engine is started through small wrappers rather than code between fork and exec (which
//! would need `unsafe`). Where bubblewrap works (`sandbox`), `bwrap` gives it a view of the
//! system's programs and libraries read-only, a private /tmp, /dev and /proc and only the
//! folders its `Spawn` names, in its own mount, pid, IPC, UTS and network namespaces, dying with
//! the worker, and it runs as `nobody` when the worker is root. Elsewhere (with one warning) it
//! is started as before: `unshare --net` where the machine allows it, `setpriv --pdeathsig KILL`
//! so it dies with the worker. Either way `prlimit --as=<hard>:` lifts the worker's soft
//! address-space limit (Chromium reserves terabytes of address space); its memory is bounded
//! instead by `watch`, which sums the resident size of its whole process tree.

mod isolation;
mod sandbox;
mod tree;
mod view;
mod watch;

pub use isolation::network_isolation;
pub use sandbox::{
    ENGINE_GID, ENGINE_UID, Sandbox, View, engine_sandbox, engines_may_sandbox_themselves,
    engines_unprivileged, hand_over, worker_command, worker_sandbox,
};
pub use watch::{Overrun, watch, watch_group, watch_groups};

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
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
    /// Folders (or files) the engine reads beyond the system's programs and libraries, when it
    /// runs in a view (`engine_sandbox()`); the program's own folder is added.
    pub readable: Vec<PathBuf>,
    /// Folders the engine writes (its profile, its work): bound read-write in its view and
    /// handed to `nobody` when it runs as `nobody`. Nothing else outside its private /tmp is
    /// writable.
    pub writable: Vec<PathBuf>,
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
    /// address-space limit lifted, in its view when `engine_sandbox()` is on, and without
    /// network when `network_isolation()`.
    pub fn spawn(spawn: Spawn) -> io::Result<Supervised> {
        let mode = sandbox::engine_sandbox();
        let mut command = if mode == Sandbox::Off {
            let mut command = Command::new(first_wrapper());
            command.args(wrapper_args());
            command.arg(&spawn.program);
            command
        } else {
            for dir in &spawn.writable {
                hand_over(dir)?;
            }
            let mut readable = spawn.readable.clone();
            if let Some(dir) = spawn.program.parent().filter(|dir| dir.is_absolute()) {
                readable.push(dir.to_path_buf());
            }
            let view = View {
                readable,
                writable: spawn.writable.clone(),
                writable_at: Vec::new(),
                tmp: None,
            };
            let mut tail = prlimit_args();
            tail.push(spawn.program.clone().into_os_string());
            let mut command = sandbox::engine_command(mode, &view, Path::new(&tail[0]));
            command.args(&tail[1..]);
            command
        };
        command.args(&spawn.args);
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
                    "cannot start {} (through {}): {e}",
                    spawn.program.display(),
                    if mode == Sandbox::Off {
                        "util-linux's setpriv, prlimit and unshare"
                    } else {
                        "bubblewrap's bwrap and util-linux's setpriv and prlimit"
                    }
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

    /// The pid, as the worker sees it, of the process of this engine's tree that calls itself
    /// `inner` (its pid inside the engine's pid namespace, when it runs in a view).
    pub fn outer_pid(&self, inner: u32) -> Option<u32> {
        if self.reaped {
            return None;
        }
        if sandbox::engine_sandbox() == Sandbox::Off {
            return Some(inner);
        }
        tree::outer_pid(self.pid(), inner)
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
    args.extend(prlimit_args());
    args
}

/// `prlimit --as=<hard>: --` when the worker has a soft address-space limit, else nothing.
fn prlimit_args() -> Vec<OsString> {
    let limit = getrlimit(Resource::As);
    if limit.current.is_none() {
        return Vec::new();
    }
    // Only the soft limit can be raised without privileges, up to the hard one.
    let soft = match limit.maximum {
        Some(hard) => hard.to_string(),
        None => "unlimited".to_owned(),
    };
    vec![
        "prlimit".into(),
        format!("--as={soft}:").into(),
        "--".into(),
    ]
}
