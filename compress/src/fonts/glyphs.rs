//! Character codes to glyph IDs, generously: every glyph any common renderer could pick for
//! a code is kept, since viewers differ in how they look up glyphs in simple fonts.

use std::collections::BTreeSet;

use lopdf::{Dictionary, Document, Object};
use ttf_parser::{Face, GlyphId, cff};

use super::encodings;
use super::program::Format;

/// The glyph names a simple font's code may stand for: its /Differences entry, the
/// /BaseEncoding, and the three standard encodings (any of which a viewer may fall back to).
/// The boolean says whether the name came from /Differences.
pub fn code_names(doc: &Document, font: &Dictionary, code: u8) -> Vec<(Vec<u8>, bool)> {
    let mut names = Vec::new();
    let encoding = font
        .get(b"Encoding")
        .ok()
        .and_then(|o| doc.dereference(o).ok())
        .map(|(_, o)| o);
    let mut base = None;
    match encoding {
        Some(Object::Name(name)) => base = encodings::named(name),
        Some(Object::Dictionary(dict)) => {
            base = dict
                .get(b"BaseEncoding")
                .and_then(Object::as_name)
                .ok()
                .and_then(encodings::named);
            if let Some(name) = difference(doc, dict, code) {
                names.push((name, true));
            }
        }
        _ => {}
    }
    let tables = [
        base,
        Some(&encodings::STANDARD),
        Some(&encodings::WIN_ANSI),
        Some(&encodings::MAC_ROMAN),
    ];
    for table in tables.into_iter().flatten() {
        let name = table[usize::from(code)];
        if !name.is_empty() && !names.iter().any(|(n, _)| n == name) {
            names.push((name.to_vec(), false));
        }
    }
    names
}

/// The /Differences name of a code, if it has one.
fn difference(doc: &Document, encoding: &Dictionary, code: u8) -> Option<Vec<u8>> {
    let (_, differences) = doc.dereference(encoding.get(b"Differences").ok()?).ok()?;
    let mut next: i64 = -1;
    let mut found = None;
    for item in differences.as_array().ok()? {
        match item {
            Object::Integer(n) => next = *n,
            Object::Name(name) => {
                if next == i64::from(code) {
                    found = Some(name.clone());
                }
                next += 1;
            }
            _ => {}
        }
    }
    found
}

/// Glyphs of a simple TrueType (or OpenType) font for the codes: the (3,0) cmap at the code
/// and at 0xF000-0xF200 + code, the (1,0) cmap at the code, Unicode cmaps at the Unicode of
/// each candidate name and at the code itself, the post table by name, and the code taken
/// as a glyph ID. `None` (keep whole) when a /Differences name is unknown everywhere.
pub fn simple_truetype(
    face: &Face,
    codes: &BTreeSet<u8>,
    names: impl Fn(u8) -> Vec<(Vec<u8>, bool)>,
) -> Option<BTreeSet<u16>> {
    let mut glyphs = BTreeSet::new();
    let subtables: Vec<_> = face
        .tables()
        .cmap
        .map(|cmap| cmap.subtables.into_iter().collect())
        .unwrap_or_default();
    for &code in codes {
        let code32 = u32::from(code);
        glyphs.insert(u16::from(code));
        let candidates = names(code);
        let mut unicodes = vec![code32];
        for (name, from_differences) in &candidates {
            let unicode = encodings::unicode_of(name);
            let by_post = std::str::from_utf8(name)
                .ok()
                .and_then(|n| face.glyph_index_by_name(n));
            if let Some(id) = by_post {
                glyphs.insert(id.0);
            }
            match unicode {
                Some(u) => unicodes.push(u),
                None if *from_differences && by_post.is_none() => return None,
                None => {}
            }
        }
        for table in &subtables {
            let lookups: Vec<u32> = match (table.platform_id, table.encoding_id) {
                (ttf_parser::PlatformId::Windows, 0) => {
                    vec![code32, 0xF000 + code32, 0xF100 + code32, 0xF200 + code32]
                }
                (ttf_parser::PlatformId::Macintosh, 0) => vec![code32],
                _ if table.is_unicode() => unicodes.clone(),
                _ => Vec::new(),
            };
            glyphs.extend(
                lookups
                    .into_iter()
                    .filter_map(|c| table.glyph_index(c))
                    .map(|g| g.0),
            );
        }
    }
    Some(glyphs)
}

/// Glyphs of a simple CFF font for the codes: the font's built-in encoding (ttf-parser
/// falls back to the standard encoding) and every candidate name through the charset.
pub fn simple_cff(
    table: &cff::Table,
    codes: &BTreeSet<u8>,
    names: impl Fn(u8) -> Vec<(Vec<u8>, bool)>,
) -> BTreeSet<u16> {
    let mut glyphs = BTreeSet::new();
    for &code in codes {
        glyphs.extend(table.glyph_index(code).map(|g| g.0));
        for (name, _) in names(code) {
            let id = std::str::from_utf8(&name)
                .ok()
                .and_then(|n| table.glyph_index_by_name(n));
            glyphs.extend(id.map(|g| g.0));
        }
    }
    glyphs
}

/// Glyphs named in the standard encoding: the only ones a `seac` accented glyph of a simple
/// CFF can be built from.
pub fn standard_glyphs(table: &cff::Table) -> BTreeSet<u16> {
    encodings::STANDARD
        .iter()
        .filter(|n| !n.is_empty())
        .filter_map(|n| std::str::from_utf8(n).ok())
        .filter_map(|n| table.glyph_index_by_name(n))
        .map(|g| g.0)
        .collect()
}

