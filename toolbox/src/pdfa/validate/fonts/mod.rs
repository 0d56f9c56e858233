//! Fonts (ISO 19005-1 6.3, ISO 19005-2 6.2.11): every font the content reaches is embedded,
//! its dictionary well formed, TrueType encodings and cmaps as PDF/A wants them, and every
//! code shown selects a glyph the program has, not .notdef, with the width the dictionary
//! gives it (within 1/1000 em).

mod composite;
mod simple;

use std::collections::{BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object};
use quire_compress::font_programs::Type1Font;
use ttf_parser::{Face, GlyphId};

use super::Findings;
use super::content::{FontUse, Fonts};

/// Widths may differ by this much (1/1000 em).
const TOLERANCE: f64 = 1.0;

const SYMBOLIC: i64 = 1 << 2;

/// A font program, read.
enum Program {
    Sfnt(Vec<u8>),
    Cff(Vec<u8>),
    /// A Type 1 program: its glyph names with their widths, and its built-in encoding.
    Type1 {
        widths: HashMap<Vec<u8>, f64>,
        builtin: Vec<Option<Vec<u8>>>,
    },
}

pub fn check(doc: &Document, fonts: &Fonts, f: &mut Findings) {
    let mut ids: Vec<_> = fonts.fonts.keys().copied().collect();
    ids.sort();
    for id in ids {
        let font = &fonts.fonts[&id];
        one(doc, font, f);
    }
}

fn get_dict<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Dictionary> {
    doc.dereference(dict.get(key).ok()?).ok()?.1.as_dict().ok()
}

fn number(doc: &Document, value: &Object) -> Option<f64> {
    super::super::annots::number(doc.dereference(value).ok()?.1)
}

fn one(doc: &Document, font: &FontUse, f: &mut Findings) {
    let what = &font.label;
    let dict = &font.dict;
    if !dict.has_type(b"Font") {
        f.add(
            "6.3.2-1",
            "6.2.11.2-1",
            format!("{what} is not /Type /Font"),
        );
    }
    let name = |key: &[u8]| {
        dict.get(key)
            .ok()
            .and_then(|v| doc.dereference(v).ok())
            .and_then(|(_, v)| v.as_name().ok())
    };
    let subtype = name(b"Subtype").unwrap_or(b"");
    if subtype != b"Type3" && name(b"BaseFont").is_none() {
        f.add("6.3.2-3", "6.2.11.2-3", format!("{what} has no /BaseFont"));
    }
    match subtype {
        b"Type1" | b"MMType1" | b"TrueType" => simple::simple(doc, font, subtype == b"TrueType", f),
        b"Type0" => composite::composite(doc, font, f),
        b"Type3" => {}
        other => f.add(
            "6.3.2-2",
            "6.2.11.2-2",
            format!("{what} has the subtype {}", String::from_utf8_lossy(other)),
        ),
    }
}

/// A font program as found: the descriptor's key, the FontFile3 subtype, the data.
type Found = (Vec<u8>, Option<Vec<u8>>, Vec<u8>);

