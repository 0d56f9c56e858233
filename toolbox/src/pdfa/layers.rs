//! Optional content, which PDF/A-1 does not have (ISO 19005-1 6.1.13) and validators of the
//! later parts cannot check, is flattened to the document's default view: the content of layers
//! hidden by default is removed first by the sanitize tool's code (see `convert`), then what
//! is left of the layers goes: the catalog's /OCProperties, the /OC of XObjects and
//! annotations, and each `/OC /name BDC` becomes `/OC BMC`, plain marked content that still
//! closes with its EMC.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

use super::changes::Changes;
use super::content;

/// Whether the document has optional content.
pub fn present(doc: &Document) -> bool {
    doc.catalog().is_ok_and(|c| c.has(b"OCProperties"))
        || doc.objects.values().any(|o| match o {
            Object::Dictionary(d) => d.has(b"OC"),
            Object::Stream(s) => s.dict.has(b"OC"),
            _ => false,
        })
}

/// Removes what is left of the layers once their hidden content is gone.
pub fn remove(doc: &mut Document, changes: &mut Changes) {
    let mut any = false;
    if let Ok(catalog) = doc.catalog_mut() {
        any |= catalog.remove(b"OCProperties").is_some();
    }
    let groups: HashSet<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| {
            o.as_dict()
                .is_ok_and(|d| d.has_type(b"OCG") || d.has_type(b"OCMD"))
        })
        .map(|(id, _)| *id)
        .collect();
    for object in doc.objects.values_mut() {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &mut stream.dict,
            Object::Array(items) => {
                items.retain(|v| !matches!(v, Object::Reference(id) if groups.contains(id)));
                continue;
            }
            _ => continue,
        };
        any |= dict.remove(b"OC").is_some();
        // Nothing names the groups any more (property lists, usage arrays): every reference
        // to one goes, and the save drops them.
        drop_group_refs(dict, &groups);
    }
    for id in content_streams(doc) {
        let Ok(Object::Stream(stream)) = doc.get_object_mut(id) else {
            continue;
        };
        let Ok(data) = stream.decompressed_content() else {
            continue;
        };
        if !data.windows(3).any(|w| w == b"/OC") {
            continue;
        }
        let Ok(ops) = content::parse(&data) else {
            continue;
        };
        let mut out = Vec::with_capacity(data.len());
        let mut last = 0;
        for op in &ops {
            let oc = op.operator == b"BDC"
                && op.operands.first().and_then(content::Operand::name) == Some(b"OC");
            if oc {
                out.extend_from_slice(&data[last..op.span.0]);
                out.extend_from_slice(b"/OC BMC");
                last = op.span.1;
            }
        }
        if last > 0 {
            out.extend_from_slice(&data[last..]);
            stream.set_plain_content(out);
            stream.dict.remove(b"DecodeParms");
            any = true;
        }
    }
    if any {
        changes.note("removed the layers (optional content), keeping what they show by default");
    }
}

fn drop_group_refs(dict: &mut lopdf::Dictionary, groups: &HashSet<ObjectId>) {
    let keys: Vec<Vec<u8>> = dict
        .iter()
        .filter(|(_, v)| matches!(v, Object::Reference(id) if groups.contains(id)))
        .map(|(k, _)| k.clone())
        .collect();
    for key in keys {
        dict.remove(&key);
    }
    for (_, value) in dict.iter_mut() {
        match value {
            Object::Dictionary(inner) => drop_group_refs(inner, groups),
            Object::Array(items) => {
                items.retain(|v| !matches!(v, Object::Reference(id) if groups.contains(id)));
                for item in items.iter_mut() {
                    if let Object::Dictionary(inner) = item {
                        drop_group_refs(inner, groups);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Every content stream: the pages', Form XObjects', tiling patterns' and Type 3 glyphs'.
pub fn content_streams(doc: &Document) -> Vec<ObjectId> {
    let mut ids = Vec::new();
    for (id, object) in &doc.objects {
        match object {
            Object::Stream(stream) => {
                let dict = &stream.dict;
                let form = dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Form");
                let pattern = dict.get(b"PatternType").and_then(Object::as_i64).ok() == Some(1);
                if form || pattern {
                    ids.push(*id);
                }
            }
            Object::Dictionary(dict) => {
                let refs = |key: &[u8]| -> Vec<ObjectId> {
                    match dict.get(key) {
                        Ok(Object::Reference(id)) => vec![*id],
                        Ok(Object::Array(items)) => {
                            items.iter().filter_map(|i| i.as_reference().ok()).collect()
                        }
                        Ok(Object::Dictionary(procs)) => procs
                            .iter()
                            .filter_map(|(_, v)| v.as_reference().ok())
                            .collect(),
                        _ => Vec::new(),
                    }
                };
                if dict.has_type(b"Page") {
                    ids.extend(refs(b"Contents"));
                }
                if dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type3") {
                    ids.extend(refs(b"CharProcs"));
                }
            }
            _ => {}
        }
    }
    ids.sort();
    ids.dedup();
    ids
}