/// CIDs to glyph IDs in a CFF: through its charset when it is CID-keyed, else a CID is
/// the glyph ID.
pub fn cff_cids(table: &cff::Table, cids: &BTreeSet<u32>) -> BTreeSet<u16> {
    let count = table.number_of_glyphs();
    let cid_keyed = table.glyph_cid(GlyphId(0)).is_some();
    if !cid_keyed {
        return cids.iter().filter_map(|&c| u16::try_from(c).ok()).collect();
    }
    (0..count)
        .filter(|&g| {
            table
                .glyph_cid(GlyphId(g))
                .is_some_and(|cid| cids.contains(&u32::from(cid)))
        })
        .collect()
}

/// CIDs to glyph IDs through a CIDFontType2's /CIDToGIDMap (Identity when absent); `None`
/// when the map is neither a name nor a readable stream.
pub fn cid_to_gid(
    doc: &Document,
    cid_font: &Dictionary,
    cids: &BTreeSet<u32>,
) -> Option<BTreeSet<u16>> {
    let map = match cid_font.get(b"CIDToGIDMap") {
        Err(_) => None,
        Ok(object) => match doc.dereference(object).ok()?.1 {
            Object::Name(name) if name == b"Identity" => None,
            Object::Stream(stream) => Some(crate::plain::decode(stream, 1 << 20).ok()?),
            _ => return None,
        },
    };
    let Some(map) = map else {
        return Some(cids.iter().filter_map(|&c| u16::try_from(c).ok()).collect());
    };
    Some(
        cids.iter()
            .filter_map(|&cid| {
                let at = usize::try_from(cid).ok()?.checked_mul(2)?;
                let pair = map.get(at..at + 2)?;
                Some(u16::from_be_bytes([pair[0], pair[1]]))
            })
            .collect(),
    )
}

/// Glyphs of a Type 0 font's program for the strings shown; `None` to keep it whole.
pub fn composite_glyphs<'s>(
    doc: &Document,
    font: &Dictionary,
    cid_font: &Dictionary,
    format: Format,
    data: &[u8],
    strings: impl Iterator<Item = &'s [u8]>,
) -> Option<BTreeSet<u16>> {
    let code_map = match doc.dereference(font.get(b"Encoding").ok()?).ok()? {
        (_, Object::Name(name)) if name == b"Identity-H" || name == b"Identity-V" => {
            super::cmap::CodeMap::Identity
        }
        (_, Object::Stream(stream)) => {
            let program = crate::plain::decode(stream, 1 << 20).ok()?;
            super::cmap::CodeMap::Embedded(super::cmap::Cmap::parse(&program)?)
        }
        _ => return None,
    };
    let mut cids = code_map.cids(strings)?;
    cids.insert(0);
    let cff_type = cid_font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"CIDFontType0");
    // A program whose kind is not the one the CIDFont declares (a TrueType under a
    // CIDFontType0, a CFF under a CIDFontType2) may be read either way: both are kept.
    let by_map = || cid_to_gid(doc, cid_font, &cids);
    let mut gids = match format {
        Format::Cff if cff_type => cff_cids(&ttf_parser::cff::Table::parse(data)?, &cids),
        Format::Cff => {
            let mut gids = cff_cids(&ttf_parser::cff::Table::parse(data)?, &cids);
            gids.extend(by_map()?);
            gids
        }
        Format::Sfnt if cff_type => {
            let face = ttf_parser::Face::parse(data, 0).ok()?;
            match face.raw_face().table(ttf_parser::Tag::from_bytes(b"CFF ")) {
                Some(cff) => cff_cids(&ttf_parser::cff::Table::parse(cff)?, &cids),
                None => {
                    let mut gids = by_map()?;
                    gids.extend(cids.iter().filter_map(|&c| u16::try_from(c).ok()));
                    gids
                }
            }
        }
        Format::Sfnt => by_map()?,
        Format::Type1 => return None,
    };
    gids.insert(0);
    Some(gids)
}

/// Glyphs of a simple font's program for the codes shown; `None` to keep it whole.
pub fn simple_glyphs(
    doc: &Document,
    font: &Dictionary,
    format: Format,
    data: &[u8],
    codes: &BTreeSet<u8>,
) -> Option<BTreeSet<u16>> {
    let names = |code| code_names(doc, font, code);
    let mut gids = match format {
        Format::Cff => {
            let mut gids = simple_cff(&ttf_parser::cff::Table::parse(data)?, codes, names);
            // A CFF under a /TrueType font: a viewer reading it as declared may take the
            // code for the glyph ID.
            if font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"TrueType") {
                gids.extend(codes.iter().map(|&c| u16::from(c)));
            }
            gids
        }
        Format::Sfnt => {
            let face = ttf_parser::Face::parse(data, 0).ok()?;
            let mut gids = simple_truetype(&face, codes, names)?;
            if let Some(cff) = face.raw_face().table(ttf_parser::Tag::from_bytes(b"CFF ")) {
                gids.extend(simple_cff(
                    &ttf_parser::cff::Table::parse(cff)?,
                    codes,
                    names,
                ));
            }
            gids
        }
        Format::Type1 => return None,
    };
    gids.insert(0);
    Some(gids)
}
