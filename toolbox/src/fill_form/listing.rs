//! The terminal fields as the tool lists them.

use std::collections::{HashMap, HashSet};

use lopdf::{Document, Object, ObjectId};

use super::tree::{Terminal, flags};
use super::{Field, FieldKind, FieldOption, buttons, choices};
use crate::pages::Tree;
use crate::text;

pub fn fields(doc: &Document, tree: &Tree, terminals: &[Terminal]) -> Vec<Field> {
    let pages = page_numbers(doc, tree);
    let mut seen = HashSet::new();
    terminals
        .iter()
        .filter(|field| seen.insert(field.name.clone()))
        .map(|field| describe(doc, field, &pages))
        .collect()
}

fn describe(doc: &Document, field: &Terminal, pages: &HashMap<ObjectId, u32>) -> Field {
    let (value, options) = match field.kind {
        FieldKind::Checkbox | FieldKind::Radio => {
            let mut options: Vec<FieldOption> = Vec::new();
            for widget in buttons::widgets(doc, field) {
                let export = String::from_utf8_lossy(&widget.state).into_owned();
                if !options.iter().any(|option| option.export == export) {
                    options.push(FieldOption {
                        export,
                        label: widget.label,
                    });
                }
            }
            (vec![buttons::current(doc, field)], options)
        }
        FieldKind::ComboBox | FieldKind::ListBox => {
            (choices::current(doc, field), choices::options(doc, field))
        }
        FieldKind::Text => (choices::current(doc, field), Vec::new()),
        FieldKind::PushButton | FieldKind::Signature => (Vec::new(), Vec::new()),
    };
    let max_len = match field.get(doc, b"MaxLen") {
        Some(Object::Integer(n)) => u32::try_from(*n).ok(),
        _ => None,
    };
    let tooltip = doc
        .get_dictionary(field.id)
        .ok()
        .and_then(|dict| dict.get(b"TU").ok())
        .and_then(|tu| doc.dereference(tu).ok())
        .and_then(|(_, tu)| match tu {
            Object::String(bytes, _) => Some(text::decode(bytes)),
            _ => None,
        });
    Field {
        name: field.name.clone(),
        kind: field.kind,
        value,
        options,
        read_only: field.has(flags::READ_ONLY),
        required: field.has(flags::REQUIRED),
        multiline: field.kind == FieldKind::Text && field.has(flags::MULTILINE),
        multi_select: field.kind == FieldKind::ListBox && field.has(flags::MULTI_SELECT),
        max_len: max_len.filter(|_| field.kind == FieldKind::Text),
        tooltip,
        page: field
            .widgets
            .iter()
            .find_map(|widget| pages.get(widget).copied()),
    }
}

/// The 1-based page of every annotation listed in a page's /Annots (the first page listing it).
fn page_numbers(doc: &Document, tree: &Tree) -> HashMap<ObjectId, u32> {
    let mut pages = HashMap::new();
    for (number, page) in (1u32..).zip(&tree.pages) {
        let annots = doc
            .get_dictionary(page.id)
            .ok()
            .and_then(|dict| dict.get(b"Annots").ok());
        for annot in crate::forms::array(doc, annots) {
            if let Ok(id) = annot.as_reference() {
                pages.entry(id).or_insert(number);
            }
        }
    }
    pages
}
