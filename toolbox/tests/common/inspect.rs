//! Reading the tools' outputs back with lopdf alone, apart from the crate's own readers so
//! that a bug there cannot hide itself.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId};

/// The output, loaded.
pub fn load(path: &Path) -> Document {
    Document::load(path).unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()))
}

pub fn page_ids(doc: &Document) -> Vec<ObjectId> {
    doc.get_pages().into_values().collect()
}

/// What each page shows: the text of its first "(...) Tj", or "" for a blank page.
pub fn labels(doc: &Document) -> Vec<String> {
    page_ids(doc)
        .into_iter()
        .map(|id| {
            let content = String::from_utf8_lossy(&doc.get_page_content(id)).into_owned();
            content
                .split_once('(')
                .and_then(|(_, rest)| rest.split_once(") Tj"))
                .map(|(label, _)| label.to_string())
                .unwrap_or_default()
        })
        .collect()
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    doc.dereference(object)
        .map(|(_, o)| o)
        .unwrap_or(&Object::Null)
}

/// Every named destination: the /Names /Dests tree's and the /Dests dictionary's.
pub fn named_dests(doc: &Document) -> HashMap<Vec<u8>, Object> {
    fn walk(doc: &Document, node: &Object, out: &mut HashMap<Vec<u8>, Object>, depth: usize) {
        let Ok(node) = resolve(doc, node).as_dict() else {
            return;
        };
        if let Ok(names) = resolve(doc, node.get(b"Names").unwrap_or(&Object::Null)).as_array() {
            for pair in names.chunks(2) {
                out.insert(pair[0].as_str().unwrap().to_vec(), pair[1].clone());
            }
        }
        if depth < 10
            && let Ok(kids) = resolve(doc, node.get(b"Kids").unwrap_or(&Object::Null)).as_array()
        {
            for kid in kids {
                walk(doc, kid, out, depth + 1);
            }
        }
    }
    let mut out = HashMap::new();
    let catalog = doc.catalog().unwrap();
    if let Ok(names) = catalog.get(b"Names") {
        let names = resolve(doc, names).as_dict().unwrap();
        if let Ok(tree) = names.get(b"Dests") {
            walk(doc, tree, &mut out, 0);
        }
    }
    if let Ok(dests) = catalog.get(b"Dests") {
        for (key, value) in resolve(doc, dests).as_dict().unwrap().iter() {
            out.insert(key.clone(), value.clone());
        }
    }
    out
}

/// The page index a destination leads to.
pub fn dest_page(doc: &Document, dest: &Object) -> Option<usize> {
    let dest = match resolve(doc, dest) {
        Object::Name(name) | Object::String(name, _) => named_dests(doc).get(name)?.clone(),
        other => other.clone(),
    };
    let dest = match resolve(doc, &dest) {
        Object::Dictionary(dict) => resolve(doc, dict.get(b"D").ok()?).clone(),
        other => other.clone(),
    };
    let page = dest.as_array().ok()?.first()?.as_reference().ok()?;
    page_ids(doc).iter().position(|&id| id == page)
}

/// The page index an outline entry or annotation leads to.
pub fn holder_page(doc: &Document, holder: &Dictionary) -> Option<usize> {
    if let Ok(dest) = holder.get(b"Dest") {
        return dest_page(doc, dest);
    }
    let action = resolve(doc, holder.get(b"A").ok()?).as_dict().ok()?;
    dest_page(doc, action.get(b"D").ok()?)
}

/// The outline as (depth, title, page index), in order.
pub fn outline_entries(doc: &Document) -> Vec<(usize, String, Option<usize>)> {
    fn walk(
        doc: &Document,
        first: Option<ObjectId>,
        depth: usize,
        seen: &mut HashSet<ObjectId>,
        out: &mut Vec<(usize, String, Option<usize>)>,
    ) {
        let mut next = first;
        while let Some(id) = next {
            assert!(seen.insert(id), "the outline has a cycle");
            let item = doc.get_dictionary(id).unwrap();
            let title = String::from_utf8_lossy(
                resolve(doc, item.get(b"Title").unwrap()).as_str().unwrap(),
            )
            .into_owned();
            out.push((depth, title, holder_page(doc, item)));
            walk(
                doc,
                item.get(b"First").and_then(Object::as_reference).ok(),
                depth + 1,
                seen,
                out,
            );
            next = item.get(b"Next").and_then(Object::as_reference).ok();
        }
    }
    let mut out = Vec::new();
    let Ok(outlines) = doc.catalog().unwrap().get(b"Outlines") else {
        return out;
    };
    let first = resolve(doc, outlines)
        .as_dict()
        .unwrap()
        .get(b"First")
        .and_then(Object::as_reference)
        .ok();
    walk(doc, first, 0, &mut HashSet::new(), &mut out);
    out
}

