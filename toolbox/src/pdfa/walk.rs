//! Every content stream of the document with the resources it is drawn with: the pages',
//! the forms, tiling patterns and Type 3 glyphs their resources list (each walked once, with
//! the resources of the first stream that lists it when it has none of its own), and the
//! normal appearances of the pages' annotations. The conversion reads the fonts' codes from
//! them; the validation checks every operator.

use std::collections::{HashSet, VecDeque};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::content::{self, Op};

/// Largest content stream decoded: the limit every input was checked against.
const MAX_DECODED: usize = quire_compress::pdf_limits::MAX_STREAM_DECODED as usize;
/// Content streams walked at most (forms that list one another can be reached many ways,
/// but each is walked once).
const MAX_STREAMS: usize = 100_000;

/// One content stream as drawn.
pub struct Drawn<'a> {
    /// The stream (for a page: the page object).
    pub id: ObjectId,
    /// "page 3", "form 12 0", ...
    pub label: String,
    /// Its resources, resolved; `None` when it has none.
    pub resources: Option<&'a Dictionary>,
    /// The resources are not the stream's own (inherited from the page tree, or from the
    /// stream that lists a form without resources).
    pub borrowed: bool,
    pub ops: &'a [Op],
}

/// What the walk reports.
pub enum Event<'a> {
    Stream(Drawn<'a>),
    /// A stream that could not be decoded or parsed.
    Unreadable {
        label: String,
        message: String,
    },
}

struct Item {
    label: String,
    id: ObjectId,
    /// Content stream objects, concatenated.
    parts: Vec<ObjectId>,
    resources: Option<Dictionary>,
    borrowed: bool,
}

/// Walks every content stream, calling `f` on each.
pub fn walk(doc: &Document, mut f: impl FnMut(Event<'_>)) {
    let mut queue: VecDeque<Item> = VecDeque::new();
    let mut seen: HashSet<ObjectId> = HashSet::new();
    let Ok(tree) = crate::pages::walk(doc) else {
        return;
    };
    for (index, page) in tree.pages.iter().enumerate() {
        let own = doc
            .get_dictionary(page.id)
            .ok()
            .and_then(|d| d.get(b"Resources").ok())
            .is_some();
        let resources = crate::pages::effective(doc, page, b"Resources")
            .and_then(|r| r.as_dict().ok())
            .cloned();
        let parts = doc
            .get_dictionary(page.id)
            .ok()
            .and_then(|d| d.get(b"Contents").ok())
            .map(|c| match c {
                Object::Reference(id) => match doc.get_object(*id) {
                    Ok(Object::Array(items)) => refs(items),
                    _ => vec![*id],
                },
                Object::Array(items) => refs(items),
                _ => Vec::new(),
            })
            .unwrap_or_default();
        queue.push_back(Item {
            label: format!("page {}", index + 1),
            id: page.id,
            parts,
            resources,
            borrowed: !own,
        });
        for appearance in appearances(doc, page.id) {
            if seen.insert(appearance) {
                let resources = stream_resources(doc, appearance);
                queue.push_back(Item {
                    label: format!("annotation appearance {} {}", appearance.0, appearance.1),
                    id: appearance,
                    parts: vec![appearance],
                    borrowed: resources.is_none(),
                    resources,
                });
            }
        }
    }
    let mut walked = 0usize;
    while let Some(item) = queue.pop_front() {
        walked += 1;
        if walked > MAX_STREAMS {
            break;
        }
        let mut data = Vec::new();
        let mut failed = None;
        for (i, part) in item.parts.iter().enumerate() {
            match doc
                .get_object(*part)
                .and_then(Object::as_stream)
                .and_then(|s| s.decompressed_content_with_limit(MAX_DECODED))
            {
                Ok(bytes) => {
                    if i > 0 {
                        data.push(b'\n');
                    }
                    data.extend_from_slice(&bytes);
                }
                Err(e) => failed = Some(format!("cannot decode its content: {e}")),
            }
        }
        if let Some(message) = failed {
            f(Event::Unreadable {
                label: item.label,
                message,
            });
            continue;
        }
        // What this stream's resources list is walked next, with these resources when it
        // has none of its own.
        if let Some(resources) = &item.resources {
            for (id, kind) in listed(doc, resources) {
                if !seen.insert(id) {
                    continue;
                }
                let own = stream_resources(doc, id);
                queue.push_back(Item {
                    label: format!("{kind} {} {}", id.0, id.1),
                    id,
                    parts: vec![id],
                    borrowed: own.is_none(),
                    resources: own.or_else(|| item.resources.clone()),
                });
            }
            for (font, procs, own) in type3(doc, resources) {
                for id in procs {
                    if !seen.insert(id) {
                        continue;
                    }
                    queue.push_back(Item {
                        label: format!(
                            "Type 3 glyph {} {} of font {} {}",
                            id.0, id.1, font.0, font.1
                        ),
                        id,
                        parts: vec![id],
                        borrowed: own.is_none(),
                        resources: own.clone().or_else(|| item.resources.clone()),
                    });
                }
            }
        }
        match content::parse(&data) {
            Ok(ops) => f(Event::Stream(Drawn {
                id: item.id,
                label: item.label,
                resources: item.resources.as_ref(),
                borrowed: item.borrowed,
                ops: &ops,
            })),
            Err(message) => f(Event::Unreadable {
                label: item.label,
                message: format!("cannot parse its content: {message}"),
            }),
        }
    }
}

fn refs(items: &[Object]) -> Vec<ObjectId> {
    items.iter().filter_map(|i| i.as_reference().ok()).collect()
}

/// A stream's own /Resources, resolved.
pub fn stream_resources(doc: &Document, id: ObjectId) -> Option<Dictionary> {
    let stream = doc.get_object(id).ok()?.as_stream().ok()?;
    let resources = stream.dict.get(b"Resources").ok()?;
    doc.dereference(resources).ok()?.1.as_dict().ok().cloned()
}

/// A resource category (/Font, /XObject, ...) of `resources`, resolved.
pub fn category<'a>(
    doc: &'a Document,
    resources: &'a Dictionary,
    key: &[u8],
) -> Option<&'a Dictionary> {
    doc.dereference(resources.get(key).ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()
}

