//! Conversions by warm external engines: office documents through LibreOffice, HTML and
//! Markdown through Chromium. Each worker owns at most one instance of each, started at its
//! first job (or when the worker starts, with `--prewarm`) and kept for the next jobs.

use std::{
    io::Read,
    path::{Path, PathBuf},
    time::Duration,
};

use quire_convert::{
    ConvertError, Limits,
    chromium::{self, Chromium, ChromiumConfig, PrintOptions, Source},
    office::{Office, OfficeConfig},
};
use quire_proto::v1::{HtmlToPdfOptions, Paper, tool_options::Tool as Options};

use super::{Done, Work, note};
use crate::workers::protocol::{Failure, FailureKind};

/// Where the engines are and what a job may use.
#[derive(Debug, Clone)]
pub struct EngineSettings {
    /// LibreOffice's `program` folder (soffice.bin).
    pub office_dir: PathBuf,
    /// Python with LibreOffice's UNO bindings (Debian's python3-uno).
    pub office_python: PathBuf,
    pub chromium: PathBuf,
    /// Profiles of the engines (a fresh one per start).
    pub profiles: PathBuf,
    /// The job time limit of the pool; a conversion stops a little before it, so that the
    /// engine is restarted and the user told, rather than the whole worker killed.
    pub job_timeout: Duration,
    /// Resident memory of an engine's process tree.
    pub memory: u64,
}

/// Margins when the user sets none, as browsers print.
const MARGIN_MM: f32 = 10.0;

pub struct Converters {
    settings: EngineSettings,
    office: Office,
    chromium: Chromium,
}

impl Converters {
    pub fn new(settings: EngineSettings) -> Converters {
        let office = Office::new(OfficeConfig {
            program_dir: settings.office_dir.clone(),
            python: settings.office_python.clone(),
            profile_root: settings.profiles.join("office"),
        });
        let chromium = Chromium::new(ChromiumConfig {
            program: settings.chromium.clone(),
            profile_root: settings.profiles.join("chromium"),
        });
        Converters {
            settings,
            office,
            chromium,
        }
    }

    /// Starts the named engines now (`office`, `html`), so that the first job does not wait.
    pub fn prewarm(&mut self, engines: &[String]) -> anyhow::Result<()> {
        for engine in engines {
            match engine.as_str() {
                "office" => self.office.start(),
                "html" => self.chromium.start(),
                other => anyhow::bail!("no engine named {other:?} to prewarm: office or html"),
            }
            .map_err(|e| anyhow::anyhow!("{engine} engine did not start: {e}"))?;
        }
        Ok(())
    }

    /// Between jobs, once the answer is sent: a Chromium in use readies a blank page in a
    /// fresh context for the next job, which takes a renderer start out of it.
    pub fn idle(&mut self) {
        if self.chromium.pid().is_some()
            && let Err(err) = self.chromium.start()
        {
            tracing::warn!(error = %err, "chromium not readied for the next job");
        }
    }

    fn limits(&self) -> Limits {
        // A tenth of the job's time (at least 2 s) is left to kill and report.
        let margin = (self.settings.job_timeout / 10).max(Duration::from_secs(2));
        Limits {
            time: self
                .settings
                .job_timeout
                .saturating_sub(margin)
                .max(Duration::from_secs(1)),
            memory: self.settings.memory,
        }
    }

    pub fn run(&mut self, work: &Work, options: Options) -> Result<Done, Failure> {
        let limits = self.limits();
        let (path, name) = work.output(".pdf");
        let mut notes = Vec::new();
        match options {
            Options::OfficeToPdf(_) => {
                let converted = self
                    .office
                    .convert(work.first(), &path, limits)
                    .map_err(failure)?;
                notes.push(note("document", converted.kind));
            }
            Options::HtmlToPdf(HtmlToPdfOptions {
                paper,
                landscape,
                margin_mm,
                background,
                scale,
            }) => {
                let options = PrintOptions {
                    paper: match Paper::try_from(paper) {
                        Ok(Paper::Letter) => chromium::Paper::Letter,
                        Ok(Paper::Legal) => chromium::Paper::Legal,
                        Ok(Paper::A3) => chromium::Paper::A3,
                        Ok(Paper::A5) => chromium::Paper::A5,
                        _ => chromium::Paper::A4,
                    },
                    landscape,
                    margin_mm: margin_mm.unwrap_or(MARGIN_MM),
                    background,
                    scale: if scale == 0.0 { 1.0 } else { scale },
                    ..PrintOptions::default()
                };
                let source = source(work.first())?;
                let site = work.dir.join(".site");
                let printed = self
                    .chromium
                    .print(work.first(), source, &site, &options, &path, limits)
                    .map_err(failure)?;
                // The unpacked site is not part of the result.
                let _ = std::fs::remove_dir_all(&site);
                if !printed.blocked.is_empty() {
                    notes.push(note("not-fetched", printed.blocked.join("\n")));
                }
                if !printed.missing.is_empty() {
                    notes.push(note("missing", printed.missing.join("\n")));
                }
            }
            _ => return Err(Failure::new(FailureKind::Engine, "not a conversion")),
        }
        let pages = quire_toolbox::page_count(&path).map_err(super::failure)?;
        let mut done = Done::file(path, name, pages);
        done.notes = notes;
        Ok(done)
    }
}

/// A ZIP is a site; text is HTML when it starts like markup, else Markdown.
fn source(input: &Path) -> Result<Source, Failure> {
    let mut head = Vec::with_capacity(4096);
    std::fs::File::open(input)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| Failure::new(FailureKind::Engine, format!("input not read: {e}")))?;
    if head.starts_with(b"PK\x03\x04") {
        return Ok(Source::Zip);
    }
    let text = String::from_utf8_lossy(&head).to_ascii_lowercase();
    let text = text.trim_start_matches('\u{feff}').trim_start();
    Ok(
        if text.starts_with('<') || text.contains("<html") || text.contains("<!doctype") {
            Source::Html
        } else {
            Source::Markdown
        },
    )
}

fn failure(err: ConvertError) -> Failure {
    let kind = match err {
        ConvertError::Unreadable(_) => FailureKind::InvalidFile,
        ConvertError::BadOptions(_) => FailureKind::BadOptions,
        ConvertError::OverLimit(_) => FailureKind::OverLimit,
        ConvertError::Refused(_) => FailureKind::CheckFailed,
        ConvertError::Engine(_) => FailureKind::Engine,
    };
    Failure::new(kind, err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_markdown_and_sites_are_told_apart() {
        let dir = tempfile::tempdir().expect("dir");
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).expect("write");
            path
        };
        let kind = |path: PathBuf| source(&path).expect("source");
        assert!(matches!(kind(write("a", b"PK\x03\x04...")), Source::Zip));
        assert!(matches!(
            kind(write("b", "\u{feff}  <!DOCTYPE html><p>x".as_bytes())),
            Source::Html
        ));
        assert!(matches!(
            kind(write("c", b"# Title\n\ntext")),
            Source::Markdown
        ));
    }
}
