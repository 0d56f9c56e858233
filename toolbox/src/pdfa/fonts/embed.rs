//! One simple font embedded from its URW substitute: the Type 1 program cut to the glyphs
//! the document shows and written as CFF (FontFile3 /Type1C) by the compressor's converter,
//! the glyph widths set to those the document was laid out with so that /Widths and the
//! program agree (ISO 19005-2 6.2.11.5) and no text moves, a /CharSet listing the glyphs
//! (ISO 19005-1 6.3.5) and a descriptor from the font's AFM.
//!
//! Codes select glyphs by name through the font's encoding, as before; a name the URW font
//! does not have is replaced in /Differences by the URW glyph of the same Unicode value.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};
use quire_compress::font_programs::{Type1Font, named, unicode_of};
use sha2::{Digest, Sha256};

use super::substitute::{FIXED_PITCH, ITALIC, NONSYMBOLIC, SERIF, SYMBOLIC, Urw};

/// Widths closer than this (in 1/1000 em) are the same (the validators allow 1).
const SAME_WIDTH: f64 = 0.5;

/// The encoding a simple font's codes go through.
struct Encoding {
    /// `None`: the font program's own.
    base: Option<&'static [&'static [u8]; 256]>,
    base_name: Option<Vec<u8>>,
    differences: BTreeMap<u8, Vec<u8>>,
    /// The font has an /Encoding entry (a name or a dictionary).
    declared: bool,
}

fn encoding(doc: &Document, font: &Dictionary) -> Result<Encoding, String> {
    let value = font
        .get(b"Encoding")
        .ok()
        .and_then(|v| doc.dereference(v).ok())
        .map(|(_, v)| v);
    let table = |name: &[u8]| {
        named(name).ok_or_else(|| {
            format!(
                "its encoding {} is not one PDF/A allows",
                String::from_utf8_lossy(name)
            )
        })
    };
    match value {
        None => Ok(Encoding {
            base: None,
            base_name: None,
            differences: BTreeMap::new(),
            declared: false,
        }),
        Some(Object::Name(name)) => Ok(Encoding {
            base: Some(table(name)?),
            base_name: Some(name.clone()),
            differences: BTreeMap::new(),
            declared: true,
        }),
        Some(Object::Dictionary(dict)) => {
            let base_name = dict.get(b"BaseEncoding").and_then(Object::as_name).ok();
            let base = base_name.map(table).transpose()?;
            let mut differences = BTreeMap::new();
            if let Some(items) = dict
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
            Ok(Encoding {
                base,
                base_name: base_name.map(<[u8]>::to_vec),
                differences,
                declared: true,
            })
        }
        Some(_) => Err("its encoding cannot be read".into()),
    }
}

