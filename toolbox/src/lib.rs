//! The PDF tools of Quire's web toolbox on lopdf: page tools (merge, split, rotate,
//! organize), security (protect, unlock), document data (metadata, sanitize) and stamps
//! (watermark, page numbers). Each capability has its module; this file is the crate's API.
//!
//! Runs inside a worker process, one job at a time: synchronous, no async runtime or service
//! code, so the crate builds and tests in seconds and its example can time it against qpdf on
//! a corpus. lopdf loads the whole file but leaves streams as they are stored; the page tools
//! decode none (a page's images and fonts are copied byte for byte), metadata decodes the XMP
//! packet and sanitize the content streams that draw hidden layers.
//!
//! The page tools and the stamps rebuild the page tree flat (inherited attributes copied onto
//! each page), keep what points at pages pointing at the same pages (outline, links, named
//! destinations), drop what no longer fits (page labels, the structure tree, article threads)
//! and write only the objects the output reaches, with object streams and a cross-reference
//! stream (protect writes without object streams: lopdf cannot encrypt them).

mod dests;
mod extract;
pub mod extract_images;
pub mod fill_form;
pub mod flatten;
mod forms;
mod geometry;
pub mod images_to_pdf;
mod io;
pub mod layout;
mod merge;
pub mod metadata;
mod names;
mod organize;
mod outline;
mod pages;
pub mod pdfa;
mod ranges;
pub mod redact;
mod refs;
mod rotate;
pub mod sanitize;
pub mod security;
pub mod sign;
mod source;
mod split;
pub mod stamp;
mod streams;
mod text;

use std::path::{Path, PathBuf};

/// Why a tool could not run; the service maps each to an HTTP status / gRPC code.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// Not a readable PDF (corrupt, truncated, not a PDF, no pages). -> 422
    #[error("{0}")]
    InvalidFile(String),
    /// Needs a password. -> 422 with a hint to use the unlock tool
    #[error("the PDF is protected by a password: unlock it first with its password")]
    Encrypted,
    /// The options do not fit this document (page 12 of a 10-page file, bad range syntax, ...). -> 400
    #[error("{0}")]
    BadOptions(String),
    /// The password given does not open the PDF. -> 400 `wrong-password`
    #[error("{0}")]
    WrongPassword(String),
    #[error("{0}")]
    Io(String),
}

/// Pages written, for the summary shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub pages: u32,
}

/// How to split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitMode {
    /// "1-3,5,8-": one output per comma-separated item; "8-" runs to the last page, "-3" from
    /// the first; spaces allowed; 1-based; a page out of range or a reversed range is BadOptions
    /// with a message that names the item and the page count.
    Ranges(String),
    /// A new part every N pages (the last part may be shorter). N >= 1.
    Every(u32),
    /// One part per top-level bookmark: from the bookmark's page to the page before the next
    /// top-level bookmark's page; pages before the first bookmark form a first part. A document
    /// with no outline is BadOptions ("this PDF has no bookmarks: split by ranges instead").
    Bookmarks,
}

/// One written part of a split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// File name for the ZIP entry: "<stem>-pages-1-3.pdf", "<stem>-page-5.pdf", and for
    /// bookmarks "<stem>-01-<bookmark title made filename-safe, at most 60 chars>.pdf".
    pub name: String,
    pub path: PathBuf,
    /// 1-based pages of the input, in order.
    pub pages: Vec<u32>,
}

/// One slot of the organized document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A page of the input, 1-based; may appear several times (duplicate) or not at all (delete).
    Page(u32),
    /// A blank page, the size of the page before it (or of the first page).
    Blank,
}

/// Several PDFs into one, in the order given. Every input's outline (bookmarks) is kept, each
/// input's tree under a top-level bookmark titled by `titles[i]` (the file name the user
/// uploaded, without ".pdf"); link annotations and outline destinations that point at pages
/// keep pointing at the same pages (GoTo actions, explicit /Dest arrays, and named destinations:
/// merge the /Dests dictionary and /Names /Dests name trees of all inputs, renaming a name that
/// collides with an earlier input's and rewriting that input's links/outline entries to the new
/// name). AcroForm fields of all inputs are kept (merge /Fields arrays; /DA, /DR merged, first wins).
/// The first input's /Info and page labels-free catalog is the base. Inputs are at least 2.
pub fn merge(inputs: &[&Path], titles: &[&str], output: &Path) -> Result<Written, ToolError> {
    merge::merge(inputs, titles, output)
}

/// Splits `input` into parts written in `out_dir` (which exists and is empty). `stem` is the
/// user's file name without ".pdf" (already filename-safe). Each part keeps the outline entries
/// and links that point into its own pages (others removed), the document info, and is pruned of
/// objects it no longer uses (a part must not carry the other parts' pages' images/fonts).
pub fn split(
    input: &Path,
    mode: &SplitMode,
    stem: &str,
    out_dir: &Path,
) -> Result<Vec<Part>, ToolError> {
    split::split(input, mode, stem, out_dir)
}

/// Rotates pages clockwise by 90, 180 or 270 degrees (anything else is BadOptions), added to
/// each page's current /Rotate (which may be inherited from a parent /Pages node: resolve it).
/// `pages`: a range spec as in SplitMode::Ranges ("1-3,5"), or None for all pages.
pub fn rotate(
    input: &Path,
    degrees: i32,
    pages: Option<&str>,
    output: &Path,
) -> Result<Written, ToolError> {
    rotate::rotate(input, degrees, pages, output)
}

/// Writes the pages in the order of `slots` (at least one). A page used twice becomes two page
/// objects sharing resources and content. Outline entries and links to deleted pages are dropped;
/// to kept pages they follow the (first copy of the) page.
pub fn organize(input: &Path, slots: &[Slot], output: &Path) -> Result<Written, ToolError> {
    organize::organize(input, slots, output)
}

/// Parses a page range spec against a page count: each item's pages, 1-based. Shared by split,
/// rotate and the service's option checks.
pub fn parse_ranges(spec: &str, page_count: u32) -> Result<Vec<Vec<u32>>, ToolError> {
    ranges::parse_ranges(spec, page_count)
}

/// Page count of a PDF (for previews and option checks).
pub fn page_count(input: &Path) -> Result<u32, ToolError> {
    let doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    Ok(count(tree.pages.len()))
}

/// A page count as the API reports it; a page tree cannot hold more than u32 pages in practice
/// (each page is an object, and object numbers are below 2^23 in any reader).
fn count(pages: usize) -> u32 {
    u32::try_from(pages).unwrap_or(u32::MAX)
}
