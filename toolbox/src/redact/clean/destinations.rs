//! Named destinations whose name holds a term are renamed to an opaque name ("redacted-1",
//! ...): in the /Names /Dests tree (written back flat, sorted), in the catalog's older /Dests
//! dictionary, and wherever a destination names one (a /Dest, a GoTo action's /D, an open
//! action), so that links and bookmarks still lead where they did. Removing the names instead
//! would break every link to them. A name that is used but never defined holds the term too:
//! it is renamed as well (it led nowhere, and still does). Remote and embedded GoTo actions
//! name destinations of another file: they stay.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Terms;
use crate::names;

/// Nested direct objects deeper than this are not searched (no producer nests so deep).
const MAX_DEPTH: usize = 64;
/// The opaque names tried, in turn, until one holds no term (a term may well be "redacted").
const PREFIXES: [&str; 4] = ["redacted-", "dest-", "n", "_"];

/// Returns how many names were renamed.
pub fn rename(doc: &mut Document, terms: &Terms) -> u32 {
    let tree = names::tree_entries(doc);
    let old = names::dict_entries(doc);
    let mut used: BTreeSet<Vec<u8>> = tree.iter().chain(&old).map(|(k, _)| k.clone()).collect();
    visit_names(doc, &mut |name| {
        used.insert(name.clone());
    });
    let renames = fresh_names(&used, terms);
    if renames.is_empty() {
        return 0;
    }
    let renamed = |entries: Vec<(Vec<u8>, Object)>| -> (bool, Vec<(Vec<u8>, Object)>) {
        let mut changed = false;
        let entries = entries
            .into_iter()
            .map(|(key, value)| match renames.get(&key) {
                Some(new) => {
                    changed = true;
                    (new.clone(), value)
                }
                None => (key, value),
            })
            .collect();
        (changed, entries)
    };
    if let (true, entries) = renamed(tree) {
        // The tree is written first: when it cannot be, nothing is renamed (links keep
        // working), and the search that follows the redaction refuses the file.
        match names::write_tree(doc, entries) {
            Ok(root) => set_tree(doc, root),
            Err(err) => {
                tracing::warn!(%err, "named destinations not renamed");
                return 0;
            }
        }
    }
    visit_names(doc, &mut |name| {
        if let Some(new) = renames.get(name.as_slice()) {
            name.clone_from(new);
        }
    });
    if let (true, entries) = renamed(old)
        && let Ok(catalog) = doc.catalog_mut()
    {
        catalog.set("Dests", names::dests_dict(entries));
    }
    renames.len() as u32
}

/// Whether a destination name holds a term, read as bytes (any encoding) or as PDF text.
fn holds(terms: &Terms, name: &[u8]) -> bool {
    terms.found_in_bytes(name) || terms.found_in(&crate::text::decode(name))
}

/// A new name for each of `used` that holds a term: unused, holding no term, in the order of
/// the old names so that the same file is always renamed the same way.
fn fresh_names(used: &BTreeSet<Vec<u8>>, terms: &Terms) -> BTreeMap<Vec<u8>, Vec<u8>> {
    let hit: Vec<&Vec<u8>> = used.iter().filter(|name| holds(terms, name)).collect();
    let mut taken: HashSet<Vec<u8>> = used.iter().cloned().collect();
    let mut renames = BTreeMap::new();
    // Enough candidates under each prefix for every name, past those already taken.
    let limit = used.len() + 1;
    let mut candidates = PREFIXES
        .iter()
        .flat_map(|prefix| (1..=limit).map(move |n| format!("{prefix}{n}").into_bytes()))
        .filter(|candidate| !holds(terms, candidate));
    for name in hit {
        let Some(fresh) = candidates.by_ref().find(|c| !taken.contains(c)) else {
            tracing::warn!("no opaque name left for a named destination");
            break;
        };
        taken.insert(fresh.clone());
        renames.insert(name.clone(), fresh);
    }
    renames
}

/// Points the catalog's /Names /Dests at the new tree `root`.
fn set_tree(doc: &mut Document, root: ObjectId) {
    if let Some(dict) = names::names_dict_mut(doc) {
        dict.set("Dests", root);
    }
}

