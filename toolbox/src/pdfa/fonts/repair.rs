//! Embedded fonts made to say what PDF/A wants them to say, changing nothing they draw: a
//! /BaseFont where one is missing, the /CIDToGIDMap a CIDFontType2 defaults to written in,
//! a complete /CIDSystemInfo for Identity-encoded fonts, /CIDSet and /CharSet computed from
//! the program for PDF/A-1 subsets (and dropped in later parts, where they are optional),
//! and glyph widths in the program set to those of the dictionary (`widths`, ISO 19005-2
//! 6.2.11.5): readers place glyphs by the dictionary's widths, so the page does not move.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};
use quire_compress::font_programs::Type1Font;

use super::super::Level;
use super::super::changes::Changes;

/// Repairs every embedded font.
pub fn apply(doc: &mut Document, level: Level, changes: &mut Changes) {
    indirect_parts(doc);
    // Which codes each font shows decides which width a glyph takes when two codes that
    // select it have different widths.
    let usage = super::usage::read(doc);
    let fonts: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| o.as_dict().is_ok_and(|d| d.has_type(b"Font")))
        .map(|(id, _)| *id)
        .collect();
    let mut widths = 0u32;
    for id in fonts {
        base_font(doc, id);
        let subtype = doc
            .get_dictionary(id)
            .ok()
            .and_then(|d| d.get(b"Subtype").and_then(Object::as_name).ok())
            .map(<[u8]>::to_vec)
            .unwrap_or_default();
        match subtype.as_slice() {
            b"Type0" => {
                if let Some(cid_font) = descendant(doc, id) {
                    cid_font_keys(doc, id, cid_font);
                    widths += u32::from(super::widths::cid_widths(doc, cid_font));
                    cid_set(doc, id, cid_font, level);
                }
            }
            b"TrueType" => {
                if level.part1() {
                    one_symbolic_cmap(doc, id);
                }
                widths += u32::from(super::widths::truetype_widths(
                    doc,
                    id,
                    usage.codes.get(&id),
                ))
            }
            b"Type1" | b"MMType1" => {
                widths += u32::from(super::widths::type1_widths(doc, id, usage.codes.get(&id)));
                char_set(doc, id, level);
            }
            _ => {}
        }
    }
    if widths > 0 {
        changes.count(
            "set the glyph widths of",
            widths,
            "embedded font to those the page is laid out with",
            "embedded fonts to those the page is laid out with",
        );
    }
}

/// Descendant fonts and font descriptors written inline become objects of their own, which
/// the repairs below address.
fn indirect_parts(doc: &mut Document) {
    let fonts: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| {
            o.as_dict()
                .is_ok_and(|d| d.has_type(b"Font") || d.has(b"FontDescriptor"))
        })
        .map(|(id, _)| *id)
        .collect();
    for id in fonts {
        let inline_descriptor = doc
            .get_dictionary(id)
            .ok()
            .and_then(|d| d.get(b"FontDescriptor").ok())
            .and_then(|d| d.as_dict().ok())
            .cloned();
        if let Some(descriptor) = inline_descriptor {
            let new = doc.add_object(descriptor);
            if let Ok(d) = doc.get_dictionary_mut(id) {
                d.set("FontDescriptor", new);
            }
        }
        let inline_descendant = doc
            .get_dictionary(id)
            .ok()
            .and_then(|d| d.get(b"DescendantFonts").ok())
            .and_then(|d| d.as_array().ok())
            .and_then(|d| d.first())
            .and_then(|d| d.as_dict().ok())
            .cloned();
        if let Some(mut descendant) = inline_descendant {
            if let Ok(Object::Dictionary(descriptor)) = descendant.get(b"FontDescriptor").cloned() {
                let new = doc.add_object(descriptor);
                descendant.set("FontDescriptor", new);
            }
            let new = doc.add_object(descendant);
            if let Ok(d) = doc.get_dictionary_mut(id) {
                d.set("DescendantFonts", vec![Object::Reference(new)]);
            }
        }
    }
}

fn descendant(doc: &Document, font: ObjectId) -> Option<ObjectId> {
    let font = doc.get_dictionary(font).ok()?;
    let list = doc
        .dereference(font.get(b"DescendantFonts").ok()?)
        .ok()?
        .1
        .as_array()
        .ok()?;
    list.first()?.as_reference().ok()
}

pub fn descriptor_id(doc: &Document, font: ObjectId) -> Option<ObjectId> {
    doc.get_dictionary(font)
        .ok()?
        .get(b"FontDescriptor")
        .ok()?
        .as_reference()
        .ok()
}

