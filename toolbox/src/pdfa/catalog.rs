//! The catalog and what hangs from it (name dictionary, outline, viewer preferences,
//! structure tree root, page labels), cut to the entries PDF/A defines and validators check.
//! What goes changes nothing on the page: private application data, the permissions of a
//! signature the conversion invalidates anyway, web capture data, developer extensions
//! beyond the level's PDF version, article threads.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Level;
use super::changes::Changes;

const CATALOG: [&[u8]; 18] = [
    b"Type",
    b"Pages",
    b"Metadata",
    b"OutputIntents",
    b"Lang",
    b"MarkInfo",
    b"StructTreeRoot",
    b"PageMode",
    b"PageLayout",
    b"ViewerPreferences",
    b"Outlines",
    b"PageLabels",
    b"Names",
    b"Dests",
    b"AF",
    b"OCProperties",
    b"AcroForm",
    b"Extensions",
];
/// The name trees kept: named appearances (/AP) go too, since annotations hold their
/// appearances themselves and validators that meet these forms before the output intent
/// cannot check their colour.
const NAMES: [&[u8]; 2] = [b"Dests", b"EmbeddedFiles"];
const OUTLINE_ITEM: [&[u8]; 10] = [
    b"Title", b"Parent", b"Prev", b"Next", b"First", b"Last", b"Count", b"Dest", b"A", b"C",
];
const STRUCT_ROOT: [&[u8]; 7] = [
    b"Type",
    b"K",
    b"ParentTree",
    b"ParentTreeNextKey",
    b"RoleMap",
    b"ClassMap",
    b"IDTree",
];
const MARK_INFO: [&[u8]; 3] = [b"Marked", b"UserProperties", b"Suspects"];
/// Deeper than any outline nests.
const MAX_DEPTH: usize = 64;

/// Cleans the catalog and its dependents.
pub fn clean(doc: &mut Document, level: Level, changes: &mut Changes) {
    let Ok(catalog) = doc.catalog_mut() else {
        return;
    };
    let mut dropped = Vec::new();
    let keys: Vec<Vec<u8>> = catalog.iter().map(|(k, _)| k.clone()).collect();
    for key in keys {
        let keep = CATALOG.contains(&key.as_slice())
            && !(key == b"OCProperties" && level.part1())
            && !(key == b"AF" && level != Level::A3b)
            && key != b"Extensions";
        if !keep {
            catalog.remove(&key);
            if !matches!(key.as_slice(), b"Version" | b"Extensions" | b"OCProperties") {
                dropped.push(String::from_utf8_lossy(&key).into_owned());
            }
        }
    }
    catalog.set("Type", Object::Name(b"Catalog".to_vec()));
    let mode = catalog.get(b"PageMode").and_then(Object::as_name).ok();
    if !matches!(
        mode,
        None | Some(b"UseNone" | b"UseOutlines" | b"UseThumbs" | b"FullScreen")
    ) {
        catalog.set("PageMode", Object::Name(b"UseNone".to_vec()));
    }
    let layout = catalog.get(b"PageLayout").and_then(Object::as_name).ok();
    if !matches!(
        layout,
        None | Some(
            b"SinglePage"
                | b"OneColumn"
                | b"TwoColumnLeft"
                | b"TwoColumnRight"
                | b"TwoPageLeft"
                | b"TwoPageRight"
        )
    ) {
        catalog.remove(b"PageLayout");
    }
    if !matches!(catalog.get(b"Lang"), Ok(Object::String(..)) | Err(_)) {
        catalog.remove(b"Lang");
    }
    if !dropped.is_empty() {
        changes.note(format!(
            "removed catalog entries PDF/A does not define or allow ({})",
            dropped.join(", ")
        ));
    }
    prune_entry(doc, b"Names", &NAMES);
    prune_entry(doc, b"MarkInfo", &MARK_INFO);
    prune_entry(doc, b"StructTreeRoot", &STRUCT_ROOT);
    viewer_preferences(doc);
    outline(doc);
    page_labels(doc);
}

/// The catalog entry `key` (direct or indirect) cut to `allowed` keys.
fn prune_entry(doc: &mut Document, key: &[u8], allowed: &[&[u8]]) {
    if let Some(dict) = entry_mut(doc, key) {
        keep_only(dict, allowed);
    }
}

fn entry_mut<'a>(doc: &'a mut Document, key: &[u8]) -> Option<&'a mut Dictionary> {
    let value = doc.catalog().ok()?.get(key).ok()?.clone();
    match value {
        Object::Reference(id) => doc.get_dictionary_mut(id).ok(),
        Object::Dictionary(_) => doc
            .catalog_mut()
            .ok()?
            .get_mut(key)
            .ok()?
            .as_dict_mut()
            .ok(),
        _ => None,
    }
}

pub fn keep_only(dict: &mut Dictionary, allowed: &[&[u8]]) -> usize {
    let keys: Vec<Vec<u8>> = dict
        .iter()
        .map(|(k, _)| k.clone())
        .filter(|k| !allowed.contains(&k.as_slice()))
        .collect();
    for key in &keys {
        dict.remove(key);
    }
    keys.len()
}

