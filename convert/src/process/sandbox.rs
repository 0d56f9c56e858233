//! Filesystem views for engines and workers: bubblewrap (`bwrap`) mount, pid, IPC, UTS and
//! network namespaces holding the system's programs and libraries read-only, a private /tmp,
//! /dev and /proc, and only the folders a process was given; engines run as `nobody` when the
//! worker is root. Probed once per process, like `unshare` in `isolation`: where bwrap cannot
//! make namespaces here, engines fall back to `unshare --net` with one loud warning.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use rustix::process::geteuid;

pub use super::view::View;
use super::view::view_args;

/// `nobody`: who engines run as when the worker is root.
pub const ENGINE_UID: u32 = 65534;
pub const ENGINE_GID: u32 = 65534;

/// Capabilities a sandboxed root worker keeps: enough to start its engines as `nobody`
/// (setuid, setgid, dropping the bounding set), hand them their folders (chown) and kill and
/// clean up after them (kill, DAC override, fowner). Never CAP_SYS_ADMIN: it cannot mount,
/// so it cannot undo its own view.
const WORKER_CAPS: &[&str] = &[
    "CAP_CHOWN",
    "CAP_DAC_OVERRIDE",
    "CAP_FOWNER",
    "CAP_KILL",
    "CAP_SETGID",
    "CAP_SETUID",
    "CAP_SETPCAP",
];

/// How engines are confined on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sandbox {
    /// bwrap run by root, without a user namespace; `setpriv` then drops the engine to
    /// `nobody` with no capabilities.
    Privileged,
    /// bwrap in a user namespace, run as `nobody` (root drops to it first with `setpriv`) or
    /// as the worker's own unprivileged user. `own_proc` is false inside a sandboxed worker,
    /// whose /proc cannot be mounted again from a user namespace: the worker's is bound
    /// read-only instead.
    UserNamespace { own_proc: bool },
    /// No bwrap view: `unshare --net` where it works, as before.
    Off,
}

/// How engines run here, probed once (the first engine start pays a few bwrap starts).
/// `QUIRE_SANDBOX=off` turns the view off (for diagnosis); a warning says so.
pub fn engine_sandbox() -> Sandbox {
    static PROBED: OnceLock<Sandbox> = OnceLock::new();
    *PROBED.get_or_init(|| {
        if disabled() {
            tracing::warn!("QUIRE_SANDBOX=off: engines see the whole filesystem");
            return Sandbox::Off;
        }
        let mut candidates = Vec::new();
        if geteuid().is_root() {
            candidates.push(Sandbox::Privileged);
        }
        candidates.push(Sandbox::UserNamespace { own_proc: true });
        candidates.push(Sandbox::UserNamespace { own_proc: false });
        let found = candidates
            .into_iter()
            .find(|&mode| succeeds(engine_command(mode, &View::default(), Path::new("true"))));
        match found {
            Some(mode) => {
                tracing::info!(sandbox = ?mode, unprivileged = engines_unprivileged_in(mode), "engines run in a bubblewrap view");
                mode
            }
            None => {
                tracing::warn!(
                    "engines see the WHOLE FILESYSTEM: bubblewrap (`bwrap`) is missing or cannot \
                     make namespaces here (install the bubblewrap package; run as root or allow \
                     unprivileged user namespaces)"
                );
                Sandbox::Off
            }
        }
    })
}

/// Whether engines run as a user other than root.
pub fn engines_unprivileged() -> bool {
    engines_unprivileged_in(engine_sandbox())
}

fn engines_unprivileged_in(mode: Sandbox) -> bool {
    mode != Sandbox::Off || !geteuid().is_root()
}

/// Whether an engine may make its own user and pid namespaces (what Chromium's sandbox needs):
/// it runs unprivileged, with a /proc of its own, where the kernel allows user namespaces.
pub fn engines_may_sandbox_themselves() -> bool {
    static PROBED: OnceLock<bool> = OnceLock::new();
    *PROBED.get_or_init(|| match engine_sandbox() {
        Sandbox::UserNamespace { own_proc: false } => false,
        Sandbox::Off => !geteuid().is_root(),
        mode => {
            let mut probe = engine_command(mode, &View::default(), Path::new("unshare"));
            probe.args(["--user", "--pid", "--net", "--fork", "true"]);
            succeeds(probe)
        }
    })
}

fn disabled() -> bool {
    std::env::var_os("QUIRE_SANDBOX").is_some_and(|value| value == "off")
}

/// Whether the engines' writable folders must be handed to `nobody`.
fn drops_to_nobody(mode: Sandbox) -> bool {
    mode != Sandbox::Off && geteuid().is_root()
}

/// Gives `path` (recursively) to the user engines run as, when that is not the caller.
pub fn hand_over(path: &Path) -> io::Result<()> {
    if !drops_to_nobody(engine_sandbox()) {
        return Ok(());
    }
    chown_tree(path)
}

fn chown_tree(path: &Path) -> io::Result<()> {
    let meta = fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        return Ok(());
    }
    if meta.uid() != ENGINE_UID || meta.gid() != ENGINE_GID {
        std::os::unix::fs::lchown(path, Some(ENGINE_UID), Some(ENGINE_GID))?;
    }
    if meta.is_dir() {
        for entry in fs::read_dir(path)? {
            chown_tree(&entry?.path())?;
        }
    }
    Ok(())
}

