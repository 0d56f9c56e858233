//! Page layout: cropping pages, fitting them to a paper size, and several pages per sheet.
//!
//! Cropping only sets page boxes. The other tools draw each page's content as a Form XObject
//! (its /BBox the page's visible box, its resources the page's own object, never copied) with
//! one `cm` that folds in the page's /Rotate, so that the outputs have no rotation; the pages'
//! annotations move with their content, and every destination that led to a page leads to
//! where it is drawn now.

mod annots;
mod crop;
mod dests;
mod fit;
mod form;
mod nup;
mod sheet;

use std::collections::BTreeSet;
use std::path::Path;

use crate::{ToolError, Written};

/// Margins in points taken off each side of the page as displayed (top is the displayed top,
/// whatever /Rotate says).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margins {
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
    pub left: f32,
}

/// Sets each chosen page's /CropBox (and /TrimBox if present, clamped) to its current visible
/// box minus the margins; a margin pair that leaves less than 36 pt is BadOptions naming the
/// page, as is a negative margin. `pages`: a range spec ("1-3,5"), or None for every page.
pub fn crop(
    input: &Path,
    margins: Margins,
    pages: Option<&str>,
    output: &Path,
) -> Result<Written, ToolError> {
    crop::crop(input, margins, pages, output)
}

/// Sets each page's /CropBox to the given box (PDF points in the page's unrotated space, as
/// the service's content-box detection gives: None leaves that page alone); boxes reaching
/// past the MediaBox are clamped to it, one that does not overlap it is BadOptions naming the
/// page. `boxes.len()` must equal the page count (BadOptions otherwise).
pub fn crop_to_boxes(
    input: &Path,
    boxes: &[Option<[f32; 4]>],
    output: &Path,
) -> Result<Written, ToolError> {
    crop::crop_to_boxes(input, boxes, output)
}

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// 595.28 x 841.89 pt.
    A4,
    /// 612 x 792 pt.
    Letter,
}

impl Paper {
    /// Portrait width and height in points.
    fn size(self) -> (f64, f64) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// Every page scaled (up or down, aspect kept) and centred onto a sheet of `paper` in the
/// page's own orientation (portrait and square pages on portrait sheets, landscape on
/// landscape): the page's content becomes a Form XObject (its /BBox the visible box, its
/// /Resources the page's, /Group kept) drawn with one `cm`; annotations are moved and scaled
/// with it (their /Rect and points transformed, appearances turned with the page) so links
/// still work; /Rotate is folded into the matrix (the output pages have no /Rotate).
/// Destinations keep leading to the same pages, their positions mapped; the structure tree,
/// which no longer matches the content, and article threads are dropped.
pub fn fit_to_paper(input: &Path, paper: Paper, output: &Path) -> Result<Written, ToolError> {
    fit::fit_to_paper(input, paper, output)
}

/// N pages per sheet (2: side by side on a landscape sheet; 4: a 2x2 grid on a portrait
/// sheet; anything else is BadOptions), in reading order, each scaled to fit its cell with a
/// 12 pt gap, /Rotate folded in; the last sheet may hold fewer. Annotations other than links
/// are dropped (with them the form fields, the AcroForm goes too); links are kept, their
/// /Rect transformed. Every destination (links, outline, named destinations, open action)
/// leads to the sheet that holds its target page, at the target's position there. Page
/// labels, the structure tree and article threads are dropped.
pub fn n_up(
    input: &Path,
    per_sheet: u32,
    paper: Paper,
    output: &Path,
) -> Result<Written, ToolError> {
    nup::n_up(input, per_sheet, paper, output)
}

/// The 0-based indexes of the pages a range spec chooses, or every page.
fn chosen(spec: Option<&str>, count: u32) -> Result<BTreeSet<usize>, ToolError> {
    Ok(match spec {
        None => (0..count as usize).collect(),
        Some(spec) => crate::parse_ranges(spec, count)?
            .into_iter()
            .flatten()
            .map(|page| page as usize - 1)
            .collect(),
    })
}
