//! Redaction that removes what is inside the marked areas (text glyphs, image pixels, vector
//! paths, annotations and field values) and draws a filled box over each area.
//!
//! Drawing a box over text is what other tools get wrong: the text under it still copies. Here
//! each page with an area has its content rewritten, and what lies inside an area goes:
//!
//! - **Text.** Every shown string is split into character codes through its font (one byte for
//!   simple fonts; a Type 0 font's CMap codespace: Identity-H/V and embedded CMaps), each glyph
//!   measured (/Widths, /W and /DW, /W2 and /DW2, the standard 14 fonts' metrics, Type 3
//!   FontMatrix) and placed through the full text rendering matrix. A glyph's box is its advance
//!   across the font's descent to ascent; the glyph goes when the centre of that box lies in an
//!   area or at least [`geometry::MIN_SHARE`] (a fifth) of the box does. The rule errs on the
//!   side of removal while sparing a neighbour that a padded area only grazes. Invisible text
//!   (render mode 3, OCR layers) goes the same way. A string that loses glyphs is written as a
//!   TJ array whose numbers take the place of the removed glyphs (their advance, with Tc, Tw on
//!   a one-byte space and Tz), so the text around keeps its place. A marked-content sequence
//!   that held a removed glyph (or image, or path) loses its /ActualText, /Alt and /E, and so
//!   do the structure elements that own its MCID.
//! - **Images.** An image (XObject or inline) whose unit square, through the CTM, reaches an
//!   area has every pixel whose centre maps inside the area painted with the fill colour (a
//!   stencil mask's bits cleared, a soft mask made opaque there, an explicit mask cleared) and
//!   is written again (JPEG as JPEG at quality 92, fax as Group 4, the rest Flate); an inline
//!   image becomes an XObject. An image wholly inside an area is not drawn at all. An image
//!   this cannot decode (JBIG2, two-dimensional Group 3 fax, a damaged stream) makes its page
//!   unsafe.
//! - **Vector paths.** Each subpath (from `m` or `re` to the next) whose box, through the CTM
//!   and with half the line width for strokes, lies wholly inside an area is removed; a path
//!   left with no subpath is not painted (a clipping path then clips to nothing, which it did
//!   outside the area already). Subpaths that only cross an area stay: the box covers them.
//!   `paths_removed` counts the paths that lost subpaths, `paths_covered` those that cross an
//!   area and stay. A shading (`sh`) whose /BBox lies inside an area is removed.
//! - **Forms.** Every Form XObject drawn is walked with the state it is drawn in (even one
//!   whose box misses the areas: what it clips away still extracts as text where it was
//!   drawn), to a depth of [`MAX_FORM_DEPTH`]; when something in it goes, this placement draws
//!   a redacted copy under a new name, and the original stays for every other placement (other
//!   pages, other places on this page). A form wholly inside an area is not drawn. The
//!   resources a rewritten stream no longer names (the unpainted image, the unredacted form,
//!   the described properties) leave its resources, so that the save drops them.
//! - **Annotations** whose /Rect overlaps an area go, whole (appearances included), with their
//!   pop-ups and every reference to them; a field whose widget goes loses its value (/V, /DV,
//!   /RV; its other widgets then show nothing, or Off), and leaves the form when it has no
//!   widget left; a form that lost a field loses its XFA, which holds the values too. A
//!   structure element whose OBJR names a removed annotation loses its descriptions.
//! - **The box.** Each area is filled in the fill colour after the page's content, which is
//!   wrapped in `q ... Q` (its unbalanced `q` closed, stray `Q` dropped) so that its graphics
//!   state cannot move or recolour the box; the optional label is drawn in Helvetica, upright as
//!   the page is displayed, centred and shrunk to fit, black or white against the fill.
//!
//! With `clean_document` and terms: bookmarks whose title contains a term are retitled (each
//! occurrence replaced by the label, or "[REDACTED]"; the entry keeps its place, destination
//! and children, which removing it would take along), /Info entries and XMP packets holding a
//! term are removed, and embedded files whose name, description or content (decompressed,
//! searched as bytes, Latin-1 and UTF-16) holds a term are removed, from the /EmbeddedFiles
//! tree and as FileAttachment annotations. Named destinations whose name holds a term are
//! renamed to opaque names ("redacted-1", ...) in the name tree, the old /Dests dictionary and
//! every /Dest and GoTo action naming them, so that links still lead where they did (remote
//! GoTo actions name another file's destinations: they stay). An XFA form holding a term
//! goes, the AcroForm fields staying. Terms match without regard to case. With terms but no
//! area, only the document is cleaned.
//!
//! The output is written whole (no incremental update, no earlier revision): only the objects
//! still reached are kept, /PieceInfo goes everywhere, thumbnails of redacted pages go.
//!
//! **Unsafe pages.** What cannot be removed safely is never guessed: a content stream that does
//! not parse, a font whose strings cannot be split or measured (a predefined CMap other than
//! Identity, a simple font without widths that is not a standard one), an image that cannot be
//! decoded under an area, a tiling pattern or a soft mask with text or images drawn over an
//! area, forms nested too deep or drawing themselves, or too much work (more than 20 million
//! operations for one page) — the page is listed in [`Redacted::unsafe_pages`] (with why in
//! [`Redacted::unsafe_reasons`]) and everything safe is still done on it. The caller then
//! pictures those pages and calls [`replace_with_rasters`].
//!
//! Known limits: text shown at font size 0 loses its removed glyphs without the numbers that
//! would keep the text after them in place (nothing is drawn at that size, but extraction
//! tools may see it move); a Type 3 font's glyphs are as high as its FontBBox says (a Latin
//! font's height when it is all zeros); annotations outside the areas and document-level
//! JavaScript are not searched for the terms.

