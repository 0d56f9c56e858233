//! PDF/A-1 keeps what translucent content let a reader see (`underlay` rewrites each stream).
//!
//! `transparency` then makes every graphics state opaque; before it, each page's content is
//! rewritten so that its translucent objects are drawn blended with white and under what
//! they covered, and each annotation drawn translucent (its /CA, or its appearance's
//! graphics states: a highlighter's Multiply) has its appearance, blended, drawn into the
//! page, where the page's rewrite puts it under the text, and keeps an empty appearance of
//! its own (its comment and pop-up stay). What cannot be kept so (soft masks, other blend
//! modes, translucent images or forms) is listed by page, for the caller to picture.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::annots::number;
use super::changes::Changes;
use super::content;
use super::underlay::{self, Blend, GState, Outcome, Resources, Space, XObject};
use super::walk::{category, stream_resources};
use crate::flatten::appearance::drawing;
use crate::flatten::page::Painter;
use crate::pages::{self, PageRef};

/// Largest content stream decoded: the limit every input was checked against.
const MAX_DECODED: usize = quire_compress::pdf_limits::MAX_STREAM_DECODED as usize;
/// Forms and patterns nested deeper than this are taken to use transparency.
const MAX_DEPTH: usize = 8;
/// Marks an annotation's blended appearance drawn into its page until the pages are
/// rewritten (a key no reader knows; removed before the file is written).
const SEE_THROUGH: &[u8] = b"QuireSeeThrough";

/// Annotation flags Hidden and NoView (ISO 32000-1 Table 165).
const HIDDEN_OR_NO_VIEW: i64 = (1 << 1) | (1 << 5);

/// What happened to one annotation.
pub enum Annotation {
    /// Not translucent: nothing to do.
    Opaque,
    /// Drawn into the page, blended.
    Drawn,
    /// Translucent in a way that cannot be kept in vectors: why.
    Unfaithful(String),
}

/// For a PDF/A-1 annotation kept on `page`: its appearance, when drawn translucent, blended
/// and drawn into the page, and the annotation left with an empty appearance and no /CA.
pub fn annotation(
    doc: &mut Document,
    id: ObjectId,
    page: &PageRef,
    painter: &mut Painter,
) -> Annotation {
    let Ok(annot) = doc.get_dictionary(id).cloned() else {
        return Annotation::Opaque;
    };
    // A hidden annotation goes (`annots`): it is not drawn either.
    let flags = annot
        .get(b"F")
        .ok()
        .and_then(|f| doc.dereference(f).ok())
        .and_then(|(_, f)| f.as_i64().ok())
        .unwrap_or(0);
    if flags & HIDDEN_OR_NO_VIEW != 0 {
        return Annotation::Opaque;
    }
    let alpha = annot
        .get(b"CA")
        .ok()
        .and_then(number)
        .unwrap_or(1.0)
        .clamp(0.0, 1.0);
    let Some(mut drawn) = drawing(doc, &annot) else {
        return Annotation::Opaque;
    };
    let form = drawn.stream;
    if alpha >= 1.0 && !uses_transparency(doc, form, 0, &mut HashSet::new()) {
        return Annotation::Opaque;
    }
    let Ok(stream) = doc.get_object(form).and_then(Object::as_stream) else {
        return Annotation::Opaque;
    };
    let Ok(data) = stream.decompressed_content_with_limit(MAX_DECODED) else {
        return Annotation::Unfaithful("its appearance cannot be decoded".into());
    };
    let Ok(ops) = content::parse(&data) else {
        return Annotation::Unfaithful("its appearance cannot be read".into());
    };
    let resources = stream_resources(doc, form);
    let lookup = Lookup {
        doc,
        resources: resources.as_ref(),
    };
    let bytes = match underlay::rewrite(&data, &ops, &lookup, alpha) {
        Outcome::Unchanged => return Annotation::Opaque,
        Outcome::Unfaithful(why) => return Annotation::Unfaithful(why),
        Outcome::Rewritten(bytes, _) => bytes,
    };
    let mut dict = stream.dict.clone();
    for key in [b"Filter".as_slice(), b"DecodeParms", b"Length"] {
        dict.remove(key);
    }
    dict.set("Type", Object::Name(b"XObject".to_vec()));
    dict.set("Subtype", Object::Name(b"Form".to_vec()));
    if let Some(resources) = resources {
        dict.set(
            "Resources",
            Object::Dictionary(opaque_states(doc, resources)),
        );
    }
    dict.set(SEE_THROUGH, true);
    let bbox = dict.get(b"BBox").ok().cloned();
    let blended = doc.add_object(Stream::new(dict, bytes));
    drawn.stream = blended;
    painter.draw(doc, page, &[drawn]);
    let mut empty = Dictionary::new();
    empty.set("Type", Object::Name(b"XObject".to_vec()));
    empty.set("Subtype", Object::Name(b"Form".to_vec()));
    if let Some(bbox) = bbox {
        empty.set("BBox", bbox);
    }
    let empty = doc.add_object(Stream::new(empty, Vec::new()));
    if let Ok(annot) = doc.get_dictionary_mut(id) {
        annot.set("AP", lopdf::dictionary! { "N" => empty });
        annot.remove(b"AS");
        annot.remove(b"CA");
    }
    Annotation::Drawn
}

