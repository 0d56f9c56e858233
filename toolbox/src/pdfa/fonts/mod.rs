//! Fonts the document names but does not embed (ISO 19005-1 6.3.4, ISO 19005-2 6.2.11.4:
//! every font is embedded) get a free metric-compatible substitute embedded as a subset;
//! `fonts_embedded` tells the user which.
//!
//! Simple fonts (Type 1, TrueType) are the ones documents leave out, the standard 14 above
//! all; a composite (CID) font without its program has no substitute here (its glyph
//! numbers belong to a font the file does not say), and the conversion says so.

mod embed;
mod repair;
pub mod sfnt;
mod substitute;
mod usage;
mod widths;

pub use repair::apply as repair;

use std::collections::{BTreeSet, HashMap};

use lopdf::{Document, Object, ObjectId};

use super::Level;
use super::changes::Changes;
use crate::ToolError;

/// The standard 14 fonts' names.
pub const STANDARD_14: [&[u8]; 14] = [
    b"Courier",
    b"Courier-Bold",
    b"Courier-BoldOblique",
    b"Courier-Oblique",
    b"Helvetica",
    b"Helvetica-Bold",
    b"Helvetica-BoldOblique",
    b"Helvetica-Oblique",
    b"Symbol",
    b"Times-Bold",
    b"Times-BoldItalic",
    b"Times-Italic",
    b"Times-Roman",
    b"ZapfDingbats",
];

/// Embeds every font left out; returns (named, embedded) pairs.
pub fn embed_missing(
    doc: &mut Document,
    level: Level,
    changes: &mut Changes,
) -> Result<Vec<(String, String)>, ToolError> {
    make_fonts_indirect(doc);
    let missing: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter_map(|(id, object)| {
            let font = object.as_dict().ok()?;
            (font.has_type(b"Font") && !embedded(doc, font)).then_some(*id)
        })
        .collect();
    if missing.is_empty() {
        return Ok(Vec::new());
    }
    let usage = usage::read(doc);
    let mut loaded: HashMap<&'static str, substitute::Urw> = HashMap::new();
    let mut done = Vec::new();
    let mut refused = Vec::new();
    let empty = BTreeSet::new();
    for id in missing {
        let Ok(font) = doc.get_dictionary(id) else {
            continue;
        };
        let name = font
            .get(b"BaseFont")
            .and_then(Object::as_name)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_else(|_| "a font without a name".into());
        let subtype = font
            .get(b"Subtype")
            .and_then(Object::as_name)
            .unwrap_or(b"");
        match subtype {
            b"Type1" | b"MMType1" | b"TrueType" => {}
            b"Type3" => continue,
            b"Type0" => {
                refused.push(format!(
                    "the composite (CID) font {name} is not embedded and has no free substitute"
                ));
                continue;
            }
            _ => continue,
        }
        let descriptor = font
            .get(b"FontDescriptor")
            .ok()
            .and_then(|d| doc.dereference(d).ok())
            .and_then(|(_, d)| d.as_dict().ok());
        let number = |key: &[u8]| {
            descriptor
                .and_then(|d| d.get(key).ok())
                .and_then(super::annots::number)
        };
        let wanted = substitute::Wanted {
            base_font: &name,
            flags: descriptor
                .and_then(|d| d.get(b"Flags").ok())
                .and_then(|f| f.as_i64().ok()),
            weight: number(b"FontWeight"),
            italic_angle: number(b"ItalicAngle"),
        };
        let chosen = substitute::choose(&wanted);
        if !embed::substitutable(doc, font, chosen) {
            refused.push(format!(
                "the symbolic font {name} is not embedded and has no free substitute"
            ));
            continue;
        }
        if !loaded.contains_key(chosen) {
            loaded.insert(chosen, substitute::load(chosen)?);
        }
        let urw = &loaded[chosen];
        let codes = usage.codes.get(&id).unwrap_or(&empty);
        match embed::embed(doc, id, codes, urw, level.part1()) {
            Ok(()) => done.push((name, chosen.to_string())),
            Err(reason) => refused.push(format!("the font {name} is not embedded and {reason}")),
        }
    }
    if !refused.is_empty() {
        refused.sort();
        refused.dedup();
        return Err(ToolError::InvalidFile(format!(
            "this PDF cannot be made PDF/A: {}",
            refused.join("; ")
        )));
    }
    let mut named: Vec<String> = done.iter().map(|(a, b)| format!("{a} as {b}")).collect();
    named.sort();
    named.dedup();
    changes.note(format!(
        "embedded {} font{} the document did not embed ({})",
        done.len(),
        if done.len() == 1 { "" } else { "s" },
        named.join(", ")
    ));
    done.sort();
    done.dedup();
    Ok(done)
}