mod annots;
mod boxes;
mod clean;
mod content;
mod engine;
mod fonts;
mod geometry;
mod images;
mod options;
mod page;
mod raster;
mod structure;
mod walk;

use std::path::Path;

use crate::{ToolError, Written};

/// Forms drawn inside forms deeper than this make the page unsafe.
pub const MAX_FORM_DEPTH: usize = 12;

/// A rectangle in a page's default user space (PDF points), normalised by the engine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

/// A rectangle on a page in the page's default user space (PDF points; MediaBox space, before
/// /Rotate).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    /// 1-based.
    pub page: u32,
    pub rect: Rect,
}

/// What to redact and how to mark it.
#[derive(Debug, Clone, PartialEq)]
pub struct Redaction {
    pub areas: Vec<Area>,
    /// The box colour (RGB).
    pub fill: [u8; 3],
    /// Text drawn centred in each box ("REDACTED"), in black or white against the fill,
    /// shrunk to fit; Latin-1 and WinAnsi characters only (drawn in Helvetica).
    pub label: Option<String>,
    /// The searched terms that were redacted (may be empty).
    pub terms: Vec<String>,
    /// Also clean bookmarks, document info and XMP metadata, attachments, named destinations
    /// and the XFA form that contain a term (case-insensitive).
    pub clean_document: bool,
}

/// What a redaction did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Redacted {
    pub pages: u32,
    pub glyphs_removed: u64,
    /// Images painted over (or, wholly inside an area, no longer drawn).
    pub images_redacted: u32,
    /// Paths that lost subpaths lying wholly inside an area (and shadings removed).
    pub paths_removed: u32,
    /// Paths that cross an area and stay, under the box.
    pub paths_covered: u32,
    pub annotations_removed: u32,
    pub fields_cleared: u32,
    pub bookmarks_cleaned: u32,
    /// /Info entries and XMP packets removed, and the XFA form (one) when it held a term.
    pub metadata_cleaned: u32,
    pub attachments_removed: u32,
    /// Named destinations whose name held a term, renamed (with every link to them).
    pub destinations_renamed: u32,
    /// Links, bookmarks and triggers that lost an action whose target held a term (a web
    /// address, a file name, a script), and the document's scripts when one held a term.
    pub actions_removed: u32,
    /// Form fields' tooltips and names, and embedded fonts' names, that held a term.
    pub names_cleaned: u32,
    /// Pages (1-based, ascending) whose content inside an area the engine could not remove
    /// safely: the caller rasterizes them.
    pub unsafe_pages: Vec<u32>,
    /// Why, for each of `unsafe_pages`: a sentence for the logs.
    pub unsafe_reasons: Vec<(u32, String)>,
    /// Each removed glyph's box (page, 1-based; user space): a glyph whose centre was inside
    /// an area may reach past it, so a check of what changed outside the areas leaves these out.
    pub glyph_boxes: Vec<(u32, Rect)>,
}

/// Applies `redaction` to `input` and writes the result to `output`. An area on a page the file
/// does not have, an area without size, or no area (unless there are terms to clean the
/// document of) is [`ToolError::BadOptions`]; a password-protected file is
/// [`ToolError::Encrypted`]; an unreadable one [`ToolError::InvalidFile`].
pub fn redact(input: &Path, redaction: &Redaction, output: &Path) -> Result<Redacted, ToolError> {
    engine::redact(input, redaction, output)
}

/// A page replaced by a picture of it (the caller renders it with PDFium, boxes painted, and
/// OCRs it).
#[derive(Debug, Clone, PartialEq)]
pub struct RasterPage {
    /// 1-based.
    pub page: u32,
    /// PNG or JPEG bytes of the page as displayed (its visible box, turned by /Rotate).
    pub image: Vec<u8>,
    /// OCR words in default user space, written as an invisible (Tr 3) text layer so the page
    /// stays searchable.
    pub words: Vec<(String, Rect)>,
}

/// Writes `input` (a redacted file) with the pages of `rasters` replaced: each keeps its boxes
/// and /Rotate, and shows only the picture over its visible box, with the words as invisible
/// text (Helvetica; characters it lacks are written as "?"), each scaled to its box. The old
/// content, resources and annotations of those pages are dropped.
pub fn replace_with_rasters(
    input: &Path,
    rasters: &[RasterPage],
    output: &Path,
) -> Result<Written, ToolError> {
    raster::replace_with_rasters(input, rasters, output)
}
