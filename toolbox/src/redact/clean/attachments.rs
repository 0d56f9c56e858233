//! Embedded files holding a term in their name, description or content go: from the
//! /EmbeddedFiles name tree (written back flat) and as FileAttachment annotations. A file whose
//! content cannot be read is taken to hold one. References left elsewhere (/AF arrays) are cut.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

use super::Terms;
use crate::redact::annots;

/// The largest file content searched.
const MAX_FILE: usize = 64 << 20;
/// Name trees deeper than this are not read further.
const MAX_DEPTH: usize = 32;

/// Returns how many files went (annotations included).
pub fn remove(doc: &mut Document, terms: &Terms) -> u32 {
    let mut cut: HashSet<ObjectId> = HashSet::new();
    let mut removed = tree(doc, terms, &mut cut);
    let pages: Vec<ObjectId> = crate::pages::walk(doc)
        .map(|tree| tree.pages.iter().map(|p| p.id).collect())
        .unwrap_or_default();
    for page in pages {
        let removal = annots::remove_where(doc, page, |doc, annot| {
            annot.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"FileAttachment")
                && (text_holds(doc, annot.get(b"Contents").ok(), terms)
                    || annot
                        .get(b"FS")
                        .ok()
                        .is_some_and(|fs| file_holds(doc, fs, None, terms)))
        });
        let count = removal.removed.len() as u32 + removal.inline;
        removed += count;
        cut.extend(removal.removed);
    }
    annots::cut_references(doc, &cut);
    removed
}

/// The name tree's entries that hold a term are dropped; the tree is written back flat.
fn tree(doc: &mut Document, terms: &Terms, cut: &mut HashSet<ObjectId>) -> u32 {
    let Some(root) = crate::names::names_dict(doc)
        .and_then(|names| names.get(b"EmbeddedFiles").ok())
        .cloned()
    else {
        return 0;
    };
    let mut entries = Vec::new();
    collect(doc, &root, 0, &mut HashSet::new(), &mut entries);
    let mut kept = Vec::new();
    let mut removed = 0;
    for (key, value) in entries {
        if file_holds(doc, &value, Some(&key), terms) {
            removed += 1;
            cut.extend(value.as_reference().ok());
            cut.extend(file_streams(doc, &value));
        } else {
            kept.push(Object::String(key, lopdf::StringFormat::Literal));
            kept.push(value);
        }
    }
    if removed == 0 {
        return 0;
    }
    let flat = Object::Dictionary(lopdf::dictionary! { "Names" => kept });
    if let Some(names) = crate::names::names_dict_mut(doc) {
        names.set("EmbeddedFiles", flat);
    }
    removed
}

fn collect(
    doc: &Document,
    node: &Object,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
    out: &mut Vec<(Vec<u8>, Object)>,
) {
    if let Object::Reference(id) = node
        && !seen.insert(*id)
    {
        return;
    }
    let Some(node) = doc
        .dereference(node)
        .ok()
        .and_then(|(_, n)| n.as_dict().ok())
    else {
        return;
    };
    let array = |key: &[u8]| {
        node.get(key)
            .ok()
            .and_then(|a| doc.dereference(a).ok())
            .and_then(|(_, a)| a.as_array().ok())
    };
    if let Some(pairs) = array(b"Names") {
        for pair in pairs.chunks_exact(2) {
            if let Ok((_, Object::String(key, _))) = doc.dereference(&pair[0]) {
                out.push((key.clone(), pair[1].clone()));
            }
        }
    }
    if depth < MAX_DEPTH
        && let Some(kids) = array(b"Kids")
    {
        for kid in kids {
            collect(doc, kid, depth + 1, seen, out);
        }
    }
}

fn text_holds(doc: &Document, value: Option<&Object>, terms: &Terms) -> bool {
    match value.and_then(|v| doc.dereference(v).ok()).map(|(_, v)| v) {
        Some(Object::String(bytes, _)) => terms.found_in(&crate::text::decode(bytes)),
        _ => false,
    }
}

/// The embedded file streams of a file specification.
fn file_streams(doc: &Document, spec: &Object) -> Vec<ObjectId> {
    doc.dereference(spec)
        .ok()
        .and_then(|(_, s)| s.as_dict().ok())
        .and_then(|s| s.get(b"EF").ok())
        .and_then(|ef| doc.dereference(ef).ok())
        .and_then(|(_, ef)| ef.as_dict().ok())
        .map(|ef| {
            ef.iter()
                .filter_map(|(_, v)| v.as_reference().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a file specification (or its name in the tree) holds a term.
fn file_holds(doc: &Document, spec: &Object, key: Option<&[u8]>, terms: &Terms) -> bool {
    if key.is_some_and(|k| terms.found_in(&crate::text::decode(k))) {
        return true;
    }
    let Some(spec) = doc.dereference(spec).ok().map(|(_, s)| s) else {
        return false;
    };
    let dict = match spec {
        Object::String(bytes, _) => return terms.found_in(&crate::text::decode(bytes)),
        Object::Dictionary(dict) => dict,
        _ => return false,
    };
    if [b"F".as_slice(), b"UF", b"Desc"]
        .iter()
        .any(|key| text_holds(doc, dict.get(key).ok(), terms))
    {
        return true;
    }
    file_streams(doc, &Object::Dictionary(dict.clone()))
        .into_iter()
        .any(|id| match doc.get_object(id) {
            Ok(Object::Stream(stream)) => match stream.decompressed_content_with_limit(MAX_FILE) {
                Ok(bytes) => terms.found_in_bytes(&bytes),
                Err(_) => true,
            },
            _ => false,
        })
}