/// Embeds `urw` for the simple font `font_id`, which shows `codes`.
pub fn embed(
    doc: &mut Document,
    font_id: ObjectId,
    codes: &BTreeSet<u8>,
    urw: &Urw,
    part1: bool,
) -> Result<(), String> {
    let font = doc
        .get_dictionary(font_id)
        .map_err(|_| "it is not a dictionary".to_string())?
        .clone();
    let program = Type1Font::parse(&urw.program, 0, 0)
        .map_err(|e| format!("the substitute {} cannot be read: {e}", urw.name))?;
    let mut encoding = encoding(doc, &font)?;
    let glyphs: BTreeSet<Vec<u8>> = program.glyph_names().map(<[u8]>::to_vec).collect();
    let mut by_unicode: HashMap<u32, Vec<u8>> = HashMap::new();
    for name in &glyphs {
        if let Some(u) = unicode_of(name) {
            by_unicode.entry(u).or_insert_with(|| name.clone());
        }
    }
    let symbolic_substitute = matches!(urw.name, "StandardSymbolsPS" | "D050000L");
    let name_of = |encoding: &Encoding, code: u8| -> Option<Vec<u8>> {
        if let Some(name) = encoding.differences.get(&code) {
            return Some(name.clone());
        }
        match encoding.base {
            Some(table) => Some(table[usize::from(code)].to_vec()),
            None => program.builtin_name(code).map(<[u8]>::to_vec),
        }
        .filter(|n| !n.is_empty() && n != b".notdef")
    };
    let mut renamed = false;
    let mut missing = Vec::new();
    let mut code_names: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
    for &code in codes {
        let Some(name) = name_of(&encoding, code) else {
            missing.push(format!("code {code}"));
            continue;
        };
        if glyphs.contains(&name) {
            code_names.insert(code, name);
            continue;
        }
        let same = unicode_of(&name)
            .and_then(|u| by_unicode.get(&u))
            .filter(|_| !symbolic_substitute);
        match same {
            Some(other) => {
                encoding.differences.insert(code, other.clone());
                code_names.insert(code, other.clone());
                renamed = true;
            }
            None => missing.push(String::from_utf8_lossy(&name).into_owned()),
        }
    }
    if !missing.is_empty() {
        missing.truncate(8);
        return Err(format!(
            "its free substitute {} has no glyph for {}",
            urw.name,
            missing.join(", ")
        ));
    }
    // The widths the document was laid out with, where it gives them.
    let first = font.get(b"FirstChar").and_then(Object::as_i64).ok();
    let doc_widths: Vec<f64> = font
        .get(b"Widths")
        .ok()
        .and_then(|w| doc.dereference(w).ok())
        .and_then(|(_, w)| w.as_array().ok())
        .map(|w| {
            w.iter()
                .map(|v| {
                    doc.dereference(v)
                        .ok()
                        .and_then(|(_, v)| super::super::annots::number(v))
                        .unwrap_or(0.0)
                })
                .collect()
        })
        .unwrap_or_default();
    let doc_width = |code: u8| -> Option<f64> {
        let index = i64::from(code) - first?;
        usize::try_from(index)
            .ok()
            .and_then(|i| doc_widths.get(i).copied())
    };
    let mut overrides: HashMap<Vec<u8>, f64> = HashMap::new();
    let mut widths: BTreeMap<u8, f64> = BTreeMap::new();
    for (&code, name) in &code_names {
        let own = urw
            .metrics
            .widths
            .get(&*String::from_utf8_lossy(name))
            .copied();
        let width = match (doc_width(code), overrides.get(name)) {
            (_, Some(&set)) => set,
            (Some(w), None) if own.is_none_or(|own| (own - w).abs() > SAME_WIDTH) => {
                overrides.insert(name.clone(), w);
                w
            }
            (_, None) => own.unwrap_or(0.0),
        };
        widths.insert(code, width);
    }
    let mut keep: BTreeSet<Vec<u8>> = code_names.values().cloned().collect();
    keep.insert(b".notdef".to_vec());
    if keep.len() == 1 && glyphs.contains(b"space".as_slice()) {
        keep.insert(b"space".to_vec());
    }
    let cff = program
        .to_cff_with_widths(&keep, &overrides)
        .map_err(|e| format!("its substitute {} could not be converted: {e}", urw.name))?;
    let table = ttf_parser::cff::Table::parse(&cff)
        .ok_or_else(|| format!("the subset of {} does not read back", urw.name))?;
    // The program decides: /Widths says what it says.
    for (code, name) in &code_names {
        let gid = table.glyph_index_by_name(&String::from_utf8_lossy(name));
        if let Some(w) = gid.and_then(|g| table.glyph_width(g)) {
            widths.insert(*code, f64::from(w));
        }
    }
    let mut charset = Vec::new();
    let mut kept_names = Vec::new();
    for g in 0..table.number_of_glyphs() {
        if let Some(name) = table.glyph_name(ttf_parser::GlyphId(g))
            && name != ".notdef"
        {
            charset.push(b'/');
            charset.extend_from_slice(name.as_bytes());
            kept_names.push(name.to_string());
        }
    }
    let tag = subset_tag(urw.name, &kept_names, font_id);
    let base_font = format!("{tag}+{}", urw.name);
    let (first_char, last_char) = match (codes.first(), codes.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => (32, 32),
    };
    let width_array: Vec<Object> = (first_char..=last_char)
        .map(|code| {
            let w = widths
                .get(&code)
                .copied()
                .or_else(|| doc_width(code))
                .unwrap_or(0.0);
            if w.fract() == 0.0 {
                Object::Integer(w as i64)
            } else {
                Object::Real(w as f32)
            }
        })
        .collect();
    let afm = &urw.metrics;
    let mut flags = if symbolic_substitute {
        SYMBOLIC
    } else {
        NONSYMBOLIC
    };
    if afm.fixed_pitch {
        flags |= FIXED_PITCH;
    }
    if urw.name.starts_with("NimbusRoman") {
        flags |= SERIF;
    }
    if afm.italic_angle != 0.0 {
        flags |= ITALIC;
    }
    let bbox: Vec<Object> = afm
        .bbox
        .iter()
        .map(|&v| Object::Integer(v as i64))
        .collect();
    let ascent = if afm.ascender > 0.0 {
        afm.ascender
    } else {
        afm.bbox[3]
    };
    let descent = if afm.descender < 0.0 {
        afm.descender
    } else {
        afm.bbox[1]
    };
    let file = doc.add_object(Stream::new(dictionary! { "Subtype" => "Type1C" }, cff));
    let mut descriptor = dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => Object::Name(base_font.as_bytes().to_vec()),
        "Flags" => flags,
        "FontBBox" => bbox,
        "ItalicAngle" => Object::Real(afm.italic_angle as f32),
        "Ascent" => ascent as i64,
        "Descent" => descent as i64,
        "CapHeight" => afm.cap_height as i64,
        "StemV" => afm.stem_v as i64,
        "FontFile3" => file,
    };
    if afm.x_height > 0.0 {
        descriptor.set("XHeight", afm.x_height as i64);
    }
    let _ = part1;
    descriptor.set("CharSet", Object::String(charset, StringFormat::Literal));
    let descriptor = doc.add_object(descriptor);
    let mut out = dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => Object::Name(base_font.into_bytes()),
        "FirstChar" => i64::from(first_char),
        "LastChar" => i64::from(last_char),
        "Widths" => width_array,
        "FontDescriptor" => descriptor,
    };
    if encoding.declared || renamed {
        out.set("Encoding", encoding_object(&encoding));
    }
    if let Ok(to_unicode) = font.get(b"ToUnicode")
        && matches!(to_unicode, Object::Reference(_))
    {
        out.set("ToUnicode", to_unicode.clone());
    }
    doc.objects.insert(font_id, Object::Dictionary(out));
    Ok(())
}

