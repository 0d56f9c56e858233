//! Font programs cut down with `subsetter` 0.1.1, which keeps every glyph ID and blanks the
//! outlines not kept (TrueType glyf/loca with the components of composites, CFF charstrings),
//! so nothing in the PDF but the program changes. Bare CFF (FontFile3 /Type1C and
//! /CIDFontType0C) is wrapped in a minimal OpenType file for it and taken back out.
//!
//! Every result is checked against the original with ttf-parser before it is used: each kept
//! glyph must draw the same outline, and a CFF must keep its charset and encoding. A font
//! that fails any check, or that the subsetter refuses or panics on, is kept whole.

use std::collections::BTreeSet;

use ttf_parser::{GlyphId, OutlineBuilder};

use super::sfnt_cmap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An OpenType / TrueType file (FontFile2, FontFile3 /OpenType).
    Sfnt,
    /// A bare CFF font (FontFile3 /Type1C, /CIDFontType0C).
    Cff,
    /// A Type 1 font (FontFile): rewritten as CFF by `type1_pdf`, never here.
    Type1,
}

/// Tables the subsetter would drop but a renderer could draw glyphs from: such fonts stay
/// whole.
const PICTURE_TABLES: [&[u8; 4]; 5] = [b"COLR", b"CPAL", b"sbix", b"CBDT", b"SVG "];

/// Monochrome bitmap strikes: a renderer draws them only where the font has no outlines (PDF
/// viewers load glyphs as outlines; PDFium asks FreeType for no bitmaps). Word embeds Calibri
/// and Cambria with them; such a font with `glyf` or `CFF ` is subset like any other.
const BITMAP_TABLES: [&[u8; 4]; 2] = [b"EBDT", b"bdat"];
const OUTLINE_TABLES: [&[u8; 4]; 3] = [b"glyf", b"CFF ", b"CFF2"];

/// Why a program was kept as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Not an OpenType or CFF font this module can read.
    Unreadable,
    /// Color or bitmap glyphs, which the subsetter drops.
    Pictures,
    /// The subsetter failed (or panicked).
    Refused,
    /// The subset is no smaller (often a program some producer had subset already).
    NoSmaller,
    /// A kept glyph, name, code or CID came out different.
    Differs,
}

impl Format {
    /// The format the program's bytes show, whatever the PDF declares: some producers put
    /// a TrueType under /FontFile3 /CIDFontType0C, or a bare CFF under /FontFile2.
    pub fn sniff(declared: Format, data: &[u8]) -> Format {
        match (declared, data.get(..4)) {
            (Format::Type1, _) => Format::Type1,
            (_, Some([0, 1, 0, 0] | b"true" | b"OTTO" | b"ttcf")) => Format::Sfnt,
            // A CFF header: version 1.0, then its size and offset size.
            (_, Some([1, 0, 4..=255, 1..=4])) if ttf_parser::cff::Table::parse(data).is_some() => {
                Format::Cff
            }
            _ => declared,
        }
    }
}

