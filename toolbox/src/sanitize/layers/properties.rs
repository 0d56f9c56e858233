//! /OCProperties without the hidden groups.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

/// Takes the hidden groups out of /OCProperties: its /OCGs, and the /ON, /OFF, /Order,
/// /RBGroups, /Locked and usage application arrays of every configuration. With no group
/// left, /OCProperties goes. Returns whether anything was dropped.
pub(super) fn drop_groups(doc: &mut Document, hidden: &HashSet<ObjectId>) -> bool {
    let Ok(catalog) = doc.catalog_mut() else {
        return false;
    };
    let mut todo = Vec::new();
    let mut dropped = false;
    match catalog.get_mut(b"OCProperties") {
        Ok(Object::Reference(id)) => todo.push(*id),
        Ok(properties) => dropped |= strip_groups(properties, hidden, &mut todo),
        Err(_) => return false,
    }
    let mut seen = HashSet::new();
    while let Some(id) = todo.pop() {
        if hidden.contains(&id) || !seen.insert(id) || seen.len() > 10_000 {
            continue;
        }
        let Ok(object) = doc.get_object_mut(id) else {
            continue;
        };
        // Groups are what the arrays list, not parts of the configuration.
        if object.as_dict().is_ok_and(|dict| dict.has_type(b"OCG")) {
            continue;
        }
        dropped |= strip_groups(object, hidden, &mut todo);
    }
    let none_left = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"OCProperties").ok())
        .and_then(|properties| doc.dereference(properties).ok())
        .and_then(|(_, properties)| properties.as_dict().ok())
        .and_then(|properties| properties.get(b"OCGs").ok())
        .and_then(|groups| doc.dereference(groups).ok())
        .and_then(|(_, groups)| groups.as_array().ok())
        .is_some_and(Vec::is_empty);
    if none_left && let Ok(catalog) = doc.catalog_mut() {
        catalog.remove(b"OCProperties");
    }
    dropped
}

fn strip_groups(object: &mut Object, hidden: &HashSet<ObjectId>, todo: &mut Vec<ObjectId>) -> bool {
    match object {
        Object::Array(items) => {
            let before = items.len();
            items.retain(|item| !item.as_reference().is_ok_and(|id| hidden.contains(&id)));
            let mut dropped = items.len() != before;
            for item in items {
                dropped |= strip_groups(item, hidden, todo);
            }
            dropped
        }
        Object::Dictionary(dict) => {
            let mut dropped = false;
            for (_, value) in dict.iter_mut() {
                dropped |= strip_groups(value, hidden, todo);
            }
            dropped
        }
        Object::Reference(id) => {
            todo.push(*id);
            false
        }
        _ => false,
    }
}
