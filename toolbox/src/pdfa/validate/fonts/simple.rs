//! Simple fonts (Type 1, TrueType): the encoding and cmap rules of TrueType fonts, and the
//! glyph and width of every code shown.

use std::collections::{BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object};
use quire_compress::font_programs::{MAC_ROMAN, named, unicode_of};
use ttf_parser::{Face, GlyphId};

use super::super::super::fonts::sfnt::platform;
use super::super::Findings;
use super::super::content::FontUse;
use super::{Program, SYMBOLIC, TOLERANCE, cff_scale, charset, get_dict, load, number, report};

/// The codes shown: (code, visible).
fn simple_codes(font: &FontUse) -> Vec<(u8, bool)> {
    let mut codes: HashMap<u8, bool> = HashMap::new();
    for s in &font.shown.invisible {
        for &b in s {
            codes.entry(b).or_insert(false);
        }
    }
    for s in &font.shown.visible {
        for &b in s {
            codes.insert(b, true);
        }
    }
    let mut out: Vec<(u8, bool)> = codes.into_iter().collect();
    out.sort_unstable();
    out
}

pub fn simple(doc: &Document, font: &FontUse, truetype: bool, f: &mut Findings) {
    let what = font.label.as_str();
    let dict = &font.dict;
    let first = dict
        .get(b"FirstChar")
        .ok()
        .and_then(|v| number(doc, v))
        .map(|v| v as i64);
    let last = dict
        .get(b"LastChar")
        .ok()
        .and_then(|v| number(doc, v))
        .map(|v| v as i64);
    let widths: Vec<f64> = dict
        .get(b"Widths")
        .ok()
        .and_then(|w| doc.dereference(w).ok())
        .and_then(|(_, w)| w.as_array().ok())
        .map(|w| {
            w.iter()
                .map(|v| number(doc, v).unwrap_or(f64::NAN))
                .collect()
        })
        .unwrap_or_default();
    match (first, last) {
        (Some(a), Some(b)) if b >= a && widths.len() as i64 == b - a + 1 => {}
        _ => f.add(
            "6.3.2-6",
            "6.2.11.2-6",
            format!("{what} has no /FirstChar, /LastChar and /Widths that agree"),
        ),
    }
    let Some(descriptor) = get_dict(doc, dict, b"FontDescriptor") else {
        f.add(
            "6.3.4-1",
            "6.2.11.4.1-1",
            format!("{what} is not embedded (no font descriptor)"),
        );
        return;
    };
    let flags = descriptor
        .get(b"Flags")
        .ok()
        .and_then(|v| number(doc, v))
        .map_or(0, |v| v as i64);
    let subset = dict
        .get(b"BaseFont")
        .and_then(Object::as_name)
        .is_ok_and(|n| n.len() > 7 && n[6] == b'+' && n[..6].iter().all(u8::is_ascii_uppercase));
    let Some(program) = load(doc, descriptor, what, f) else {
        return;
    };
    let width_of = |code: u8| -> Option<f64> {
        let index = i64::from(code) - first?;
        usize::try_from(index)
            .ok()
            .and_then(|i| widths.get(i).copied())
    };
    let codes = simple_codes(font);
    let mut problems: Vec<String> = Vec::new();
    let mut notdef: Vec<u8> = Vec::new();
    let mut missing: Vec<u8> = Vec::new();
    let advance = |code: u8, visible: bool, glyph: Option<f64>, problems: &mut Vec<String>| {
        let Some(program_width) = glyph else {
            return;
        };
        if !visible {
            return;
        }
        match width_of(code) {
            Some(w) if (w - program_width).abs() <= TOLERANCE => {}
            Some(w) => problems.push(format!(
                "{code} ({w} in /Widths, {program_width} in the program)"
            )),
            None => problems.push(format!("{code} (no width in /Widths)")),
        }
    };
    match &program {
        Program::Sfnt(data) if truetype => {
            let Ok(face) = Face::parse(data, 0) else {
                return;
            };
            if face.tables().cff.is_some() {
                f.add(
                    "6.3.4-1",
                    "6.2.11.4.1-1",
                    format!("{what} is a TrueType font with CFF outlines"),
                );
                return;
            }
            let subtables: Vec<(u16, u16)> = face
                .tables()
                .cmap
                .map(|c| {
                    c.subtables
                        .into_iter()
                        .map(|s| (platform(s.platform_id), s.encoding_id))
                        .collect()
                })
                .unwrap_or_default();
            let symbolic = flags & SYMBOLIC != 0;
            let scale = 1000.0 / f64::from(face.units_per_em().max(1));
            let lookup = |platform_id: u16, encoding: u16, code: u32| -> Option<u16> {
                let cmap = face.tables().cmap?;
                cmap.subtables
                    .into_iter()
                    .find(|s| platform(s.platform_id) == platform_id && s.encoding_id == encoding)
                    .and_then(|s| s.glyph_index(code))
                    .map(|g| g.0)
            };
            if symbolic {
                if dict.has(b"Encoding") {
                    f.add(
                        "6.3.7-2",
                        "6.2.11.6-3",
                        format!("{what} is a symbolic TrueType font with an /Encoding"),
                    );
                }
                let one_table = subtables.len() == 1;
                let has30 = subtables.contains(&(3, 0));
                if (f.level.part1() && !one_table) || (!f.level.part1() && !one_table && !has30) {
                    f.add(
                        "6.3.7-3",
                        "6.2.11.6-4",
                        format!("{what}'s cmap does not suit a symbolic TrueType font"),
                    );
                }
                for &(code, visible) in &codes {
                    let gid = if has30 {
                        let gids: BTreeSet<u16> = [0u32, 0xF000, 0xF100, 0xF200]
                            .into_iter()
                            .filter_map(|o| lookup(3, 0, o + u32::from(code)))
                            .filter(|&g| g != 0)
                            .collect();
                        if gids.len() > 1 {
                            problems.push(format!(
                                "{code} (the (3,0) cmap maps it in more than one range)"
                            ));
                        }
                        gids.into_iter().next()
                    } else {
                        lookup(1, 0, u32::from(code)).filter(|&g| g != 0)
                    };
                    match gid {
                        Some(g) if g < face.number_of_glyphs() => {
                            advance(
                                code,
                                visible,
                                face.glyph_hor_advance(GlyphId(g))
                                    .map(|a| f64::from(a) * scale),
                                &mut problems,
                            );
                        }
                        Some(_) => missing.push(code),
                        None => notdef.push(code),
                    }
                }
            } else {
                let (base, differences) = encoding(doc, dict);
                let base_ok = matches!(
                    base.as_deref(),
                    Some(b"WinAnsiEncoding" | b"MacRomanEncoding")
                );
                if !base_ok {
                    f.add("6.3.7-1", "6.2.11.6-2", format!("{what} is a non-symbolic TrueType font whose encoding is not WinAnsi or MacRoman"));
                }
                if !differences.is_empty() {
                    if f.level.part1() {
                        f.add(
                            "6.3.7-1",
                            "6.2.11.6-2",
                            format!("{what} is a non-symbolic TrueType font with /Differences"),
                        );
                    } else if !subtables.contains(&(3, 1))
                        || differences.values().any(|n| unicode_of(n).is_none())
                    {
                        f.add("6.3.7-1", "6.2.11.6-2", format!("{what}'s /Differences name glyphs outside the Adobe Glyph List or it has no (3,1) cmap"));
                    }
                }
                if !f.level.part1() && subtables.iter().filter(|t| **t != (3, 0)).count() == 0 {
                    f.add(
                        "",
                        "6.2.11.6-1",
                        format!("{what} has no non-symbolic cmap subtable"),
                    );
                }
                let table = base.as_deref().and_then(named);
                for &(code, visible) in &codes {
                    let name = differences
                        .get(&code)
                        .cloned()
                        .or_else(|| table.map(|t| t[usize::from(code)].to_vec()))
                        .filter(|n| !n.is_empty() && n != b".notdef");
                    let Some(name) = name else {
                        notdef.push(code);
                        continue;
                    };
                    let gid = if subtables.contains(&(3, 1)) {
                        unicode_of(&name).and_then(|u| lookup(3, 1, u))
                    } else {
                        MAC_ROMAN
                            .iter()
                            .position(|n| *n == name.as_slice())
                            .and_then(|c| lookup(1, 0, c as u32))
                    };
                    match gid.filter(|&g| g != 0) {
                        Some(g) if g < face.number_of_glyphs() => {
                            advance(
                                code,
                                visible,
                                face.glyph_hor_advance(GlyphId(g))
                                    .map(|a| f64::from(a) * scale),
                                &mut problems,
                            );
                        }
                        _ => missing.push(code),
                    }
                }
            }
        }
        Program::Sfnt(_) => {
            f.add(
                "6.3.4-1",
                "6.2.11.4.1-1",
                format!("{what} is a Type 1 font with a TrueType program"),
            );
            return;
        }
        Program::Cff(_) | Program::Type1 { .. } if !truetype => {
            let (base, differences) = encoding(doc, dict);
            let table = base.as_deref().and_then(named);
            let cff = match &program {
                Program::Cff(data) => ttf_parser::cff::Table::parse(data),
                _ => None,
            };
            if let Some(cff) = &cff
                && cff.glyph_cid(GlyphId(0)).is_some()
                && cff.number_of_glyphs() > 0
                && (0..cff.number_of_glyphs()).any(|g| cff.glyph_name(GlyphId(g)).is_none())
            {
                f.add(
                    "6.3.4-1",
                    "6.2.11.4.1-1",
                    format!("{what} is a simple font with a CID-keyed program"),
                );
                return;
            }
            let builtin = |code: u8| -> Option<Vec<u8>> {
                match &program {
                    Program::Type1 { builtin, .. } => {
                        builtin.get(usize::from(code)).cloned().flatten()
                    }
                    _ => {
                        let cff = cff.as_ref()?;
                        let gid = cff.glyph_index(code)?;
                        cff.glyph_name(gid).map(|n| n.as_bytes().to_vec())
                    }
                }
            };
            let names_present: BTreeSet<Vec<u8>> = match &program {
                Program::Type1 { widths, .. } => widths.keys().cloned().collect(),
                _ => cff
                    .as_ref()
                    .map(|c| {
                        (0..c.number_of_glyphs())
                            .filter_map(|g| c.glyph_name(GlyphId(g)))
                            .map(|n| n.as_bytes().to_vec())
                            .collect()
                    })
                    .unwrap_or_default(),
            };
            for &(code, visible) in &codes {
                let name = differences
                    .get(&code)
                    .cloned()
                    .or_else(|| match table {
                        Some(t) => Some(t[usize::from(code)].to_vec()),
                        None => builtin(code),
                    })
                    .filter(|n| !n.is_empty() && n != b".notdef");
                let Some(name) = name else {
                    notdef.push(code);
                    continue;
                };
                let width = match &program {
                    Program::Type1 { widths, .. } => widths.get(&name).copied(),
                    _ => cff.as_ref().and_then(|c| {
                        let g = c.glyph_index_by_name(std::str::from_utf8(&name).ok()?)?;
                        c.glyph_width(g).map(|w| f64::from(w) * cff_scale(c))
                    }),
                };
                if !names_present.contains(&name) {
                    missing.push(code);
                    continue;
                }
                advance(code, visible, width, &mut problems);
            }
            if subset || f.level.part1() {
                charset(descriptor, &names_present, subset, what, f);
            }
        }
        _ => {
            f.add(
                "6.3.4-1",
                "6.2.11.4.1-1",
                format!("{what}'s program does not suit its type"),
            );
            return;
        }
    }
    report(f, what, &notdef, &missing, &problems);
}

/// A simple font's encoding: the base encoding's name and the differences.
fn encoding(doc: &Document, dict: &Dictionary) -> (Option<Vec<u8>>, HashMap<u8, Vec<u8>>) {
    let mut differences = HashMap::new();
    let value = dict
        .get(b"Encoding")
        .ok()
        .and_then(|e| doc.dereference(e).ok())
        .map(|(_, e)| e);
    match value {
        Some(Object::Name(name)) => (Some(name.clone()), differences),
        Some(Object::Dictionary(enc)) => {
            let base = enc
                .get(b"BaseEncoding")
                .and_then(Object::as_name)
                .ok()
                .map(<[u8]>::to_vec);
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