/// Whether a font carries its program (a Type 3 font is its own program).
fn embedded(doc: &Document, font: &lopdf::Dictionary) -> bool {
    let subtype = font
        .get(b"Subtype")
        .and_then(Object::as_name)
        .unwrap_or(b"");
    if subtype == b"Type3" {
        return true;
    }
    let described = if subtype == b"Type0" {
        font.get(b"DescendantFonts")
            .ok()
            .and_then(|d| doc.dereference(d).ok())
            .and_then(|(_, d)| d.as_array().ok())
            .and_then(|d| d.first())
            .and_then(|d| doc.dereference(d).ok())
            .and_then(|(_, d)| d.as_dict().ok())
    } else {
        Some(font)
    };
    described
        .and_then(|f| f.get(b"FontDescriptor").ok())
        .and_then(|d| doc.dereference(d).ok())
        .and_then(|(_, d)| d.as_dict().ok())
        .is_some_and(|d| d.has(b"FontFile") || d.has(b"FontFile2") || d.has(b"FontFile3"))
}

/// Font dictionaries written inline in a resource dictionary become objects of their own,
/// so that each can be found, counted and replaced like the others.
fn make_fonts_indirect(doc: &mut Document) {
    let mut inline: Vec<(ObjectId, Vec<u8>, Option<Vec<u8>>)> = Vec::new();
    for (id, object) in &doc.objects {
        let dict = match object {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &s.dict,
            _ => continue,
        };
        // A /Font resource dictionary held directly in a resources dictionary, or a
        // resources dictionary held directly by a page or form.
        let resources = match dict.get(b"Resources") {
            Ok(Object::Dictionary(r)) => Some((Some(b"Resources".to_vec()), r)),
            _ if dict.has(b"Font") => Some((None, dict)),
            _ => None,
        };
        let Some((via, resources)) = resources else {
            continue;
        };
        if let Ok(Object::Dictionary(fonts)) = resources.get(b"Font") {
            for (key, value) in fonts.iter() {
                if matches!(value, Object::Dictionary(_)) {
                    inline.push((*id, key.clone(), via.clone()));
                }
            }
        }
    }
    for (holder, key, via) in inline {
        let font = {
            let Some(dict) = holder_dict(doc, holder) else {
                continue;
            };
            let resources = match &via {
                Some(k) => dict.get_mut(k).ok().and_then(|r| r.as_dict_mut().ok()),
                None => Some(dict),
            };
            let Some(fonts) = resources
                .and_then(|r| r.get_mut(b"Font").ok())
                .and_then(|f| f.as_dict_mut().ok())
            else {
                continue;
            };
            fonts.remove(&key)
        };
        let Some(font) = font else {
            continue;
        };
        let id = doc.add_object(font);
        if let Some(dict) = holder_dict(doc, holder) {
            let resources = match &via {
                Some(k) => dict.get_mut(k).ok().and_then(|r| r.as_dict_mut().ok()),
                None => Some(dict),
            };
            if let Some(fonts) = resources
                .and_then(|r| r.get_mut(b"Font").ok())
                .and_then(|f| f.as_dict_mut().ok())
            {
                fonts.set(key, id);
            }
        }
    }
}

fn holder_dict(doc: &mut Document, id: ObjectId) -> Option<&mut lopdf::Dictionary> {
    match doc.get_object_mut(id).ok()? {
        Object::Dictionary(d) => Some(d),
        Object::Stream(s) => Some(&mut s.dict),
        _ => None,
    }
}
