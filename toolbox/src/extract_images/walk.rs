//! Which image XObjects each page can draw: those named in the page's resources (its own or
//! inherited) and in the resources of its annotations' normal appearances (a button's icon),
//! and, recursively, in the resources of the Form XObjects, tiling patterns and Type 3 fonts
//! found there. Content streams are not parsed: an image listed in the resources but never
//! drawn counts as on the page, optional content (layers) is not evaluated, and inline images
//! (`BI … EI`) are not extracted.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::pages::{self, Tree};

/// One image object and the pages it is on.
#[derive(Debug, Clone)]
pub struct Found {
    pub id: ObjectId,
    /// 1-based, ascending, each once.
    pub pages: Vec<u32>,
}

/// Resource categories whose entries may hold images or resources of their own.
const CATEGORIES: [&[u8]; 3] = [b"XObject", b"Pattern", b"Font"];

/// Every image object reachable from the pages, in the order first met (pages in order).
pub fn images(doc: &Document, tree: &Tree) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    let mut index: HashMap<ObjectId, usize> = HashMap::new();
    for (number, page) in (1u32..).zip(&tree.pages) {
        // Objects already entered on this page: a form drawn twice, or one that names itself.
        let mut seen: HashSet<ObjectId> = HashSet::new();
        let mut stack: Vec<&Dictionary> = appearances(doc, page.id, &mut seen);
        if let Some(resources) = pages::effective(doc, page, b"Resources").and_then(dictionary) {
            stack.push(resources);
        }
        while let Some(resources) = stack.pop() {
            for category in CATEGORIES {
                let Some(entries) = resources
                    .get(category)
                    .ok()
                    .and_then(|o| doc.dereference(o).ok())
                    .and_then(|(_, o)| dictionary(o))
                else {
                    continue;
                };
                for (_, value) in entries.iter() {
                    // Streams are always indirect: a direct value is neither image nor form.
                    let Ok(id) = value.as_reference() else {
                        continue;
                    };
                    if !seen.insert(id) {
                        continue;
                    }
                    let Ok(object) = doc.get_object(id) else {
                        continue;
                    };
                    let dict = match object {
                        Object::Stream(stream) => &stream.dict,
                        Object::Dictionary(dict) => dict,
                        _ => continue,
                    };
                    if category == b"XObject" && is_image(object) {
                        let slot = *index.entry(id).or_insert_with(|| {
                            found.push(Found {
                                id,
                                pages: Vec::new(),
                            });
                            found.len() - 1
                        });
                        let pages = &mut found[slot].pages;
                        if pages.last() != Some(&number) {
                            pages.push(number);
                        }
                    } else if let Some(inner) = dict
                        .get(b"Resources")
                        .ok()
                        .and_then(|o| doc.dereference(o).ok())
                        .and_then(|(_, o)| dictionary(o))
                    {
                        stack.push(inner);
                    }
                }
            }
        }
    }
    found
}

/// The resources of the normal appearances of the page's annotations that are not hidden,
/// last first (the stack pops the page's own resources first).
fn appearances<'a>(
    doc: &'a Document,
    page: ObjectId,
    seen: &mut HashSet<ObjectId>,
) -> Vec<&'a Dictionary> {
    let resolve = |object: &'a Object| doc.dereference(object).ok();
    let Some(annots) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|page| page.get(b"Annots").ok())
        .and_then(resolve)
        .and_then(|(_, annots)| annots.as_array().ok())
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for annot in annots.iter().rev() {
        let Some(annot) = resolve(annot).and_then(|(_, a)| dictionary(a)) else {
            continue;
        };
        let flags = annot.get(b"F").and_then(Object::as_i64).unwrap_or(0);
        if flags & 2 != 0 {
            continue;
        }
        let Some(normal) = annot
            .get(b"AP")
            .ok()
            .and_then(resolve)
            .and_then(|(_, ap)| dictionary(ap))
            .and_then(|ap| ap.get(b"N").ok())
        else {
            continue;
        };
        // One appearance, or one per state (a check box's on and off).
        let forms: Vec<&Object> = match resolve(normal) {
            Some((_, Object::Dictionary(states))) => states.iter().map(|(_, form)| form).collect(),
            _ => vec![normal],
        };
        for form in forms {
            let Ok(id) = form.as_reference() else {
                continue;
            };
            if !seen.insert(id) {
                continue;
            }
            if let Some(resources) = doc
                .get_object(id)
                .ok()
                .and_then(|o| o.as_stream().ok())
                .and_then(|form| form.dict.get(b"Resources").ok())
                .and_then(resolve)
                .and_then(|(_, r)| dictionary(r))
            {
                found.push(resources);
            }
        }
    }
    found
}

/// An image XObject: a stream whose /Subtype is /Image.
fn is_image(object: &Object) -> bool {
    matches!(object, Object::Stream(stream)
        if stream.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image"))
}

fn dictionary(object: &Object) -> Option<&Dictionary> {
    object.as_dict().ok()
}