/// The program with only `glyphs` (plus .notdef) drawn.
pub fn subset(format: Format, data: &[u8], glyphs: &BTreeSet<u16>) -> Result<Vec<u8>, Kept> {
    let sfnt = match format {
        Format::Sfnt => normalize(data),
        Format::Cff => wrap_cff(data),
        Format::Type1 => None,
    }
    .ok_or(Kept::Unreadable)?;
    let tables = directory(&sfnt).ok_or(Kept::Unreadable)?;
    let has = |set: &[&[u8; 4]]| tables.iter().any(|(tag, _)| set.contains(&tag));
    if has(&PICTURE_TABLES) || (has(&BITMAP_TABLES) && !has(&OUTLINE_TABLES)) {
        return Err(Kept::Pictures);
    }
    let count = glyph_count(format, data).ok_or(Kept::Unreadable)?;
    let mut keep: Vec<u16> = glyphs.iter().copied().filter(|&g| g < count).collect();
    if !keep.contains(&0) {
        keep.insert(0, 0);
    }
    let run = || subsetter::subset(&sfnt, 0, subsetter::Profile::pdf(&keep));
    let out = std::panic::catch_unwind(run)
        .ok()
        .and_then(Result::ok)
        .ok_or(Kept::Refused)?;
    let out = match format {
        Format::Cff => table(&out, b"CFF ").ok_or(Kept::Refused)?.to_vec(),
        Format::Sfnt | Format::Type1 => {
            let out = restore(&sfnt, out, &keep).ok_or(Kept::Refused)?;
            with_trimmed_cmap(out, &keep)
        }
    };
    if !same_glyphs(format, data, &out, &keep) {
        return Err(Kept::Differs);
    }
    // A CID-keyed CFF is addressed by CID alone: the slots of the glyphs dropped go too.
    let out = match format {
        Format::Cff => super::cid_cff::compact(&out, &keep).map_or(out, |(compact, _)| compact),
        Format::Sfnt | Format::Type1 => out,
    };
    if out.len() >= data.len() {
        return Err(Kept::NoSmaller);
    }
    Ok(out)
}

/// Tables the subsetter drops that a renderer may still read: vertical metrics, for CID
/// fonts written vertically.
const RESTORED: [&[u8; 4]; 2] = [b"vhea", b"vmtx"];

/// The subset with the `RESTORED` tables of the original put back, the vertical metrics of
/// glyphs not kept zeroed (as the subsetter does for hmtx) so that they compress away.
fn restore(original: &[u8], subset: Vec<u8>, keep: &[u16]) -> Option<Vec<u8>> {
    let mut missing: Vec<([u8; 4], Vec<u8>)> = directory(original)?
        .into_iter()
        .filter(|(tag, _)| RESTORED.contains(&tag))
        .filter(|(tag, _)| table(&subset, tag).is_none())
        .map(|(tag, range)| Some((tag, original.get(range)?.to_vec())))
        .collect::<Option<_>>()?;
    if missing.is_empty() {
        return Some(subset);
    }
    let vhea = table(original, b"vhea")?;
    let long = usize::from(u16::from_be_bytes(vhea.get(34..36)?.try_into().ok()?));
    if let Some((_, vmtx)) = missing.iter_mut().find(|(tag, _)| tag == b"vmtx") {
        let keep: std::collections::HashSet<usize> = keep.iter().map(|&g| usize::from(g)).collect();
        let count = usize::from(glyph_count(Format::Sfnt, original)?);
        for glyph in (0..count).filter(|g| !keep.contains(g)) {
            let range = if glyph < long {
                4 * glyph..4 * glyph + 4
            } else {
                4 * long + 2 * (glyph - long)..4 * long + 2 * (glyph - long) + 2
            };
            if let Some(entry) = vmtx.get_mut(range) {
                entry.fill(0);
            }
        }
    }
    let mut tables: Vec<([u8; 4], &[u8])> = directory(&subset)?
        .into_iter()
        .map(|(tag, range)| Some((tag, subset.get(range)?)))
        .collect::<Option<_>>()?;
    tables.extend(missing.iter().map(|(tag, data)| (*tag, data.as_slice())));
    tables.sort_by_key(|(tag, _)| *tag);
    Some(build(subset.get(..4)?, &tables))
}

/// The font with its `cmap` cut to the kept glyphs' codes, or as it was.
fn with_trimmed_cmap(font: Vec<u8>, keep: &[u16]) -> Vec<u8> {
    let rebuilt = || {
        let cmap = sfnt_cmap::trimmed(table(&font, b"cmap")?, keep)?;
        let tables: Vec<([u8; 4], &[u8])> = directory(&font)?
            .into_iter()
            .map(|(tag, range)| match &tag {
                b"cmap" => Some((tag, cmap.as_slice())),
                _ => Some((tag, font.get(range)?)),
            })
            .collect::<Option<_>>()?;
        Some(build(font.get(..4)?, &tables))
    };
    rebuilt().unwrap_or(font)
}