/// The forms and tiling patterns a resource dictionary lists.
fn listed(doc: &Document, resources: &Dictionary) -> Vec<(ObjectId, &'static str)> {
    let mut out = Vec::new();
    if let Some(xobjects) = category(doc, resources, b"XObject") {
        for (_, value) in xobjects.iter() {
            if let Ok(id) = value.as_reference()
                && let Ok(stream) = doc.get_object(id).and_then(Object::as_stream)
                && stream.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Form")
            {
                out.push((id, "form"));
            }
        }
    }
    if let Some(patterns) = category(doc, resources, b"Pattern") {
        for (_, value) in patterns.iter() {
            if let Ok(id) = value.as_reference()
                && let Ok(stream) = doc.get_object(id).and_then(Object::as_stream)
                && stream
                    .dict
                    .get(b"PatternType")
                    .and_then(Object::as_i64)
                    .ok()
                    == Some(1)
            {
                out.push((id, "pattern"));
            }
        }
    }
    out
}

/// The Type 3 fonts of a resource dictionary: their glyph procedures and own resources.
fn type3(
    doc: &Document,
    resources: &Dictionary,
) -> Vec<(ObjectId, Vec<ObjectId>, Option<Dictionary>)> {
    let mut out = Vec::new();
    let Some(fonts) = category(doc, resources, b"Font") else {
        return out;
    };
    for (_, value) in fonts.iter() {
        let Ok(id) = value.as_reference() else {
            continue;
        };
        let Ok(font) = doc.get_dictionary(id) else {
            continue;
        };
        if font.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Type3") {
            continue;
        }
        let procs = font
            .get(b"CharProcs")
            .ok()
            .and_then(|p| doc.dereference(p).ok())
            .and_then(|(_, p)| p.as_dict().ok())
            .map(|p| {
                p.iter()
                    .filter_map(|(_, v)| v.as_reference().ok())
                    .collect()
            })
            .unwrap_or_default();
        let own = font
            .get(b"Resources")
            .ok()
            .and_then(|r| doc.dereference(r).ok())
            .and_then(|(_, r)| r.as_dict().ok())
            .cloned();
        out.push((id, procs, own));
    }
    out
}

/// The normal appearance streams of a page's annotations.
fn appearances(doc: &Document, page: ObjectId) -> Vec<ObjectId> {
    let mut out = Vec::new();
    let Some(annots) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|p| p.get(b"Annots").ok())
        .and_then(|a| doc.dereference(a).ok())
        .and_then(|(_, a)| a.as_array().ok())
    else {
        return out;
    };
    for annot in annots {
        let Some(normal) = doc
            .dereference(annot)
            .ok()
            .and_then(|(_, a)| a.as_dict().ok())
            .and_then(|a| a.get(b"AP").ok())
            .and_then(|ap| doc.dereference(ap).ok())
            .and_then(|(_, ap)| ap.as_dict().ok())
            .and_then(|ap| ap.get(b"N").ok())
        else {
            continue;
        };
        match normal {
            Object::Reference(id) if doc.get_object(*id).and_then(Object::as_stream).is_ok() => {
                out.push(*id);
            }
            other => {
                if let Some(states) = doc
                    .dereference(other)
                    .ok()
                    .and_then(|(_, s)| s.as_dict().ok())
                {
                    out.extend(states.iter().filter_map(|(_, v)| v.as_reference().ok()));
                }
            }
        }
    }
    out
}
