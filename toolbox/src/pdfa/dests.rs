//! Destinations written as ISO 32000-1 12.3.2.2 defines them: an array of a page and a fit
//! type with its numbers, held where it is used (a destination stored as an object of its own
//! is copied in). One that names no fit type, or is empty, leads nowhere: it goes, with the
//! named destination, outline item target or link target that held it (the item or link
//! itself stays).

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::changes::Changes;
use crate::ToolError;

const FITS: [&[u8]; 8] = [
    b"XYZ", b"Fit", b"FitH", b"FitV", b"FitR", b"FitB", b"FitBH", b"FitBV",
];

/// Whether `items` is an explicit destination.
pub fn valid(items: &[Object]) -> bool {
    items.len() >= 2
        && matches!(
            items[0],
            Object::Reference(_) | Object::Integer(_) | Object::Null
        )
        && items[1].as_name().is_ok_and(|n| FITS.contains(&n))
        && items[2..]
            .iter()
            .all(|v| matches!(v, Object::Integer(_) | Object::Real(_) | Object::Null))
}

/// An explicit destination as an inline array, when `value` (maybe a reference) is one.
fn explicit(doc: &Document, value: &Object) -> Option<Object> {
    let (_, resolved) = doc.dereference(value).ok()?;
    let items = resolved.as_array().ok()?;
    valid(items).then(|| Object::Array(items.clone()))
}

/// A destination value where it is used (/Dest, /D): a name or string (a named destination)
/// stays, an explicit one is inlined, anything else is `None`.
fn usable(doc: &Document, value: &Object) -> Option<Object> {
    match value {
        Object::Name(_) | Object::String(..) => Some(value.clone()),
        _ => explicit(doc, value),
    }
}

/// Fixes every destination of the document.
pub fn apply(doc: &mut Document, changes: &mut Changes) -> Result<(), ToolError> {
    let mut dropped = 0u32;
    let ids: Vec<ObjectId> = doc.objects.keys().copied().collect();
    for id in ids {
        let Some(dict) = doc.get_object(id).ok().and_then(|o| o.as_dict().ok()) else {
            continue;
        };
        let mut updates: Vec<(&[u8], Option<Object>)> = Vec::new();
        for key in [b"Dest".as_slice(), b"D"] {
            if let Ok(value) = dict.get(key) {
                // /D is a destination in a GoTo or GoToR action and in a named destination's
                // dictionary; elsewhere (a dash pattern, a border) it is something else.
                let is_dest = key == b"Dest"
                    || matches!(
                        dict.get(b"S").and_then(Object::as_name),
                        Ok(b"GoTo" | b"GoToR")
                    );
                if is_dest {
                    updates.push((key, usable(doc, value)));
                }
            }
        }
        if let Ok(Object::Dictionary(action)) = dict.get(b"A")
            && matches!(
                action.get(b"S").and_then(Object::as_name),
                Ok(b"GoTo" | b"GoToR")
            )
        {
            let fixed = action.get(b"D").ok().and_then(|d| usable(doc, d));
            let mut action = action.clone();
            match fixed {
                Some(d) => action.set("D", d),
                None => {
                    action.remove(b"D");
                }
            }
            let keep = action.has(b"D");
            updates.push((b"A", keep.then_some(Object::Dictionary(action))));
        }
        if updates.is_empty() {
            continue;
        }
        let Ok(dict) = doc.get_dictionary_mut(id) else {
            continue;
        };
        for (key, value) in updates {
            match value {
                Some(v) => dict.set(key, v),
                None => {
                    dict.remove(key);
                    dropped += 1;
                }
            }
        }
    }
    // A GoTo action (an object of its own) that lost its destination goes where it is used.
    let dead: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| {
            o.as_dict().is_ok_and(|d| {
                matches!(
                    d.get(b"S").and_then(Object::as_name),
                    Ok(b"GoTo" | b"GoToR")
                ) && !d.has(b"D")
            })
        })
        .map(|(id, _)| *id)
        .collect();
    for object in doc.objects.values_mut() {
        if let Object::Dictionary(dict) = object
            && let Ok(Object::Reference(a)) = dict.get(b"A")
            && dead.contains(a)
        {
            dict.remove(b"A");
        }
    }
    dropped += named(doc)?;
    if dropped > 0 {
        changes.count(
            "removed",
            dropped,
            "destination that leads nowhere",
            "destinations that lead nowhere",
        );
    }
    Ok(())
}

/// The named destinations (/Names /Dests tree, catalog /Dests): each an explicit
/// destination or a dictionary whose /D is one.
fn named(doc: &mut Document) -> Result<u32, ToolError> {
    let mut dropped = 0u32;
    let fix = |doc: &Document, value: &Object| -> Option<Object> {
        if let Some(dest) = explicit(doc, value) {
            return Some(dest);
        }
        let (_, resolved) = doc.dereference(value).ok()?;
        let d = resolved.as_dict().ok()?.get(b"D").ok()?;
        let dest = explicit(doc, d)?;
        let mut dict = Dictionary::new();
        dict.set("D", dest);
        Some(Object::Dictionary(dict))
    };
    let has_tree = crate::names::names_dict(doc).is_some_and(|n| n.has(b"Dests"));
    if has_tree {
        let entries = crate::names::tree_entries(doc);
        let mut kept = Vec::with_capacity(entries.len());
        for (name, value) in entries {
            match fix(doc, &value) {
                Some(v) => kept.push((name, v)),
                None => dropped += 1,
            }
        }
        let root = crate::names::write_tree(doc, kept)?;
        let names = doc
            .catalog()
            .ok()
            .and_then(|c| c.get(b"Names").ok())
            .cloned();
        match names {
            Some(Object::Reference(id)) => {
                if let Ok(n) = doc.get_dictionary_mut(id) {
                    n.set("Dests", root);
                }
            }
            _ => {
                if let Ok(Object::Dictionary(n)) =
                    doc.catalog_mut().and_then(|c| c.get_mut(b"Names"))
                {
                    n.set("Dests", root);
                }
            }
        }
    }
    let old = crate::names::dict_entries(doc);
    if !old.is_empty() {
        let mut kept = Vec::with_capacity(old.len());
        for (name, value) in old {
            match fix(doc, &value) {
                Some(v) => kept.push((name, v)),
                None => dropped += 1,
            }
        }
        let dests = crate::names::dests_dict(kept);
        if let Ok(catalog) = doc.catalog_mut() {
            catalog.set("Dests", dests);
        }
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_destinations_are_recognized() {
        assert!(valid(&[
            Object::Reference((3, 0)),
            Object::Name(b"Fit".to_vec())
        ]));
        assert!(valid(&[
            Object::Integer(0),
            Object::Name(b"XYZ".to_vec()),
            Object::Null,
            Object::Real(700.0),
            Object::Integer(0)
        ]));
        assert!(!valid(&[]));
        assert!(!valid(&[Object::Reference((3, 0))]));
        assert!(!valid(&[
            Object::Reference((3, 0)),
            Object::Name(b"Zoom".to_vec())
        ]));
    }
}