/// The descriptor's program.
fn program_stream(
    doc: &Document,
    descriptor: &Dictionary,
    what: &str,
    f: &mut Findings,
) -> Option<Found> {
    let present: Vec<&[u8]> = [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"]
        .into_iter()
        .filter(|k| descriptor.has(k))
        .collect();
    let [key] = present.as_slice() else {
        if present.is_empty() {
            f.add("6.3.4-1", "6.2.11.4.1-1", format!("{what} is not embedded"));
        } else {
            f.add(
                "6.3.4-1",
                "6.2.11.4.1-1",
                format!("{what} has more than one program"),
            );
        }
        return None;
    };
    let stream = descriptor
        .get(key)
        .ok()
        .and_then(|s| doc.dereference(s).ok())
        .and_then(|(_, s)| s.as_stream().ok());
    let Some(stream) = stream else {
        f.add(
            "6.3.4-1",
            "6.2.11.4.1-1",
            format!("{what}'s program is not a stream"),
        );
        return None;
    };
    let sub = stream
        .dict
        .get(b"Subtype")
        .and_then(Object::as_name)
        .ok()
        .map(<[u8]>::to_vec);
    if *key == b"FontFile3" {
        let ok = match sub.as_deref() {
            Some(b"Type1C" | b"CIDFontType0C") => true,
            Some(b"OpenType") => !f.level.part1(),
            _ => false,
        };
        if !ok {
            f.add(
                "6.3.2-7",
                "6.2.11.2-7",
                format!("{what}'s FontFile3 has a subtype PDF/A does not allow"),
            );
            return None;
        }
    }
    match stream.decompressed_content() {
        Ok(data) => Some((key.to_vec(), sub, data)),
        Err(_) => {
            f.add(
                "6.3.4-1",
                "6.2.11.4.1-1",
                format!("{what}'s program cannot be decoded"),
            );
            None
        }
    }
}

fn load(doc: &Document, descriptor: &Dictionary, what: &str, f: &mut Findings) -> Option<Program> {
    let (key, sub, data) = program_stream(doc, descriptor, what, f)?;
    let program = match (key.as_slice(), sub.as_deref()) {
        (b"FontFile2", _) | (b"FontFile3", Some(b"OpenType")) => {
            let ok = Face::parse(&data, 0).is_ok();
            ok.then_some(Program::Sfnt(data))
        }
        (b"FontFile3", _) => {
            let ok = ttf_parser::cff::Table::parse(&data).is_some();
            ok.then_some(Program::Cff(data))
        }
        _ => type1(&data),
    };
    if program.is_none() {
        f.add(
            "6.3.4-1",
            "6.2.11.4.1-1",
            format!("{what}'s program cannot be read"),
        );
    }
    program
}

/// A Type 1 program's glyph widths (read by converting it to CFF) and built-in encoding.
fn type1(data: &[u8]) -> Option<Program> {
    let font = Type1Font::parse(data, 0, 0).ok()?;
    let names: BTreeSet<Vec<u8>> = font.glyph_names().map(<[u8]>::to_vec).collect();
    let cff = font.to_cff(&names).ok()?;
    let table = ttf_parser::cff::Table::parse(&cff)?;
    let scale = cff_scale(&table);
    let mut widths = HashMap::new();
    for g in 0..table.number_of_glyphs() {
        let id = GlyphId(g);
        if let (Some(name), Some(w)) = (table.glyph_name(id), table.glyph_width(id)) {
            widths.insert(name.as_bytes().to_vec(), f64::from(w) * scale);
        }
    }
    let builtin = (0..=255u8)
        .map(|c| font.builtin_name(c).map(<[u8]>::to_vec))
        .collect();
    Some(Program::Type1 { widths, builtin })
}

/// Glyph widths in 1/1000 em from a CFF's units (its FontMatrix, 0.001 in nearly all).
fn cff_scale(table: &ttf_parser::cff::Table<'_>) -> f64 {
    // The matrix is read as f32: 0.001 comes back as 0.0010000000475.
    let sx = (f64::from(table.matrix().sx) * 1e7).round() / 1e7;
    if sx > 0.0 { sx * 1000.0 } else { 1.0 }
}

fn report(f: &mut Findings, what: &str, notdef: &[u8], missing: &[u8], problems: &[String]) {
    if !notdef.is_empty() {
        f.add(
            "6.3.5-1",
            "6.2.11.8-1",
            format!("{what}: codes {notdef:?} select .notdef"),
        );
    }
    if !missing.is_empty() {
        f.add(
            "6.3.5-1",
            "6.2.11.4.1-2",
            format!("{what}: codes {missing:?} select glyphs the program lacks"),
        );
    }
    if !problems.is_empty() {
        let shown: Vec<&String> = problems.iter().take(8).collect();
        f.add(
            "6.3.6-1",
            "6.2.11.5-1",
            format!("{what}: widths disagree with the program: {shown:?}"),
        );
    }
}

/// PDF/A-1 6.3.5: a Type 1 subset lists its glyphs in /CharSet, exactly.
fn charset(
    descriptor: &Dictionary,
    names: &BTreeSet<Vec<u8>>,
    subset: bool,
    what: &str,
    f: &mut Findings,
) {
    match descriptor.get(b"CharSet") {
        Ok(Object::String(bytes, _)) => {
            let listed: BTreeSet<Vec<u8>> = bytes
                .split(|&b| b == b'/')
                .filter(|n| !n.is_empty() && *n != b".notdef")
                .map(|n| {
                    n.iter()
                        .copied()
                        .filter(|b| !b.is_ascii_whitespace())
                        .collect()
                })
                .collect();
            let present: BTreeSet<Vec<u8>> = names
                .iter()
                .filter(|n| n.as_slice() != b".notdef")
                .cloned()
                .collect();
            if listed != present {
                f.add(
                    "6.3.5-2",
                    "6.2.11.4.2-1",
                    format!("{what}'s /CharSet does not list exactly its glyphs"),
                );
            }
        }
        Ok(_) => f.add(
            "6.3.5-2",
            "6.2.11.4.2-1",
            format!("{what}'s /CharSet is not a string"),
        ),
        Err(_) if subset && f.level.part1() => {
            f.add(
                "6.3.5-2",
                "6.3.5-2",
                format!("{what} is a subset without /CharSet"),
            );
        }
        Err(_) => {}
    }
}
