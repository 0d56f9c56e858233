//! The field tree walked into its terminal fields (ISO 32000-1, §12.7.3.1): fully qualified
//! names, the inheritable entries resolved down the tree, and each field's widgets.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::FieldKind;
use crate::forms::{acroform, array};
use crate::text;

/// Deeper than any form's field hierarchy ("a.b.c" names); below it the walk stops.
const MAX_DEPTH: usize = 32;

/// Entries a field inherits from its ancestors (tables 220, 222, 228-230; /DR is not
/// inheritable by the standard but some producers put it on fields and viewers honour it).
const INHERITABLE: [&[u8]; 10] = [
    b"FT", b"Ff", b"V", b"DV", b"DA", b"Q", b"Opt", b"MaxLen", b"TI", b"DR",
];

/// Field flags (table 221, 226, 228, 230), as bits of /Ff.
pub mod flags {
    pub const READ_ONLY: i64 = 1;
    pub const REQUIRED: i64 = 1 << 1;
    pub const MULTILINE: i64 = 1 << 12;
    pub const PASSWORD: i64 = 1 << 13;
    pub const RADIO: i64 = 1 << 15;
    pub const PUSH_BUTTON: i64 = 1 << 16;
    pub const COMBO: i64 = 1 << 17;
    pub const EDIT: i64 = 1 << 18;
    pub const MULTI_SELECT: i64 = 1 << 21;
    pub const COMB: i64 = 1 << 24;
}

/// A terminal field: one that holds a value, with its widgets.
#[derive(Debug, Clone)]
pub struct Terminal {
    /// The field dictionary (the one that carries its /T; its own widget when merged).
    pub id: ObjectId,
    pub name: String,
    pub kind: FieldKind,
    pub flags: i64,
    /// Widget annotations, in /Kids order (the field itself when it is its own widget).
    pub widgets: Vec<ObjectId>,
    /// The inheritable entries as the field sees them: its own, else its nearest ancestor's.
    pub inherited: Dictionary,
}

impl Terminal {
    pub fn has(&self, flag: i64) -> bool {
        self.flags & flag != 0
    }

    /// An inheritable entry, resolved.
    pub fn get<'a>(&'a self, doc: &'a Document, key: &[u8]) -> Option<&'a Object> {
        let value = self.inherited.get(key).ok()?;
        doc.dereference(value).ok().map(|(_, object)| object)
    }
}

/// Every terminal field of the form, in /Fields order (depth first); fields without a type
/// (/FT) are skipped: no viewer can show them.
pub fn terminals(doc: &Document) -> Vec<Terminal> {
    let Some(form) = acroform(doc) else {
        return Vec::new();
    };
    let mut walk = Walk {
        doc,
        seen: HashSet::new(),
        out: Vec::new(),
    };
    for field in array(doc, form.get(b"Fields").ok()) {
        if let Ok(id) = field.as_reference() {
            walk.visit(id, None, &Dictionary::new(), 0);
        }
    }
    walk.out
}

struct Walk<'a> {
    doc: &'a Document,
    seen: HashSet<ObjectId>,
    out: Vec<Terminal>,
}

impl Walk<'_> {
    fn visit(&mut self, id: ObjectId, parent: Option<&str>, inherited: &Dictionary, depth: usize) {
        if depth > MAX_DEPTH || !self.seen.insert(id) {
            return;
        }
        let Ok(node) = self.doc.get_dictionary(id) else {
            return;
        };
        let mut inherited = inherited.clone();
        for key in INHERITABLE {
            if let Ok(value) = node.get(key) {
                inherited.set(key, value.clone());
            }
        }
        let name = match self.resolve(node.get(b"T").ok()) {
            Some(Object::String(partial, _)) => {
                let partial = text::decode(partial);
                match parent {
                    Some(parent) if !parent.is_empty() => format!("{parent}.{partial}"),
                    _ => partial,
                }
            }
            _ => parent.unwrap_or_default().to_string(),
        };
        let kids = array(self.doc, node.get(b"Kids").ok());
        let mut widgets = Vec::new();
        let mut fields = Vec::new();
        for kid in kids.iter().filter_map(|kid| kid.as_reference().ok()) {
            let Ok(dict) = self.doc.get_dictionary(kid) else {
                continue;
            };
            if dict.has(b"T") || dict.has(b"Kids") {
                fields.push(kid);
            } else {
                widgets.push(kid);
            }
        }
        if kids.is_empty() && is_widget(node) {
            widgets.push(id);
        }
        if !widgets.is_empty() || kids.is_empty() {
            self.emit(id, &name, &inherited, widgets);
        }
        for kid in fields {
            self.visit(kid, Some(&name), &inherited, depth + 1);
        }
    }

    fn emit(&mut self, id: ObjectId, name: &str, inherited: &Dictionary, widgets: Vec<ObjectId>) {
        let field_type = self.resolve(inherited.get(b"FT").ok());
        let Some(Ok(field_type)) = field_type.map(Object::as_name) else {
            return;
        };
        let flags = match self.resolve(inherited.get(b"Ff").ok()) {
            Some(Object::Integer(flags)) => *flags,
            Some(Object::Real(flags)) => *flags as i64,
            _ => 0,
        };
        let kind = match field_type {
            b"Tx" => FieldKind::Text,
            b"Btn" if flags & flags::PUSH_BUTTON != 0 => FieldKind::PushButton,
            b"Btn" if flags & flags::RADIO != 0 => FieldKind::Radio,
            b"Btn" => FieldKind::Checkbox,
            b"Ch" if flags & flags::COMBO != 0 => FieldKind::ComboBox,
            b"Ch" => FieldKind::ListBox,
            b"Sig" => FieldKind::Signature,
            _ => return,
        };
        self.out.push(Terminal {
            id,
            name: name.to_string(),
            kind,
            flags,
            widgets,
            inherited: inherited.clone(),
        });
    }

    fn resolve<'b>(&'b self, value: Option<&'b Object>) -> Option<&'b Object> {
        self.doc.dereference(value?).ok().map(|(_, object)| object)
    }
}

/// Whether a field dictionary is also its widget annotation.
fn is_widget(node: &Dictionary) -> bool {
    node.get(b"Subtype")
        .ok()
        .and_then(|subtype| subtype.as_name().ok())
        .map_or(node.has(b"Rect"), |subtype| subtype == b"Widget")
}
