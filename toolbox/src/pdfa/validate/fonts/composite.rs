//! Composite fonts (Type 0 over a CIDFont): the CIDFont's dictionary, its CMap, and the
//! glyph and width of every CID shown.

use std::collections::HashMap;

use lopdf::{Document, Object};
use ttf_parser::{Face, GlyphId};

use super::super::super::fonts::sfnt::cid_widths;
use super::super::Findings;
use super::super::cmap::Cmap;
use super::super::content::FontUse;
use super::{Program, TOLERANCE, cff_scale, get_dict, load, number, report};

pub fn composite(doc: &Document, font: &FontUse, f: &mut Findings) {
    let what = font.label.as_str();
    let dict = &font.dict;
    let Some(cid_font) = dict
        .get(b"DescendantFonts")
        .ok()
        .and_then(|d| doc.dereference(d).ok())
        .and_then(|(_, d)| d.as_array().ok())
        .filter(|d| d.len() == 1)
        .and_then(|d| doc.dereference(&d[0]).ok())
        .and_then(|(_, d)| d.as_dict().ok())
    else {
        f.add(
            "6.3.2-2",
            "6.2.11.2-2",
            format!("{what} does not have one descendant font"),
        );
        return;
    };
    let sub = cid_font
        .get(b"Subtype")
        .and_then(Object::as_name)
        .unwrap_or(b"");
    let cff_based = match sub {
        b"CIDFontType0" => true,
        b"CIDFontType2" => false,
        _ => {
            f.add(
                "6.3.2-2",
                "6.2.11.2-2",
                format!("{what}'s descendant is not a CIDFont"),
            );
            return;
        }
    };
    let info = get_dict(doc, cid_font, b"CIDSystemInfo");
    let info_ok = info.is_some_and(|i| {
        matches!(i.get(b"Registry"), Ok(Object::String(..)))
            && matches!(i.get(b"Ordering"), Ok(Object::String(..)))
            && i.get(b"Supplement")
                .ok()
                .and_then(|s| number(doc, s))
                .is_some()
    });
    if !info_ok {
        f.add(
            "6.3.3.1-1",
            "6.2.11.3.1-1",
            format!("{what}'s /CIDSystemInfo is incomplete"),
        );
    }
    let encoding = dict
        .get(b"Encoding")
        .ok()
        .and_then(|e| doc.dereference(e).ok())
        .map(|(_, e)| e);
    let cmap: Option<Cmap> = match encoding {
        Some(Object::Name(n)) if n == b"Identity-H" || n == b"Identity-V" => None,
        Some(Object::Name(n)) => {
            if f.level.part1() {
                f.add(
                    "6.3.3.3-1",
                    "6.2.11.3.3-1",
                    format!(
                        "{what}'s CMap {} is not embedded",
                        String::from_utf8_lossy(n)
                    ),
                );
            }
            // A predefined CMap (PDF/A-2 allows them unembedded): its codes are not read here.
            return;
        }
        Some(Object::Stream(stream)) => {
            let parsed = stream
                .decompressed_content()
                .ok()
                .and_then(|d| Cmap::parse(&d));
            let Some(parsed) = parsed else {
                f.add(
                    "6.3.3.3-1",
                    "6.2.11.3.3-1",
                    format!("{what}'s embedded CMap cannot be read"),
                );
                return;
            };
            let dict_wmode = stream
                .dict
                .get(b"WMode")
                .and_then(Object::as_i64)
                .unwrap_or(0);
            if dict_wmode != parsed.wmode {
                f.add(
                    "6.3.3.3-2",
                    "6.2.11.3.3-2",
                    format!("{what}'s CMap says two writing modes"),
                );
            }
            if parsed.uses_other {
                f.add(
                    "6.3.3.3-1",
                    "6.2.11.3.3-3",
                    format!("{what}'s CMap uses another CMap"),
                );
            }
            let cmap_info = get_dict(doc, &stream.dict, b"CIDSystemInfo");
            if let (Some(a), Some(b)) = (info, cmap_info)
                && (a.get(b"Registry").ok() != b.get(b"Registry").ok()
                    || a.get(b"Ordering").ok() != b.get(b"Ordering").ok())
            {
                f.add(
                    "6.3.3.1-1",
                    "6.2.11.3.1-1",
                    format!("{what}'s CIDFont and CMap name different character collections"),
                );
            }
            Some(parsed)
        }
        _ => {
            f.add("6.3.3.3-1", "6.2.11.3.3-1", format!("{what} has no CMap"));
            return;
        }
    };
    let cid_to_gid: Option<Vec<u8>> = if cff_based {
        None
    } else {
        match cid_font
            .get(b"CIDToGIDMap")
            .ok()
            .and_then(|m| doc.dereference(m).ok())
            .map(|(_, m)| m)
        {
            Some(Object::Name(n)) if n == b"Identity" => None,
            Some(Object::Stream(s)) => s.decompressed_content().ok(),
            _ => {
                f.add(
                    "6.3.3.2-1",
                    "6.2.11.3.2-1",
                    format!("{what}'s CIDFontType2 has no /CIDToGIDMap"),
                );
                None
            }
        }
    };
    let Some(descriptor) = get_dict(doc, cid_font, b"FontDescriptor") else {
        f.add(
            "6.3.4-1",
            "6.2.11.4.1-1",
            format!("{what} is not embedded (no font descriptor)"),
        );
        return;
    };
    let Some(program) = load(doc, descriptor, what, f) else {
        return;
    };
    // (gid lookup, advance in 1/1000 em)
    let data = match &program {
        Program::Sfnt(d) | Program::Cff(d) => d.clone(),
        Program::Type1 { .. } => {
            f.add(
                "6.3.4-1",
                "6.2.11.4.1-1",
                format!("{what}: a CIDFont with a Type 1 program"),
            );
            return;
        }
    };
    let face = match &program {
        Program::Sfnt(_) => Face::parse(&data, 0).ok(),
        _ => None,
    };
    let cff = match &program {
        Program::Cff(_) => ttf_parser::cff::Table::parse(&data),
        _ => face.as_ref().and_then(|f| f.tables().cff),
    };
    if cff_based && cff.is_none()
        || !cff_based && face.as_ref().is_none_or(|f| f.tables().cff.is_some())
    {
        f.add(
            "6.3.4-1",
            "6.2.11.4.1-1",
            format!("{what}'s program does not suit its CIDFont type"),
        );
        return;
    }
    let by_cid: HashMap<u32, u16> = match &cff {
        Some(c) if cff_based => (0..c.number_of_glyphs())
            .filter_map(|g| Some((u32::from(c.glyph_cid(GlyphId(g))?), g)))
            .collect(),
        _ => HashMap::new(),
    };
    let cid_keyed = !by_cid.is_empty();
    let widths = cid_widths(doc, cid_font);
    let default_width = cid_font
        .get(b"DW")
        .ok()
        .and_then(|w| number(doc, w))
        .unwrap_or(1000.0);
    let subset = dict
        .get(b"BaseFont")
        .and_then(Object::as_name)
        .is_ok_and(|n| n.len() > 7 && n[6] == b'+' && n[..6].iter().all(u8::is_ascii_uppercase));
    let cidset = descriptor
        .get(b"CIDSet")
        .ok()
        .and_then(|s| doc.dereference(s).ok())
        .and_then(|(_, s)| s.as_stream().ok())
        .and_then(|s| s.decompressed_content().ok());
    if f.level.part1() && subset && cidset.is_none() {
        f.add(
            "6.3.5-3",
            "6.3.5-3",
            format!("{what} is a subset without /CIDSet"),
        );
    }
    let in_set = |cid: u32| -> bool {
        cidset.as_ref().is_none_or(|bits| {
            bits.get((cid / 8) as usize)
                .is_some_and(|b| b & (0x80 >> (cid % 8)) != 0)
        })
    };
    let mut notdef = Vec::new();
    let mut missing = Vec::new();
    let mut problems = Vec::new();
    // Each CID once, visible when any string shows it visibly.
    let mut cids: HashMap<u32, bool> = HashMap::new();
    let mut strings: Vec<(&Vec<u8>, bool)> = font.shown.visible.iter().map(|s| (s, true)).collect();
    strings.extend(font.shown.invisible.iter().map(|s| (s, false)));
    for (string, visible) in strings {
        let codes: Vec<(u64, u32)> = match &cmap {
            None => {
                if string.len() % 2 == 1 {
                    f.add(
                        "6.1.2-1",
                        "6.2.11.8-1",
                        format!("{what}: a string of odd length for a two-byte font"),
                    );
                    continue;
                }
                string
                    .chunks(2)
                    .map(|p| {
                        (
                            u64::from(u16::from_be_bytes([p[0], p[1]])),
                            u32::from(u16::from_be_bytes([p[0], p[1]])),
                        )
                    })
                    .collect()
            }
            Some(cmap) => match cmap.decode(string) {
                Some(codes) => codes,
                None => {
                    f.add(
                        "6.1.2-1",
                        "6.2.11.8-1",
                        format!("{what}: a string holds codes outside the CMap's code space"),
                    );
                    continue;
                }
            },
        };
        for (_, cid) in codes {
            *cids.entry(cid).or_insert(false) |= visible;
        }
    }
    let mut cids: Vec<(u32, bool)> = cids.into_iter().collect();
    cids.sort_unstable();
    for (cid, visible) in cids {
        {
            if cid == 0 {
                notdef.push(0u8);
                continue;
            }
            if f.level.part1() && !in_set(cid) {
                problems.push(format!("CID {cid} not in /CIDSet"));
            }
            let gid = if cff_based {
                if cid_keyed {
                    by_cid.get(&cid).copied()
                } else {
                    u16::try_from(cid).ok()
                }
            } else {
                match &cid_to_gid {
                    None => u16::try_from(cid).ok(),
                    Some(map) => map
                        .get(2 * cid as usize..2 * cid as usize + 2)
                        .map(|p| u16::from_be_bytes([p[0], p[1]])),
                }
            };
            let count = face.as_ref().map_or_else(
                || cff.as_ref().map_or(0, |c| c.number_of_glyphs()),
                Face::number_of_glyphs,
            );
            let Some(gid) = gid.filter(|&g| g != 0) else {
                notdef.push(0);
                continue;
            };
            if gid >= count {
                missing.push(0);
                continue;
            }
            if !visible {
                continue;
            }
            let program_width = match (&face, &cff) {
                (Some(face), None) => face
                    .glyph_hor_advance(GlyphId(gid))
                    .map(|a| f64::from(a) * 1000.0 / f64::from(face.units_per_em().max(1))),
                (_, Some(c)) => c
                    .glyph_width(GlyphId(gid))
                    .map(|w| f64::from(w) * cff_scale(c)),
                _ => None,
            };
            let dict_width = widths.get(&cid).copied().unwrap_or(default_width);
            if let Some(pw) = program_width
                && (pw - dict_width).abs() > TOLERANCE
            {
                problems.push(format!(
                    "CID {cid} ({dict_width} in /W, {pw} in the program)"
                ));
            }
        }
    }
    notdef.dedup();
    missing.dedup();
    report(f, what, &notdef, &missing, &problems);
}
