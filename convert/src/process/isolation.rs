//! Whether engines can be started without network, probed once.

use std::process::{Command, Stdio};
use std::sync::OnceLock;

use rustix::process::geteuid;

/// Whether engines are started without network on this machine: in their bubblewrap view
/// (`sandbox`), else where the `unshare` wrapper, probed once with `true`, works. Logs a
/// warning once when they cannot.
pub fn network_isolation() -> bool {
    super::sandbox::engine_sandbox() != super::Sandbox::Off || unshare_args().is_some()
}

/// The `unshare` flags that work here, if any: plain `--net` needs CAP_SYS_ADMIN (root in most
/// setups); `--net --map-root-user` works unprivileged where user namespaces are allowed.
pub(super) fn unshare_args() -> Option<&'static [&'static str]> {
    static PROBED: OnceLock<Option<&'static [&'static str]>> = OnceLock::new();
    *PROBED.get_or_init(|| {
        const PLAIN: &[&str] = &["--net"];
        const MAPPED: &[&str] = &["--net", "--map-root-user"];
        let candidates: &[&'static [&'static str]] = if geteuid().is_root() {
            &[PLAIN, MAPPED]
        } else {
            &[MAPPED]
        };
        let found = candidates.iter().copied().find(|flags| works(flags));
        if found.is_none() {
            tracing::warn!(
                "engines run WITH network access: `unshare --net` does not work on this machine \
                 (install util-linux, run as root or allow unprivileged user namespaces)"
            );
        }
        found
    })
}

fn works(flags: &[&str]) -> bool {
    Command::new("unshare")
        .args(flags)
        .args(["--", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}