/// How many glyphs the program has.
pub fn glyph_count(format: Format, data: &[u8]) -> Option<u16> {
    match format {
        Format::Sfnt => ttf_parser::Face::parse(data, 0)
            .ok()
            .map(|f| f.number_of_glyphs()),
        Format::Cff => ttf_parser::cff::Table::parse(data).map(|t| t.number_of_glyphs()),
        Format::Type1 => None,
    }
}

/// The table directory: tag and byte range of each table.
fn directory(sfnt: &[u8]) -> Option<Vec<([u8; 4], std::ops::Range<usize>)>> {
    let count = usize::from(u16::from_be_bytes(sfnt.get(4..6)?.try_into().ok()?));
    let mut tables = Vec::with_capacity(count);
    for i in 0..count {
        let record = sfnt.get(12 + 16 * i..28 + 16 * i)?;
        let tag: [u8; 4] = record.get(..4)?.try_into().ok()?;
        let offset = u32::from_be_bytes(record.get(8..12)?.try_into().ok()?) as usize;
        let length = u32::from_be_bytes(record.get(12..16)?.try_into().ok()?) as usize;
        sfnt.get(offset..offset.checked_add(length)?)?;
        tables.push((tag, offset..offset + length));
    }
    Some(tables)
}

pub(super) fn table<'a>(sfnt: &'a [u8], tag: &[u8; 4]) -> Option<&'a [u8]> {
    let (_, range) = directory(sfnt)?.into_iter().find(|(t, _)| t == tag)?;
    sfnt.get(range)
}

/// The sfnt rebuilt with its table directory sorted by tag: the subsetter looks tables up
/// by binary search, and fonts embedded by some producers list them in any order.
fn normalize(data: &[u8]) -> Option<Vec<u8>> {
    let version = data.get(..4)?;
    if !matches!(version, [0, 1, 0, 0] | b"true" | b"OTTO") {
        return None;
    }
    let mut tables = directory(data)?;
    tables.sort_by_key(|(tag, _)| *tag);
    if tables.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let parts: Vec<([u8; 4], &[u8])> = tables
        .into_iter()
        .map(|(tag, range)| Some((tag, data.get(range)?)))
        .collect::<Option<_>>()?;
    Some(build(version, &parts))
}

/// A bare CFF as an OpenType file with just the `CFF ` and `maxp` tables.
fn wrap_cff(cff: &[u8]) -> Option<Vec<u8>> {
    let count = ttf_parser::cff::Table::parse(cff)?.number_of_glyphs();
    let mut maxp = 0x0000_5000u32.to_be_bytes().to_vec();
    maxp.extend_from_slice(&count.to_be_bytes());
    Some(build(b"OTTO", &[(*b"CFF ", cff), (*b"maxp", &maxp)]))
}