/// A font without /BaseFont takes its descriptor's /FontName.
fn base_font(doc: &mut Document, id: ObjectId) {
    let Ok(font) = doc.get_dictionary(id) else {
        return;
    };
    if font.has(b"BaseFont")
        || font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type3")
    {
        return;
    }
    let described = if font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type0") {
        descendant(doc, id).unwrap_or(id)
    } else {
        id
    };
    let name = descriptor_id(doc, described)
        .and_then(|d| doc.get_dictionary(d).ok())
        .and_then(|d| d.get(b"FontName").and_then(Object::as_name).ok())
        .map_or_else(|| format!("Font{}", id.0).into_bytes(), <[u8]>::to_vec);
    if let Ok(font) = doc.get_dictionary_mut(id) {
        font.set("BaseFont", Object::Name(name));
    }
}

/// /CIDToGIDMap written in (Identity is its default), /CIDSystemInfo completed for fonts
/// whose codes are CIDs themselves.
fn cid_font_keys(doc: &mut Document, font: ObjectId, cid_font: ObjectId) {
    let identity = doc
        .get_dictionary(font)
        .ok()
        .and_then(|f| f.get(b"Encoding").and_then(Object::as_name).ok())
        .is_some_and(|e| e == b"Identity-H" || e == b"Identity-V");
    let base = doc
        .get_dictionary(font)
        .ok()
        .and_then(|f| f.get(b"BaseFont").and_then(Object::as_name).ok())
        .map(<[u8]>::to_vec);
    let Ok(dict) = doc.get_dictionary_mut(cid_font) else {
        return;
    };
    if dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"CIDFontType2")
        && !dict.has(b"CIDToGIDMap")
    {
        dict.set("CIDToGIDMap", Object::Name(b"Identity".to_vec()));
    }
    if !dict.has(b"BaseFont")
        && let Some(base) = base
    {
        dict.set("BaseFont", Object::Name(base));
    }
    let complete = matches!(dict.get(b"CIDSystemInfo"), Ok(Object::Dictionary(info))
        if matches!(info.get(b"Registry"), Ok(Object::String(..)))
            && matches!(info.get(b"Ordering"), Ok(Object::String(..)))
            && matches!(info.get(b"Supplement"), Ok(Object::Integer(_))));
    let referenced = matches!(dict.get(b"CIDSystemInfo"), Ok(Object::Reference(_)));
    if identity && !complete && !referenced {
        dict.set(
            "CIDSystemInfo",
            dictionary! {
                "Registry" => Object::string_literal("Adobe"),
                "Ordering" => Object::string_literal("Identity"),
                "Supplement" => 0,
            },
        );
    }
}

pub fn program(doc: &Document, descriptor: ObjectId) -> Option<(Vec<u8>, ObjectId, Vec<u8>)> {
    let d = doc.get_dictionary(descriptor).ok()?;
    for key in [b"FontFile2".as_slice(), b"FontFile3", b"FontFile"] {
        if let Ok(Object::Reference(id)) = d.get(key) {
            let stream = doc.get_object(*id).ok()?.as_stream().ok()?;
            return Some((key.to_vec(), *id, stream.decompressed_content().ok()?));
        }
    }
    None
}

fn is_subset(doc: &Document, font: ObjectId) -> bool {
    doc.get_dictionary(font)
        .ok()
        .and_then(|f| f.get(b"BaseFont").and_then(Object::as_name).ok())
        .is_some_and(|n| n.len() > 7 && n[6] == b'+' && n[..6].iter().all(u8::is_ascii_uppercase))
}

