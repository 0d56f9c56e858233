//! Glyph widths in embedded programs set to those of the font dictionary (ISO 19005-2
//! 6.2.11.5): readers place glyphs by the dictionary's widths, so nothing on the page
//! moves. TrueType programs get a new hmtx table; Type 1 programs are written again as CFF
//! with the dictionary's widths. A glyph two codes select with different widths takes the
//! width of the code the document shows.

use std::collections::{BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};
use quire_compress::font_programs::Type1Font;

use super::repair::{descriptor_id, program};
use super::sfnt;

/// Widths closer than this (1/1000 em) agree.
const TOLERANCE: f64 = 0.5;

/// The width a glyph takes from the codes that select it: a shown code's, else the first.
fn choose<K: std::hash::Hash + Eq>(
    chosen: &mut HashMap<K, (bool, f64)>,
    key: K,
    shown: bool,
    width: f64,
) {
    match chosen.get(&key) {
        Some((true, _)) => {}
        Some((false, _)) if !shown => {}
        _ => {
            chosen.insert(key, (shown, width));
        }
    }
}

/// The dictionary's widths of a simple font, by code, in code order.
fn simple_widths(doc: &Document, font: &Dictionary) -> std::collections::BTreeMap<u8, f64> {
    let first = font.get(b"FirstChar").and_then(Object::as_i64).unwrap_or(0);
    let widths = font
        .get(b"Widths")
        .ok()
        .and_then(|w| doc.dereference(w).ok())
        .and_then(|(_, w)| w.as_array().ok())
        .cloned()
        .unwrap_or_default();
    widths
        .iter()
        .enumerate()
        .filter_map(|(i, w)| {
            let code = u8::try_from(first + i as i64).ok()?;
            Some((
                code,
                super::super::annots::number(doc.dereference(w).ok()?.1)?,
            ))
        })
        .collect()
}

/// A simple TrueType font's program widths set to its /Widths, glyph by glyph.
pub fn truetype_widths(doc: &mut Document, id: ObjectId, shown: Option<&BTreeSet<u8>>) -> bool {
    let Ok(font) = doc.get_dictionary(id).cloned() else {
        return false;
    };
    let Some(descriptor) = descriptor_id(doc, id) else {
        return false;
    };
    let Some((key, program_id, data)) = program(doc, descriptor) else {
        return false;
    };
    if key == b"FontFile" {
        return false;
    }
    let flags = doc
        .get_dictionary(descriptor)
        .ok()
        .and_then(|d| d.get(b"Flags").and_then(Object::as_i64).ok())
        .unwrap_or(0);
    let Ok(face) = ttf_parser::Face::parse(&data, 0) else {
        return false;
    };
    if face.tables().cff.is_some() {
        return false;
    }
    let symbolic = flags & 4 != 0;
    let (base, differences) = sfnt::encoding_names(doc, &font);
    let tables = sfnt::subtables(&face);
    let mut chosen: HashMap<u16, (bool, f64)> = HashMap::new();
    for (code, width) in simple_widths(doc, &font) {
        let gid = if symbolic {
            sfnt::simple_glyph(&face, code, true, None)
        } else {
            let name = differences
                .get(&code)
                .cloned()
                .or_else(|| base.map(|t| t[usize::from(code)].to_vec()))
                .filter(|n| !n.is_empty() && n != b".notdef");
            name.and_then(|n| sfnt::glyph_for_name(&face, &tables, &n))
        };
        if let Some(g) = gid.filter(|&g| g != 0) {
            choose(
                &mut chosen,
                g,
                shown.is_some_and(|s| s.contains(&code)),
                width,
            );
        }
    }
    let wanted: HashMap<u16, f64> = chosen.into_iter().map(|(g, (_, w))| (g, w)).collect();
    patch_sfnt(doc, program_id, &data, &wanted)
}

/// A CIDFontType2's program widths set to /W and /DW.
pub fn cid_widths(doc: &mut Document, cid_font: ObjectId) -> bool {
    let Ok(dict) = doc.get_dictionary(cid_font).cloned() else {
        return false;
    };
    if dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"CIDFontType2") {
        return false;
    }
    let Some(descriptor) = descriptor_id(doc, cid_font) else {
        return false;
    };
    let Some((key, program_id, data)) = program(doc, descriptor) else {
        return false;
    };
    if key == b"FontFile" {
        return false;
    }
    let Ok(face) = ttf_parser::Face::parse(&data, 0) else {
        return false;
    };
    if face.tables().cff.is_some() {
        return false;
    }
    let count = face.number_of_glyphs();
    let default = dict
        .get(b"DW")
        .ok()
        .and_then(super::super::annots::number)
        .unwrap_or(1000.0);
    let listed = sfnt::cid_widths(doc, &dict);
    let map = dict
        .get(b"CIDToGIDMap")
        .and_then(Object::as_reference)
        .ok()
        .and_then(|m| doc.get_object(m).ok())
        .and_then(|m| m.as_stream().ok())
        .and_then(|m| m.decompressed_content().ok());
    let mut wanted: HashMap<u16, f64> = HashMap::new();
    match map {
        None => {
            for gid in 1..count {
                let width = listed.get(&u32::from(gid)).copied().unwrap_or(default);
                wanted.insert(gid, width);
            }
        }
        Some(map) => {
            for (cid, pair) in map.chunks_exact(2).enumerate() {
                let gid = u16::from_be_bytes([pair[0], pair[1]]);
                if gid != 0 && gid < count {
                    let width = listed.get(&(cid as u32)).copied().unwrap_or(default);
                    wanted.entry(gid).or_insert(width);
                }
            }
        }
    }
    patch_sfnt(doc, program_id, &data, &wanted)
}