fn viewer_preferences(doc: &mut Document) {
    let Some(prefs) = entry_mut(doc, b"ViewerPreferences") else {
        return;
    };
    let flags: [&[u8]; 7] = [
        b"HideToolbar",
        b"HideMenubar",
        b"HideWindowUI",
        b"FitWindow",
        b"CenterWindow",
        b"DisplayDocTitle",
        b"PickTrayByPDFSize",
    ];
    let boxes: [&[u8]; 5] = [b"MediaBox", b"CropBox", b"BleedBox", b"TrimBox", b"ArtBox"];
    let keys: Vec<Vec<u8>> = prefs.iter().map(|(k, _)| k.clone()).collect();
    for key in keys {
        let value = prefs.get(&key).ok();
        let name = value.and_then(|v| v.as_name().ok());
        let ok = match key.as_slice() {
            k if flags.contains(&k) => matches!(value, Some(Object::Boolean(_))),
            b"NonFullScreenPageMode" => {
                matches!(name, Some(b"UseNone" | b"UseOutlines" | b"UseThumbs"))
            }
            b"Direction" => matches!(name, Some(b"L2R" | b"R2L")),
            b"ViewArea" | b"ViewClip" | b"PrintArea" | b"PrintClip" => {
                name.is_some_and(|n| boxes.contains(&n))
            }
            b"PrintScaling" => matches!(name, Some(b"None" | b"AppDefault")),
            b"Duplex" => matches!(
                name,
                Some(b"Simplex" | b"DuplexFlipShortEdge" | b"DuplexFlipLongEdge")
            ),
            b"PrintPageRange" => {
                matches!(value, Some(Object::Array(items)) if items.iter().all(|i| matches!(i, Object::Integer(_))))
            }
            b"NumCopies" => matches!(value, Some(Object::Integer(_))),
            _ => false,
        };
        if !ok {
            prefs.remove(&key);
        }
    }
}

/// The outline's items keep the keys of ISO 32000-1 Table 153 (their structure elements and
/// other keys go), each with a title.
fn outline(doc: &mut Document) {
    let Some(root) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Outlines").ok())
        .and_then(|o| o.as_reference().ok())
    else {
        if let Ok(catalog) = doc.catalog_mut()
            && matches!(catalog.get(b"Outlines"), Ok(Object::Dictionary(_)))
        {
            catalog.remove(b"Outlines");
        }
        return;
    };
    if let Ok(dict) = doc.get_dictionary_mut(root) {
        keep_only(dict, &[b"Type", b"First", b"Last", b"Count"]);
    }
    let mut seen: HashSet<ObjectId> = HashSet::new();
    let mut todo: Vec<(ObjectId, usize)> =
        first_child(doc, root).map(|c| (c, 0)).into_iter().collect();
    while let Some((id, depth)) = todo.pop() {
        if !seen.insert(id) || depth > MAX_DEPTH {
            continue;
        }
        let (next, child) = {
            let Ok(item) = doc.get_dictionary_mut(id) else {
                continue;
            };
            keep_only(item, &OUTLINE_ITEM);
            if !matches!(item.get(b"Title"), Ok(Object::String(..))) {
                item.set("Title", Object::string_literal(""));
            }
            (
                item.get(b"Next").and_then(Object::as_reference).ok(),
                item.get(b"First").and_then(Object::as_reference).ok(),
            )
        };
        if let Some(next) = next {
            todo.push((next, depth));
        }
        if let Some(child) = child {
            todo.push((child, depth + 1));
        }
    }
}

fn first_child(doc: &Document, id: ObjectId) -> Option<ObjectId> {
    doc.get_dictionary(id)
        .ok()?
        .get(b"First")
        .ok()?
        .as_reference()
        .ok()
}

/// Page labels keep their style, prefix and start.
fn page_labels(doc: &mut Document) {
    let Some(labels) = entry_mut(doc, b"PageLabels") else {
        return;
    };
    keep_only(labels, &[b"Nums", b"Kids", b"Limits"]);
    let nums = labels.get(b"Nums").ok().cloned();
    // Each label is written in place (the validators read the number tree's values there).
    let inlined = nums.and_then(|nums| {
        let items = doc.dereference(&nums).ok()?.1.as_array().ok()?.clone();
        let items: Vec<Object> = items
            .into_iter()
            .map(|item| match doc.dereference(&item) {
                Ok((_, Object::Dictionary(label))) => {
                    let mut label = label.clone();
                    keep_only(&mut label, &[b"Type", b"S", b"P", b"St"]);
                    if !matches!(label.get(b"St"), Ok(Object::Integer(1..)) | Err(_)) {
                        label.remove(b"St");
                    }
                    Object::Dictionary(label)
                }
                _ => item,
            })
            .collect();
        Some(items)
    });
    if let Some(items) = inlined
        && let Some(labels) = entry_mut(doc, b"PageLabels")
    {
        labels.set("Nums", items);
    }
}
