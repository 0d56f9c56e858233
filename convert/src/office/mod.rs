//! Office documents to PDF with a warm LibreOffice: DOCX, DOC, ODT, RTF, XLSX, XLS, ODS, PPTX,
//! PPT and ODP.
//!
//! One engine per worker: soffice.bin (started directly, headless, listening on a named pipe,
//! never on TCP) with a fresh profile that forbids macros and external links, driven by a small
//! Python UNO bridge (`bridge.py`, embedded) over JSON lines. It starts on first use (or on
//! `start()`, to pre-warm), and is started again after a crash, an overrun, and every
//! `RESTART_EVERY` jobs to bound LibreOffice's leaks.

mod engine;
mod profile;
mod sniff;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::process::watch_group;
use crate::{ConvertError, Limits};
use engine::{Answer, Engine, Failure, JobFiles};

/// Jobs after which the engine is replaced.
const RESTART_EVERY: u32 = 200;

/// What `start()` (pre-warming, outside any job) allows the engine to start.
const START_LIMITS: Limits = Limits {
    time: Duration::from_secs(120),
    memory: 4 << 30,
};

const PASSWORD: &str =
    "the document is protected by a password: remove it in its office application first";
const UNREADABLE: &str = "the document cannot be read: it is damaged or it is not a Word, \
                          Excel, PowerPoint, OpenDocument or RTF document";
const CRASHED: &str = "LibreOffice stopped while reading the document: it may be damaged; \
                       open it and save it again in its office application, then retry";

#[derive(Debug, Clone)]
pub struct OfficeConfig {
    /// LibreOffice's `program` directory, holding soffice.bin.
    pub program_dir: PathBuf,
    /// A Python 3 that can `import uno` (Debian: /usr/bin/python3 with python3-uno).
    pub python: PathBuf,
    /// Where engines' profiles go (one fresh profile per engine start, removed with it), plus
    /// `template/`, a pristine profile that makes later starts faster. A directory under the
    /// worker's temporary directory.
    pub profile_root: PathBuf,
}

impl Default for OfficeConfig {
    fn default() -> OfficeConfig {
        OfficeConfig {
            program_dir: PathBuf::from("/usr/lib/libreoffice/program"),
            python: PathBuf::from("/usr/bin/python3"),
            profile_root: std::env::temp_dir().join(format!("quire-office-{}", std::process::id())),
        }
    }
}

/// What was converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Converted {
    /// "text", "spreadsheet" or "presentation": the kind LibreOffice read the document as.
    pub kind: &'static str,
}

/// A warm LibreOffice for one worker slot, started lazily.
pub struct Office {
    config: OfficeConfig,
    engine: Option<Engine>,
}

impl Office {
    /// Nothing is started yet.
    pub fn new(config: OfficeConfig) -> Office {
        Office {
            config,
            engine: None,
        }
    }

    /// Starts the engine now and waits until it is ready (pre-warming). Idempotent.
    pub fn start(&mut self) -> Result<(), ConvertError> {
        let engine = self.running()?;
        let pgid = engine.pgid();
        let ready = watch_group(pgid, START_LIMITS, || engine.wait_ready());
        match ready {
            Ok(Ok(())) => Ok(()),
            Ok(Err(failure)) => Err(self.failed(failure)),
            Err(overrun) => {
                self.engine = None;
                Err(ConvertError::Engine(format!(
                    "LibreOffice did not start within its limits ({overrun:?})"
                )))
            }
        }
    }

