//! A form cut down to the pages an output keeps, and grown by the widgets of repeated pages.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::{acroform, array};
use crate::{ToolError, io};

/// Deeper than any form's field hierarchy ("a.b.c" names).
const MAX_DEPTH: usize = 32;

/// Entries of a field dictionary that a widget annotation does not have (ISO 32000-1, tables
/// 220, 222, 228-232): what moves to the new parent when a field that is its own widget gets
/// a second one.
const FIELD_ONLY: [&[u8]; 13] = [
    b"FT", b"T", b"TU", b"TM", b"Ff", b"V", b"DV", b"Opt", b"TI", b"I", b"MaxLen", b"Lock", b"SV",
];

/// Variable text entries, which a field and its widgets may each carry: copied to the parent.
const SHARED: [&[u8]; 4] = [b"DA", b"Q", b"DS", b"RV"];

/// The annotations the output's pages hold.
#[derive(Debug, Default)]
pub struct Placed {
    /// Annotation objects on the pages' first occurrences.
    pub kept: HashSet<ObjectId>,
    /// Widgets copied onto later occurrences of their page, by original.
    pub copies: HashMap<ObjectId, Vec<ObjectId>>,
}

/// The form cut down to the fields that keep a widget: a widget (a field that is one of the
/// page annotations `on_pages`) stays when it is placed, a field with kids when one of them
/// stays, a field that is on no page at all stays. A widget copied onto a repeated page
/// becomes another widget of the same field (the same value shows on both). Changed field
/// dictionaries go into `out`. `None` when no field stays: the form's default resources would
/// be all it carried.
pub fn retain(
    src: &Document,
    out: &mut Document,
    on_pages: &HashSet<ObjectId>,
    placed: &Placed,
) -> Result<Option<Dictionary>, ToolError> {
    let Some(form) = acroform(src) else {
        return Ok(None);
    };
    let mut walk = FieldWalk {
        src,
        out,
        on_pages,
        placed,
        seen: HashSet::new(),
        survivors: HashSet::new(),
        replaced: HashMap::new(),
    };
    let mut fields = Vec::new();
    for field in array(src, form.get(b"Fields").ok()) {
        if let Ok(id) = field.as_reference() {
            fields.extend(walk.keep(id, 0)?);
        }
    }
    if fields.is_empty() {
        return Ok(None);
    }
    let order: Vec<Object> = array(src, form.get(b"CO").ok())
        .into_iter()
        .filter_map(|field| field.as_reference().ok())
        .map(|id| walk.replaced.get(&id).copied().unwrap_or(id))
        .filter(|id| walk.survivors.contains(id))
        .map(Object::Reference)
        .collect();
    let mut form = form.clone();
    form.set("Fields", fields);
    if order.is_empty() {
        form.remove(b"CO");
    } else {
        form.set("CO", order);
    }
    // An XFA form describes every page's fields; viewers fall back to the AcroForm without it.
    form.remove(b"XFA");
    Ok(Some(form))
}

struct FieldWalk<'a> {
    src: &'a Document,
    out: &'a mut Document,
    on_pages: &'a HashSet<ObjectId>,
    placed: &'a Placed,
    /// Fields visited: a field listed twice (or a cycle) is kept once.
    seen: HashSet<ObjectId>,
    survivors: HashSet<ObjectId>,
    /// Fields that were their own widget, by the parent field made for them and their copies.
    replaced: HashMap<ObjectId, ObjectId>,
}

impl FieldWalk<'_> {
    /// What takes the field's place in its parent's /Kids or the form's /Fields: nothing, the
    /// field, or the field followed by its widget's copies.
    fn keep(&mut self, id: ObjectId, depth: usize) -> Result<Vec<Object>, ToolError> {
        if !self.seen.insert(id) {
            return Ok(Vec::new());
        }
        if self.on_pages.contains(&id) {
            return self.keep_widget(id);
        }
        let Ok(field) = self.src.get_dictionary(id) else {
            return Ok(Vec::new());
        };
        let kids = array(self.src, field.get(b"Kids").ok());
        if kids.is_empty() || depth >= MAX_DEPTH {
            self.survivors.insert(id);
            return Ok(vec![Object::Reference(id)]);
        }
        let mut remaining = Vec::with_capacity(kids.len());
        for kid in &kids {
            if let Ok(kid) = kid.as_reference() {
                remaining.extend(self.keep(kid, depth + 1)?);
            }
        }
        if remaining.is_empty() {
            return Ok(Vec::new());
        }
        if remaining != kids {
            let mut field = field.clone();
            field.set("Kids", remaining);
            self.out.objects.insert(id, Object::Dictionary(field));
        }
        self.survivors.insert(id);
        Ok(vec![Object::Reference(id)])
    }

    fn keep_widget(&mut self, id: ObjectId) -> Result<Vec<Object>, ToolError> {
        if !self.placed.kept.contains(&id) {
            return Ok(Vec::new());
        }
        let copies = self.placed.copies.get(&id).map_or(&[][..], Vec::as_slice);
        let own_field = self
            .src
            .get_dictionary(id)
            .is_ok_and(|widget| widget.has(b"T"));
        if copies.is_empty() || !own_field {
            // A widget of a parent field: its copies are that field's widgets too.
            self.survivors.insert(id);
            let widgets = std::iter::once(id).chain(copies.iter().copied());
            return Ok(widgets.map(Object::Reference).collect());
        }
        let parent = self.split_field(id, copies)?;
        self.survivors.insert(parent);
        self.replaced.insert(id, parent);
        Ok(vec![Object::Reference(parent)])
    }

    /// Makes a field that is its own widget the parent of that widget and its copies; returns
    /// the new parent.
    fn split_field(&mut self, id: ObjectId, copies: &[ObjectId]) -> Result<ObjectId, ToolError> {
        let Ok(widget) = self.src.get_dictionary(id) else {
            return Err(ToolError::InvalidFile("a form field vanished".into()));
        };
        let parent = io::new_id(self.out)?;
        let mut field = Dictionary::new();
        for key in FIELD_ONLY
            .iter()
            .chain(&SHARED)
            .chain([&b"Parent".as_slice()])
        {
            if let Ok(value) = widget.get(key) {
                field.set(*key, value.clone());
            }
        }
        let widgets: Vec<ObjectId> = std::iter::once(id).chain(copies.iter().copied()).collect();
        field.set(
            "Kids",
            widgets
                .iter()
                .copied()
                .map(Object::Reference)
                .collect::<Vec<_>>(),
        );
        let mut widget = widget.clone();
        for widget_id in widgets {
            let dict = if widget_id == id {
                &mut widget
            } else {
                match self.out.objects.get_mut(&widget_id) {
                    Some(Object::Dictionary(dict)) => dict,
                    _ => continue,
                }
            };
            for key in FIELD_ONLY {
                dict.remove(key);
            }
            dict.set("Parent", parent);
        }
        self.out.objects.insert(id, Object::Dictionary(widget));
        self.out.objects.insert(parent, Object::Dictionary(field));
        Ok(parent)
    }
}
