//! A change written into the field: /V, a button's widgets' /AS, a list's /I.

use lopdf::{Document, Object};

use super::buttons;
use super::tree::Terminal;
use super::values::{Change, NewValue};
use crate::text;

pub fn apply(doc: &mut Document, terminals: &[Terminal], change: &Change) {
    let field = &terminals[change.field];
    match &change.value {
        NewValue::Text(value) => {
            set(doc, field, |dict| {
                dict.set("V", text::encode(value));
                // A rich text value would be shown instead of the plain one.
                dict.remove(b"RV");
            });
        }
        NewValue::State(state) => {
            let widgets = buttons::widgets(doc, field);
            set(doc, field, |dict| {
                dict.set("V", Object::Name(state.clone()));
            });
            for widget in widgets {
                let on = widget.state == *state;
                if let Ok(annot) = doc.get_dictionary_mut(widget.id) {
                    let shown = if on { state.clone() } else { b"Off".to_vec() };
                    annot.set("AS", Object::Name(shown));
                }
            }
        }
        NewValue::Choice { exports, indexes } => {
            set(doc, field, |dict| {
                match exports.as_slice() {
                    [] => {
                        dict.remove(b"V");
                    }
                    [one] => dict.set("V", text::encode(one)),
                    many => dict.set(
                        "V",
                        many.iter().map(|v| text::encode(v)).collect::<Vec<_>>(),
                    ),
                }
                if indexes.is_empty() {
                    dict.remove(b"I");
                } else {
                    let indexes: Vec<Object> = indexes
                        .iter()
                        .map(|&i| Object::Integer(i64::try_from(i).unwrap_or(0)))
                        .collect();
                    dict.set("I", indexes);
                }
            });
        }
    }
}

/// Changes the field's own dictionary (a value inherited from a parent is overridden there).
fn set(doc: &mut Document, field: &Terminal, change: impl FnOnce(&mut lopdf::Dictionary)) {
    if let Ok(dict) = doc.get_dictionary_mut(field.id) {
        change(dict);
    }
}