/// The /Encoding written: the base encoding's name alone, or a dictionary with the
/// differences (renamed glyphs included).
fn encoding_object(encoding: &Encoding) -> Object {
    if encoding.differences.is_empty()
        && let Some(name) = &encoding.base_name
    {
        return Object::Name(name.clone());
    }
    let mut differences = Vec::new();
    let mut next: Option<u8> = None;
    for (&code, name) in &encoding.differences {
        if next != Some(code) {
            differences.push(Object::Integer(i64::from(code)));
        }
        differences.push(Object::Name(name.clone()));
        next = code.checked_add(1);
    }
    let mut dict = dictionary! { "Type" => "Encoding", "Differences" => differences };
    if let Some(name) = &encoding.base_name {
        dict.set("BaseEncoding", Object::Name(name.clone()));
    }
    Object::Dictionary(dict)
}

/// Six capital letters naming this subset (ISO 32000-1 9.6.4).
fn subset_tag(font: &str, glyphs: &[String], id: ObjectId) -> String {
    let mut hash = Sha256::new();
    hash.update(font.as_bytes());
    for g in glyphs {
        hash.update(g.as_bytes());
        hash.update([0]);
    }
    hash.update(id.0.to_be_bytes());
    hash.finalize()
        .iter()
        .take(6)
        .map(|b| char::from(b'A' + b % 26))
        .collect()
}

/// Whether the URW font chosen can stand in at all: a font the document calls symbolic,
/// with no encoding saying which glyphs its codes name, has no substitute but its own.
pub fn substitutable(doc: &Document, font: &Dictionary, urw_name: &str) -> bool {
    if matches!(urw_name, "StandardSymbolsPS" | "D050000L") {
        return true;
    }
    let flags = font
        .get(b"FontDescriptor")
        .ok()
        .and_then(|d| doc.dereference(d).ok())
        .and_then(|(_, d)| d.as_dict().ok())
        .and_then(|d| d.get(b"Flags").ok())
        .and_then(|f| f.as_i64().ok())
        .unwrap_or(NONSYMBOLIC);
    let symbolic_only = flags & SYMBOLIC != 0 && flags & NONSYMBOLIC == 0;
    let standard_name = font
        .get(b"BaseFont")
        .and_then(Object::as_name)
        .is_ok_and(|n| super::STANDARD_14.contains(&n));
    !symbolic_only || font.has(b"Encoding") || standard_name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_six_capitals() {
        let tag = subset_tag("NimbusSans-Regular", &["A".into()], (3, 0));
        assert_eq!(tag.len(), 6);
        assert!(tag.bytes().all(|b| b.is_ascii_uppercase()));
    }

    #[test]
    fn differences_are_written_in_runs() {
        let mut differences = BTreeMap::new();
        differences.insert(65, b"A".to_vec());
        differences.insert(66, b"B".to_vec());
        differences.insert(70, b"F".to_vec());
        let encoding = Encoding {
            base: Some(&quire_compress::font_programs::WIN_ANSI),
            base_name: Some(b"WinAnsiEncoding".to_vec()),
            differences,
            declared: true,
        };
        let Object::Dictionary(dict) = encoding_object(&encoding) else {
            panic!("dictionary");
        };
        assert_eq!(
            dict.get(b"Differences")
                .and_then(Object::as_array)
                .map(Vec::len)
                .ok(),
            Some(5)
        );
    }
}
