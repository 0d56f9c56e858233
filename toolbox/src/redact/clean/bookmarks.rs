//! Bookmarks whose title holds a term are retitled: each occurrence replaced, the entry kept
//! where it is with its children and its destination (removing it would take its children
//! along, and the page it leads to is still there).

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

use super::Terms;

/// Deeper than any real outline; below it entries are left as they are.
const MAX_DEPTH: usize = 64;

/// Returns how many titles changed.
pub fn retitle(doc: &mut Document, terms: &Terms, replacement: &str) -> u32 {
    let first = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Outlines").ok())
        .and_then(|o| doc.dereference(o).ok())
        .and_then(|(_, o)| o.as_dict().ok())
        .and_then(|o| o.get(b"First").and_then(Object::as_reference).ok());
    let mut items = Vec::new();
    let mut seen = HashSet::new();
    let mut todo: Vec<(ObjectId, usize)> = first.into_iter().map(|id| (id, 0)).collect();
    while let Some((id, depth)) = todo.pop() {
        // A sibling chain that loops back, or a child listing its ancestor, ends here.
        if depth > MAX_DEPTH || !seen.insert(id) {
            continue;
        }
        let Ok(item) = doc.get_dictionary(id) else {
            continue;
        };
        items.push(id);
        let link = |key: &[u8]| item.get(key).and_then(Object::as_reference).ok();
        if let Some(next) = link(b"Next") {
            todo.push((next, depth));
        }
        if let Some(child) = link(b"First") {
            todo.push((child, depth + 1));
        }
    }
    let mut changed = 0;
    for id in items {
        let title = match doc
            .get_dictionary(id)
            .ok()
            .and_then(|d| d.get(b"Title").ok())
        {
            Some(value) => match doc.dereference(value) {
                Ok((_, Object::String(bytes, _))) => crate::text::decode(bytes),
                _ => continue,
            },
            None => continue,
        };
        if terms.found_in(&title)
            && let Ok(item) = doc.get_dictionary_mut(id)
        {
            item.set(
                "Title",
                crate::text::encode(&terms.replace_in(&title, replacement)),
            );
            changed += 1;
        }
    }
    changed
}
