//! The values the user sent, checked against the fields they name and turned into what each
//! field will hold.

use std::collections::HashMap;

use lopdf::Document;

use super::tree::{Terminal, flags};
use super::{FieldKind, FieldOption, buttons, choices};
use crate::ToolError;

/// How many options an error message lists before it says how many there are.
const LISTED: usize = 5;

/// The longest stretch of a name or value an error message repeats.
const QUOTED: usize = 60;

/// A field's new value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewValue {
    Text(String),
    /// A button's state name: one of its on-states, or "Off".
    State(Vec<u8>),
    /// A choice field's export values (none: nothing selected), with their option indexes
    /// (empty for an edited combo box value).
    Choice {
        exports: Vec<String>,
        indexes: Vec<usize>,
    },
}

#[derive(Debug, Clone)]
pub struct Change {
    /// The field, an index into the terminals.
    pub field: usize,
    pub value: NewValue,
}

/// The changes `values` ask for; the first value that does not fit its field is BadOptions.
/// A name that several field objects share changes them all.
pub fn parse(
    doc: &Document,
    terminals: &[Terminal],
    values: &[(String, String)],
) -> Result<Vec<Change>, ToolError> {
    let mut last: Vec<(&str, &str)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (name, value) in values {
        match at.get(name.as_str()) {
            Some(&i) => last[i].1 = value,
            None => {
                at.insert(name, last.len());
                last.push((name, value));
            }
        }
    }
    let mut changes = Vec::new();
    for (name, value) in last {
        let mut found = false;
        for (index, field) in terminals.iter().enumerate() {
            if field.name == name {
                found = true;
                changes.push(Change {
                    field: index,
                    value: new_value(doc, field, value)?,
                });
            }
        }
        if !found {
            return Err(ToolError::BadOptions(format!(
                "this form has no field named \"{}\": use a name from the field list",
                clip(name)
            )));
        }
    }
    Ok(changes)
}

fn new_value(doc: &Document, field: &Terminal, value: &str) -> Result<NewValue, ToolError> {
    let name = clip(&field.name);
    let refuse = |why: String| Err(ToolError::BadOptions(why));
    match field.kind {
        FieldKind::PushButton => {
            return refuse(format!(
                "the field \"{name}\" is a push button, which holds no value: leave it out"
            ));
        }
        FieldKind::Signature => {
            return refuse(format!(
                "the field \"{name}\" is a signature field: sign the document with the sign \
                 tool instead"
            ));
        }
        _ => {}
    }
    if field.has(flags::READ_ONLY) {
        return refuse(format!("the field \"{name}\" is read-only: leave it out"));
    }
    match field.kind {
        FieldKind::Text => text(doc, field, value),
        FieldKind::Checkbox | FieldKind::Radio => button(doc, field, value),
        _ => choice(doc, field, value),
    }
}

fn text(doc: &Document, field: &Terminal, value: &str) -> Result<NewValue, ToolError> {
    let name = clip(&field.name);
    let value = value.replace("\r\n", "\n").replace('\r', "\n");
    if value.contains('\n') && !field.has(flags::MULTILINE) {
        return Err(ToolError::BadOptions(format!(
            "the field \"{name}\" takes one line of text: remove the line breaks"
        )));
    }
    if let Some(lopdf::Object::Integer(max)) = field.get(doc, b"MaxLen") {
        let count = value.chars().count();
        if i64::try_from(count).unwrap_or(i64::MAX) > *max {
            return Err(ToolError::BadOptions(format!(
                "the text for the field \"{name}\" has {count} characters but the field takes \
                 at most {max}: shorten it"
            )));
        }
    }
    Ok(NewValue::Text(value))
}

fn button(doc: &Document, field: &Terminal, value: &str) -> Result<NewValue, ToolError> {
    let widgets = buttons::widgets(doc, field);
    let wanted = value.trim();
    if let Some(widget) = widgets
        .iter()
        .find(|w| w.state == wanted.as_bytes())
        .or_else(|| widgets.iter().find(|w| w.label == wanted))
    {
        return Ok(NewValue::State(widget.state.clone()));
    }
    let lower = wanted.to_ascii_lowercase();
    if matches!(lower.as_str(), "" | "off" | "false" | "no" | "unchecked") {
        return Ok(NewValue::State(b"Off".to_vec()));
    }
    let first = widgets.first().map(|w| w.state.clone());
    if field.kind == FieldKind::Checkbox
        && matches!(lower.as_str(), "true" | "yes" | "on" | "checked")
        && let Some(first) = first
    {
        return Ok(NewValue::State(first));
    }
    let options: Vec<FieldOption> = widgets
        .iter()
        .map(|w| FieldOption {
            export: String::from_utf8_lossy(&w.state).into_owned(),
            label: w.label.clone(),
        })
        .collect();
    let what = if field.kind == FieldKind::Checkbox {
        "\"true\", \"false\"".to_string()
    } else {
        allowed(&options)
    };
    Err(ToolError::BadOptions(format!(
        "\"{}\" cannot be set on the field \"{}\": choose one of {what}",
        clip(value),
        clip(&field.name)
    )))
}

fn choice(doc: &Document, field: &Terminal, value: &str) -> Result<NewValue, ToolError> {
    let options = choices::options(doc, field);
    let wanted: Vec<&str> = if value.is_empty() {
        Vec::new()
    } else if field.kind == FieldKind::ListBox && field.has(flags::MULTI_SELECT) {
        value.split('\n').filter(|v| !v.is_empty()).collect()
    } else {
        vec![value]
    };
    let mut exports = Vec::new();
    let mut indexes = Vec::new();
    for item in wanted {
        let found = options
            .iter()
            .position(|o| o.export == item)
            .or_else(|| options.iter().position(|o| o.label == item));
        match found {
            Some(index) => {
                if !indexes.contains(&index) {
                    indexes.push(index);
                    exports.push(options[index].export.clone());
                }
            }
            None if field.kind == FieldKind::ComboBox && field.has(flags::EDIT) => {
                if item.contains('\n') {
                    return Err(ToolError::BadOptions(format!(
                        "the field \"{}\" takes one line of text: remove the line breaks",
                        clip(&field.name)
                    )));
                }
                exports.push(item.to_string());
            }
            None => {
                return Err(ToolError::BadOptions(format!(
                    "\"{}\" is not an option of the field \"{}\": choose one of {}",
                    clip(item),
                    clip(&field.name),
                    allowed(&options)
                )));
            }
        }
    }
    indexes.sort_unstable();
    Ok(NewValue::Choice { exports, indexes })
}

/// The first few options, quoted, and how many there are in all.
fn allowed(options: &[FieldOption]) -> String {
    if options.is_empty() {
        return "nothing: the field has no options".into();
    }
    let mut listed: Vec<String> = options
        .iter()
        .take(LISTED)
        .map(|o| {
            if o.label == o.export {
                format!("\"{}\"", clip(&o.export))
            } else {
                format!("\"{}\" ({})", clip(&o.export), clip(&o.label))
            }
        })
        .collect();
    if options.len() > LISTED {
        listed.push(format!("... ({} options in all)", options.len()));
    }
    listed.join(", ")
}

/// At most [`QUOTED`] characters of `text`, for an error message.
fn clip(text: &str) -> String {
    if text.chars().count() <= QUOTED {
        return text.to_string();
    }
    let mut clipped: String = text.chars().take(QUOTED).collect();
    clipped.push('…');
    clipped
}