/// Rewrites every page's content (see the module); returns the pages (1-based) whose
/// transparency cannot be kept in vectors, with why.
pub fn apply(doc: &mut Document, changes: &mut Changes) -> Vec<(u32, String)> {
    let mut unfaithful = Vec::new();
    let mut kept = 0u32;
    let pages = pages::walk(doc).map(|t| t.pages).unwrap_or_default();
    for (index, page) in pages.iter().enumerate() {
        let number = crate::count(index + 1);
        let Some(data) = page_content(doc, page.id) else {
            continue;
        };
        // A stream that does not parse is told by the validation.
        let Ok(ops) = content::parse(&data) else {
            continue;
        };
        let resources = pages::effective(doc, page, b"Resources")
            .and_then(|r| doc.dereference(r).ok())
            .and_then(|(_, r)| r.as_dict().ok());
        let lookup = Lookup { doc, resources };
        match underlay::rewrite(&data, &ops, &lookup, 1.0) {
            Outcome::Unchanged => {}
            Outcome::Unfaithful(why) => unfaithful.push((number, why)),
            Outcome::Rewritten(bytes, count) => {
                let id = doc.add_object(Stream::new(Dictionary::new(), bytes));
                if let Ok(dict) = doc.get_dictionary_mut(page.id) {
                    dict.set("Contents", Object::Reference(id));
                }
                kept += count;
            }
        }
    }
    for object in doc.objects.values_mut() {
        if let Object::Stream(stream) = object {
            stream.dict.remove(SEE_THROUGH);
        }
    }
    if kept > 0 {
        changes.note(format!(
            "kept {kept} translucent object{} see-through (PDF/A-1 has no transparency): each \
             is drawn in its colour blended with white, under the text it covered",
            if kept == 1 { "" } else { "s" }
        ));
    }
    unfaithful
}

/// The page's content streams, decoded and joined.
fn page_content(doc: &Document, page: ObjectId) -> Option<Vec<u8>> {
    let parts: Vec<ObjectId> = match doc.get_dictionary(page).ok()?.get(b"Contents").ok()? {
        Object::Reference(id) => match doc.get_object(*id).ok()? {
            Object::Array(items) => items.iter().filter_map(|i| i.as_reference().ok()).collect(),
            _ => vec![*id],
        },
        Object::Array(items) => items.iter().filter_map(|i| i.as_reference().ok()).collect(),
        _ => return None,
    };
    let mut data = Vec::new();
    for part in parts {
        let bytes = doc
            .get_object(part)
            .and_then(Object::as_stream)
            .and_then(|s| s.decompressed_content_with_limit(MAX_DECODED))
            .ok()?;
        data.extend_from_slice(&bytes);
        data.push(b'\n');
    }
    Some(data)
}

/// A copy of `resources` whose graphics states are opaque: the blended appearance's
/// colours already hold its opacity.
fn opaque_states(doc: &Document, resources: Dictionary) -> Dictionary {
    let mut resources = resources;
    let Some(states) = category(doc, &resources, b"ExtGState").cloned() else {
        return resources;
    };
    let mut opaque = Dictionary::new();
    for (name, value) in states.iter() {
        let mut state = doc
            .dereference(value)
            .ok()
            .and_then(|(_, s)| s.as_dict().ok())
            .cloned()
            .unwrap_or_default();
        state.set("CA", 1);
        state.set("ca", 1);
        state.set("BM", Object::Name(b"Normal".to_vec()));
        state.set("SMask", Object::Name(b"None".to_vec()));
        opaque.set(name.clone(), Object::Dictionary(state));
    }
    resources.set("ExtGState", Object::Dictionary(opaque));
    resources
}

/// Whether a form or pattern (or one it lists, to MAX_DEPTH) has a translucent graphics
/// state, a soft-masked image or another blend mode among its resources.
fn uses_transparency(
    doc: &Document,
    id: ObjectId,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    if !seen.insert(id) {
        return false;
    }
    let Some(resources) = stream_resources(doc, id) else {
        return false;
    };
    let lookup = Lookup {
        doc,
        resources: Some(&resources),
    };
    if let Some(states) = category(doc, &resources, b"ExtGState") {
        let translucent = states.iter().any(|(name, _)| {
            lookup.gs(name).is_some_and(|g| {
                g.fill.is_some_and(|a| a < 1.0)
                    || g.stroke.is_some_and(|a| a < 1.0)
                    || g.blend.is_some_and(|b| b != Blend::Normal)
                    || g.soft_mask == Some(true)
            })
        });
        if translucent {
            return true;
        }
    }
    for key in [b"XObject".as_slice(), b"Pattern"] {
        let Some(listed) = category(doc, &resources, key) else {
            continue;
        };
        for (_, value) in listed.iter() {
            let Ok(child) = value.as_reference() else {
                continue;
            };
            let Ok(stream) = doc.get_object(child).and_then(Object::as_stream) else {
                continue;
            };
            if image_soft_mask(&stream.dict) || uses_transparency(doc, child, depth + 1, seen) {
                return true;
            }
        }
    }
    false
}

