//! The checks every redacted file passes before it is handed back, each by a reader other than
//! the engine that wrote it:
//! - text: the search, run on PDFium's text of each page, finds none of the removed terms, and
//!   no character's box has its centre inside an area (but the label's own letters);
//! - bytes: no removed term in any decompressed content stream, form, appearance or string that
//!   a page reaches; bookmarks, metadata and attachments too when they were to be cleaned;
//! - rendering: each page drawn by PDFium matches the input's outside the areas (and the
//!   removed glyphs, which may reach past them).

use std::collections::BTreeMap;

use pdfium_render::prelude::*;
use quire_toolbox::redact::Rect;

use crate::workers::protocol::Failure;

mod bytes;
mod rendering;
mod text;

pub use rendering::MAX_CHANGED_SHARE;

/// What the checks found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Pages where a check failed, with why; a page may fail more than one check.
    pub failing: BTreeMap<u32, Vec<String>>,
    /// Removed terms still found outside the pages (bookmarks, metadata, attachments).
    pub document_leaks: Vec<String>,
    pub streams_searched: usize,
    /// The lowest PSNR outside the areas, over all pages (None: every page identical).
    pub worst_psnr: Option<f64>,
    /// The most pixels of a page, outside the areas, that differ beyond antialiasing.
    pub most_changed: u64,
}

impl Checked {
    fn fail(&mut self, page: u32, why: String) {
        self.failing.entry(page).or_default().push(why);
    }
}

/// What was asked: the areas per page in user space, the terms, the label; and the boxes of
/// the glyphs the engine removed, which may reach past their areas.
pub struct Expect<'a> {
    pub areas: &'a [(u32, Rect)],
    pub terms: &'a [String],
    pub label: &'a str,
    pub removed: &'a [(u32, Rect)],
    /// Pages replaced by a picture of themselves.
    pub pictured: &'a [u32],
}

pub fn verify(
    input: &PdfDocument,
    output: &PdfDocument,
    output_path: &std::path::Path,
    expect: &Expect,
    max_pixels: u64,
) -> Result<Checked, Failure> {
    let mut checked = Checked::default();
    text::text(output, expect, &mut checked)?;
    bytes::bytes(output_path, expect, &mut checked)?;
    let masked: Vec<(u32, Rect)> = expect.areas.iter().chain(expect.removed).copied().collect();
    rendering::rendering(
        input,
        output,
        &masked,
        expect.pictured,
        max_pixels,
        &mut checked,
    )?;
    Ok(checked)
}
