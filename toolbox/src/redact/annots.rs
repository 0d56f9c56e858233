//! Annotations in the areas: any whose /Rect overlaps an area goes (links, widgets, markup,
//! file attachments), with its pop-up. A field whose widget went loses its value, and leaves
//! the form when no widget is left. Every other reference to a removed annotation (a
//! structure element's OBJR, another annotation's /IRT, a field's /Kids) is cut, so that the
//! save drops it and the text it holds with it.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::geometry::rect;
use crate::redact::geometry::Areas;

/// Field hierarchies deeper than this are not climbed.
const MAX_DEPTH: usize = 32;

/// What went on one page.
#[derive(Debug, Default)]
pub struct Removal {
    pub removed: HashSet<ObjectId>,
    /// Annotations written inline in /Annots (they have no id) removed.
    pub inline: u32,
}

/// Removes the page's annotations that overlap `areas`.
pub fn remove_in_areas(doc: &mut Document, page: ObjectId, areas: &Areas) -> Removal {
    remove_where(doc, page, |doc, annot| {
        rect(doc, annot.get(b"Rect").unwrap_or(&Object::Null)).is_some_and(|r| areas.touches(&r))
    })
}

/// Removes the page's annotations `condemn` picks, and the pop-ups of removed ones.
pub fn remove_where(
    doc: &mut Document,
    page: ObjectId,
    condemn: impl Fn(&Document, &Dictionary) -> bool,
) -> Removal {
    let mut removal = Removal::default();
    let Some(entries) = annots(doc, page) else {
        return removal;
    };
    let mut kept = Vec::with_capacity(entries.len());
    for entry in &entries {
        let id = entry.as_reference().ok();
        let Some(dict) = doc
            .dereference(entry)
            .ok()
            .and_then(|(_, d)| d.as_dict().ok())
        else {
            kept.push(entry.clone());
            continue;
        };
        if condemn(doc, dict) {
            match id {
                Some(id) => {
                    removal.removed.insert(id);
                }
                None => removal.inline += 1,
            }
            if let Ok(popup) = dict.get(b"Popup").and_then(Object::as_reference) {
                removal.removed.insert(popup);
            }
        } else {
            kept.push(entry.clone());
        }
    }
    // Pop-ups whose parent went, wherever they are listed.
    kept.retain(|entry| {
        let parent = doc
            .dereference(entry)
            .ok()
            .and_then(|(_, d)| d.as_dict().ok())
            .and_then(|d| d.get(b"Parent").ok())
            .and_then(|p| p.as_reference().ok());
        let orphan = parent.is_some_and(|p| removal.removed.contains(&p));
        let listed = entry
            .as_reference()
            .is_ok_and(|id| removal.removed.contains(&id));
        if orphan && let Ok(id) = entry.as_reference() {
            removal.removed.insert(id);
        }
        !(orphan || listed)
    });
    if kept.len() != entries.len()
        && let Ok(dict) = doc.get_dictionary_mut(page)
    {
        dict.set("Annots", Object::Array(kept));
    }
    removal
}

fn annots(doc: &Document, page: ObjectId) -> Option<Vec<Object>> {
    let value = doc.get_dictionary(page).ok()?.get(b"Annots").ok()?;
    Some(doc.dereference(value).ok()?.1.as_array().ok()?.clone())
}

/// The fields whose widgets are among `removed` lose their values (their other widgets then
/// show nothing, or Off), and leave the form when no widget is left. Returns how many fields
/// were cleared.
pub fn clear_fields(doc: &mut Document, removed: &HashSet<ObjectId>) -> u32 {
    let mut fields = HashSet::new();
    for &widget in removed {
        let Ok(dict) = doc.get_dictionary(widget) else {
            continue;
        };
        if dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Widget") {
            continue;
        }
        // A widget without a name is the kid of its field; one with a name is the field.
        let field = match dict.get(b"Parent").and_then(Object::as_reference) {
            Ok(parent) if !dict.has(b"T") => parent,
            _ => widget,
        };
        fields.insert(field);
    }
    let mut cleared = 0;
    for &field in &fields {
        let widgets = remaining_widgets(doc, field, removed);
        let mut id = Some(field);
        let mut depth = 0;
        // The value may be inherited: every ancestor holding one loses it.
        while let Some(current) = id.filter(|_| depth < MAX_DEPTH) {
            let Ok(dict) = doc.get_dictionary_mut(current) else {
                break;
            };
            for key in [b"V".as_slice(), b"DV", b"RV", b"I"] {
                dict.remove(key);
            }
            id = dict.get(b"Parent").and_then(Object::as_reference).ok();
            depth += 1;
        }
        for widget in widgets {
            if let Ok(dict) = doc.get_dictionary_mut(widget) {
                if dict.has(b"AS") {
                    dict.set("AS", Object::Name(b"Off".to_vec()));
                } else {
                    dict.remove(b"AP");
                }
            }
        }
        cleared += 1;
    }
    if !fields.is_empty() {
        crate::flatten::remove_fields(doc, removed);
    }
    cleared
}

/// The field's widgets that stay.
fn remaining_widgets(
    doc: &Document,
    field: ObjectId,
    removed: &HashSet<ObjectId>,
) -> Vec<ObjectId> {
    let Ok(dict) = doc.get_dictionary(field) else {
        return Vec::new();
    };
    let kids = dict
        .get(b"Kids")
        .ok()
        .and_then(|k| doc.dereference(k).ok())
        .and_then(|(_, k)| k.as_array().ok());
    match kids {
        Some(kids) => kids
            .iter()
            .filter_map(|k| k.as_reference().ok())
            .filter(|k| !removed.contains(k))
            .filter(|&k| {
                doc.get_dictionary(k).is_ok_and(|d| {
                    d.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Widget")
                })
            })
            .collect(),
        None => Vec::new(),
    }
}

/// Turns every remaining reference to a removed annotation into null.
pub fn cut_references(doc: &mut Document, removed: &HashSet<ObjectId>) {
    if removed.is_empty() {
        return;
    }
    let mut cut = |object: &mut Object| {
        if let Object::Reference(id) = object
            && removed.contains(id)
        {
            *object = Object::Null;
        }
    };
    for (id, object) in doc.objects.iter_mut() {
        if !removed.contains(id) {
            crate::refs::for_each_ref(object, &mut cut);
        }
    }
    crate::refs::for_each_ref_in(&mut doc.trailer, &mut cut);
}
