//! compare: two PDFs page by page (page i of A against page i of B), by the words of their
//! text and by their renders. Pages that differ get a side-by-side PNG; `report.json` says
//! what changed where.

use std::path::Path;
use std::time::Duration;

use pdfium_render::prelude::*;
use serde::Serialize;
use similar::{ChangeTag, TextDiff};

use super::compare_picture::{diff, side_by_side};
use super::{check_all_pages, open_pages, page_digits, page_sizes, write_file};
use crate::pdf::{pdfium, png, render::render};
use crate::workers::protocol::{Failure, FailureKind, ToolFile};

pub const DEFAULT_DPI: u32 = 72;
pub const MIN_DPI: u32 = 36;
pub const MAX_DPI: u32 = 300;
/// A page whose renders differ on more than this share of pixels has changed (0.1 %).
pub const CHANGED_SHARE: f64 = 0.001;
pub const REPORT: &str = "report.json";
/// The word diff of a page gives up refining after this and reports coarser changes.
const DIFF_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    pages: Vec<PageReport>,
    pages_a: u32,
    pages_b: u32,
    /// Every page whose status is not `same`.
    changed_pages: Vec<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PageReport {
    page: u32,
    status: Status,
    /// Share of pixels that differ, 0.0-1.0; 1.0 for a page only one side has.
    pixels_changed: f64,
    /// The page's text with its changes; empty when the text is the same on both sides.
    diff: Vec<Piece>,
    /// The side-by-side PNG, for pages that changed.
    image: Option<String>,
}

#[derive(Serialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Status {
    Changed,
    Same,
    Added,
    Removed,
}

#[derive(Serialize, Debug, PartialEq, Eq)]
struct Piece {
    op: Op,
    text: String,
}

#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Op {
    Same,
    Removed,
    Added,
}

/// Compares `a` with `b` at `dpi` and writes `report.json` and a `page-003.png` for every
/// page that differs into `out_dir`; returns the report first, then the pictures.
pub fn compare(
    pdfium: &Pdfium,
    a: &str,
    b: &str,
    dpi: u32,
    out_dir: &Path,
    max_pixels: u64,
) -> Result<Vec<ToolFile>, Failure> {
    if !(MIN_DPI..=MAX_DPI).contains(&dpi) {
        return Err(Failure::new(
            FailureKind::BadOptions,
            format!("dpi must be a whole number from {MIN_DPI} to {MAX_DPI}, got {dpi}"),
        ));
    }
    let (doc_a, count_a) = open_pages(pdfium, a).map_err(first)?;
    let (doc_b, count_b) = open_pages(pdfium, b).map_err(second)?;
    check_all_pages(
        &page_sizes(&doc_a).map_err(first)?,
        dpi,
        MIN_DPI,
        max_pixels,
        None,
    )
    .map_err(first)?;
    check_all_pages(
        &page_sizes(&doc_b).map_err(second)?,
        dpi,
        MIN_DPI,
        max_pixels,
        None,
    )
    .map_err(second)?;

    let digits = page_digits(count_a.max(count_b));
    let mut pages = Vec::new();
    let mut pictures = Vec::new();
    for index in 0..count_a.max(count_b) {
        let page = index + 1;
        let report = if index >= count_b {
            let text = page_text(&doc_a, index).map_err(first)?;
            only_one_side(page, Status::Removed, Op::Removed, text)
        } else if index >= count_a {
            let text = page_text(&doc_b, index).map_err(second)?;
            only_one_side(page, Status::Added, Op::Added, text)
        } else {
            let name = format!("page-{page:0digits$}.png");
            let report = both_sides((&doc_a, &doc_b), index, dpi, max_pixels, &name)?;
            if let Some(png) = &report.png {
                let path = write_file(out_dir, &name, png)?;
                pictures.push(ToolFile {
                    path,
                    name,
                    pages: 1,
                });
            }
            report.page
        };
        pages.push(report);
    }

    let report = Report {
        changed_pages: pages
            .iter()
            .filter(|p| p.status != Status::Same)
            .map(|p| p.page)
            .collect(),
        pages,
        pages_a: count_a,
        pages_b: count_b,
    };
    let json = serde_json::to_vec(&report).map_err(|e| {
        Failure::new(
            FailureKind::Engine,
            format!("the report could not be written: {e}"),
        )
    })?;
    let path = write_file(out_dir, REPORT, &json)?;
    let mut files = vec![ToolFile {
        path,
        name: REPORT.to_owned(),
        pages: 0,
    }];
    files.extend(pictures);
    Ok(files)
}