/// PDF/A-1 subsets list their CIDs in /CIDSet; later parts do without.
fn cid_set(doc: &mut Document, font: ObjectId, cid_font: ObjectId, level: Level) {
    let Some(descriptor) = descriptor_id(doc, cid_font) else {
        return;
    };
    if !level.part1() {
        if let Ok(d) = doc.get_dictionary_mut(descriptor) {
            d.remove(b"CIDSet");
        }
        return;
    }
    if !is_subset(doc, font) {
        return;
    }
    let Some((key, _, data)) = program(doc, descriptor) else {
        return;
    };
    let cids: Vec<u32> = if key == b"FontFile2" {
        let count = ttf_parser::Face::parse(&data, 0).map_or(0, |f| f.number_of_glyphs());
        let map = doc
            .get_dictionary(cid_font)
            .ok()
            .and_then(|c| c.get(b"CIDToGIDMap").and_then(Object::as_reference).ok())
            .and_then(|m| doc.get_object(m).ok())
            .and_then(|m| m.as_stream().ok())
            .and_then(|m| m.decompressed_content().ok());
        match map {
            None => (0..u32::from(count)).collect(),
            Some(map) => map
                .chunks_exact(2)
                .enumerate()
                .filter(|(cid, g)| {
                    *cid == 0
                        || (u16::from_be_bytes([g[0], g[1]]) != 0
                            && u16::from_be_bytes([g[0], g[1]]) < count)
                })
                .map(|(cid, _)| cid as u32)
                .collect(),
        }
    } else {
        let table = ttf_parser::cff::Table::parse(&data).or_else(|| {
            ttf_parser::Face::parse(&data, 0)
                .ok()
                .and_then(|f| f.tables().cff)
        });
        match table {
            Some(t) => (0..t.number_of_glyphs())
                .map(|g| {
                    t.glyph_cid(ttf_parser::GlyphId(g))
                        .map_or(u32::from(g), u32::from)
                })
                .collect(),
            None => return,
        }
    };
    let max = cids.iter().copied().max().unwrap_or(0) as usize;
    let mut bits = vec![0u8; max / 8 + 1];
    for cid in cids {
        bits[cid as usize / 8] |= 0x80 >> (cid % 8);
    }
    let set = doc.add_object(Stream::new(Dictionary::new(), bits));
    if let Ok(d) = doc.get_dictionary_mut(descriptor) {
        d.set("CIDSet", set);
    }
}

/// PDF/A-1 Type 1 subsets list their glyph names in /CharSet; later parts do without.
fn char_set(doc: &mut Document, font: ObjectId, level: Level) {
    let Some(descriptor) = descriptor_id(doc, font) else {
        return;
    };
    if !level.part1() || !is_subset(doc, font) {
        if !level.part1()
            && let Ok(d) = doc.get_dictionary_mut(descriptor)
        {
            d.remove(b"CharSet");
        }
        return;
    }
    let Some((key, _, data)) = program(doc, descriptor) else {
        return;
    };
    let names: Vec<Vec<u8>> = match key.as_slice() {
        b"FontFile" => match Type1Font::parse(&data, 0, 0) {
            Ok(t) => t.glyph_names().map(<[u8]>::to_vec).collect(),
            Err(_) => return,
        },
        _ => match ttf_parser::cff::Table::parse(&data) {
            Some(t) => (0..t.number_of_glyphs())
                .filter_map(|g| t.glyph_name(ttf_parser::GlyphId(g)))
                .map(|n| n.as_bytes().to_vec())
                .collect(),
            None => return,
        },
    };
    let mut charset = Vec::new();
    for name in names.iter().filter(|n| n.as_slice() != b".notdef") {
        charset.push(b'/');
        charset.extend_from_slice(name);
    }
    if let Ok(d) = doc.get_dictionary_mut(descriptor) {
        d.set("CharSet", Object::String(charset, StringFormat::Literal));
    }
}

/// A symbolic TrueType font keeps one cmap subtable in PDF/A-1: the (3,0) one its codes are
/// looked up in, else the (1,0) one.
fn one_symbolic_cmap(doc: &mut Document, font: ObjectId) {
    let Some(descriptor) = descriptor_id(doc, font) else {
        return;
    };
    let symbolic = doc
        .get_dictionary(descriptor)
        .ok()
        .and_then(|d| d.get(b"Flags").and_then(Object::as_i64).ok())
        .is_some_and(|f| f & 4 != 0);
    let Some((key, program_id, data)) = program(doc, descriptor) else {
        return;
    };
    if !symbolic || key != b"FontFile2" {
        return;
    }
    let Ok(face) = ttf_parser::Face::parse(&data, 0) else {
        return;
    };
    let tables = super::sfnt::subtables(&face);
    if tables.len() <= 1 {
        return;
    }
    let keep = if tables.contains(&(3, 0)) {
        (3, 0)
    } else {
        (1, 0)
    };
    let Some(out) = super::sfnt::with_one_cmap(&data, keep.0, keep.1) else {
        return;
    };
    if let Ok(Object::Stream(stream)) = doc.get_object_mut(program_id) {
        stream.dict.remove(b"Filter");
        stream.dict.remove(b"DecodeParms");
        if stream.dict.has(b"Length1") {
            stream.dict.set("Length1", out.len() as i64);
        }
        stream.set_content(out);
    }
}
