//! Inside a worker: one toolbox tool over the staged inputs. The core has checked the options'
//! shape and the inputs' types; what depends on the document (a page past the end, a wrong
//! password, a PDF without bookmarks) is checked by the engines and comes back as a failure
//! the user can act on. One file per family of tools.

mod archive;
mod converted;
mod document;
mod images;
mod layout;
mod pages;
mod redaction;
mod rendered;
mod signing;
mod stamp;

pub use converted::{Converters, EngineSettings};

use std::path::{Path, PathBuf};

use pdfium_render::prelude::Pdfium;
use quire_proto::v1::{ToolNote, tool_options::Tool as Options};
use quire_toolbox::ToolError;

use super::protocol::{Answer, Failure, FailureKind, Tool, ToolFile, Tooled};
use crate::ocr::tesseract::Tesseract;

/// What every tool gets: its inputs in order, the directory to write in, the name stem.
pub struct Work {
    pub inputs: Vec<PathBuf>,
    pub titles: Vec<String>,
    pub dir: PathBuf,
    pub stem: String,
    pub max_pixels: u64,
}

impl Work {
    fn first(&self) -> &Path {
        &self.inputs[0]
    }

    /// The one file a tool writes, `<stem><suffix>`.
    fn output(&self, suffix: &str) -> (PathBuf, String) {
        let name = format!("{}{suffix}", self.stem);
        (self.dir.join(&name), name)
    }
}

/// A tool's files and notes.
pub struct Done {
    pub files: Vec<ToolFile>,
    pub notes: Vec<ToolNote>,
}

impl Done {
    fn file(path: PathBuf, name: String, pages: u32) -> Done {
        Done {
            files: vec![ToolFile {
                path: path.to_string_lossy().into_owned(),
                name,
                pages,
            }],
            notes: Vec::new(),
        }
    }
}

pub fn run<'a>(
    Tool {
        inputs,
        titles,
        output_dir,
        stem,
        options,
        max_pixels,
    }: Tool,
    pdfium: impl FnOnce() -> Result<&'a Pdfium, Failure>,
    converters: &mut Converters,
    tesseract: &mut Tesseract,
) -> Result<Answer, Failure> {
    let options = options
        .and_then(|o| o.tool)
        .ok_or_else(|| Failure::new(FailureKind::Engine, "no tool in the job"))?;
    if inputs.is_empty() {
        return Err(Failure::new(FailureKind::Engine, "no input in the job"));
    }
    let work = Work {
        inputs: inputs.into_iter().map(PathBuf::from).collect(),
        titles,
        dir: PathBuf::from(output_dir),
        stem,
        max_pixels,
    };
    let Done { files, notes } = match options {
        Options::Merge(_) | Options::Split(_) | Options::Rotate(_) | Options::Organize(_) => {
            pages::run(&work, options)?
        }
        Options::Protect(_)
        | Options::Unlock(_)
        | Options::Metadata(_)
        | Options::Sanitize(_)
        | Options::Flatten(_) => document::run(&work, options)?,
        Options::Watermark(_) | Options::PageNumbers(_) => stamp::run(&work, options)?,
        Options::ImagesToPdf(_) | Options::ExtractImages(_) => images::run(&work, options)?,
        Options::RemoveBlank(_)
        | Options::PdfToJpg(_)
        | Options::Compare(_)
        | Options::Repair(_) => rendered::run(&work, options, pdfium()?)?,
        Options::Crop(_) => layout::run(&work, options, pdfium()?)?,
        Options::Sign(_) | Options::FillForm(_) => signing::run(&work, options)?,
        Options::OfficeToPdf(_) | Options::HtmlToPdf(_) => converters.run(&work, options)?,
        Options::Redact(redact) => redaction::run(&work, redact, pdfium()?, tesseract)?,
        Options::Pdfa(pdfa) => archive::run(&work, pdfa, pdfium()?)?,
    };
    Ok(Answer::Tooled(Tooled { files, notes }))
}

pub(crate) fn failure(err: ToolError) -> Failure {
    let kind = match err {
        ToolError::InvalidFile(_) => FailureKind::InvalidFile,
        ToolError::Encrypted => FailureKind::Encrypted,
        ToolError::BadOptions(_) => FailureKind::BadOptions,
        ToolError::WrongPassword(_) => FailureKind::WrongPassword,
        ToolError::Io(_) => FailureKind::Engine,
    };
    Failure::new(kind, err.to_string())
}

/// Text outside the standard fonts' Latin-1 is drawn in this font, embedded as a subset
/// (Debian's fonts-dejavu-core, installed by the setup).
const UNICODE_FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

fn unicode_font() -> Option<PathBuf> {
    Some(PathBuf::from(UNICODE_FONT)).filter(|p| p.exists())
}

fn note(key: &str, value: impl ToString) -> ToolNote {
    ToolNote {
        key: key.to_owned(),
        value: value.to_string(),
    }
}

/// A report written as a JSON file (metadata read, blank-page preview).
fn json_file(work: &Work, suffix: &str, value: &serde_json::Value) -> Result<Done, Failure> {
    let (path, name) = work.output(suffix);
    let bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Failure::new(FailureKind::Engine, format!("report not written: {e}")))?;
    std::fs::write(&path, bytes)
        .map_err(|e| Failure::new(FailureKind::Engine, format!("report not written: {e}")))?;
    Ok(Done::file(path, name, 0))
}
