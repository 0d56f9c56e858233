//! Resource dictionaries made equal by dropping what they did not use, merged into one object:
//! forms with the same content that each had their own `/Resources n 0 R` then have the same
//! dictionary too, and the stream merge makes them one.

use std::collections::HashMap;

use lopdf::{Document, ObjectId};

use super::survey::Place;

/// Points the references to each resource dictionary object (and to each category list
/// object they hold) at the first one equal to it; returns how many were redirected.
pub fn merge_resources<'a>(doc: &mut Document, places: impl Iterator<Item = &'a Place>) -> usize {
    let dictionaries: Vec<ObjectId> = places
        .filter_map(|place| match place {
            Place::Object(id) => Some(*id),
            Place::Inline(_) => None,
        })
        .collect();
    let lists: Vec<ObjectId> = dictionaries
        .iter()
        .filter_map(|&id| doc.get_dictionary(id).ok())
        .flat_map(|resources| {
            super::CATEGORIES
                .iter()
                .filter_map(|category| resources.get(category).ok()?.as_reference().ok())
        })
        .collect();
    // The lists first: dictionaries that differ only by which equal list they point to are
    // equal once the lists are one.
    merge(doc, lists) + merge(doc, dictionaries)
}

fn merge(doc: &mut Document, mut ids: Vec<ObjectId>) -> usize {
    ids.sort_unstable();
    ids.dedup();
    // Grouped by their text, then compared in full: the text spells keys lossily.
    let mut groups: HashMap<String, Vec<ObjectId>> = HashMap::new();
    let mut replace: HashMap<ObjectId, ObjectId> = HashMap::new();
    for id in ids {
        let Ok(dict) = doc.get_dictionary(id) else {
            continue;
        };
        let group = groups.entry(format!("{dict:?}")).or_default();
        let original = group
            .iter()
            .copied()
            .find(|&other| doc.get_dictionary(other).ok() == Some(dict));
        match original {
            Some(original) => {
                replace.insert(id, original);
            }
            None => group.push(id),
        }
    }
    if !replace.is_empty() {
        crate::streams::redirect(doc, |id| replace.get(id).copied());
    }
    replace.len()
}
