//! Combo boxes and list boxes: their options (/Opt) and what is selected (/V).

use lopdf::{Document, Object};

use super::FieldOption;
use super::tree::Terminal;
use crate::text;

/// The options of a choice field, in /Opt order: a text string is both export value and
/// label, a pair [export label] is each.
pub fn options(doc: &Document, field: &Terminal) -> Vec<FieldOption> {
    let Some(Object::Array(items)) = field.get(doc, b"Opt") else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let item = doc.dereference(item).ok()?.1;
            match item {
                Object::String(bytes, _) => {
                    let text = text::decode(bytes);
                    Some(FieldOption {
                        export: text.clone(),
                        label: text,
                    })
                }
                Object::Array(pair) => {
                    let part = |i: usize| -> Option<String> {
                        match doc.dereference(pair.get(i)?).ok()?.1 {
                            Object::String(bytes, _) => Some(text::decode(bytes)),
                            _ => None,
                        }
                    };
                    let export = part(0)?;
                    let label = part(1).unwrap_or_else(|| export.clone());
                    Some(FieldOption { export, label })
                }
                _ => None,
            }
        })
        .collect()
}

/// A field's /V as text values: a text string, the strings of an array, a name (some
/// producers write one), or a text stream; nothing otherwise.
pub fn current(doc: &Document, field: &Terminal) -> Vec<String> {
    let one = |value: &Object| -> Option<String> {
        match doc.dereference(value).ok()?.1 {
            Object::String(bytes, _) => Some(text::decode(bytes)),
            Object::Name(name) => Some(String::from_utf8_lossy(name).into_owned()),
            Object::Stream(stream) => {
                let bytes = stream
                    .decompressed_content()
                    .unwrap_or_else(|_| stream.content.clone());
                Some(text::decode(&bytes))
            }
            _ => None,
        }
    };
    match field.get(doc, b"V") {
        Some(Object::Array(items)) => items.iter().filter_map(one).collect(),
        Some(value) => one(value).into_iter().collect(),
        None => Vec::new(),
    }
}
