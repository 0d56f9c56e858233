//! Starting headless Chromium: its flags, its fresh profile, the DevTools pipe.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde_json::json;

use super::cdp::{Cdp, CdpError};
use super::prepare::Prepared;
use crate::ConvertError;
use crate::process::{Spawn, Supervised, network_isolation};

/// A started browser: the supervised process, the client on its pipe and its profile folder
/// (removed when this is dropped, after the browser is killed).
pub struct Running {
    pub engine: Supervised,
    pub cdp: Cdp,
    pub profile: PathBuf,
    /// Jobs printed by this browser.
    pub jobs: u32,
    /// A page made ready for the next job while the worker was idle.
    pub spare: Option<Prepared>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.engine.kill();
        let _ = fs::remove_dir_all(&self.profile);
    }
}

/// Starts `program` with a fresh profile under `profile_root` and waits until it answers on its
/// pipe, at the latest at `deadline`.
pub fn launch(
    program: &Path,
    profile_root: &Path,
    deadline: Instant,
) -> Result<Running, ConvertError> {
    remove_stale_profiles(profile_root);
    let profile = fresh_profile(profile_root)?;
    let log = profile.join("chromium.log");
    let home = profile.join("home");
    fs::create_dir_all(&home).map_err(|e| engine_error("create the browser profile", e))?;

    // fd 3: the browser reads our commands; fd 4: it writes answers and events.
    let (commands_read, commands_write) =
        std::io::pipe().map_err(|e| engine_error("open the DevTools pipe", e))?;
    let (answers_read, answers_write) =
        std::io::pipe().map_err(|e| engine_error("open the DevTools pipe", e))?;

    let mut spawn = Spawn::new(program);
    spawn.args = flags(&profile);
    // Chromium writes to $HOME (~/.pki, crash reports): kept inside the profile, gone with it.
    spawn.env = vec![
        ("HOME".into(), home.into_os_string()),
        ("XDG_CONFIG_HOME".into(), profile.join("config").into()),
    ];
    spawn.fds = vec![(commands_read.into(), 3), (answers_write.into(), 4)];
    spawn.stderr_log = Some(log.clone());
    // In its view (`process::View`) the browser writes its profile only.
    spawn.writable = vec![profile.clone()];
    let engine = Supervised::spawn(spawn)
        .map_err(|e| ConvertError::Engine(format!("could not start chromium: {e}")))?;
    let cdp = Cdp::new(commands_write, answers_read)
        .map_err(|e| engine_error("start the DevTools reader", e))?;
    let mut running = Running {
        engine,
        cdp,
        profile,
        jobs: 0,
        spare: None,
    };

    match running.cdp.call(
        "Browser.getVersion",
        json!({}),
        None,
        deadline,
        &mut |_, _| true,
    ) {
        Ok(_) => Ok(running),
        Err(error) => {
            running.engine.kill();
            let tail = log_tail(&log);
            Err(ConvertError::Engine(match error {
                CdpError::Timeout => {
                    format!("chromium did not start in time; its log ends with: {tail}")
                }
                other => format!("chromium did not start ({other}); its log ends with: {tail}"),
            }))
        }
    }
}

/// The command line. The network is closed at the browser's layer too (the job's interceptor
/// is the first layer): every connection goes to a proxy on a closed local port, loopback
/// included (`<-loopback>` removes the implicit bypass), no name resolves, WebRTC may not use
/// UDP outside the proxy, and popups are refused.
fn flags(profile: &Path) -> Vec<OsString> {
    let mut flags: Vec<OsString> = vec![
        "--headless".into(),
        "--remote-debugging-pipe".into(),
        format!("--user-data-dir={}", profile.display()).into(),
        "--no-first-run".into(),
        "--no-default-browser-check".into(),
        "--disable-gpu".into(),
        "--disable-extensions".into(),
        "--disable-background-networking".into(),
        "--disable-sync".into(),
        "--disable-component-update".into(),
        "--disable-default-apps".into(),
        "--disable-breakpad".into(),
        "--disable-domain-reliability".into(),
        "--disable-client-side-phishing-detection".into(),
        // Prerender2: a prerendered page is a target of its own, outside the job's interceptor,
        // and its activation would replace the page without a request to refuse.
        "--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider,Prerender2"
            .into(),
        "--no-pings".into(),
        "--mute-audio".into(),
        "--hide-scrollbars".into(),
        // /dev/shm is small in containers (64 MB); a large page would crash the renderer there.
        "--disable-dev-shm-usage".into(),
        "--block-new-web-contents".into(),
        "--proxy-server=http://127.0.0.1:9".into(),
        "--proxy-bypass-list=<-loopback>".into(),
        "--host-resolver-rules=MAP * ~NOTFOUND".into(),
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp".into(),
        "--webrtc-ip-handling-policy=disable_non_proxied_udp".into(),
    ];
    // Chromium's own sandbox needs to run as a user other than root, with a /proc of its own
    // and user namespaces allowed (`process::engines_may_sandbox_themselves`); elsewhere
    // (root without bubblewrap, or nested in a worker's view) pages are still confined by the
    // origin rules, the dead network, the worker's limits and the engine's view.
    if !crate::process::engines_may_sandbox_themselves() {
        flags.push("--no-sandbox".into());
    }
    if !network_isolation() {
        tracing::debug!(
            "chromium runs without a network namespace; the proxy and resolver rules close its network"
        );
    }
    flags.push("about:blank".into());
    flags
}

static PROFILES: AtomicU64 = AtomicU64::new(0);

/// `chromium-<worker pid>-<n>`: the pid lets a later worker remove what a killed one left.
fn fresh_profile(root: &Path) -> Result<PathBuf, ConvertError> {
    fs::create_dir_all(root).map_err(|e| engine_error("create the profile folder", e))?;
    let n = PROFILES.fetch_add(1, Ordering::Relaxed);
    let profile = root.join(format!("chromium-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&profile);
    fs::create_dir(&profile).map_err(|e| engine_error("create the browser profile", e))?;
    Ok(profile)
}

/// Profiles of workers that no longer run (killed before they could clean up).
fn remove_stale_profiles(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("chromium-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

fn log_tail(log: &Path) -> String {
    let text = fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().rev().take(3).collect();
    if lines.is_empty() {
        "(nothing)".into()
    } else {
        lines.into_iter().rev().collect::<Vec<_>>().join(" | ")
    }
}

fn engine_error(what: &str, error: std::io::Error) -> ConvertError {
    ConvertError::Engine(format!("could not {what}: {error}"))
}
