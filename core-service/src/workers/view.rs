//! A worker's bubblewrap view (`quire_convert::process::worker_sandbox`): what it sees, the
//! folder of its own it gets there, and the environment it keeps.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use quire_convert::process;
use tokio::process::Command;

use super::pool::PoolSettings;

/// A worker's filesystem view (`quire_convert::process::worker_sandbox`): the system's
/// programs and libraries, these paths, and nothing else of the machine.
#[derive(Clone, Debug, Default)]
pub struct WorkerView {
    /// Read-only: the worker's program, PDFium, the Tesseract data, the engines' programs.
    pub readable: Vec<PathBuf>,
    /// Read-write: the staging folder through which jobs' files travel (by path).
    pub writable: Vec<PathBuf>,
    /// The engines' folder (`--engine-dir`): each worker gets a fresh folder of its own,
    /// `<engine dir>/w-<core pid>-<n>`, bound at this path (so it sees no other worker's
    /// profiles) and holding its /tmp, removed with the worker.
    pub engine_dir: Option<PathBuf>,
}

/// Variables a worker reads from the core's environment: the rest of `QUIRE_*` (the database's
/// address, the edge's secret) stays out of its and its engines' reach.
const WORKER_ENV: &[&str] = &["QUIRE_LOG", "QUIRE_LOG_FORMAT", "QUIRE_SANDBOX"];

/// Prefixes of what the core's environment may hold for its own use and a worker must not
/// see: Quire's settings, the S3 store's credentials (`AWS_*`), and libpq's variables
/// (`PGPASSWORD`), which sqlx also reads.
const SECRET_PREFIXES: &[&str] = &["QUIRE_", "AWS_", "PG"];

/// Whether a worker keeps the core's variable `key`.
fn worker_keeps(key: &str) -> bool {
    WORKER_ENV.contains(&key) || !SECRET_PREFIXES.iter().any(|p| key.starts_with(p))
}

/// Removes from the worker's environment every variable of the core's it must not see.
pub(super) fn scrub_env(command: &mut Command) {
    for (key, _) in std::env::vars_os() {
        if !key.to_str().is_none_or(worker_keeps) {
            command.env_remove(key);
        }
    }
}

/// The worker's command: in its view when the machine allows it (probed once), with the
/// folder it gets for itself there.
pub(super) fn command(settings: &PoolSettings) -> anyhow::Result<(Command, Option<Home>)> {
    let view = &settings.view;
    if !process::worker_sandbox() {
        return Ok((Command::new(&settings.program), None));
    }
    let mut sandbox = process::View {
        readable: view.readable.clone(),
        writable: view.writable.clone(),
        ..process::View::default()
    };
    sandbox.readable.push(settings.program.clone());
    let home = match &view.engine_dir {
        Some(engine_dir) => {
            let home = Home::create(engine_dir).map_err(|e| {
                anyhow::anyhow!(
                    "cannot make a worker folder in {}: {e}",
                    engine_dir.display()
                )
            })?;
            sandbox
                .writable_at
                .push((home.0.join("engines"), engine_dir.clone()));
            sandbox.tmp = Some(home.0.join("tmp"));
            Some(home)
        }
        None => None,
    };
    let command = process::worker_command(&sandbox, &settings.program);
    Ok((Command::from(command), home))
}

/// `<engine dir>/w-<core pid>-<n>`: a sandboxed worker's engine folder and /tmp.
pub(super) struct Home(PathBuf);

impl Home {
    fn create(engine_dir: &Path) -> std::io::Result<Home> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let me = std::process::id();
        if n == 0 {
            remove_stale_homes(engine_dir);
        }
        let home = Home(engine_dir.join(format!("w-{me}-{n}")));
        std::fs::create_dir_all(home.0.join("engines"))?;
        std::fs::create_dir_all(home.0.join("tmp"))?;
        Ok(home)
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Homes left by a core that no longer runs (killed before it could remove them).
fn remove_stale_homes(engine_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(engine_dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let core = name
            .to_str()
            .and_then(|name| name.strip_prefix("w-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if core.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_keeps_no_secret_of_the_core() {
        for secret in [
            "QUIRE_DATABASE_URL",
            "QUIRE_EDGE_SECRET",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_ACCESS_KEY_ID",
            "PGPASSWORD",
        ] {
            assert!(!worker_keeps(secret), "{secret}");
        }
        for kept in ["QUIRE_LOG", "QUIRE_SANDBOX", "PATH", "HOME", "LANG"] {
            assert!(worker_keeps(kept), "{kept}");
        }
    }
}
