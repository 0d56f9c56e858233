//! PDF/A conversion (PDF/A-1b, 2b, 3b) and the checks run on every output before it is handed
//! back.
//!
//! The conversion (`convert`) works on the document in memory, one concern per module, each
//! telling the user what it changed (`changes`):
//! - what may act: actions PDF/A forbids, /AA, document JavaScript (`actions`);
//! - embedded files by level (`files`);
//! - annotations and forms: what validators cannot check is drawn into the page by the
//!   flatten tool's code (appearances first made by the fill-form tool's where the form asks
//!   for them), the rest fixed (`annots`, `annot_keys`, `appearance`);
//! - optional content flattened to the default view, hidden content removed by the sanitize
//!   tool's code (`layers`);
//! - the catalog, destinations, the page tree (`catalog`, `dests`, `page_dicts`);
//! - graphics states and PDF/A-1 transparency (`transparency`): translucent objects drawn
//!   blended with white under what they covered (`opacity`, `underlay`), the pages where
//!   that cannot be done listed for the caller to picture; filters and XObjects (`streams`);
//! - fonts: those not embedded get a URW base 35 substitute, embedded ones are made to agree
//!   with their dictionaries (`fonts/`), unknown keys dropped (`prune`);
//! - colour: the output intent, ICC profiles, device colour's meaning (`intent`, `colour`,
//!   `icc`);
//! - the document information and XMP packet (`xmp`), the file layout (`write`).
//!
//! Content streams are read token by token (`content`) and walked with their resources
//! (`walk`). `validate` reads the written file again and checks the rules the conversion
//! enforces (`validate/`): a file that fails them is never handed back as PDF/A; `convert`
//! explains what could not be made conforming instead.

mod actions;
mod annot_keys;
mod annots;
mod appearance;
mod catalog;
mod changes;
mod colour;
mod content;
mod convert;
mod dests;
mod files;
mod fonts;
mod icc;
mod intent;
mod layers;
mod level;
mod marks;
mod opacity;
#[cfg(test)]
mod opacity_tests;
mod page_dicts;
mod prune;
mod streams;
mod transparency;
mod underlay;
mod validate;
mod walk;
mod write;
mod xmp;

use std::path::Path;

use crate::ToolError;

/// The PDF/A part and conformance level written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Level {
    /// ISO 19005-1, level B: PDF 1.4, no transparency, no embedded files.
    A1b,
    /// ISO 19005-2, level B: PDF 1.7 features, transparency; only PDF/A files embedded.
    #[default]
    A2b,
    /// ISO 19005-3, level B: PDF/A-2b with any embedded file, each tied to the document.
    A3b,
}

/// What a conversion did, for the summary shown to the user.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Converted {
    pub pages: u32,
    /// (the font the document named but did not embed, the free font embedded for it).
    pub fonts_embedded: Vec<(String, String)>,
    /// Sentences a user reads, such as "removed JavaScript (2 actions)" or "added an sRGB
    /// output intent".
    pub changes: Vec<String>,
    /// PDF/A-1: pages (1-based) whose transparency could not be kept in vectors (a soft mask,
    /// a blend mode, a translucent image or form), with why; they are drawn opaque, and a
    /// caller that can render pages should replace them by pictures of the input's.
    pub pictured: Vec<(u32, String)>,
}

/// Converts `input` to PDF/A at `level`, written to `output`. The output is checked by
/// [`validate`] before this returns: a document that cannot be made conforming is
/// [`ToolError::InvalidFile`] naming what stands in the way, and `output` is then removed.
/// An encrypted file opens with the empty password or is [`ToolError::Encrypted`].
pub fn convert(input: &Path, level: Level, output: &Path) -> Result<Converted, ToolError> {
    convert::convert(input, level, output)
}

/// The outcome of [`validate`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    pub passed: bool,
    /// Each: the rule (ISO 19005 clause) and what is wrong, in words.
    pub findings: Vec<String>,
}

/// Our own checks of a written file against the rules of `level` that the converter
/// enforces; run on every output before it is handed back.
pub fn validate(path: &Path, level: Level) -> Result<Verdict, ToolError> {
    validate::validate(path, level)
}
