//! Checkboxes and radio buttons: the on-state each widget has (the names of its /AP /N
//! appearances other than /Off), and the /Opt text that goes with it.

use lopdf::{Document, Object, ObjectId};

use super::FieldKind;
use super::tree::Terminal;
use crate::text;

/// One widget of a button field and the state that turns it on.
#[derive(Debug, Clone)]
pub struct Widget {
    pub id: ObjectId,
    pub state: Vec<u8>,
    /// The /Opt text for this widget (its export value), else the state name.
    pub label: String,
    /// Whether the widget has an appearance for its on-state (else one is generated).
    pub drawn: bool,
}

/// The widgets of a checkbox or radio group, in /Kids order, each with its on-state: the first
/// non-Off name of its normal appearances; a widget without any takes its /Opt text, else
/// "Yes" (a checkbox) or its position (a radio button).
pub fn widgets(doc: &Document, field: &Terminal) -> Vec<Widget> {
    let options: Vec<String> = match field.get(doc, b"Opt") {
        Some(Object::Array(items)) => items
            .iter()
            .map(|item| match doc.dereference(item) {
                Ok((_, Object::String(bytes, _))) => text::decode(bytes),
                _ => String::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    field
        .widgets
        .iter()
        .enumerate()
        .map(|(i, &id)| {
            let own = on_state(doc, id);
            let option = options.get(i).filter(|option| !option.is_empty());
            let state = own.clone().unwrap_or_else(|| match (option, field.kind) {
                (Some(option), _) => name_for(option),
                (None, FieldKind::Radio) => format!("{}", i + 1).into_bytes(),
                (None, _) => b"Yes".to_vec(),
            });
            let label = option
                .cloned()
                .unwrap_or_else(|| String::from_utf8_lossy(&state).into_owned());
            Widget {
                id,
                state,
                label,
                drawn: own.is_some(),
            }
        })
        .collect()
}

/// A state name made of a text: names are bytes, written UTF-8.
fn name_for(text: &str) -> Vec<u8> {
    text.as_bytes().to_vec()
}

/// The widget's on-state: the first name of its /AP /N (else /D) dictionary other than /Off.
fn on_state(doc: &Document, widget: ObjectId) -> Option<Vec<u8>> {
    let annot = doc.get_dictionary(widget).ok()?;
    let ap = doc
        .dereference(annot.get(b"AP").ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()?;
    for key in [b"N".as_slice(), b"D"] {
        let Some(states) = ap
            .get(key)
            .ok()
            .and_then(|states| doc.dereference(states).ok())
            .and_then(|(_, states)| states.as_dict().ok())
        else {
            continue;
        };
        if let Some((name, _)) = states.iter().find(|(name, _)| name.as_slice() != b"Off") {
            return Some(name.clone());
        }
    }
    None
}

/// The field's value as a state name: /V, else the state of the first widget that is on,
/// else "Off".
pub fn current(doc: &Document, field: &Terminal) -> String {
    if let Some(Object::Name(state)) = field.get(doc, b"V") {
        return String::from_utf8_lossy(state).into_owned();
    }
    for &id in &field.widgets {
        if let Ok(Object::Name(state)) = doc
            .get_dictionary(id)
            .and_then(|annot| annot.get(b"AS"))
            .map(|state| doc.dereference(state).map_or(state, |(_, s)| s))
            && state.as_slice() != b"Off"
        {
            return String::from_utf8_lossy(state).into_owned();
        }
    }
    "Off".into()
}