fn image_soft_mask(dict: &Dictionary) -> bool {
    dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image")
        && (dict.has(b"SMask")
            || dict
                .get(b"SMaskInData")
                .ok()
                .and_then(number)
                .is_some_and(|v| v != 0.0))
}

/// The resources a stream is drawn with, as the rewrite reads them.
struct Lookup<'a> {
    doc: &'a Document,
    resources: Option<&'a Dictionary>,
}

impl Lookup<'_> {
    fn entry(&self, key: &[u8], name: &[u8]) -> Option<(Option<ObjectId>, &Object)> {
        let listed = category(self.doc, self.resources?, key)?;
        let value = listed.get(name).ok()?;
        let (id, object) = self.doc.dereference(value).ok()?;
        Some((id, object))
    }
}

impl Resources for Lookup<'_> {
    fn gs(&self, name: &[u8]) -> Option<GState> {
        let (_, state) = self.entry(b"ExtGState", name)?;
        let state = state.as_dict().ok()?;
        let alpha = |key: &[u8]| {
            state
                .get(key)
                .ok()
                .and_then(number)
                .map(|a| a.clamp(0.0, 1.0))
        };
        let blend = state.get(b"BM").ok().map(|bm| {
            let first = match bm {
                Object::Array(items) => items.first().and_then(|i| i.as_name().ok()),
                other => other.as_name().ok(),
            };
            match first {
                Some(b"Normal" | b"Compatible") => Blend::Normal,
                Some(b"Multiply" | b"Darken") => Blend::Under,
                _ => Blend::Other,
            }
        });
        let soft_mask = state
            .get(b"SMask")
            .ok()
            .map(|m| m.as_name().ok() != Some(b"None"));
        Some(GState {
            fill: alpha(b"ca"),
            stroke: alpha(b"CA"),
            blend,
            soft_mask,
        })
    }

    fn space(&self, name: &[u8]) -> Space {
        let Some((_, space)) = self.entry(b"ColorSpace", name) else {
            return Space::Other;
        };
        let (family, rest) = match space {
            Object::Name(n) => (n.as_slice(), None),
            Object::Array(items) => match items.first().and_then(|i| i.as_name().ok()) {
                Some(n) => (n, items.get(1)),
                None => return Space::Other,
            },
            _ => return Space::Other,
        };
        match family {
            b"DeviceGray" | b"CalGray" => Space::Additive(1),
            b"DeviceRGB" | b"CalRGB" => Space::Additive(3),
            b"DeviceCMYK" => Space::Subtractive(4),
            b"ICCBased" => {
                let n = rest
                    .and_then(|r| r.as_reference().ok())
                    .and_then(|id| self.doc.get_object(id).ok())
                    .and_then(|o| o.as_stream().ok())
                    .and_then(|s| s.dict.get(b"N").ok().and_then(number));
                match n {
                    Some(1.0) => Space::Additive(1),
                    Some(3.0) => Space::Additive(3),
                    Some(4.0) => Space::Subtractive(4),
                    _ => Space::Other,
                }
            }
            _ => Space::Other,
        }
    }

    fn xobject(&self, name: &[u8]) -> XObject {
        let Some((Some(id), Object::Stream(stream))) = self.entry(b"XObject", name) else {
            return XObject::Unknown;
        };
        let dict = &stream.dict;
        match dict.get(b"Subtype").and_then(Object::as_name) {
            Ok(b"Image") => XObject::Image {
                soft_mask: image_soft_mask(dict),
            },
            Ok(b"Form") => {
                let nums = |key: &[u8]| -> Vec<f64> {
                    dict.get(key)
                        .ok()
                        .and_then(|v| self.doc.dereference(v).ok())
                        .and_then(|(_, v)| v.as_array().ok())
                        .map(|a| a.iter().filter_map(number).collect())
                        .unwrap_or_default()
                };
                let bbox = match nums(b"BBox")[..] {
                    [a, b, c, d] => [a.min(c), b.min(d), a.max(c), b.max(d)],
                    _ => return XObject::Unknown,
                };
                let matrix = match nums(b"Matrix")[..] {
                    [a, b, c, d, e, f] => [a, b, c, d, e, f],
                    _ => crate::geometry::IDENTITY,
                };
                XObject::Form {
                    bbox: crate::geometry::transform_rect(matrix, bbox),
                    translucent: uses_transparency(self.doc, id, 0, &mut HashSet::new()),
                    underlay: dict.has(SEE_THROUGH),
                }
            }
            _ => XObject::Unknown,
        }
    }
}
