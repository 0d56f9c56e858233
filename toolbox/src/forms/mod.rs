//! Interactive forms (/AcroForm): merged across inputs, and cut down to the fields whose
//! widgets stay when pages go (retain).

mod retain;

pub use retain::{Placed, retain};

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object};

use crate::text;

/// The catalog's /AcroForm, resolved.
pub fn acroform(doc: &Document) -> Option<&Dictionary> {
    let form = doc.catalog().ok()?.get(b"AcroForm").ok()?;
    doc.dereference(form).ok()?.1.as_dict().ok()
}

pub(crate) fn array(doc: &Document, value: Option<&Object>) -> Vec<Object> {
    value
        .and_then(|value| doc.dereference(value).ok())
        .and_then(|(_, value)| value.as_array().ok())
        .cloned()
        .unwrap_or_default()
}

fn dict<'a>(doc: &'a Document, value: Option<&'a Object>) -> Option<&'a Dictionary> {
    doc.dereference(value?).ok()?.1.as_dict().ok()
}

fn flag(doc: &Document, form: &Dictionary, key: &[u8]) -> Option<i64> {
    match doc.dereference(form.get(key).ok()?).ok()?.1 {
        Object::Boolean(value) => Some(i64::from(*value)),
        Object::Integer(value) => Some(*value),
        _ => None,
    }
}

/// Renames the top-level fields of a form whose names an earlier input's fields took, so that
/// viewers do not take two inputs' fields for one (filling in both at once); their names are
/// then added to `taken`. `suffix` is the input's number.
pub fn rename_fields(
    doc: &mut Document,
    form: &Dictionary,
    taken: &mut HashSet<String>,
    suffix: usize,
) {
    let mut own = Vec::new();
    for field in array(doc, form.get(b"Fields").ok()) {
        let Ok(id) = field.as_reference() else {
            continue;
        };
        let Some(Object::Dictionary(field)) = doc.objects.get_mut(&id) else {
            continue;
        };
        let Ok(Object::String(name, _)) = field.get(b"T") else {
            continue;
        };
        let name = text::decode(name);
        if !taken.contains(&name) {
            own.push(name);
            continue;
        }
        let mut fresh = format!("{name}-{suffix}");
        let mut n = 2;
        while taken.contains(&fresh) || own.contains(&fresh) {
            fresh = format!("{name}-{suffix}-{n}");
            n += 1;
        }
        field.set("T", text::encode(&fresh));
        own.push(fresh);
    }
    taken.extend(own);
}

/// One form from the inputs' forms, in input order: every input's fields, the first /DA,
/// the default resources merged with the first input's winning a name both use.
/// NeedAppearances holds if any input asks for it; /XFA goes (it would describe the first
/// input's form only) and so does the append-only signature flag (the file is rewritten).
pub fn merge(doc: &Document, forms: Vec<Dictionary>) -> Option<Dictionary> {
    let mut forms = forms.into_iter();
    let mut merged = forms.next()?;
    let mut fields = array(doc, merged.get(b"Fields").ok());
    let mut order = array(doc, merged.get(b"CO").ok());
    let mut resources = Dictionary::new();
    merge_resources(doc, &mut resources, merged.get(b"DR").ok());
    let mut needs_appearances = flag(doc, &merged, b"NeedAppearances").unwrap_or(0) != 0;
    let mut signatures = flag(doc, &merged, b"SigFlags").unwrap_or(0) & 1;
    for form in forms {
        fields.extend(array(doc, form.get(b"Fields").ok()));
        order.extend(array(doc, form.get(b"CO").ok()));
        if !merged.has(b"DA")
            && let Ok(da) = form.get(b"DA")
        {
            merged.set("DA", da.clone());
        }
        merge_resources(doc, &mut resources, form.get(b"DR").ok());
        needs_appearances |= flag(doc, &form, b"NeedAppearances").unwrap_or(0) != 0;
        signatures |= flag(doc, &form, b"SigFlags").unwrap_or(0) & 1;
    }
    merged.set("Fields", fields);
    for (key, value) in [
        (
            b"CO".as_slice(),
            (!order.is_empty()).then(|| Object::Array(order)),
        ),
        (
            b"DR",
            (!resources.is_empty()).then(|| Object::Dictionary(resources)),
        ),
        (
            b"NeedAppearances",
            needs_appearances.then_some(Object::Boolean(true)),
        ),
        (
            b"SigFlags",
            (signatures != 0).then_some(Object::Integer(signatures)),
        ),
    ] {
        match value {
            Some(value) => merged.set(key, value),
            None => {
                merged.remove(key);
            }
        }
    }
    merged.remove(b"XFA");
    Some(merged)
}

/// Adds `from`'s resources to `into`, category by category (/Font, /XObject, ...); a name
/// already there keeps its first value.
fn merge_resources(doc: &Document, into: &mut Dictionary, from: Option<&Object>) {
    let Some(from) = dict(doc, from) else { return };
    for (category, value) in from.iter() {
        let entries = dict(doc, Some(value));
        match (into.get_mut(category), entries) {
            (Ok(Object::Dictionary(existing)), Some(entries)) => {
                for (name, value) in entries.iter() {
                    if !existing.has(name) {
                        existing.set(name.clone(), value.clone());
                    }
                }
            }
            (Ok(_), _) => {}
            (Err(_), Some(entries)) => into.set(category.clone(), entries.clone()),
            (Err(_), None) => into.set(category.clone(), value.clone()),
        }
    }
}