pub fn annots(doc: &Document, page: ObjectId) -> Vec<(Option<ObjectId>, Dictionary)> {
    let page = doc.get_dictionary(page).unwrap();
    let Ok(annots) = page.get(b"Annots") else {
        return Vec::new();
    };
    resolve(doc, annots)
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry.as_reference().ok(),
                resolve(doc, entry).as_dict().unwrap().clone(),
            )
        })
        .collect()
}

/// Where each link of a page leads: the page index, or None for a web link.
pub fn links(doc: &Document, page: usize) -> Vec<Option<usize>> {
    annots(doc, page_ids(doc)[page])
        .iter()
        .filter(|(_, a)| a.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Link"))
        .map(|(_, a)| holder_page(doc, a))
        .collect()
}

/// A page attribute, its own or inherited.
pub fn effective(doc: &Document, page: ObjectId, key: &[u8]) -> Option<Object> {
    let mut node = doc.get_dictionary(page).ok()?;
    for _ in 0..32 {
        if let Ok(value) = node.get(key) {
            return Some(resolve(doc, value).clone());
        }
        node = doc
            .get_dictionary(node.get(b"Parent").ok()?.as_reference().ok()?)
            .ok()?;
    }
    None
}

pub fn rotations(doc: &Document) -> Vec<i64> {
    page_ids(doc)
        .into_iter()
        .map(|id| {
            effective(doc, id, b"Rotate")
                .and_then(|r| r.as_i64().ok())
                .unwrap_or(0)
        })
        .collect()
}

/// Whether any stream of the document holds `needle` in its stored data.
pub fn carries(doc: &Document, needle: &[u8]) -> bool {
    doc.objects.values().any(|object| {
        object
            .as_stream()
            .is_ok_and(|stream| stream.content.windows(needle.len()).any(|w| w == needle))
    })
}

/// Objects of type /Page in the file, reachable or not.
pub fn page_objects(doc: &Document) -> usize {
    doc.objects
        .values()
        .filter(|object| object.as_dict().is_ok_and(|dict| dict.has_type(b"Page")))
        .count()
}

/// The names of the form's top-level fields.
pub fn field_names(doc: &Document) -> Vec<String> {
    let Ok(form) = doc.catalog().unwrap().get(b"AcroForm") else {
        return Vec::new();
    };
    let form = resolve(doc, form).as_dict().unwrap();
    resolve(doc, form.get(b"Fields").unwrap())
        .as_array()
        .unwrap()
        .iter()
        .map(|field| {
            let field = resolve(doc, field).as_dict().unwrap();
            String::from_utf8_lossy(field.get(b"T").unwrap().as_str().unwrap()).into_owned()
        })
        .collect()
}

pub fn outline_of(entries: &[(usize, &str, Option<usize>)]) -> Vec<(usize, String, Option<usize>)> {
    entries
        .iter()
        .map(|(d, t, p)| (*d, t.to_string(), *p))
        .collect()
}

/// The pages (by /P) of the widgets of a top-level field, in /Kids order.
pub fn field_widgets(doc: &Document, name: &str) -> Vec<ObjectId> {
    let form = resolve(doc, doc.catalog().unwrap().get(b"AcroForm").unwrap())
        .as_dict()
        .unwrap();
    let fields = resolve(doc, form.get(b"Fields").unwrap())
        .as_array()
        .unwrap();
    let field = fields
        .iter()
        .map(|f| {
            (
                f.as_reference().unwrap(),
                resolve(doc, f).as_dict().unwrap(),
            )
        })
        .find(|(_, f)| f.get(b"T").unwrap().as_str().unwrap() == name.as_bytes())
        .unwrap();
    resolve(doc, field.1.get(b"Kids").unwrap())
        .as_array()
        .unwrap()
        .iter()
        .map(|kid| {
            let widget = resolve(doc, kid).as_dict().unwrap();
            assert!(!widget.has(b"T"), "a widget kept the field's name");
            assert_eq!(widget.get(b"Parent").unwrap(), &Object::Reference(field.0));
            widget.get(b"P").unwrap().as_reference().unwrap()
        })
        .collect()
}
