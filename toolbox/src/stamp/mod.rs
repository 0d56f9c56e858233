//! Marks drawn on pages: text or image watermarks, page numbers and Bates numbers.
//!
//! A mark is placed on the page as it is displayed (its CropBox within its MediaBox, turned
//! by its /Rotate), drawn by a content stream of its own added before or after the page's
//! content (which is wrapped in `q ... Q` first), with its resources under fresh names. The
//! font, image and transparency objects are shared by every page. Existing streams are never
//! decoded or rewritten.

pub(crate) mod content;
pub(crate) mod font;
pub(crate) mod geometry;
pub(crate) mod helvetica;
mod numbering;
pub(crate) mod picture;
mod ttf;
mod watermarking;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::{ToolError, Written};

/// Where on the displayed page a mark goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    TopLeft,
    TopCenter,
    TopRight,
    MiddleLeft,
    Center,
    MiddleRight,
    BottomLeft,
    BottomCenter,
    BottomRight,
}

/// What a watermark shows.
#[derive(Debug, Clone)]
pub enum Mark {
    /// Text in Helvetica (a standard font, nothing embedded) when every character is in WinAnsi
    /// (Latin-1 + the WinAnsi extras such as € — and ’); otherwise in the TrueType font at
    /// `font` (the service passes DejaVu Sans), embedded (Type0/CIDFontType2, Identity-H, with
    /// /ToUnicode so the text copies). No font and characters outside WinAnsi is BadOptions
    /// naming the first such character; so is a character the font has no glyph for. One line:
    /// control characters are BadOptions. `size` in points, 1..=500.
    Text {
        text: String,
        size: f32,
        rgb: [u8; 3],
        font: Option<PathBuf>,
    },
    /// A PNG or JPEG file (JPEG embedded as is, DCTDecode; PNG decoded: gray or RGB, Flate,
    /// alpha as /SMask), drawn `width_share` (above 0, at most 1) of the displayed page width
    /// wide. Anything else, or an unreadable file, is BadOptions.
    Image { path: PathBuf, width_share: f32 },
}

#[derive(Debug, Clone)]
pub struct Watermark {
    pub mark: Mark,
    /// 0.0..=1.0 (ExtGState /ca and /CA).
    pub opacity: f32,
    /// Degrees counter-clockwise, about the mark's centre.
    pub rotation: f32,
    /// Where on the page (the mark's turned box kept 5% of the page's shorter side from the
    /// edges), or None for tiled: a grid of marks covering the page, its rows along the
    /// mark's (turned) baseline, spaced by the mark's size plus its smaller side, every other
    /// row shifted by half a step.
    pub position: Option<Position>,
    /// Range spec ("1-3,5") or None for every page.
    pub pages: Option<String>,
    /// Drawn under the page's content instead of over it.
    pub behind: bool,
}

/// Stamps `watermark` on the chosen pages of `input`.
pub fn watermark(input: &Path, watermark: &Watermark, output: &Path) -> Result<Written, ToolError> {
    watermarking::watermark(input, watermark, output)
}

#[derive(Debug, Clone)]
pub struct Numbering {
    /// "{n}", "{n} / {total}", "Page {n} of {total}", and Bates: a prefix plus a zero-padded
    /// number "ACME-{n:6}" (width 6, at most 20; {total:6} also works). Literal text around the
    /// placeholders is kept. At least one {n}; any other "{...}" is BadOptions. {total} is
    /// the number printed on the last page.
    pub format: String,
    pub position: Position,
    /// First page (1-based) that gets a number; earlier pages get none.
    pub first_page: u32,
    /// The number printed on `first_page`.
    pub start: u32,
    /// Points, 1..=500.
    pub size: f32,
    /// Distance from the page edge in points, 0..=500.
    pub margin: f32,
    pub rgb: [u8; 3],
    /// As Mark::Text: for characters outside WinAnsi.
    pub font: Option<PathBuf>,
}

/// Prints a page number on every page from `numbering.first_page` on.
pub fn number_pages(
    input: &Path,
    numbering: &Numbering,
    output: &Path,
) -> Result<Written, ToolError> {
    numbering::number_pages(input, numbering, output)
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

/// A text size in points, checked.
fn text_size(size: f32) -> Result<f64, ToolError> {
    if (1.0..=500.0).contains(&size) {
        Ok(size.into())
    } else {
        Err(ToolError::BadOptions(format!(
            "the text size is {size}: use a size from 1 to 500 points"
        )))
    }
}

/// Operators drawing `shown` (a hex string from `Font::show`) in the font named `font` with its
/// baseline starting at (x, y). Every text state parameter is set, so that whatever the page's
/// content leaves behind cannot change how the text looks.
pub(crate) fn text_operators(
    font: &[u8],
    size: f64,
    rgb: [u8; 3],
    (x, y): (f64, f64),
    shown: &str,
) -> String {
    use geometry::number;
    let [r, g, b] = rgb.map(|c| number(f64::from(c) / 255.0));
    format!(
        "BT {} {} Tf 0 Tc 0 Tw 100 Tz 0 Ts 0 Tr {r} {g} {b} rg {} {} Td {shown} Tj ET\n",
        content::name(font),
        number(size),
        number(x),
        number(y),
    )
}
