//! The one place the PDF limits ([`quire_compress::pdf_limits`]) are applied: a worker runs
//! every PDF a job names through the guard before PDFium or lopdf opens it, whatever the job
//! (inspect, render, OCR, compress, any toolbox tool). A file over a limit fails the job as
//! `OverLimit` (422 `unprocessable-file`) with the guard's message, which names the limit.
//!
//! A request sends several jobs over the same staged file (inspect, then a render per page):
//! each worker keeps its last verdicts, so a file is read through once per worker, not once
//! per page.

use std::{
    collections::VecDeque,
    io::Read,
    path::{Path, PathBuf},
    time::{Instant, SystemTime},
};

use quire_compress::pdf_limits;
use quire_proto::v1::tool_options::Tool;

use crate::workers::protocol::{Failure, FailureKind, Job, Source, Task};

/// Verdicts kept: more than the files of any one request's jobs in flight on a worker.
const KEPT: usize = 16;

/// A staged file as it is now: a file changed since its verdict is checked again.
#[derive(Clone, PartialEq, Eq)]
struct Seen {
    path: PathBuf,
    /// A hash of the password the job carries (another may open the file the empty one does
    /// not), so that the password itself is not kept past its job.
    password: Option<u64>,
    len: u64,
    modified: Option<SystemTime>,
}

#[derive(Default)]
pub struct Guard {
    verdicts: VecDeque<(Seen, Result<(), Failure>)>,
}

impl Guard {
    /// Checks every PDF `job` hands an engine.
    pub fn check(&mut self, job: &Job) -> Result<(), Failure> {
        let password = unlock_password(job);
        for path in pdf_inputs(job) {
            self.check_file(Path::new(path), password)?;
        }
        Ok(())
    }

    fn check_file(&mut self, path: &Path, password: Option<&str>) -> Result<(), Failure> {
        // A file that cannot be read is the engine's to report, as it always was.
        let Ok(meta) = std::fs::metadata(path) else {
            return Ok(());
        };
        let seen = Seen {
            path: path.to_owned(),
            password: password.map(|password| {
                let mut hasher = std::hash::DefaultHasher::new();
                std::hash::Hash::hash(password, &mut hasher);
                std::hash::Hasher::finish(&hasher)
            }),
            len: meta.len(),
            modified: meta.modified().ok(),
        };
        if let Some((_, verdict)) = self.verdicts.iter().find(|(s, _)| *s == seen) {
            return verdict.clone();
        }
        let started = Instant::now();
        let verdict = match pdf_limits::check_file(path, password) {
            Ok(Ok(survey)) => {
                tracing::debug!(
                    bytes = seen.len,
                    objects = survey.objects,
                    streams = survey.streams,
                    decoded = survey.decoded,
                    ms = started.elapsed().as_millis() as u64,
                    "pdf within limits"
                );
                Ok(())
            }
            Ok(Err(refusal)) => {
                tracing::warn!(
                    bytes = seen.len,
                    ms = started.elapsed().as_millis() as u64,
                    refusal = %refusal,
                    "pdf over limits refused"
                );
                Err(Failure::new(FailureKind::OverLimit, refusal.to_string()))
            }
            Err(_) => return Ok(()),
        };
        if self.verdicts.len() == KEPT {
            self.verdicts.pop_front();
        }
        self.verdicts.push_back((seen, verdict.clone()));
        verdict
    }
}

/// The PDFs a job gives an engine: every input of a PDF job, and a tool's inputs that are
/// PDFs (images, office files and HTML go to other engines).
fn pdf_inputs(job: &Job) -> Vec<&str> {
    let pdf = Source::Pdf as i32;
    match &job.task {
        Some(Task::Inspect(inspect)) if inspect.source == pdf => vec![&inspect.path],
        Some(Task::Render(render)) => vec![&render.path],
        Some(Task::Ocr(ocr)) if ocr.source == pdf => vec![&ocr.path],
        Some(Task::Compress(compress)) => vec![&compress.input],
        Some(Task::Tool(tool)) => tool
            .inputs
            .iter()
            .map(String::as_str)
            .filter(|path| looks_like_pdf(Path::new(path)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The password an unlock job carries: the engine opens the file with it, so the guard
/// decrypts the streams with it too.
fn unlock_password(job: &Job) -> Option<&str> {
    match &job.task {
        Some(Task::Tool(tool)) => match tool.options.as_ref()?.tool.as_ref()? {
            Tool::Unlock(unlock) => Some(&unlock.password),
            _ => None,
        },
        _ => None,
    }
}

/// As the core tells a PDF: `%PDF-` in its first KiB, where PDF readers accept it.
fn looks_like_pdf(path: &Path) -> bool {
    let mut head = Vec::with_capacity(1024);
    std::fs::File::open(path)
        .and_then(|file| file.take(1024).read_to_end(&mut head))
        .is_ok_and(|_| head.windows(5).any(|w| w == b"%PDF-"))
}