/// The command that starts `program` confined as `mode` says, seeing `view` (arguments of the
/// program itself are for the caller to add).
pub(super) fn engine_command(mode: Sandbox, view: &View, program: &Path) -> Command {
    let nobody: [OsString; 4] = [
        format!("--reuid={ENGINE_UID}").into(),
        format!("--regid={ENGINE_GID}").into(),
        "--clear-groups".into(),
        "--inh-caps=-all".into(),
    ];
    match mode {
        Sandbox::Privileged => {
            let mut command = Command::new("bwrap");
            command.args(namespace_args(false));
            command.args(view_args(view, true));
            command.arg("--").arg("setpriv").args(&nobody);
            command.args(["--bounding-set=-all", "--"]).arg(program);
            command
        }
        Sandbox::UserNamespace { own_proc } => {
            let mut command = if geteuid().is_root() {
                let mut command = Command::new("setpriv");
                command.args(&nobody);
                command.args(["--bounding-set=-all", "--", "bwrap"]);
                command
            } else {
                Command::new("bwrap")
            };
            command.args(namespace_args(true));
            command.args(view_args(view, own_proc));
            command.args(["--cap-drop", "ALL", "--"]).arg(program);
            command
        }
        Sandbox::Off => Command::new(program),
    }
}

/// Whether workers can run in a view: root with bwrap, or an unprivileged user where user
/// namespaces are allowed. Probed once; warns once when they cannot.
pub fn worker_sandbox() -> bool {
    static PROBED: OnceLock<bool> = OnceLock::new();
    *PROBED.get_or_init(|| {
        if disabled() {
            tracing::warn!("QUIRE_SANDBOX=off: workers see the whole filesystem");
            return false;
        }
        let works = succeeds(worker_command(&View::default(), Path::new("true")));
        if works {
            tracing::info!("workers run in a bubblewrap view");
        } else {
            tracing::warn!(
                "workers see the WHOLE FILESYSTEM: bubblewrap (`bwrap`) is missing or cannot make \
                 namespaces here (install the bubblewrap package; run as root or allow \
                 unprivileged user namespaces)"
            );
        }
        works
    })
}

/// `bwrap ... -- program`: a worker's view. A root worker stays root, with only the
/// capabilities in `WORKER_CAPS`, so that it can start its engines as `nobody`; an
/// unprivileged one runs in a user namespace. Either way: no network, its own pid namespace.
pub fn worker_command(view: &View, program: &Path) -> Command {
    let root = geteuid().is_root();
    let mut command = Command::new("bwrap");
    command.args(namespace_args(!root));
    command.args(view_args(view, true));
    command.args(["--cap-drop", "ALL"]);
    if root {
        for cap in WORKER_CAPS {
            command.args(["--cap-add", cap]);
        }
    }
    command.arg("--").arg(program);
    command
}

/// Every namespace bwrap offers, the network's included; the sandbox dies with its parent and
/// has no controlling terminal to push input into.
fn namespace_args(user: bool) -> Vec<OsString> {
    let mut args: Vec<OsString> = Vec::new();
    if user {
        args.push("--unshare-user".into());
    }
    args.extend(
        [
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--die-with-parent",
            "--new-session",
        ]
        .map(OsString::from),
    );
    args
}

fn succeeds(mut command: Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engines' wrapper over a real bwrap: a file outside the view cannot be read, one
    /// inside can, the network is gone and, when the test runs as root, so is root.
    #[test]
    fn a_process_in_a_view_reads_and_writes_only_its_folders() {
        let mode = engine_sandbox();
        assert_ne!(
            mode,
            Sandbox::Off,
            "bubblewrap must work on the test machine (scripts/setup.sh installs it)"
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let secret = dir.path().join("secret.txt");
        fs::write(&secret, "view-secret-5b1e").expect("write");
        let work = dir.path().join("work");
        fs::create_dir(&work).expect("mkdir");
        fs::write(work.join("mine.txt"), "mine-7c2d\n").expect("write");
        hand_over(&work).expect("hand over");
        let view = View {
            writable: vec![work.clone()],
            ..View::default()
        };
        let script = format!(
            "cat {secret} /etc/shadow /etc/passwd; cat {work}/mine.txt; echo written > {work}/new; \
             echo escaped > {outside}; id -u; cat /proc/net/dev",
            secret = secret.display(),
            work = work.display(),
            outside = dir.path().join("outside").display(),
        );
        let mut command = engine_command(mode, &view, Path::new("/bin/sh"));
        let out = command.args(["-c", &script]).output().expect("bwrap runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stdout.contains("view-secret-5b1e"), "{stdout}");
        assert!(!stdout.contains("root:"), "{stdout}");
        assert!(stdout.contains("mine-7c2d"), "{stdout} {stderr}");
        assert!(work.join("new").exists(), "{stderr}");
        assert!(!dir.path().join("outside").exists());
        let uid = stdout
            .lines()
            .find_map(|line| line.trim().parse::<u32>().ok())
            .expect("id -u");
        assert_ne!(uid, 0, "the engine runs as root");
        // Only the loopback interface: no way out.
        let interfaces: Vec<&str> = stdout
            .lines()
            .filter_map(|line| line.split_once(':').map(|(name, _)| name.trim()))
            .filter(|name| !name.is_empty() && !name.contains(' ') && !name.contains('|'))
            .collect();
        assert_eq!(interfaces, ["lo"], "{stdout}");
    }
}
