//! Resources no content names: fonts (Type 3 included), images and forms, graphics states,
//! shadings and patterns listed in a page's or form's /Resources that nothing draws. Producers
//! copy a document's whole font list into every page, or a page's resources into each form it
//! draws; Ghostscript writes only what is used. Dropped before the fonts and images are
//! worked on, so that nothing is spent on them, and before streams are merged, so that forms
//! that differed only by resources they did not use become one.
//!
//! Removal is by name: a resource stays when its name appears anywhere in the content of any
//! user of its dictionary ([`names`]), whatever the category. Colour spaces and marked-content
//! properties are left alone. A dictionary some user of which cannot be read, or that is
//! referenced from anywhere this pass does not read content for, stays whole; one shared by
//! several users keeps what any of them names.

mod merge;
mod names;
mod survey;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId};

use survey::{Place, Used};

/// The resource categories entries are removed from.
const CATEGORIES: [&[u8]; 5] = [b"Font", b"XObject", b"ExtGState", b"Shading", b"Pattern"];

/// Where one category's list of names is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Table {
    Object(ObjectId),
    Inline(Place, &'static [u8]),
}

/// Removes the resources no content names; returns how many entries went.
pub fn drop_unused(doc: &mut Document) -> usize {
    let survey = survey::survey(doc);
    let refs = reference_counts(doc);
    let mut known: HashMap<ObjectId, usize> = HashMap::new();
    for &resources in survey.owned.values() {
        *known.entry(resources).or_default() += 1;
    }
    let mut used = survey.used;
    let fallback = match &survey.fallback {
        Used::All => None,
        Used::Names(names) => Some(names.len()),
    };
    for (place, names) in used.iter_mut() {
        if let Place::Object(id) = place
            && refs.get(id) > known.get(id)
        {
            *names = Used::All;
        }
        names.add(&survey.fallback);
    }
    let mut tables: HashMap<Table, Used> = HashMap::new();
    let mut table_refs: HashMap<ObjectId, usize> = HashMap::new();
    for (&place, names) in &used {
        let Some(resources) = resources(doc, place) else {
            continue;
        };
        for category in CATEGORIES {
            let table = match resources.get(category) {
                Ok(Object::Reference(id)) => {
                    *table_refs.entry(*id).or_default() += 1;
                    Table::Object(*id)
                }
                Ok(Object::Dictionary(_)) => Table::Inline(place, category),
                _ => continue,
            };
            tables.entry(table).or_default().add(names);
        }
    }
    let mut removed = 0;
    for (table, names) in tables {
        let Used::Names(names) = names else {
            continue;
        };
        // A list also pointed to from elsewhere (a form field's /DR, say) stays whole.
        if let Table::Object(id) = table
            && refs.get(&id) > table_refs.get(&id)
        {
            continue;
        }
        let Some(list) = table_mut(doc, table) else {
            continue;
        };
        let unused: Vec<Vec<u8>> = list
            .iter()
            .filter(|(name, _)| !names.contains(name.as_slice()))
            .map(|(name, _)| name.clone())
            .collect();
        for name in unused {
            list.remove(&name);
            removed += 1;
        }
    }
    let whole = used.values().filter(|u| matches!(u, Used::All)).count();
    let merged = if removed > 0 {
        merge::merge_resources(doc, used.keys())
    } else {
        0
    };
    tracing::debug!(
        dictionaries = used.len(),
        whole,
        fallback,
        removed,
        merged,
        "unused resources dropped"
    );
    removed
}

/// How many times each object is referenced, from the trailer and every object.
fn reference_counts(doc: &Document) -> HashMap<ObjectId, usize> {
    fn count(object: &Object, refs: &mut HashMap<ObjectId, usize>) {
        match object {
            Object::Reference(id) => *refs.entry(*id).or_default() += 1,
            Object::Array(items) => items.iter().for_each(|item| count(item, refs)),
            Object::Dictionary(dict) => dict.iter().for_each(|(_, value)| count(value, refs)),
            Object::Stream(stream) => stream.dict.iter().for_each(|(_, value)| count(value, refs)),
            _ => {}
        }
    }
    let mut refs = HashMap::new();
    for (_, value) in doc.trailer.iter() {
        count(value, &mut refs);
    }
    for object in doc.objects.values() {
        count(object, &mut refs);
    }
    refs
}

fn owner_dict(object: &Object) -> Option<&Dictionary> {
    match object {
        Object::Dictionary(dict) => Some(dict),
        Object::Stream(stream) => Some(&stream.dict),
        _ => None,
    }
}

fn owner_dict_mut(object: &mut Object) -> Option<&mut Dictionary> {
    match object {
        Object::Dictionary(dict) => Some(dict),
        Object::Stream(stream) => Some(&mut stream.dict),
        _ => None,
    }
}

fn resources(doc: &Document, place: Place) -> Option<&Dictionary> {
    match place {
        Place::Object(id) => doc.get_dictionary(id).ok(),
        Place::Inline(owner) => owner_dict(doc.objects.get(&owner)?)?
            .get(b"Resources")
            .ok()?
            .as_dict()
            .ok(),
    }
}

fn table_mut(doc: &mut Document, table: Table) -> Option<&mut Dictionary> {
    match table {
        Table::Object(id) => doc.get_dictionary_mut(id).ok(),
        Table::Inline(place, category) => {
            let resources = match place {
                Place::Object(id) => doc.get_dictionary_mut(id).ok()?,
                Place::Inline(owner) => owner_dict_mut(doc.objects.get_mut(&owner)?)?
                    .get_mut(b"Resources")
                    .ok()?
                    .as_dict_mut()
                    .ok()?,
            };
            resources.get_mut(category).ok()?.as_dict_mut().ok()
        }
    }
}