/// Writes an sfnt from tables already sorted by tag.
pub fn build(version: &[u8], tables: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let count = tables.len() as u16;
    let selector = 15 - count.max(1).leading_zeros() as u16;
    let range = (1u16 << selector) * 16;
    let mut out = version.to_vec();
    for value in [count, range, selector, (count * 16).saturating_sub(range)] {
        out.extend_from_slice(&value.to_be_bytes());
    }
    let mut offset = 12 + 16 * tables.len();
    for (tag, data) in tables {
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(data).to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        offset += data.len().next_multiple_of(4);
    }
    for (_, data) in tables {
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

/// The sum of a table's big-endian 32-bit words, zero-padded.
fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, chunk| {
        let mut word = [0; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

/// Whether every kept glyph draws the same in both programs, and a CFF maps codes, names
/// and CIDs to glyphs as before.
fn same_glyphs(format: Format, before: &[u8], after: &[u8], keep: &[u16]) -> bool {
    match format {
        Format::Sfnt => {
            let (Ok(old), Ok(new)) = (
                ttf_parser::Face::parse(before, 0),
                ttf_parser::Face::parse(after, 0),
            ) else {
                return false;
            };
            old.number_of_glyphs() == new.number_of_glyphs()
                && keep.iter().all(|&g| {
                    let id = GlyphId(g);
                    outline(|b| old.outline_glyph(id, b)) == outline(|b| new.outline_glyph(id, b))
                        && old.glyph_name(id) == new.glyph_name(id)
                })
        }
        Format::Type1 => false,
        Format::Cff => {
            let (Some(old), Some(new)) = (
                ttf_parser::cff::Table::parse(before),
                ttf_parser::cff::Table::parse(after),
            ) else {
                return false;
            };
            let count = old.number_of_glyphs();
            count == new.number_of_glyphs()
                && (0..=255u8).all(|c| old.glyph_index(c) == new.glyph_index(c))
                && (0..count).all(|g| {
                    let id = GlyphId(g);
                    old.glyph_name(id) == new.glyph_name(id)
                        && old.glyph_cid(id) == new.glyph_cid(id)
                })
                && keep.iter().all(|&g| {
                    let id = GlyphId(g);
                    outline(|b| old.outline(id, b).ok()) == outline(|b| new.outline(id, b).ok())
                })
        }
    }
}

/// The path a glyph draws, as a comparable list (`None` when it cannot be drawn).
pub(super) fn outline<R: PartialEq + std::fmt::Debug>(
    draw: impl FnOnce(&mut Recorder) -> Option<R>,
) -> (Option<String>, Vec<(u8, [f32; 6])>) {
    let mut recorder = Recorder(Vec::new());
    let bounds = draw(&mut recorder).map(|r| format!("{r:?}"));
    (bounds, recorder.0)
}

pub(super) struct Recorder(Vec<(u8, [f32; 6])>);

impl OutlineBuilder for Recorder {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push((b'M', [x, y, 0.0, 0.0, 0.0, 0.0]));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push((b'L', [x, y, 0.0, 0.0, 0.0, 0.0]));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.push((b'Q', [x1, y1, x, y, 0.0, 0.0]));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.push((b'C', [x1, y1, x2, y2, x, y]));
    }
    fn close(&mut self) {
        self.0.push((b'Z', [0.0; 6]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DejaVu Sans with one more table, or without `glyf` (a bitmap-only font).
    fn dejavu_with(extra: &[u8; 4], outlines: bool) -> Option<Vec<u8>> {
        let font = std::fs::read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").ok()?;
        let mut tables: Vec<([u8; 4], &[u8])> = directory(&font)?
            .into_iter()
            .filter(|(tag, _)| outlines || tag != b"glyf")
            .map(|(tag, range)| Some((tag, font.get(range)?)))
            .collect::<Option<_>>()?;
        tables.push((*extra, &[0, 2, 0, 0]));
        tables.sort_by_key(|(tag, _)| *tag);
        Some(build(font.get(..4)?, &tables))
    }

    #[test]
    fn bitmap_strikes_beside_outlines_are_subset_colour_glyphs_never() {
        let Some(with_strikes) = dejavu_with(b"EBDT", true) else {
            eprintln!("skipped: DejaVuSans.ttf missing (fonts-dejavu-core)");
            return;
        };
        let glyphs = BTreeSet::from([36u16, 37, 38]);
        let cut = subset(Format::Sfnt, &with_strikes, &glyphs).expect("subset");
        assert!(cut.len() < with_strikes.len() / 2);
        let only_strikes = dejavu_with(b"EBDT", false).expect("font");
        assert_eq!(
            subset(Format::Sfnt, &only_strikes, &glyphs),
            Err(Kept::Pictures)
        );
        let colour = dejavu_with(b"sbix", true).expect("font");
        assert_eq!(subset(Format::Sfnt, &colour, &glyphs), Err(Kept::Pictures));
    }
}
