//! Redaction inside a worker: the search for what to remove (PDFium's text), the engine that
//! removes it (quire-toolbox, on the document's objects), the checks of its output (PDFium's
//! text and rendering, a byte search) and, for a page the engine cannot redact safely or that
//! fails a check, a picture of the page with the areas painted over and an OCR text layer.
//! A file that still fails a check after that is never handed back.

pub mod frame;
pub mod raster;
pub mod search;
mod verify;

use std::path::Path;

use pdfium_render::prelude::*;
use quire_toolbox::redact::{self as engine, Area, Rect, Redacted, Redaction};

pub use frame::Frame;
pub use search::{Hit, Preset, Search};
pub use verify::{Checked, MAX_CHANGED_SHARE};

use crate::{
    ocr::tesseract::Tesseract,
    workers::protocol::{Failure, FailureKind},
};

/// What to remove: areas on pages (1-based) in user space, and the terms that must not remain.
pub struct Request {
    pub areas: Vec<(u32, Rect)>,
    pub terms: Vec<String>,
    pub fill: [u8; 3],
    pub label: String,
    pub clean_document: bool,
}

/// What was done and what was checked.
pub struct Outcome {
    pub redacted: Redacted,
    /// Pages replaced by a picture of themselves, and why.
    pub rasterized: Vec<(u32, String)>,
    pub checked: Checked,
}

pub struct Engines<'a, 'p> {
    pub pdfium: &'p Pdfium,
    pub tesseract: &'a mut Tesseract,
    pub max_pixels: u64,
}

/// Redacts `input` into `output`; `scratch` is a file path the first pass may use.
pub fn apply(
    engines: Engines,
    input: &Path,
    request: &Request,
    scratch: &Path,
    output: &Path,
) -> Result<Outcome, Failure> {
    let Engines {
        pdfium,
        tesseract,
        max_pixels,
    } = engines;
    let redaction = Redaction {
        areas: request
            .areas
            .iter()
            .map(|(page, rect)| Area {
                page: *page,
                rect: *rect,
            })
            .collect(),
        fill: request.fill,
        label: Some(request.label.clone()).filter(|l| !l.is_empty()),
        terms: request.terms.clone(),
        clean_document: request.clean_document,
    };
    let redacted =
        engine::redact(input, &redaction, scratch).map_err(crate::workers::toolbox::failure)?;
    let source = crate::pdf::pdfium::open(pdfium, &input.to_string_lossy())?;
    let expect = verify::Expect {
        areas: &request.areas,
        terms: &request.terms,
        label: &request.label,
        removed: &redacted.glyph_boxes,
        pictured: &[],
    };
    let first = {
        let written = crate::pdf::pdfium::open(pdfium, &scratch.to_string_lossy())?;
        verify::verify(&source, &written, scratch, &expect, max_pixels)?
    };
    let mut rasterized: Vec<(u32, String)> = redacted
        .unsafe_pages
        .iter()
        .map(|page| {
            let why = redacted
                .unsafe_reasons
                .iter()
                .find(|(p, _)| p == page)
                .map_or(
                    "its content could not be split safely inside an area",
                    |(_, why)| why,
                );
            (*page, why.to_owned())
        })
        .collect();
    for (page, why) in &first.failing {
        if !rasterized.iter().any(|(p, _)| p == page) {
            rasterized.push((*page, why.join("; ")));
        }
    }
    rasterized.sort_by_key(|(page, _)| *page);
    if rasterized.is_empty() {
        std::fs::rename(scratch, output).map_err(|e| {
            Failure::new(
                FailureKind::Engine,
                format!("the result could not be kept: {e}"),
            )
        })?;
        return finish(redacted, rasterized, first, request);
    }
    let numbers: Vec<u32> = rasterized.iter().map(|(page, _)| *page).collect();
    let rasters = raster::rasterize(
        &source,
        &numbers,
        &request.areas,
        request.fill,
        raster::Words::Ocr(tesseract),
        max_pixels,
    )?;
    engine::replace_with_rasters(scratch, &rasters, output)
        .map_err(crate::workers::toolbox::failure)?;
    let second = {
        let written = crate::pdf::pdfium::open(pdfium, &output.to_string_lossy())?;
        let expect = verify::Expect {
            pictured: &numbers,
            ..expect
        };
        verify::verify(&source, &written, output, &expect, max_pixels)?
    };
    finish(redacted, rasterized, second, request)
}

/// The outcome, or the refusal when a check still fails.
fn finish(
    redacted: Redacted,
    rasterized: Vec<(u32, String)>,
    checked: Checked,
    request: &Request,
) -> Result<Outcome, Failure> {
    if let Some((page, why)) = checked.failing.iter().next() {
        return Err(Failure::new(
            FailureKind::CheckFailed,
            format!(
                "page {page} could not be redacted safely even as a picture ({}): the file is \
                 not handed back",
                why.join("; ")
            ),
        ));
    }
    if request.clean_document && !checked.document_leaks.is_empty() {
        return Err(Failure::new(
            FailureKind::CheckFailed,
            format!(
                "a removed term could not be cleaned from the document: {}",
                checked.document_leaks.join("; ")
            ),
        ));
    }
    Ok(Outcome {
        redacted,
        rasterized,
        checked,
    })
}

/// Every hit of `search`, with each page's frame (for the hits' places as displayed).
pub fn find(
    pdfium: &Pdfium,
    input: &Path,
    search: &Search,
) -> Result<(Vec<Hit>, Vec<Frame>), Failure> {
    let document = crate::pdf::pdfium::open(pdfium, &input.to_string_lossy())?;
    search::find(&document, search)
}

/// Each page's frame, to turn the browser's areas into user space.
pub fn frames(pdfium: &Pdfium, input: &Path) -> Result<Vec<Frame>, Failure> {
    let document = crate::pdf::pdfium::open(pdfium, &input.to_string_lossy())?;
    Ok(document
        .pages()
        .iter()
        .map(|page| Frame::of(&page))
        .collect())
}
