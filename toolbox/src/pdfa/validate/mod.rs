//! Our checks of a written file against the rules of its level that the conversion
//! enforces, in the order a reader meets them: the file's layout, the document catalog and
//! metadata, every object, every content stream, every font.

mod annots;
mod cmap;
mod colour;
mod content;
mod document;
mod fonts;
mod gstate;
mod inline;
mod metadata;
mod objects;
mod operators;
mod structure;
mod xobjects;

use std::path::Path;

use super::{Level, Verdict};
use crate::ToolError;

/// Findings, each "rule: what is wrong", reported once each.
pub struct Findings {
    pub level: Level,
    list: Vec<String>,
}

impl Findings {
    pub fn new(level: Level) -> Findings {
        Findings {
            level,
            list: Vec::new(),
        }
    }

    /// A finding against PDF itself (ISO 32000-1), which PDF/A files must follow too.
    pub fn syntax(&mut self, message: impl Into<String>) {
        let text = format!("ISO 32000-1: {}", message.into());
        if !self.list.contains(&text) && self.list.len() < 200 {
            self.list.push(text);
        }
    }

    /// A finding under the clause of ISO 19005-1 (`part1`) or of parts 2 and 3 (`part23`).
    pub fn add(&mut self, part1: &str, part23: &str, message: impl Into<String>) {
        let text = format!("{}: {}", self.level.rule(part1, part23), message.into());
        if !self.list.contains(&text) && self.list.len() < 200 {
            self.list.push(text);
        }
    }
}

pub fn validate(path: &Path, level: Level) -> Result<Verdict, ToolError> {
    let bytes = std::fs::read(path)
        .map_err(|e| ToolError::Io(format!("cannot read the written file: {e}")))?;
    let mut findings = Findings::new(level);
    document::layout(&bytes, &mut findings);
    let doc = match lopdf::Document::load_mem(&bytes) {
        Ok(doc) => doc,
        Err(lopdf::Error::InvalidPassword | lopdf::Error::Decryption(_)) => {
            findings.add("6.1.3-2", "6.1.3-2", "the file is encrypted");
            return Ok(Verdict {
                passed: false,
                findings: findings.list,
            });
        }
        Err(e) => {
            return Err(ToolError::InvalidFile(format!(
                "the file is not a readable PDF: {e}"
            )));
        }
    };
    document::trailer(&doc, &mut findings);
    if crate::pages::walk(&doc).is_err() {
        findings.add("6.1.2-1", "6.1.2-1", "the document has no pages");
    }
    let intent = document::catalog(&doc, &mut findings);
    metadata::metadata(&doc, &mut findings);
    objects::check(&doc, intent, &mut findings);
    structure::check(&doc, &mut findings);
    let fonts = content::check(&doc, intent, &mut findings);
    fonts::check(&doc, &fonts, &mut findings);
    Ok(Verdict {
        passed: findings.list.is_empty(),
        findings: findings.list,
    })
}
