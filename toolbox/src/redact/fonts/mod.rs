//! What the redaction needs of a font: how a shown string splits into character codes, each
//! code's advance, and how high a glyph stands, all in text space at a font size of 1.
//!
//! Simple fonts (Type 1, TrueType, Type 3) take one byte per code; their widths come from
//! /Widths, or for the standard 14 fonts without them from their metrics. Type 0 fonts split
//! strings by their CMap's codespace (Identity-H/V: two bytes; an embedded CMap parsed by the
//! compressor's reader) and measure CIDs by /W and /DW (vertically /W2 and /DW2). A font that
//! cannot be split (a predefined CMap) or measured is an error, and so is any string it shows
//! on a page with areas: the page becomes unsafe.

mod composite;
mod simple;
mod standard;
mod standard_data;

use lopdf::{Dictionary, Document, Object};

use crate::geometry::number_of;

/// One character code of a shown string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    /// Bytes of the code.
    pub len: usize,
    /// Horizontal advance (w0), text space at size 1.
    pub width: f64,
    /// Whether word spacing applies: a one-byte code 32.
    pub space: bool,
    /// Vertical writing: the advance (w1, negative downwards) and the position vector from
    /// the glyph's origin to the current point (vx, vy), text space at size 1.
    pub vertical: Option<(f64, f64, f64)>,
}

/// How a font's strings split into codes.
enum Codes {
    OneByte,
    /// Identity-H / Identity-V.
    TwoBytes,
    Cmap(quire_compress::redaction::Cmap),
}

enum Widths {
    /// By code.
    Simple(Box<[f64; 256]>),
    Cid(composite::CidWidths),
}

/// A font, read for measuring.
pub struct Font {
    codes: Codes,
    widths: Widths,
    /// Bottom and top of a glyph's box, text space at size 1.
    pub descent: f64,
    pub ascent: f64,
    /// Whether the widths are those the file gives (or the standard 14 fonts' own).
    pub exact: bool,
}

impl Font {
    /// Reads a font dictionary; an error says why its strings cannot be split.
    pub fn load(doc: &Document, font: &Dictionary) -> Result<Font, &'static str> {
        match name(doc, font, b"Subtype") {
            Some(b"Type0") => composite::load(doc, font),
            _ => simple::load(doc, font),
        }
    }

    /// Whether it writes vertically (a Type 0 font with WMode 1).
    pub fn vertical(&self) -> bool {
        matches!(&self.widths, Widths::Cid(widths) if widths.vertical())
    }

    /// The codes of `s` with their metrics; `None` when `s` does not split.
    pub fn glyphs(&self, s: &[u8]) -> Option<Vec<Glyph>> {
        match (&self.codes, &self.widths) {
            (Codes::OneByte, Widths::Simple(widths)) => Some(
                s.iter()
                    .map(|&code| Glyph {
                        len: 1,
                        width: widths[usize::from(code)],
                        space: code == b' ',
                        vertical: None,
                    })
                    .collect(),
            ),
            (Codes::TwoBytes, Widths::Cid(widths)) => {
                if !s.len().is_multiple_of(2) {
                    return None;
                }
                Some(
                    s.chunks_exact(2)
                        .map(|pair| {
                            widths.glyph(u32::from(pair[0]) << 8 | u32::from(pair[1]), 2, false)
                        })
                        .collect(),
                )
            }
            (Codes::Cmap(cmap), Widths::Cid(widths)) => {
                let codes = cmap.codes(s)?;
                let mut at = 0;
                let mut out = Vec::with_capacity(codes.len());
                for (len, cid) in codes {
                    let space = len == 1 && s.get(at) == Some(&b' ');
                    out.push(widths.glyph(cid, len, space));
                    at += len;
                }
                Some(out)
            }
            _ => None,
        }
    }
}

/// A name entry, resolved.
fn name<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    resolve(doc, dict.get(key).ok()?)?.as_name().ok()
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, object)| object)
}

fn dict<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Dictionary> {
    resolve(doc, dict.get(key).ok()?)?.as_dict().ok()
}

fn number(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<f64> {
    number_of(resolve(doc, dict.get(key).ok()?)?)
}

fn numbers(doc: &Document, object: &Object) -> Option<Vec<f64>> {
    resolve(doc, object)?
        .as_array()
        .ok()?
        .iter()
        .map(|item| number_of(resolve(doc, item)?))
        .collect()
}

/// A descriptor's vertical extent, in thousandths: /Ascent and /Descent, else its /FontBBox;
/// `None` when it gives neither.
fn descriptor_extent(doc: &Document, descriptor: &Dictionary) -> Option<(f64, f64)> {
    let ascent = number(doc, descriptor, b"Ascent").filter(|&a| a > 0.0);
    let descent = number(doc, descriptor, b"Descent").filter(|&d| d <= 0.0);
    let bbox = descriptor
        .get(b"FontBBox")
        .ok()
        .and_then(|b| numbers(doc, b))
        .filter(|b| b.len() == 4 && b[3] > b[1]);
    let ascent = ascent.or_else(|| bbox.as_ref().map(|b| b[3].max(b[1])))?;
    let descent = descent.or_else(|| bbox.as_ref().map(|b| b[1].min(b[3]).min(0.0)))?;
    Some((descent, ascent))
}

/// What a glyph's box spans when nothing says: a Latin font's usual descent and ascent.
const DEFAULT_EXTENT: (f64, f64) = (-200.0, 800.0);
