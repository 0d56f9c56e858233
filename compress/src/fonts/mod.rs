//! Embedded fonts: each program reduced to the glyphs the document shows.
//!
//! Glyph IDs never change: unused outlines are blanked inside the program (see program.rs),
//! so widths, encodings, /W, /CIDToGIDMap and /ToUnicode stay valid as they are and text
//! copies and searches the same. A program shared by several fonts keeps the union of their
//! glyphs; one reached from anywhere this module does not follow, one whose fonts are used
//! in content it cannot read, or one named in a form's default appearance stays whole.
//! Type 1 programs (FontFile) are rewritten as subset CFF (FontFile3 /Type1C) by `type1`,
//! glyph names unchanged. A TrueType Collection is reduced to the face its font names
//! (collection.rs); a program is read as what its bytes are, whatever its declared type.
//! Type 3 fonts lose the glyph procedures no shown code names (type3.rs). Identical
//! programs are merged before and after.

mod cid_cff;
pub(crate) mod cmap;
mod collection;
mod dedupe;
pub mod encodings;
mod glyphs;
mod maps_trim;
mod program;
mod sfnt_cmap;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_kinds;
pub mod type1;
mod type1_pdf;
mod type3;
mod usage;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object, ObjectId};

use self::program::Format;

/// Largest font program decoded (larger ones are left alone).
const MAX_PROGRAM: usize = 64 << 20;

pub use dedupe::programs;
pub use usage::{Usage, Walker as UsageWalker};

/// Subsets every embedded font program by the `usage` read from the document's content;
/// returns how many programs (and Type 3 fonts) were cut.
pub fn subset_fonts(doc: &mut Document, usage: &Usage) -> usize {
    // Usage is keyed by font dictionaries, which merging programs leaves alone.
    dedupe::merge_programs(doc);
    if usage.incomplete {
        tracing::debug!("font usage walk over its budget: every program kept whole");
        return 0;
    }
    // Counted once for both uses: rewriting programs and merging identical ones changes only
    // the references to programs, never those to ToUnicode maps or descendant fonts.
    let references = count_references(doc);
    let plans = plan(doc, usage, &references);
    let mut rewritten = 0;
    let mut replaced = Vec::new();
    for (id, plan) in plans {
        let done = match &plan.need {
            Some(Need::Glyphs(glyphs)) => rewrite(doc, id, &plan, glyphs),
            Some(Need::Names(names)) => type1_pdf::rewrite(doc, id, names)
                .map(|program| replaced.push(program))
                .is_some(),
            None => false,
        };
        rewritten += usize::from(done);
    }
    type1_pdf::repoint(doc, &replaced);
    dedupe::merge_programs(doc);
    maps_trim::trim(doc, usage, &references);
    rewritten + type3::trim(doc, usage, &references)
}

/// Replaces an OpenType or CFF program by its subset; returns whether it did.
fn rewrite(doc: &mut Document, id: ObjectId, plan: &Plan, glyphs: &BTreeSet<u16>) -> bool {
    let Ok(Object::Stream(stream)) = doc.get_object(id) else {
        return false;
    };
    let Ok(mut data) = crate::plain::decode(stream, MAX_PROGRAM) else {
        return false;
    };
    let whole = data.len();
    if let Some(index) = plan.face {
        let Some(face) = collection::extract(&data, index) else {
            return false;
        };
        data = face;
    }
    let mut out = program::subset(plan.format, &data, glyphs);
    if out == Err(program::Kept::Differs) && plan.simple_cff {
        // An accented glyph may be drawn with `seac` from two glyphs named in the standard
        // encoding: those are kept as well, and the result checked again.
        if let Some(table) = ttf_parser::cff::Table::parse(&data) {
            let mut wider = glyphs.clone();
            wider.extend(glyphs::standard_glyphs(&table));
            out = program::subset(plan.format, &data, &wider);
        }
    }
    let glyphs_before = program::glyph_count(plan.format, &data);
    let out = match out {
        Ok(out) => out,
        // The face alone, when it could not be subset, is still a collection's worth smaller.
        Err(reason) if plan.face.is_some() && data.len() < whole => {
            tracing::debug!(program = ?id, ?reason, "font collection face kept whole");
            data
        }
        Err(reason) => {
            tracing::debug!(program = ?id, ?reason, "font program kept whole");
            return false;
        }
    };
    tracing::debug!(program = ?id, before = whole, after = out.len(), "font subset");
    if plan.format == Format::Cff && program::glyph_count(plan.format, &out) < glyphs_before {
        cid_cff::refresh_cid_sets(doc, &plan.chain, &out);
    }
    let Ok(Object::Stream(stream)) = doc.get_object_mut(id) else {
        return false;
    };
    stream.dict.remove(b"Filter");
    stream.dict.remove(b"DecodeParms");
    if plan.key == b"FontFile2" || stream.dict.has(b"Length1") {
        stream.dict.set("Length1", out.len() as i64);
    }
    stream.set_content(out);
    true
}

