//! TrueType programs as PDF/A reads them: the glyph a simple font's code selects (ISO
//! 19005-2 6.2.11.6: the (3,0) cmap at the code and its 0xF000 offsets for a symbolic font,
//! the (3,1) cmap at the Unicode value of the code's glyph name, else (1,0) at its Mac Roman
//! code), a CIDFont's /W, and the program written again with other advance widths.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object};
use quire_compress::font_programs::{MAC_ROMAN, named, unicode_of};
use ttf_parser::{Face, PlatformId};

/// A standard encoding: the glyph name of each code.
pub type Table = [&'static [u8]; 256];

/// The cmap subtables of a face, as (platform, encoding).
pub fn subtables(face: &Face<'_>) -> Vec<(u16, u16)> {
    face.tables()
        .cmap
        .map(|c| {
            c.subtables
                .into_iter()
                .map(|s| (platform(s.platform_id), s.encoding_id))
                .collect()
        })
        .unwrap_or_default()
}

pub fn platform(id: PlatformId) -> u16 {
    match id {
        PlatformId::Unicode => 0,
        PlatformId::Macintosh => 1,
        PlatformId::Iso => 2,
        PlatformId::Windows => 3,
        PlatformId::Custom => 4,
    }
}

/// The glyph a cmap subtable maps `code` to.
pub fn lookup(face: &Face<'_>, platform_id: u16, encoding: u16, code: u32) -> Option<u16> {
    let cmap = face.tables().cmap?;
    cmap.subtables
        .into_iter()
        .find(|s| platform(s.platform_id) == platform_id && s.encoding_id == encoding)
        .and_then(|s| s.glyph_index(code))
        .map(|g| g.0)
}

/// The glyphs a symbolic font's (3,0) cmap gives `code` at the offsets readers try.
pub fn symbolic_glyphs(face: &Face<'_>, code: u8) -> Vec<u16> {
    let mut gids: Vec<u16> = [0u32, 0xF000, 0xF100, 0xF200]
        .into_iter()
        .filter_map(|o| lookup(face, 3, 0, o + u32::from(code)))
        .filter(|&g| g != 0)
        .collect();
    gids.sort_unstable();
    gids.dedup();
    gids
}

/// The glyph a simple TrueType font's `code` selects, as the validators find it.
pub fn simple_glyph(
    face: &Face<'_>,
    code: u8,
    symbolic: bool,
    encoding: Option<&'static Table>,
) -> Option<u16> {
    let tables = subtables(face);
    if symbolic {
        if tables.contains(&(3, 0)) {
            let gids = symbolic_glyphs(face, code);
            return (gids.len() == 1).then(|| gids[0]);
        }
        return lookup(face, 1, 0, u32::from(code));
    }
    let name = encoding?[usize::from(code)];
    if name.is_empty() {
        return None;
    }
    glyph_for_name(face, &tables, name)
}

/// The glyph of a non-symbolic TrueType font for a glyph name.
pub fn glyph_for_name(face: &Face<'_>, tables: &[(u16, u16)], name: &[u8]) -> Option<u16> {
    if tables.contains(&(3, 1)) {
        return unicode_of(name).and_then(|u| lookup(face, 3, 1, u));
    }
    let code = MAC_ROMAN.iter().position(|n| *n == name)?;
    lookup(face, 1, 0, code as u32)
}

/// A simple font's base encoding table and /Differences.
pub fn encoding_names(
    doc: &Document,
    font: &Dictionary,
) -> (Option<&'static Table>, HashMap<u8, Vec<u8>>) {
    let mut differences = HashMap::new();
    let value = font
        .get(b"Encoding")
        .ok()
        .and_then(|e| doc.dereference(e).ok())
        .map(|(_, e)| e);
    match value {
        Some(Object::Name(name)) => (named(name), differences),
        Some(Object::Dictionary(enc)) => {
            let base = enc
                .get(b"BaseEncoding")
                .and_then(Object::as_name)
                .ok()
                .and_then(named);
            if let Some(items) = enc
                .get(b"Differences")
                .ok()
                .and_then(|d| doc.dereference(d).ok())
                .and_then(|(_, d)| d.as_array().ok())
            {
                let mut code: i64 = -1;
                for item in items {
                    match item {
                        Object::Integer(n) => code = *n,
                        Object::Name(name) => {
                            if let Ok(c) = u8::try_from(code) {
                                differences.insert(c, name.clone());
                            }
                            code += 1;
                        }
                        _ => {}
                    }
                }
            }
            (base, differences)
        }
        _ => (None, differences),
    }
}

/// A CIDFont's /W widths by CID (the first width given for a CID wins).
pub fn cid_widths(doc: &Document, cid_font: &Dictionary) -> HashMap<u32, f64> {
    let number = |v: &Object| super::super::annots::number(doc.dereference(v).ok()?.1);
    let mut out = HashMap::new();
    let Some(items) = cid_font
        .get(b"W")
        .ok()
        .and_then(|w| doc.dereference(w).ok())
        .and_then(|(_, w)| w.as_array().ok())
    else {
        return out;
    };
    let mut i = 0;
    while i + 1 < items.len() {
        let Some(first) = number(&items[i]).map(|v| v as u32) else {
            break;
        };
        match doc.dereference(&items[i + 1]).map(|(_, o)| o) {
            Ok(Object::Array(ws)) => {
                for (k, w) in ws.iter().enumerate() {
                    if let Some(w) = number(w) {
                        out.entry(first + k as u32).or_insert(w);
                    }
                }
                i += 2;
            }
            _ => {
                let (Some(last), Some(w)) =
                    (number(&items[i + 1]), items.get(i + 2).and_then(number))
                else {
                    break;
                };
                let last = (last as u32).min(first.saturating_add(65536));
                for cid in first..=last {
                    out.entry(cid).or_insert(w);
                }
                i += 3;
            }
        }
    }
    out
}

/// The table directory of an sfnt: (tag, range).
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

fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, chunk| {
        let mut word = [0; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

/// An sfnt written from its tables (sorted by tag, checksums and head's adjustment
/// computed).
fn assemble(version: &[u8], mut tables: Vec<([u8; 4], Vec<u8>)>) -> Option<Vec<u8>> {
    if let Some((_, head)) = tables.iter_mut().find(|(tag, _)| tag == b"head") {
        head.get_mut(8..12)?.copy_from_slice(&[0; 4]);
    }
    tables.sort_by_key(|(tag, _)| *tag);
    let count = tables.len() as u16;
    let selector = 15 - count.max(1).leading_zeros() as u16;
    let range = (1u16 << selector) * 16;
    let mut out = version.to_vec();
    for value in [count, range, selector, (count * 16).saturating_sub(range)] {
        out.extend_from_slice(&value.to_be_bytes());
    }
    let mut offset = 12 + 16 * tables.len();
    for (tag, data) in &tables {
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(data).to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        offset += data.len().next_multiple_of(4);
    }
    let mut head_at = None;
    for (tag, data) in &tables {
        if tag == b"head" {
            head_at = Some(out.len());
        }
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    if let Some(at) = head_at {
        let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out.get_mut(at + 8..at + 12)?
            .copy_from_slice(&adjustment.to_be_bytes());
    }
    Some(out)
}

/// The program with a `cmap` of the one subtable (`platform`, `encoding`) of its own: PDF/A-1
/// wants a symbolic TrueType font to have exactly one (ISO 19005-1 6.3.7).
pub fn with_one_cmap(sfnt: &[u8], platform_id: u16, encoding: u16) -> Option<Vec<u8>> {
    let version = sfnt.get(..4)?;
    let mut tables: Vec<([u8; 4], Vec<u8>)> = directory(sfnt)?
        .into_iter()
        .map(|(tag, range)| Some((tag, sfnt.get(range)?.to_vec())))
        .collect::<Option<_>>()?;
    let (_, cmap) = tables.iter_mut().find(|(tag, _)| tag == b"cmap")?;
    let count = usize::from(u16::from_be_bytes(cmap.get(2..4)?.try_into().ok()?));
    let mut found = None;
    for i in 0..count {
        let record = cmap.get(4 + 8 * i..12 + 8 * i)?;
        let p = u16::from_be_bytes(record[0..2].try_into().ok()?);
        let e = u16::from_be_bytes(record[2..4].try_into().ok()?);
        if (p, e) == (platform_id, encoding) {
            found = Some(u32::from_be_bytes(record[4..8].try_into().ok()?) as usize);
        }
    }
    let offset = found?;
    let format = u16::from_be_bytes(cmap.get(offset..offset + 2)?.try_into().ok()?);
    let length = match format {
        0 | 2 | 4 | 6 => usize::from(u16::from_be_bytes(
            cmap.get(offset + 2..offset + 4)?.try_into().ok()?,
        )),
        _ => u32::from_be_bytes(cmap.get(offset + 4..offset + 8)?.try_into().ok()?) as usize,
    };
    let subtable = cmap.get(offset..offset.checked_add(length)?)?.to_vec();
    let mut new = vec![0, 0, 0, 1];
    new.extend_from_slice(&platform_id.to_be_bytes());
    new.extend_from_slice(&encoding.to_be_bytes());
    new.extend_from_slice(&12u32.to_be_bytes());
    new.extend_from_slice(&subtable);
    *cmap = new;
    let out = assemble(version, tables)?;
    let face = Face::parse(&out, 0).ok()?;
    (subtables(&face) == [(platform_id, encoding)]).then_some(out)
}

/// The program with the advance widths of `advances` (font units) and every glyph's own
/// metric (hhea's numberOfHMetrics raised to the glyph count).
pub fn with_advances(sfnt: &[u8], advances: &HashMap<u16, u16>) -> Option<Vec<u8>> {
    let version = sfnt.get(..4)?;
    let mut tables: Vec<([u8; 4], Vec<u8>)> = directory(sfnt)?
        .into_iter()
        .map(|(tag, range)| Some((tag, sfnt.get(range)?.to_vec())))
        .collect::<Option<_>>()?;
    let find =
        |tables: &[([u8; 4], Vec<u8>)], tag: &[u8; 4]| tables.iter().position(|(t, _)| t == tag);
    let maxp = find(&tables, b"maxp")?;
    let hhea = find(&tables, b"hhea")?;
    let hmtx = find(&tables, b"hmtx")?;
    let glyphs = usize::from(u16::from_be_bytes(
        tables[maxp].1.get(4..6)?.try_into().ok()?,
    ));
    let long = usize::from(u16::from_be_bytes(
        tables[hhea].1.get(34..36)?.try_into().ok()?,
    ));
    let old = &tables[hmtx].1;
    let mut metrics = Vec::with_capacity(glyphs * 4);
    let mut last_advance = 0u16;
    let mut max_advance = 0u16;
    for g in 0..glyphs {
        let (advance, lsb) = if g < long {
            let at = 4 * g;
            let advance = u16::from_be_bytes(old.get(at..at + 2)?.try_into().ok()?);
            last_advance = advance;
            (advance, old.get(at + 2..at + 4)?.to_vec())
        } else {
            let at = 4 * long + 2 * (g - long);
            (
                last_advance,
                old.get(at..at + 2).map_or(vec![0, 0], <[u8]>::to_vec),
            )
        };
        let advance = advances.get(&(g as u16)).copied().unwrap_or(advance);
        max_advance = max_advance.max(advance);
        metrics.extend_from_slice(&advance.to_be_bytes());
        metrics.extend_from_slice(&lsb);
    }
    tables[hmtx].1 = metrics;
    let hhea_table = &mut tables[hhea].1;
    hhea_table
        .get_mut(34..36)?
        .copy_from_slice(&(glyphs as u16).to_be_bytes());
    hhea_table
        .get_mut(10..12)?
        .copy_from_slice(&max_advance.to_be_bytes());
    let out = assemble(version, tables)?;
    let check = Face::parse(&out, 0).ok()?;
    let ok = advances.iter().all(|(&g, &a)| {
        usize::from(g) >= glyphs || check.glyph_hor_advance(ttf_parser::GlyphId(g)) == Some(a)
    });
    ok.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advances_are_rewritten_and_read_back() {
        let Ok(font) = std::fs::read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") else {
            eprintln!("skipped: DejaVuSans.ttf missing (fonts-dejavu-core)");
            return;
        };
        let face = Face::parse(&font, 0).expect("font");
        let a = face.glyph_index('A').expect("A").0;
        let patched = with_advances(&font, &HashMap::from([(a, 1234)])).expect("patched");
        let new = Face::parse(&patched, 0).expect("parses");
        assert_eq!(new.glyph_hor_advance(ttf_parser::GlyphId(a)), Some(1234));
        let b = face.glyph_index('B').expect("B");
        assert_eq!(new.glyph_hor_advance(b), face.glyph_hor_advance(b));
    }
}