/// Writes the program again with `wanted` advances (1/1000 em) where they differ.
fn patch_sfnt(
    doc: &mut Document,
    program_id: ObjectId,
    data: &[u8],
    wanted: &HashMap<u16, f64>,
) -> bool {
    let Ok(face) = ttf_parser::Face::parse(data, 0) else {
        return false;
    };
    let scale = f64::from(face.units_per_em()) / 1000.0;
    let per_em = 1000.0 / f64::from(face.units_per_em().max(1));
    let differs = wanted.iter().any(|(&g, &w)| {
        face.glyph_hor_advance(ttf_parser::GlyphId(g))
            .is_none_or(|a| (f64::from(a) * per_em - w).abs() > TOLERANCE)
    });
    if !differs {
        return false;
    }
    let advances: HashMap<u16, u16> = wanted
        .iter()
        .map(|(&g, &w)| (g, (w * scale).round().clamp(0.0, 65535.0) as u16))
        .collect();
    let Some(patched) = sfnt::with_advances(data, &advances) else {
        return false;
    };
    if let Ok(Object::Stream(stream)) = doc.get_object_mut(program_id) {
        stream.dict.remove(b"Filter");
        stream.dict.remove(b"DecodeParms");
        if stream.dict.has(b"Length1") {
            stream.dict.set("Length1", patched.len() as i64);
        }
        stream.set_content(patched);
        return true;
    }
    false
}

/// A Type 1 font (FontFile) whose program widths differ from /Widths is written again as
/// CFF with the dictionary's widths.
pub fn type1_widths(doc: &mut Document, id: ObjectId, shown: Option<&BTreeSet<u8>>) -> bool {
    let Ok(font) = doc.get_dictionary(id).cloned() else {
        return false;
    };
    let Some(descriptor) = descriptor_id(doc, id) else {
        return false;
    };
    let Some((key, _, data)) = program(doc, descriptor) else {
        return false;
    };
    if key != b"FontFile" {
        return false;
    }
    let Ok(program) = Type1Font::parse(&data, 0, 0) else {
        return false;
    };
    let names: BTreeSet<Vec<u8>> = program.glyph_names().map(<[u8]>::to_vec).collect();
    let Ok(plain) = program.to_cff(&names) else {
        return false;
    };
    let Some(table) = ttf_parser::cff::Table::parse(&plain) else {
        return false;
    };
    let scale = f64::from(table.matrix().sx) * 1000.0;
    let (base, differences) = sfnt::encoding_names(doc, &font);
    let mut chosen: HashMap<Vec<u8>, (bool, f64)> = HashMap::new();
    let mut differs = false;
    for (code, width) in simple_widths(doc, &font) {
        let name = differences
            .get(&code)
            .cloned()
            .or_else(|| match base {
                Some(t) => Some(t[usize::from(code)].to_vec()),
                None => program.builtin_name(code).map(<[u8]>::to_vec),
            })
            .filter(|n| !n.is_empty() && n != b".notdef");
        let Some(name) = name else {
            continue;
        };
        let Some(gid) = table.glyph_index_by_name(&String::from_utf8_lossy(&name)) else {
            continue;
        };
        let own = table.glyph_width(gid).map(|w| f64::from(w) * scale);
        let used = shown.is_some_and(|s| s.contains(&code));
        if used && own.is_none_or(|o| (o - width).abs() > TOLERANCE) {
            differs = true;
        }
        choose(
            &mut chosen,
            name,
            used,
            width / scale.max(f64::MIN_POSITIVE),
        );
    }
    let wanted: HashMap<Vec<u8>, f64> = chosen.into_iter().map(|(n, (_, w))| (n, w)).collect();
    if !differs {
        return false;
    }
    let Ok(cff) = program.to_cff_with_widths(&names, &wanted) else {
        return false;
    };
    let file = doc.add_object(Stream::new(dictionary! { "Subtype" => "Type1C" }, cff));
    if let Ok(d) = doc.get_dictionary_mut(descriptor) {
        d.remove(b"FontFile");
        d.set("FontFile3", file);
    }
    true
}
