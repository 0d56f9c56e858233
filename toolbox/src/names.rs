//! Named destinations: the catalog's /Names /Dests name tree and the older /Dests
//! dictionary, read into flat lists and written back as one flat tree.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId, StringFormat};

use crate::ToolError;

/// Deeper than any producer builds a name tree (they balance it a few levels deep).
const MAX_DEPTH: usize = 32;

/// The catalog's /Names dictionary, resolved.
pub fn names_dict(doc: &Document) -> Option<&Dictionary> {
    let names = doc.catalog().ok()?.get(b"Names").ok()?;
    doc.dereference(names).ok()?.1.as_dict().ok()
}

/// The catalog's /Names dictionary, to change: an object of its own or held in the catalog.
pub fn names_dict_mut(doc: &mut Document) -> Option<&mut Dictionary> {
    let reference = doc.catalog().ok()?.get(b"Names").ok()?.as_reference().ok();
    match reference {
        Some(id) => doc.get_dictionary_mut(id).ok(),
        None => doc
            .catalog_mut()
            .ok()?
            .get_mut(b"Names")
            .ok()?
            .as_dict_mut()
            .ok(),
    }
}

/// The entries of the /Names /Dests tree, in tree order. A node seen twice (a cycle) and keys
/// that are not strings are skipped.
pub fn tree_entries(doc: &Document) -> Vec<(Vec<u8>, Object)> {
    let mut entries = Vec::new();
    if let Some(root) = names_dict(doc).and_then(|names| names.get(b"Dests").ok()) {
        collect(doc, root, 0, &mut HashSet::new(), &mut entries);
    }
    entries
}

fn collect(
    doc: &Document,
    node: &Object,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
    entries: &mut Vec<(Vec<u8>, Object)>,
) {
    if let Object::Reference(id) = node
        && !seen.insert(*id)
    {
        return;
    }
    let Some(node) = doc
        .dereference(node)
        .ok()
        .and_then(|(_, node)| node.as_dict().ok())
    else {
        return;
    };
    if let Some(pairs) = node
        .get(b"Names")
        .ok()
        .and_then(|names| resolve_array(doc, names))
    {
        for pair in pairs.chunks_exact(2) {
            if let Object::String(key, _) = &pair[0] {
                entries.push((key.clone(), pair[1].clone()));
            }
        }
    }
    if depth < MAX_DEPTH
        && let Some(kids) = node
            .get(b"Kids")
            .ok()
            .and_then(|kids| resolve_array(doc, kids))
    {
        for kid in kids {
            collect(doc, kid, depth + 1, seen, entries);
        }
    }
}

fn resolve_array<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Vec<Object>> {
    doc.dereference(object).ok()?.1.as_array().ok()
}

/// The entries of the catalog's /Dests dictionary (PDF 1.1 named destinations).
pub fn dict_entries(doc: &Document) -> Vec<(Vec<u8>, Object)> {
    let Some(dests) = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"Dests").ok())
        .and_then(|dests| doc.dereference(dests).ok())
        .and_then(|(_, dests)| dests.as_dict().ok())
    else {
        return Vec::new();
    };
    dests
        .iter()
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// Writes `entries` as a one-node name tree (a root holding every name is valid, and is what
/// a viewer reads fastest). Keys are sorted as the tree requires; a repeated key keeps its
/// first value.
pub fn write_tree(
    doc: &mut Document,
    mut entries: Vec<(Vec<u8>, Object)>,
) -> Result<ObjectId, ToolError> {
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|later, earlier| later.0 == earlier.0);
    let mut names = Vec::with_capacity(entries.len() * 2);
    for (key, value) in entries {
        names.push(Object::String(key, StringFormat::Literal));
        names.push(value);
    }
    let mut root = Dictionary::new();
    root.set("Names", names);
    let id = crate::io::new_id(doc)?;
    doc.objects.insert(id, Object::Dictionary(root));
    Ok(id)
}

/// The /Dests dictionary holding `entries`; a repeated key keeps its first value.
pub fn dests_dict(entries: Vec<(Vec<u8>, Object)>) -> Dictionary {
    let mut dict = Dictionary::new();
    for (key, value) in entries {
        if !dict.has(&key) {
            dict.set(key, value);
        }
    }
    dict
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn a_cyclic_name_tree_is_read_once() {
        let mut doc = Document::new();
        let node = doc.new_object_id();
        doc.objects.insert(
            node,
            Object::Dictionary(dictionary! {
                "Kids" => vec![node.into()],
                "Names" => vec![Object::string_literal("a"), Object::Integer(1)],
            }),
        );
        let names = doc.add_object(dictionary! { "Dests" => node });
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Names" => names });
        doc.trailer.set("Root", catalog);
        assert_eq!(
            tree_entries(&doc),
            vec![(b"a".to_vec(), Object::Integer(1))]
        );
    }

    #[test]
    fn written_tree_is_sorted_and_unique() {
        let mut doc = Document::new();
        let entries = vec![
            (b"b".to_vec(), Object::Integer(1)),
            (b"a".to_vec(), Object::Integer(2)),
            (b"b".to_vec(), Object::Integer(3)),
        ];
        let id = write_tree(&mut doc, entries).expect("written");
        let names = doc
            .get_dictionary(id)
            .and_then(|d| d.get(b"Names"))
            .expect("names");
        assert_eq!(
            names,
            &Object::Array(vec![
                Object::string_literal("a"),
                Object::Integer(2),
                Object::string_literal("b"),
                Object::Integer(1),
            ])
        );
    }
}