/// What a program must keep: glyph IDs, or glyph names for a Type 1 program.
enum Need {
    Glyphs(BTreeSet<u16>),
    Names(BTreeSet<Vec<u8>>),
}

/// What one program must keep.
struct Plan {
    format: Format,
    key: &'static [u8],
    /// `None`: the whole program.
    need: Option<Need>,
    simple_cff: bool,
    /// The objects on the way from the fonts to the program (descendant fonts,
    /// descriptors, the program): each must be referenced only from those fonts.
    chain: BTreeSet<ObjectId>,
    /// The face of a collection the program is reduced to.
    face: Option<u32>,
}

fn plan(
    doc: &Document,
    usage: &usage::Usage,
    references: &HashMap<ObjectId, usize>,
) -> BTreeMap<ObjectId, Plan> {
    let mut plans: BTreeMap<ObjectId, Plan> = BTreeMap::new();
    // References seen on the ways from fonts to programs: (holder, target).
    let mut edges: BTreeSet<(ObjectId, ObjectId)> = BTreeSet::new();
    let mut decoded: HashMap<ObjectId, Option<Vec<u8>>> = HashMap::new();
    // Faces taken out of collections, by program and index.
    let mut faces: HashMap<(ObjectId, u32), Option<Vec<u8>>> = HashMap::new();
    // Type 1 programs parsed, once each however many fonts share them.
    let mut type1: HashMap<ObjectId, Option<type1::Type1Font>> = HashMap::new();
    for (&font_id, object) in &doc.objects {
        let Object::Dictionary(font) = object else {
            continue;
        };
        if font.get(b"Type").and_then(Object::as_name).ok() != Some(b"Font") {
            continue;
        }
        let subtype = font.get(b"Subtype").and_then(Object::as_name).ok();
        let composite = subtype == Some(b"Type0");
        if !composite && !matches!(subtype, Some(b"Type1" | b"MMType1" | b"TrueType")) {
            continue;
        }
        let mut holder = font_id;
        let mut chain = Vec::new();
        let descendant = if composite {
            let Ok((_, Object::Array(list))) = font
                .get(b"DescendantFonts")
                .and_then(|o| doc.dereference(o))
            else {
                continue;
            };
            let Some(Object::Dictionary(cid_font)) = list
                .first()
                .and_then(|o| step(doc, &mut holder, o, &mut edges, &mut chain))
            else {
                continue;
            };
            Some(cid_font)
        } else {
            None
        };
        let described = descendant.unwrap_or(font);
        let Some(Object::Dictionary(descriptor)) = described
            .get(b"FontDescriptor")
            .ok()
            .and_then(|o| step(doc, &mut holder, o, &mut edges, &mut chain))
        else {
            continue;
        };
        let Some((key, Object::Reference(program_id))) =
            [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"]
                .into_iter()
                .find_map(|k| Some((k, descriptor.get(k).ok()?)))
        else {
            continue;
        };
        let program_id = *program_id;
        edges.insert((holder, program_id));
        chain.push(program_id);
        let Ok(Object::Stream(stream)) = doc.get_object(program_id) else {
            continue;
        };
        let declared = match (
            key,
            stream.dict.get(b"Subtype").and_then(Object::as_name).ok(),
        ) {
            (b"FontFile2", _) | (b"FontFile3", Some(b"OpenType")) => Some(Format::Sfnt),
            (b"FontFile3", Some(b"Type1C" | b"CIDFontType0C")) => Some(Format::Cff),
            (b"FontFile", _) => Some(Format::Type1),
            _ => None,
        };
        let known = usage.seen.contains(&font_id) && !usage.whole.contains(&font_id);
        // Decoded only for fonts whose usage is known: the others keep the program whole.
        let data = match declared {
            Some(Format::Sfnt | Format::Cff) if known => decoded
                .entry(program_id)
                .or_insert_with(|| crate::plain::decode(stream, MAX_PROGRAM).ok())
                .as_deref(),
            _ => None,
        };
        let format = match (declared, data) {
            (Some(declared), Some(data)) => Some(Format::sniff(declared, data)),
            (declared, _) => declared,
        };
        let shown = usage.shown.get(&font_id);
        let strings = || shown.into_iter().flatten().map(Vec::as_slice);
        let codes = || strings().flatten().copied().collect::<BTreeSet<u8>>();
        // A collection: the face this font names, written alone (collection.rs).
        let face = data
            .filter(|d| format == Some(Format::Sfnt) && collection::is_collection(d))
            .map(|d| {
                collection::pick(
                    d,
                    &collection::pdf_names(font_names(doc, font, descendant, descriptor)),
                )
            });
        let data = match (face, data) {
            (Some(Some(index)), Some(data)) => faces
                .entry((program_id, index))
                .or_insert_with(|| collection::extract(data, index))
                .as_deref(),
            (Some(_), _) => None,
            (None, data) => data,
        };
        let need = match (format, descendant) {
            _ if !known => None,
            (Some(Format::Type1), None) => type1
                .entry(program_id)
                .or_insert_with(|| type1_pdf::parse(doc, program_id))
                .as_ref()
                .map(|program| Need::Names(type1_pdf::names(doc, font, program, &codes()))),
            (Some(Format::Type1), Some(_)) | (None, _) => None,
            (Some(format), descendant) => match (data, descendant) {
                (Some(data), Some(cid_font)) => {
                    glyphs::composite_glyphs(doc, font, cid_font, format, data, strings())
                }
                (Some(data), None) => glyphs::simple_glyphs(doc, font, format, data, &codes()),
                (None, _) => None,
            }
            // A face of a collection must hold every glyph asked for, or it is not the one.
            .filter(|gids| {
                face.is_none()
                    || gids.last().is_some_and(|&g| {
                        data.and_then(|d| program::glyph_count(format, d))
                            .is_some_and(|count| g < count)
                    })
            })
            .map(Need::Glyphs),
        };
        let simple_cff = format == Some(Format::Cff) && descendant.is_none();
        let Some(format) = format else {
            continue;
        };
        let plan = plans.entry(program_id).or_insert_with(|| Plan {
            format,
            key,
            need: Some(Need::Glyphs(BTreeSet::new())),
            simple_cff,
            chain: BTreeSet::new(),
            face: face.flatten(),
        });
        if format == Format::Type1
            && let Some(Need::Glyphs(none)) = &plan.need
            && none.is_empty()
        {
            plan.need = Some(Need::Names(BTreeSet::new()));
        }
        plan.chain.extend(chain);
        plan.simple_cff &= simple_cff;
        plan.need = match (plan.need.take(), need) {
            (Some(Need::Glyphs(mut all)), Some(Need::Glyphs(more))) => {
                all.extend(more);
                Some(Need::Glyphs(all))
            }
            (Some(Need::Names(mut all)), Some(Need::Names(more))) => {
                all.extend(more);
                Some(Need::Names(all))
            }
            _ => None,
        };
        if plan.format != format || plan.key != key || plan.face != face.flatten() {
            plan.need = None;
        }
    }
    // A program (or a descriptor on its way) referenced from anywhere but the fonts above
    // may be used in ways not counted: it stays whole.
    let mut expected: HashMap<ObjectId, usize> = HashMap::new();
    for (_, target) in &edges {
        *expected.entry(*target).or_default() += 1;
    }
    for plan in plans.values_mut() {
        let shared_elsewhere = plan
            .chain
            .iter()
            .any(|id| references.get(id) != expected.get(id));
        if shared_elsewhere {
            plan.need = None;
        }
    }
    plans
}

/// The names a font gives its program: its /BaseFont, its descendant's, its descriptor's
/// /FontName.
fn font_names(
    doc: &Document,
    font: &Dictionary,
    descendant: Option<&Dictionary>,
    descriptor: &Dictionary,
) -> Vec<Option<Vec<u8>>> {
    let name = |dict: &Dictionary, key: &[u8]| {
        let (_, object) = doc.dereference(dict.get(key).ok()?).ok()?;
        object.as_name().ok().map(<[u8]>::to_vec)
    };
    vec![
        descendant.and_then(|d| name(d, b"BaseFont")),
        name(descriptor, b"FontName"),
        name(font, b"BaseFont"),
    ]
}

/// Follows one link from a font towards its program, noting the reference taken.
fn step<'a>(
    doc: &'a Document,
    holder: &mut ObjectId,
    object: &'a Object,
    edges: &mut BTreeSet<(ObjectId, ObjectId)>,
    chain: &mut Vec<ObjectId>,
) -> Option<&'a Object> {
    match object {
        Object::Reference(id) => {
            edges.insert((*holder, *id));
            chain.push(*id);
            *holder = *id;
            doc.get_object(*id).ok()
        }
        direct => Some(direct),
    }
}

/// How many times each object is referenced, anywhere in the document.
fn count_references(doc: &Document) -> HashMap<ObjectId, usize> {
    fn visit(object: &Object, counts: &mut HashMap<ObjectId, usize>) {
        match object {
            Object::Reference(id) => *counts.entry(*id).or_default() += 1,
            Object::Array(items) => items.iter().for_each(|o| visit(o, counts)),
            Object::Dictionary(dict) => dict.iter().for_each(|(_, o)| visit(o, counts)),
            Object::Stream(stream) => stream.dict.iter().for_each(|(_, o)| visit(o, counts)),
            _ => {}
        }
    }
    let mut counts = HashMap::new();
    for object in doc.objects.values() {
        visit(object, &mut counts);
    }
    for (_, object) in doc.trailer.iter() {
        visit(object, &mut counts);
    }
    counts
}
