//! The embedded files the document holds, counted before any reference to them is cut.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

/// The embedded file streams the document holds: those an /EF dictionary names and those
/// typed /EmbeddedFile, among the objects the trailer reaches.
pub(super) fn embedded_streams(doc: &Document) -> HashSet<ObjectId> {
    let reached = reachable(doc);
    let mut files = HashSet::new();
    for id in &reached {
        let Ok(object) = doc.get_object(*id) else {
            continue;
        };
        if let Object::Stream(stream) = object
            && stream.dict.has_type(b"EmbeddedFile")
        {
            files.insert(*id);
        }
        visit_dicts(object, &mut |dict| {
            let Some(ef) = dict
                .get(b"EF")
                .ok()
                .and_then(|ef| doc.dereference(ef).ok())
                .and_then(|(_, ef)| ef.as_dict().ok())
            else {
                return;
            };
            for (_, value) in ef {
                if let Object::Reference(file) = value
                    && reached.contains(file)
                {
                    files.insert(*file);
                }
            }
        });
    }
    files
}

/// Calls `f` on every dictionary in `object` (a stream's included), nested ones too.
fn visit_dicts(object: &Object, f: &mut impl FnMut(&Dictionary)) {
    match object {
        Object::Dictionary(dict) => {
            f(dict);
            dict.iter().for_each(|(_, value)| visit_dicts(value, f));
        }
        Object::Stream(stream) => {
            f(&stream.dict);
            stream
                .dict
                .iter()
                .for_each(|(_, value)| visit_dicts(value, f));
        }
        Object::Array(items) => items.iter().for_each(|item| visit_dicts(item, f)),
        _ => {}
    }
}

/// The objects the trailer reaches.
pub fn reachable(doc: &Document) -> HashSet<ObjectId> {
    let mut seen = HashSet::new();
    let mut todo = Vec::new();
    let push = |object: &Object, todo: &mut Vec<ObjectId>| {
        collect_refs(object, &mut |id| todo.push(id));
    };
    for (_, value) in &doc.trailer {
        push(value, &mut todo);
    }
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        if let Ok(object) = doc.get_object(id) {
            push(object, &mut todo);
        }
    }
    seen
}

fn collect_refs(object: &Object, f: &mut impl FnMut(ObjectId)) {
    match object {
        Object::Reference(id) => f(*id),
        Object::Array(items) => items.iter().for_each(|item| collect_refs(item, f)),
        Object::Dictionary(dict) => dict.iter().for_each(|(_, value)| collect_refs(value, f)),
        Object::Stream(stream) => stream
            .dict
            .iter()
            .for_each(|(_, value)| collect_refs(value, f)),
        _ => {}
    }
}
