//! The PDF side of Type 1 programs (FontFile): the glyph names a simple font's codes may
//! select, and the program replaced by the subset CFF that `type1` writes, as a FontFile3
//! /Type1C stream the descriptors point to instead.

use std::collections::{BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use super::glyphs;
use super::type1::Type1Font;

/// Largest program parsed.
const MAX_PROGRAM: usize = 16 << 20;

/// The program of a FontFile stream, parsed; `None` when it cannot be read.
pub fn parse(doc: &Document, id: ObjectId) -> Option<Type1Font> {
    let Ok(Object::Stream(stream)) = doc.get_object(id) else {
        return None;
    };
    let data = crate::plain::decode(stream, MAX_PROGRAM).ok()?;
    let length = |key: &[u8]| {
        stream
            .dict
            .get(key)
            .ok()
            .and_then(|o| doc.dereference(o).ok())
            .and_then(|(_, o)| o.as_i64().ok())
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
    };
    Type1Font::parse(&data, length(b"Length1"), length(b"Length2")).ok()
}

/// Every name the codes may select: /Differences, the base and standard encodings (as a
/// viewer may fall back to any of them), and the font's built-in encoding.
pub fn names(
    doc: &Document,
    font: &Dictionary,
    program: &Type1Font,
    codes: &BTreeSet<u8>,
) -> BTreeSet<Vec<u8>> {
    let mut names = BTreeSet::new();
    for &code in codes {
        names.extend(
            glyphs::code_names(doc, font, code)
                .into_iter()
                .map(|(n, _)| n),
        );
        names.extend(program.builtin_name(code).map(<[u8]>::to_vec));
    }
    names.insert(b".notdef".to_vec());
    names
}

/// A program replaced by its subset CFF, which the descriptors must be pointed at
/// ([`repoint`]).
pub struct Replaced {
    old: ObjectId,
    new: ObjectId,
    charset: Vec<u8>,
}

/// Adds the subset of program `id` as CFF when that is smaller; `None` when it is not.
pub fn rewrite(doc: &mut Document, id: ObjectId, keep: &BTreeSet<Vec<u8>>) -> Option<Replaced> {
    let program = parse(doc, id)?;
    let cff = program.to_cff(keep).ok()?;
    if !readable(&cff) {
        return None;
    }
    let Ok(Object::Stream(stream)) = doc.get_object(id) else {
        return None;
    };
    let before = crate::plain::decode(stream, MAX_PROGRAM).map_or(0, |d| d.len());
    if cff.len() >= before {
        return None;
    }
    let charset = charset(&cff);
    let new = doc.add_object(Stream::new(dictionary! { "Subtype" => "Type1C" }, cff));
    Some(Replaced {
        old: id,
        new,
        charset,
    })
}

/// Every descriptor holding `/FontFile` to a replaced program gets `/FontFile3` to its CFF
/// instead, in one pass over the objects: a pass per program was a quarter of the font work
/// on a manual with a few dozen fonts.
pub fn repoint(doc: &mut Document, replaced: &[Replaced]) {
    if replaced.is_empty() {
        return;
    }
    let by_old: HashMap<ObjectId, &Replaced> = replaced.iter().map(|r| (r.old, r)).collect();
    for object in doc.objects.values_mut() {
        repoint_object(object, &by_old);
    }
}

/// The CFF must parse and every glyph in it draw (an empty glyph, like a space, has no
/// bounding box, which is fine). Which glyphs it holds is `type1`'s to get right.
fn readable(cff: &[u8]) -> bool {
    struct Sink;
    impl ttf_parser::OutlineBuilder for Sink {
        fn move_to(&mut self, _: f32, _: f32) {}
        fn line_to(&mut self, _: f32, _: f32) {}
        fn quad_to(&mut self, _: f32, _: f32, _: f32, _: f32) {}
        fn curve_to(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32, _: f32) {}
        fn close(&mut self) {}
    }
    let Some(table) = ttf_parser::cff::Table::parse(cff) else {
        return false;
    };
    (0..table.number_of_glyphs()).all(|g| {
        matches!(
            table.outline(ttf_parser::GlyphId(g), &mut Sink),
            Ok(_) | Err(ttf_parser::CFFError::ZeroBBox)
        )
    })
}

/// The descriptor's /CharSet for a CFF: the names of its glyphs but .notdef, each after a
/// slash (PDF/A checks it against the program).
fn charset(cff: &[u8]) -> Vec<u8> {
    let Some(table) = ttf_parser::cff::Table::parse(cff) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for name in (0..table.number_of_glyphs())
        .filter_map(|g| table.glyph_name(ttf_parser::GlyphId(g)))
        .filter(|n| *n != ".notdef")
    {
        out.push(b'/');
        out.extend_from_slice(name.as_bytes());
    }
    out
}

/// Descriptors (indirect or written inline) pointing at a replaced program as /FontFile; a
/// /CharSet they have is made to list the glyphs of the new program.
fn repoint_object(object: &mut Object, by_old: &HashMap<ObjectId, &Replaced>) {
    match object {
        Object::Dictionary(dict) => {
            if let Ok(Object::Reference(id)) = dict.get(b"FontFile")
                && let Some(replaced) = by_old.get(id)
            {
                dict.remove(b"FontFile");
                dict.set("FontFile3", replaced.new);
                if dict.has(b"CharSet") {
                    dict.set("CharSet", Object::string_literal(replaced.charset.clone()));
                }
            }
            for (_, value) in dict.iter_mut() {
                repoint_object(value, by_old);
            }
        }
        Object::Array(items) => items.iter_mut().for_each(|o| repoint_object(o, by_old)),
        _ => {}
    }
}
