//! Which groups are hidden, and whether an /OC value (a group, or a membership dictionary
//! with its policy or visibility expression) hides what it marks.

use std::cell::Cell;
use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

/// Visibility expressions evaluated per document, at most: a hostile file cannot make the
/// evaluation of nested expressions take exponential time.
pub(super) const MAX_EVALUATIONS: usize = 100_000;
const MAX_EXPRESSION_DEPTH: usize = 32;

/// The groups off in the default configuration: /D /OFF, or with /BaseState /OFF every
/// group not in /D /ON.
pub(super) fn hidden_groups(doc: &Document) -> HashSet<ObjectId> {
    let Some(properties) = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"OCProperties").ok())
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_dict().ok())
    else {
        return HashSet::new();
    };
    let groups = |dict: &Dictionary, key: &[u8]| -> HashSet<ObjectId> {
        dict.get(key)
            .ok()
            .and_then(|o| resolve(doc, o))
            .and_then(|o| o.as_array().ok())
            .into_iter()
            .flatten()
            .filter_map(|item| item.as_reference().ok())
            .filter(|id| doc.get_dictionary(*id).is_ok())
            .collect()
    };
    let Some(config) = properties
        .get(b"D")
        .ok()
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_dict().ok())
    else {
        return HashSet::new();
    };
    let base_off = config.get(b"BaseState").and_then(Object::as_name).ok() == Some(b"OFF");
    if base_off {
        let on = groups(config, b"ON");
        groups(properties, b"OCGs")
            .into_iter()
            .filter(|id| !on.contains(id))
            .collect()
    } else {
        groups(config, b"OFF")
    }
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, object)| object)
}

/// Decides whether an /OC value (a group, or a membership dictionary) is hidden.
pub(super) struct Visibility<'a> {
    pub(super) doc: &'a Document,
    pub(super) hidden: &'a HashSet<ObjectId>,
    pub(super) budget: Cell<usize>,
}

impl Visibility<'_> {
    pub(super) fn hides(&self, oc: &Object) -> bool {
        let Ok((id, object)) = self.doc.dereference(oc) else {
            return false;
        };
        let Ok(dict) = object.as_dict() else {
            return false;
        };
        if !dict.has_type(b"OCMD") {
            return id.is_some_and(|id| self.hidden.contains(&id));
        }
        if let Ok(expression) = dict.get(b"VE") {
            return !self.shows(expression, 0);
        }
        let groups: Vec<bool> = match dict.get(b"OCGs") {
            Ok(Object::Reference(id)) if self.is_group(*id) => vec![!self.hidden.contains(id)],
            Ok(list) => self
                .doc
                .dereference(list)
                .ok()
                .and_then(|(_, list)| list.as_array().ok())
                .into_iter()
                .flatten()
                .filter_map(|item| item.as_reference().ok())
                .filter(|id| self.is_group(*id))
                .map(|id| !self.hidden.contains(&id))
                .collect(),
            Err(_) => Vec::new(),
        };
        if groups.is_empty() {
            return false;
        }
        let visible = match dict.get(b"P").and_then(Object::as_name).ok() {
            Some(b"AllOn") => groups.iter().all(|on| *on),
            Some(b"AnyOff") => groups.iter().any(|on| !on),
            Some(b"AllOff") => groups.iter().all(|on| !on),
            _ => groups.iter().any(|on| *on),
        };
        !visible
    }

    fn is_group(&self, id: ObjectId) -> bool {
        self.doc
            .get_dictionary(id)
            .is_ok_and(|dict| !dict.has_type(b"OCMD"))
    }

    /// A visibility expression: a group, or `[/And ...]`, `[/Or ...]`, `[/Not e]`.
    fn shows(&self, expression: &Object, depth: usize) -> bool {
        let left = self.budget.get();
        if left == 0 || depth > MAX_EXPRESSION_DEPTH {
            return true;
        }
        self.budget.set(left - 1);
        let Ok((id, object)) = self.doc.dereference(expression) else {
            return true;
        };
        match object {
            Object::Array(items) => {
                let Some((operator, operands)) = items.split_first() else {
                    return true;
                };
                let mut values = operands.iter().map(|e| self.shows(e, depth + 1));
                match operator.as_name().ok() {
                    Some(b"And") => values.all(|v| v),
                    Some(b"Or") => values.any(|v| v),
                    Some(b"Not") => !values.next().unwrap_or(false),
                    _ => true,
                }
            }
            Object::Dictionary(_) => !id.is_some_and(|id| self.hidden.contains(&id)),
            _ => true,
        }
    }
}
