//! One running LibreOffice: the Python bridge (the supervised process) and the soffice.bin it
//! starts as its child, in one process group, with their own fresh profile.

use std::fs;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Deserialize;

use super::{OfficeConfig, profile};
use crate::process::{Spawn, Supervised, hand_over};

const BRIDGE: &str = include_str!("bridge.py");

/// One line from the bridge.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Answer {
    pub ready: bool,
    pub soffice_pid: Option<u32>,
    pub ok: bool,
    pub kind: Option<String>,
    pub error: Option<String>,
    pub reason: String,
}

/// Why talking to the engine failed.
#[derive(Debug)]
pub(super) enum Failure {
    /// It never became ready (LibreOffice missing or broken): the bridge's reason.
    Start(String),
    /// The bridge went away (killed, or died with soffice) in the middle of a job.
    Gone,
}

pub(super) struct Engine {
    bridge: Supervised,
    requests: ChildStdin,
    answers: BufReader<ChildStdout>,
    soffice_pid: Option<u32>,
    /// Holds the profile, the bridge script and the engines' log; removed with the engine.
    dir: PathBuf,
    pub jobs: u32,
}

impl Engine {
    /// Starts the bridge, which starts soffice.bin; does not wait for it to be ready.
    pub fn spawn(config: &OfficeConfig) -> io::Result<Engine> {
        static STARTS: AtomicU64 = AtomicU64::new(0);
        let start = STARTS.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!("quire-office-{}-{start}-{nanos:x}", std::process::id());
        let dir = config.profile_root.join(&name);
        fs::create_dir_all(&dir)?;
        let engine = Engine::spawn_in(config, dir.clone(), &name);
        if engine.is_err() {
            let _ = fs::remove_dir_all(&dir);
        }
        engine
    }

    fn spawn_in(config: &OfficeConfig, dir: PathBuf, pipe: &str) -> io::Result<Engine> {
        let profile_dir = dir.join("profile");
        profile::create(&profile_dir, &config.profile_root.join("template"))?;
        let script = dir.join("bridge.py");
        fs::write(&script, BRIDGE)?;
        let mut spawn = Spawn::new(&config.python);
        // -s: no user site-packages; -u: unbuffered, each answer line leaves at once.
        spawn.args = vec!["-s".into(), "-u".into(), script.into_os_string()];
        spawn.args.extend([
            config.program_dir.clone().into_os_string(),
            profile_dir.into_os_string(),
            config.profile_root.join("template").into_os_string(),
            pipe.into(),
        ]);
        // Debian's uno.py lives in dist-packages; another LibreOffice keeps it in program/.
        let mut python_path = config.program_dir.clone().into_os_string();
        if let Some(existing) = std::env::var_os("PYTHONPATH") {
            python_path.push(":");
            python_path.push(existing);
        }
        spawn.env = vec![("PYTHONPATH".into(), python_path)];
        spawn.stdin_piped = true;
        spawn.stdout_piped = true;
        spawn.stderr_log = Some(dir.join("engine.log"));
        // Its view (`process::View`): LibreOffice's program folder to read, and the profile
        // root to write (its profile, the template it keeps, the job files of `JobFiles`).
        spawn.readable = vec![config.program_dir.clone()];
        spawn.writable = vec![config.profile_root.clone()];
        let mut bridge = Supervised::spawn(spawn)?;
        let (Some(requests), Some(answers)) = (bridge.take_stdin(), bridge.take_stdout()) else {
            return Err(io::Error::other("the bridge's pipes were not set up"));
        };
        Ok(Engine {
            bridge,
            requests,
            answers: BufReader::new(answers),
            soffice_pid: None,
            dir,
            jobs: 0,
        })
    }

    /// The process group of the bridge and soffice.bin, for `process::watch_group`.
    pub fn pgid(&self) -> u32 {
        self.bridge.pid()
    }

    /// soffice.bin's pid once the engine is ready.
    pub fn soffice_pid(&self) -> Option<u32> {
        self.soffice_pid
    }

    pub fn is_alive(&mut self) -> bool {
        self.bridge.is_alive()
    }

    /// Waits until soffice.bin answers on its pipe (at once when it already did).
    pub fn wait_ready(&mut self) -> Result<(), Failure> {
        if self.soffice_pid.is_some() {
            return Ok(());
        }
        match self.read_answer() {
            Some(answer) if answer.ready => {
                // The bridge says its child's pid inside the engine's pid namespace.
                self.soffice_pid = answer
                    .soffice_pid
                    .and_then(|pid| self.bridge.outer_pid(pid));
                Ok(())
            }
            Some(answer) => Err(Failure::Start(answer.reason)),
            None => Err(Failure::Start(format!(
                "the LibreOffice bridge exited while starting: {}",
                self.log_tail()
            ))),
        }
    }

    /// One conversion: waits for the engine if needed, sends the request, reads the answer.
    pub fn ask(&mut self, request: &serde_json::Value) -> Result<Answer, Failure> {
        self.wait_ready()?;
        let line = format!("{request}\n");
        if self.requests.write_all(line.as_bytes()).is_err() || self.requests.flush().is_err() {
            return Err(Failure::Gone);
        }
        self.read_answer().ok_or(Failure::Gone)
    }

    fn read_answer(&mut self) -> Option<Answer> {
        let mut line = String::new();
        match self.answers.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(serde_json::from_str(&line).unwrap_or_else(|e| Answer {
                error: Some("engine".to_owned()),
                reason: format!("the LibreOffice bridge said something unexpected ({e}): {line}"),
                ..Answer::default()
            })),
        }
    }

    /// The end of the engine's stderr, for an error that says why LibreOffice failed.
    pub fn log_tail(&self) -> String {
        let Ok(mut log) = fs::File::open(self.dir.join("engine.log")) else {
            return String::new();
        };
        let length = log.metadata().map_or(0, |m| m.len());
        let _ = log.seek(SeekFrom::Start(length.saturating_sub(2000)));
        let mut tail = Vec::new();
        let _ = log.read_to_end(&mut tail);
        String::from_utf8_lossy(&tail).trim().to_owned()
    }
}

/// One job's files where the engine can reach them: the input copied, the PDF written, in
/// `<profile root>/job` (the engine sees no other folder of the worker). Removed on drop.
pub(super) struct JobFiles {
    dir: PathBuf,
    pub input: PathBuf,
    pub output: PathBuf,
}

impl JobFiles {
    pub fn stage(config: &OfficeConfig, input: &Path) -> io::Result<JobFiles> {
        let dir = config.profile_root.join("job");
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir)?;
        let files = JobFiles {
            input: dir.join(input.file_name().unwrap_or("input".as_ref())),
            output: dir.join("output.pdf"),
            dir,
        };
        // A copy, not a link: handing a link to the engine's user would hand the original.
        fs::copy(input, &files.input)?;
        hand_over(&files.dir)?;
        Ok(files)
    }

    /// Moves the PDF to where the caller wants it.
    pub fn deliver(&self, output: &Path) -> io::Result<()> {
        if fs::rename(&self.output, output).is_err() {
            fs::copy(&self.output, output)?;
        }
        Ok(())
    }
}

impl Drop for JobFiles {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.bridge.kill();
        let _ = fs::remove_dir_all(&self.dir);
    }
}