    /// Converts `input` (an office document) to the PDF `output`, within `limits` (which
    /// include starting the engine when it is not running yet).
    pub fn convert(
        &mut self,
        input: &Path,
        output: &Path,
        limits: Limits,
    ) -> Result<Converted, ConvertError> {
        sniff::check(input)?;
        let files = JobFiles::stage(&self.config, input).map_err(|e| {
            ConvertError::Engine(format!("cannot hand the document to LibreOffice: {e}"))
        })?;
        let (Some(input_text), Some(output_text)) = (files.input.to_str(), files.output.to_str())
        else {
            return Err(ConvertError::Engine(
                "the conversion's file paths are not UTF-8".to_owned(),
            ));
        };
        let request = serde_json::json!({ "input": input_text, "output": output_text });
        let engine = self.running()?;
        let pgid = engine.pgid();
        let outcome = watch_group(pgid, limits, || engine.ask(&request));
        let answer = match outcome {
            Err(overrun) => {
                self.replace_engine();
                return Err(overrun.into_error(limits));
            }
            Ok(Err(failure)) => return Err(self.failed(failure)),
            Ok(Ok(answer)) => answer,
        };
        engine.jobs += 1;
        if engine.jobs >= RESTART_EVERY {
            self.replace_engine();
        }
        let converted = self.read(answer, &files.output)?;
        files.deliver(output).map_err(|e| {
            ConvertError::Engine(format!("cannot move LibreOffice's PDF into place: {e}"))
        })?;
        Ok(converted)
    }

    /// soffice.bin's pid while a ready engine runs (for diagnostics and tests).
    pub fn soffice_pid(&self) -> Option<u32> {
        self.engine.as_ref().and_then(Engine::soffice_pid)
    }

    /// The running engine, started if there is none or it died.
    fn running(&mut self) -> Result<&mut Engine, ConvertError> {
        if self
            .engine
            .as_mut()
            .is_some_and(|engine| !engine.is_alive())
        {
            self.engine = None;
        }
        if self.engine.is_none() {
            let engine = Engine::spawn(&self.config)
                .map_err(|e| ConvertError::Engine(format!("cannot start LibreOffice: {e}")))?;
            self.engine = Some(engine);
        }
        self.engine
            .as_mut()
            .ok_or_else(|| ConvertError::Engine("LibreOffice is not running".to_owned()))
    }

    /// Drops the engine (killing it) and starts the next one in the background, so that it is
    /// warm, or nearly, when the next job comes.
    fn replace_engine(&mut self) {
        self.engine = None;
        match Engine::spawn(&self.config) {
            Ok(engine) => self.engine = Some(engine),
            Err(e) => tracing::warn!("cannot start the next LibreOffice engine: {e}"),
        }
    }

    fn failed(&mut self, failure: Failure) -> ConvertError {
        match failure {
            Failure::Start(reason) => {
                self.engine = None;
                ConvertError::Engine(format!("LibreOffice did not start: {reason}"))
            }
            Failure::Gone => {
                if let Some(engine) = &self.engine {
                    tracing::warn!("the LibreOffice bridge went away: {}", engine.log_tail());
                }
                self.replace_engine();
                ConvertError::Unreadable(CRASHED.to_owned())
            }
        }
    }

    fn read(&mut self, answer: Answer, output: &Path) -> Result<Converted, ConvertError> {
        if answer.ok {
            let kind = match answer.kind.as_deref() {
                Some("text") => "text",
                Some("spreadsheet") => "spreadsheet",
                Some("presentation") => "presentation",
                other => {
                    return Err(ConvertError::Engine(format!(
                        "the LibreOffice bridge answered an unknown kind {other:?}"
                    )));
                }
            };
            return match std::fs::metadata(output) {
                Ok(meta) if meta.len() > 0 => Ok(Converted { kind }),
                _ => Err(ConvertError::Engine("LibreOffice wrote no PDF".to_owned())),
            };
        }
        match answer.error.as_deref() {
            Some("password") => Err(ConvertError::Unreadable(PASSWORD.to_owned())),
            Some("unreadable") => {
                tracing::info!("LibreOffice cannot read a document: {}", answer.reason);
                Err(ConvertError::Unreadable(UNREADABLE.to_owned()))
            }
            Some("crashed") => {
                self.replace_engine();
                Err(ConvertError::Unreadable(CRASHED.to_owned()))
            }
            _ => {
                self.replace_engine();
                Err(ConvertError::Engine(format!(
                    "the office engine failed: {}",
                    answer.reason
                )))
            }
        }
    }
}

/// Whether LibreOffice and a Python with its UNO module are installed.
pub fn is_available(config: &OfficeConfig) -> bool {
    config.program_dir.join("soffice.bin").is_file()
        && Command::new(&config.python)
            .args(["-s", "-c", "import uno"])
            .env("PYTHONPATH", &config.program_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
}
