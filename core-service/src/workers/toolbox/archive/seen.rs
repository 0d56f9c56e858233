//! What a reader saw stays in the PDF/A file: each converted page is drawn by PDFium and
//! compared with the input's (the redaction's rendering check). A page the converter could
//! not keep in vectors (PDF/A-1 transparency it cannot blend), or one that now looks
//! different, is replaced by a picture of the input's page with its words as invisible text
//! (the redaction's fallback), and the conversion runs again on that. A page that still
//! differs is refused: no conversion hides what a reader saw.

use std::path::Path;

use pdfium_render::prelude::Pdfium;
use quire_toolbox::pdfa::{self, Converted, Level};

use super::super::{Work, failure};
use crate::{
    pdf::{
        compare, pdfium,
        redact::raster::{self, Words},
    },
    workers::protocol::{Failure, FailureKind},
};

/// The conversion checked against the input's rendering, pages pictured where needed: the
/// final conversion's outcome and the pictured pages with why.
pub fn keep(
    work: &Work,
    level: Level,
    output: &Path,
    converted: Converted,
    pdfium: &Pdfium,
) -> Result<(Converted, Vec<(u32, String)>), Failure> {
    let input = work.first();
    let source = pdfium::open(pdfium, &input.to_string_lossy())?;
    let mut pictured = converted.pictured.clone();
    let differing = {
        let written = pdfium::open(pdfium, &output.to_string_lossy())?;
        compare::differing_pages(&source, &written, work.max_pixels)?
    };
    for (page, why) in differing {
        if !pictured.iter().any(|(p, _)| *p == page) {
            pictured.push((page, format!("it would have looked different: {why}")));
        }
    }
    if pictured.is_empty() {
        return Ok((converted, pictured));
    }
    pictured.sort_by_key(|(page, _)| *page);
    tracing::info!(pages = ?pictured.iter().map(|(p, _)| *p).collect::<Vec<_>>(), "pdfa pictures pages");
    let numbers: Vec<u32> = pictured.iter().map(|(page, _)| *page).collect();
    let rasters = raster::rasterize(
        &source,
        &numbers,
        &[],
        [255, 255, 255],
        Words::Text,
        work.max_pixels,
    )?;
    let scratch = work.dir.join(format!("{}.pictured.tmp", work.stem));
    let replaced = quire_toolbox::redact::replace_with_rasters(input, &rasters, &scratch);
    let again = replaced.and_then(|_| pdfa::convert(&scratch, level, output));
    let _ = std::fs::remove_file(&scratch);
    let mut again = again.map_err(failure)?;
    let still = {
        let written = pdfium::open(pdfium, &output.to_string_lossy())?;
        compare::differing_pages(&source, &written, work.max_pixels)?
    };
    if let Some((page, why)) = still.first() {
        let _ = std::fs::remove_file(output);
        return Err(Failure::new(
            FailureKind::CheckFailed,
            format!(
                "page {page} would not look in the {} file as it does in the input ({why}), \
                 even drawn as a picture: the file is not handed back",
                level_name(level)
            ),
        ));
    }
    // The invisible words are set in Helvetica, which the conversion embeds: not a font of
    // the input's.
    again
        .fonts_embedded
        .retain(|f| converted.fonts_embedded.contains(f) || f.0 != "Helvetica");
    Ok((again, pictured))
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::A1b => "PDF/A-1b",
        Level::A2b => "PDF/A-2b",
        Level::A3b => "PDF/A-3b",
    }
}