/// Says which of the two files a failure is about.
fn first(mut failure: Failure) -> Failure {
    failure.message = format!("first file: {}", failure.message);
    failure
}

fn second(mut failure: Failure) -> Failure {
    failure.message = format!("second file: {}", failure.message);
    failure
}

/// A page both files have: its text diff, its pixel diff and, when it changed, its picture.
struct Both {
    page: PageReport,
    png: Option<Vec<u8>>,
}

fn both_sides(
    (doc_a, doc_b): (&PdfDocument, &PdfDocument),
    index: u32,
    dpi: u32,
    max_pixels: u64,
    name: &str,
) -> Result<Both, Failure> {
    let page_a = pdfium::page(doc_a, index).map_err(first)?;
    let page_b = pdfium::page(doc_b, index).map_err(second)?;
    let text_a = text_of(&page_a, index).map_err(first)?;
    let text_b = text_of(&page_b, index).map_err(second)?;
    let words = if text_a == text_b {
        Vec::new()
    } else {
        word_diff(&text_a, &text_b)
    };
    let pixels_a = render(&page_a, index, dpi, max_pixels, false).map_err(first)?;
    let pixels_b = render(&page_b, index, dpi, max_pixels, false).map_err(second)?;
    let changed = diff(&pixels_a, &pixels_b);
    let share = changed.share();
    let png =
        if !words.is_empty() || share > CHANGED_SHARE {
            let picture = side_by_side(&pixels_a, &pixels_b, &changed);
            Some(png::encode(&picture).map_err(|e| {
                Failure::new(FailureKind::Engine, format!("PNG encoding failed: {e}"))
            })?)
        } else {
            None
        };
    Ok(Both {
        page: PageReport {
            page: index + 1,
            status: if png.is_some() {
                Status::Changed
            } else {
                Status::Same
            },
            pixels_changed: (share * 1e6).round() / 1e6,
            diff: words,
            image: png.as_ref().map(|_| name.to_owned()),
        },
        png,
    })
}

fn only_one_side(page: u32, status: Status, op: Op, text: String) -> PageReport {
    PageReport {
        page,
        status,
        pixels_changed: 1.0,
        diff: if text.is_empty() {
            Vec::new()
        } else {
            vec![Piece { op, text }]
        },
        image: None,
    }
}

fn page_text(document: &PdfDocument, index: u32) -> Result<String, Failure> {
    text_of(&pdfium::page(document, index)?, index)
}

/// The page's text as PDFium extracts it, every run of white space made one space: a line
/// broken elsewhere is not a change.
fn text_of(page: &PdfPage, index: u32) -> Result<String, Failure> {
    let text = page.text().map_err(|e| {
        Failure::new(
            FailureKind::Engine,
            format!("PDFium could not read the text of page {}: {e}", index + 1),
        )
    })?;
    Ok(text.all().split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Word-level diff of two texts, runs of the same kind joined.
fn word_diff(a: &str, b: &str) -> Vec<Piece> {
    let diff = TextDiff::configure().timeout(DIFF_TIMEOUT).diff_words(a, b);
    let mut pieces: Vec<Piece> = Vec::new();
    for change in diff.iter_all_changes() {
        let op = match change.tag() {
            ChangeTag::Equal => Op::Same,
            ChangeTag::Delete => Op::Removed,
            ChangeTag::Insert => Op::Added,
        };
        match pieces.last_mut() {
            Some(last) if last.op == op => last.text.push_str(change.value()),
            _ => pieces.push(Piece {
                op,
                text: change.value().to_owned(),
            }),
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_words_and_joins_runs() {
        let piece = |op, text: &str| Piece {
            op,
            text: text.to_owned(),
        };
        assert_eq!(
            word_diff("The quick brown fox", "The slow brown fox"),
            [
                piece(Op::Same, "The "),
                piece(Op::Removed, "quick"),
                piece(Op::Added, "slow"),
                piece(Op::Same, " brown fox"),
            ]
        );
        assert_eq!(
            word_diff("a b", "a b c d"),
            [piece(Op::Same, "a b"), piece(Op::Added, " c d")]
        );
    }
}