/// Calls `f` on every destination name the document uses: an outline item's or a link's
/// /Dest, a GoTo action's /D (wherever the action is: /A, /PA, /AA, /OpenAction, /Next), and
/// an /OpenAction written as a bare name. A name that is an object of its own is reached
/// through the reference.
fn visit_names(doc: &mut Document, f: &mut dyn FnMut(&mut Vec<u8>)) {
    let mut indirect = Vec::new();
    for object in doc.objects.values_mut() {
        visit(object, 0, f, &mut indirect);
    }
    let indirect: BTreeSet<ObjectId> = indirect.into_iter().collect();
    for id in indirect {
        if let Some(Object::Name(name) | Object::String(name, _)) = doc.objects.get_mut(&id) {
            f(name);
        }
    }
}

fn visit(
    object: &mut Object,
    depth: usize,
    f: &mut dyn FnMut(&mut Vec<u8>),
    indirect: &mut Vec<ObjectId>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match object {
        Object::Dictionary(dict) => visit_dict(dict, depth, f, indirect),
        Object::Stream(stream) => visit_dict(&mut stream.dict, depth, f, indirect),
        Object::Array(items) => {
            for item in items {
                visit(item, depth + 1, f, indirect);
            }
        }
        _ => {}
    }
}

fn visit_dict(
    dict: &mut Dictionary,
    depth: usize,
    f: &mut dyn FnMut(&mut Vec<u8>),
    indirect: &mut Vec<ObjectId>,
) {
    // /D is a destination only in a GoTo action; elsewhere (a dash pattern, a border, a
    // named destination's own dictionary, a remote GoTo) it is something else, or names a
    // destination in another file.
    let go_to = dict.get(b"S").and_then(Object::as_name).ok() == Some(b"GoTo");
    for (key, value) in dict.iter_mut() {
        let is_dest = key == b"Dest" || key == b"OpenAction" || (go_to && key == b"D");
        match value {
            Object::Name(name) | Object::String(name, _) if is_dest => f(name),
            Object::Reference(id) if is_dest => indirect.push(*id),
            _ => visit(value, depth + 1, f, indirect),
        }
    }
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn names_are_renamed_everywhere_and_stay_unique() {
        let mut doc = Document::new();
        let page = doc.add_object(dictionary! { "Type" => "Page" });
        let dest = || Object::Array(vec![page.into(), "Fit".into()]);
        let leaf = doc_node(
            &mut doc,
            vec![
                (b"Secret plan".as_slice(), dest()),
                (b"redacted-1", dest()),
                (b"zeta", dest()),
            ],
        );
        let tree = doc.add_object(dictionary! { "Kids" => vec![leaf] });
        let link = doc.add_object(dictionary! {
            "Subtype" => "Link",
            "A" => dictionary! { "S" => "GoTo", "D" => Object::string_literal("secret plan") },
        });
        let remote = doc.add_object(dictionary! {
            "S" => "GoToR", "F" => Object::string_literal("x.pdf"),
            "D" => Object::string_literal("Secret plan"),
        });
        let catalog = doc.add_object(dictionary! {
            "Type" => "Catalog", "Names" => dictionary! { "Dests" => tree },
            "Dests" => dictionary! { "SecretOld" => dest() },
            "OpenAction" => Object::Name(b"SecretOld".to_vec()),
        });
        doc.trailer.set("Root", catalog);
        let terms = Terms::new(&["SECRET".into()]);
        // "Secret plan", "secret plan" (used, undefined) and "SecretOld".
        assert_eq!(rename(&mut doc, &terms), 3);
        let keys: Vec<Vec<u8>> = names::tree_entries(&doc).into_iter().map(|e| e.0).collect();
        assert_eq!(
            keys,
            [b"redacted-1".to_vec(), b"redacted-2".into(), b"zeta".into()]
        );
        let get = |id: ObjectId, key: &[u8]| -> Object {
            doc.get_dictionary(id)
                .expect("dict")
                .get(key)
                .expect("key")
                .clone()
        };
        let action = get(link, b"A");
        let d = action.as_dict().expect("action").get(b"D").expect("d");
        assert_eq!(d.as_str().expect("string"), b"redacted-4");
        assert_eq!(get(remote, b"D").as_str().expect("string"), b"Secret plan");
        assert_eq!(
            get(catalog, b"OpenAction").as_name().expect("name"),
            b"redacted-3"
        );
        assert_eq!(names::dict_entries(&doc)[0].0, b"redacted-3");
    }

    fn doc_node(doc: &mut Document, entries: Vec<(&[u8], Object)>) -> Object {
        let mut pairs = Vec::new();
        for (key, value) in entries {
            pairs.push(Object::string_literal(key.to_vec()));
            pairs.push(value);
        }
        doc.add_object(dictionary! { "Names" => pairs }).into()
    }
}
