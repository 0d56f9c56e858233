//! Embedded fonts: each program reduced to the glyphs the document shows.
//!
//! Glyph IDs never change: unused outlines are blanked inside the program (see program.rs),
//! so widths, encodings, /W, /CIDToGIDMap and /ToUnicode stay valid as they are and text
//! copies and searches the same. A program shared by several fonts keeps the union of their
//! glyphs; one reached from anywhere this module does not follow, one whose fonts are used
//! in content it cannot read, or one named in a form's default appearance stays whole.
//! Type 1 programs (FontFile) are rewritten as subset CFF (FontFile3 /Type1C) by `type1`,
//! glyph names unchanged. Identical programs are merged before and after.

pub(crate) mod cmap;
mod dedupe;
pub mod encodings;
mod glyphs;
mod maps_trim;
mod program;
mod sfnt_cmap;
#[cfg(test)]
mod tests;
pub mod type1;
mod type1_pdf;
mod usage;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object, ObjectId};

use self::program::Format;

/// Largest font program decoded (larger ones are left alone).
const MAX_PROGRAM: usize = 64 << 20;

pub use dedupe::programs;
pub use usage::{Usage, Walker as UsageWalker};

/// Subsets every embedded font program by the `usage` read from the document's content;
/// returns how many were rewritten.
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
    rewritten
}

/// Replaces an OpenType or CFF program by its subset; returns whether it did.
fn rewrite(doc: &mut Document, id: ObjectId, plan: &Plan, glyphs: &BTreeSet<u16>) -> bool {
    let Ok(Object::Stream(stream)) = doc.get_object(id) else {
        return false;
    };
    let Ok(data) = crate::plain::decode(stream, MAX_PROGRAM) else {
        return false;
    };
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
    let out = match out {
        Ok(out) => out,
        Err(reason) => {
            tracing::debug!(program = ?id, ?reason, "font program kept whole");
            return false;
        }
    };
    tracing::debug!(program = ?id, before = data.len(), after = out.len(), "font subset");
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
        let format = match (
            key,
            stream.dict.get(b"Subtype").and_then(Object::as_name).ok(),
        ) {
            (b"FontFile2", _) | (b"FontFile3", Some(b"OpenType")) => Some(Format::Sfnt),
            (b"FontFile3", Some(b"Type1C" | b"CIDFontType0C")) => Some(Format::Cff),
            (b"FontFile", _) => Some(Format::Type1),
            _ => None,
        };
        let known = usage.seen.contains(&font_id) && !usage.whole.contains(&font_id);
        let shown = usage.shown.get(&font_id);
        let strings = || shown.into_iter().flatten().map(Vec::as_slice);
        let codes = || strings().flatten().copied().collect::<BTreeSet<u8>>();
        let need = match (format, descendant) {
            _ if !known => None,
            (Some(Format::Type1), None) => type1
                .entry(program_id)
                .or_insert_with(|| type1_pdf::parse(doc, program_id))
                .as_ref()
                .map(|program| Need::Names(type1_pdf::names(doc, font, program, &codes()))),
            (Some(Format::Type1), Some(_)) | (None, _) => None,
            (Some(format), descendant) => {
                let data = decoded
                    .entry(program_id)
                    .or_insert_with(|| crate::plain::decode(stream, MAX_PROGRAM).ok());
                match (data.as_deref(), descendant) {
                    (Some(data), Some(cid_font)) => {
                        composite_glyphs(doc, font, cid_font, format, data, strings())
                    }
                    (Some(data), None) => simple_glyphs(doc, font, format, data, &codes()),
                    (None, _) => None,
                }
                .map(Need::Glyphs)
            }
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
        if plan.format != format || plan.key != key {
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

/// Glyphs of a Type 0 font's program for the strings shown; `None` to keep it whole.
fn composite_glyphs<'s>(
    doc: &Document,
    font: &Dictionary,
    cid_font: &Dictionary,
    format: Format,
    data: &[u8],
    strings: impl Iterator<Item = &'s [u8]>,
) -> Option<BTreeSet<u16>> {
    let code_map = match doc.dereference(font.get(b"Encoding").ok()?).ok()? {
        (_, Object::Name(name)) if name == b"Identity-H" || name == b"Identity-V" => {
            cmap::CodeMap::Identity
        }
        (_, Object::Stream(stream)) => {
            let program = crate::plain::decode(stream, 1 << 20).ok()?;
            cmap::CodeMap::Embedded(cmap::Cmap::parse(&program)?)
        }
        _ => return None,
    };
    let mut cids = code_map.cids(strings)?;
    cids.insert(0);
    let cff_type = cid_font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"CIDFontType0");
    let mut gids = match format {
        Format::Cff => glyphs::cff_cids(&ttf_parser::cff::Table::parse(data)?, &cids),
        Format::Sfnt if cff_type => {
            let face = ttf_parser::Face::parse(data, 0).ok()?;
            match face.raw_face().table(ttf_parser::Tag::from_bytes(b"CFF ")) {
                Some(cff) => glyphs::cff_cids(&ttf_parser::cff::Table::parse(cff)?, &cids),
                None => cids.iter().filter_map(|&c| u16::try_from(c).ok()).collect(),
            }
        }
        Format::Sfnt => glyphs::cid_to_gid(doc, cid_font, &cids)?,
        Format::Type1 => return None,
    };
    gids.insert(0);
    Some(gids)
}

/// Glyphs of a simple font's program for the codes shown; `None` to keep it whole.
fn simple_glyphs(
    doc: &Document,
    font: &Dictionary,
    format: Format,
    data: &[u8],
    codes: &BTreeSet<u8>,
) -> Option<BTreeSet<u16>> {
    let names = |code| glyphs::code_names(doc, font, code);
    let mut gids = match format {
        Format::Cff => glyphs::simple_cff(&ttf_parser::cff::Table::parse(data)?, codes, names),
        Format::Sfnt => {
            let face = ttf_parser::Face::parse(data, 0).ok()?;
            let mut gids = glyphs::simple_truetype(&face, codes, names)?;
            if let Some(cff) = face.raw_face().table(ttf_parser::Tag::from_bytes(b"CFF ")) {
                gids.extend(glyphs::simple_cff(
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
