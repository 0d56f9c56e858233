//! The form cut down once its widgets are flattened: a field that was a removed widget goes,
//! so does a field whose kids all went; the form goes when no field is left.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

use crate::forms::{acroform, array};

/// Deeper than any form's field hierarchy ("a.b.c" names); below it nothing is removed.
const MAX_DEPTH: usize = 32;

/// Removes the fields whose widgets were all flattened (`widgets`) from the AcroForm: from
/// /Fields, from their parents' /Kids and from /CO. A field on no page stays, and so does a
/// field without kids that is no widget. With no field left the catalog loses /AcroForm (and
/// with it /NeedAppearances and /XFA); otherwise the form loses /XFA, which still describes
/// the removed fields. The catalog's /NeedsRendering (an XFA form's) goes either way.
pub fn remove(doc: &mut Document, widgets: &HashSet<ObjectId>) {
    let Some(mut form) = acroform(doc).cloned() else {
        return;
    };
    let mut cut = Cut {
        widgets,
        dead: HashSet::new(),
        seen: HashSet::new(),
    };
    let mut fields = Vec::new();
    for field in array(doc, form.get(b"Fields").ok()) {
        if let Ok(id) = field.as_reference()
            && cut.keep(doc, id, 0)
        {
            fields.push(field);
        }
    }
    let order: Vec<Object> = array(doc, form.get(b"CO").ok())
        .into_iter()
        .filter(|field| field.as_reference().is_ok_and(|id| !cut.dead.contains(&id)))
        .collect();
    let place = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"AcroForm").ok())
        .and_then(|form| form.as_reference().ok());
    let Ok(catalog) = doc.catalog_mut() else {
        return;
    };
    catalog.remove(b"NeedsRendering");
    if fields.is_empty() {
        catalog.remove(b"AcroForm");
        return;
    }
    form.set("Fields", fields);
    if order.is_empty() {
        form.remove(b"CO");
    } else {
        form.set("CO", order);
    }
    form.remove(b"XFA");
    match place {
        Some(id) => {
            doc.objects.insert(id, Object::Dictionary(form));
        }
        None => catalog.set("AcroForm", form),
    }
}

struct Cut<'a> {
    widgets: &'a HashSet<ObjectId>,
    /// Fields removed, widgets included.
    dead: HashSet<ObjectId>,
    seen: HashSet<ObjectId>,
}

impl Cut<'_> {
    /// Whether the field `id` stays; its /Kids are cut down to the kids that stay.
    fn keep(&mut self, doc: &mut Document, id: ObjectId, depth: usize) -> bool {
        if self.widgets.contains(&id) {
            self.dead.insert(id);
            return false;
        }
        // A field met twice (a cycle, or listed twice) is left as the first visit left it.
        if depth >= MAX_DEPTH || !self.seen.insert(id) {
            return true;
        }
        let Some(kids) = doc
            .get_dictionary(id)
            .ok()
            .and_then(|field| field.get(b"Kids").ok())
            .map(|kids| array(doc, Some(kids)))
        else {
            return true;
        };
        if kids.is_empty() {
            return true;
        }
        let before = kids.len();
        let mut left = Vec::with_capacity(before);
        for kid in kids {
            match kid.as_reference() {
                Ok(kid_id) if !self.keep(doc, kid_id, depth + 1) => {}
                _ => left.push(kid),
            }
        }
        if left.is_empty() {
            self.dead.insert(id);
            return false;
        }
        if left.len() != before
            && let Ok(field) = doc.get_dictionary_mut(id)
        {
            field.set("Kids", left);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use lopdf::{StringFormat, dictionary};

    use super::*;

    fn field(doc: &mut Document, name: &str, kids: Vec<Object>) -> ObjectId {
        let name = Object::String(name.as_bytes().to_vec(), StringFormat::Literal);
        doc.add_object(dictionary! { "T" => name, "Kids" => kids })
    }

    /// "a" loses one of its two widgets, "b" its only one; "c" has no widget on any page.
    #[test]
    fn fields_go_with_their_last_widget() {
        let mut doc = Document::new();
        let [a1, a2, b1] = [(); 3].map(|()| doc.add_object(dictionary! { "Subtype" => "Widget" }));
        let a = field(&mut doc, "a", vec![a1.into(), a2.into()]);
        let b = field(&mut doc, "b", vec![b1.into()]);
        let c = doc.add_object(dictionary! { "Subtype" => "Widget", "FT" => "Tx" });
        let form = doc.add_object(dictionary! {
            "Fields" => vec![a.into(), b.into(), c.into()], "CO" => vec![a1.into(), b1.into()],
            "XFA" => vec![], "NeedAppearances" => true,
        });
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "AcroForm" => form });
        doc.trailer.set("Root", catalog);
        remove(&mut doc, &HashSet::from([a1, b1]));
        let form = doc.get_dictionary(form).expect("the form stays");
        let fields = form
            .get(b"Fields")
            .and_then(Object::as_array)
            .expect("fields");
        assert_eq!(fields, &vec![Object::Reference(a), Object::Reference(c)]);
        assert!(!form.has(b"CO") && !form.has(b"XFA") && form.has(b"NeedAppearances"));
        let kids = doc
            .get_dictionary(a)
            .and_then(|a| a.get(b"Kids"))
            .expect("kids");
        assert_eq!(kids, &Object::Array(vec![a2.into()]));

        remove(&mut doc, &HashSet::from([a2, c]));
        let catalog = doc.catalog().expect("catalog");
        assert!(!catalog.has(b"AcroForm"), "no field is left");
    }
}
