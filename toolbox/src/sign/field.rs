//! The signature field: one dictionary that is both the field (/FT /Sig, its value the
//! signature dictionary) and its widget on the page, listed in the page's /Annots and the
//! AcroForm's /Fields, with /SigFlags 3 (signatures exist, append only).

use std::collections::BTreeSet;

use lopdf::{Dictionary, Document, Object, ObjectId, StringFormat, dictionary};

use crate::ToolError;
use crate::io;

/// Print and Locked (ISO 32000-1, 12.5.3): a signature's widget is printed and cannot be moved
/// or deleted in a reader.
const WIDGET_FLAGS: i64 = 4 | 128;

/// What the widget shows and where.
pub struct Widget {
    pub page: ObjectId,
    /// In user space; [0 0 0 0] for an invisible signature.
    pub rect: [f64; 4],
    /// Its normal appearance.
    pub appearance: ObjectId,
}

/// Adds the field with its widget, its value `signature` (the id the signature dictionary
/// will have), and returns the field's id.
pub fn add(
    doc: &mut Document,
    widget: &Widget,
    signature: ObjectId,
) -> Result<ObjectId, ToolError> {
    let name = free_name(doc);
    let field = io::new_id(doc)?;
    doc.objects.insert(
        field,
        Object::Dictionary(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "FT" => "Sig",
            "T" => Object::String(name.into_bytes(), StringFormat::Literal),
            "V" => signature, "F" => WIDGET_FLAGS, "P" => widget.page,
            "Rect" => crate::geometry::rect_object(widget.rect),
            "AP" => dictionary! { "N" => widget.appearance },
        }),
    );
    add_annot(doc, widget.page, field)?;
    add_to_form(doc, field)?;
    Ok(field)
}

/// "Signature1", or the first "SignatureN" no field of the document is named.
fn free_name(doc: &Document) -> String {
    let taken: BTreeSet<Vec<u8>> = doc
        .objects
        .values()
        .filter_map(|object| object.as_dict().ok())
        .filter_map(|dict| dict.get(b"T").ok())
        .filter_map(|title| title.as_str().ok())
        .map(<[u8]>::to_vec)
        .collect();
    (1..)
        .map(|n: u32| format!("Signature{n}"))
        .find(|name| !taken.contains(name.as_bytes()))
        .unwrap_or_else(|| "Signature".into())
}

/// Appends `annot` to the page's /Annots, an array in the page or an object of its own.
fn add_annot(doc: &mut Document, page: ObjectId, annot: ObjectId) -> Result<(), ToolError> {
    let current = doc
        .get_dictionary(page)
        .map_err(|_| broken("a page is not a dictionary"))?
        .get(b"Annots")
        .ok()
        .cloned();
    match current {
        Some(Object::Reference(id)) if matches!(doc.get_object(id), Ok(Object::Array(_))) => {
            if let Ok(Object::Array(items)) = doc.get_object_mut(id) {
                items.push(annot.into());
            }
        }
        Some(Object::Array(mut items)) => {
            items.push(annot.into());
            set(doc, page, b"Annots", Object::Array(items))?;
        }
        _ => set(doc, page, b"Annots", Object::Array(vec![annot.into()]))?,
    }
    Ok(())
}

/// Lists `field` in the AcroForm (made when there is none) and sets /SigFlags 3.
fn add_to_form(doc: &mut Document, field: ObjectId) -> Result<(), ToolError> {
    let root = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|_| broken("it has no catalog"))?;
    let form = doc
        .get_dictionary(root)
        .map_err(|_| broken("its catalog is not a dictionary"))?
        .get(b"AcroForm")
        .ok()
        .cloned();
    let (form_id, mut form) = match form {
        Some(Object::Reference(id)) => match doc.get_dictionary(id) {
            Ok(dict) => (Some(id), dict.clone()),
            Err(_) => (None, Dictionary::new()),
        },
        Some(Object::Dictionary(dict)) => (None, dict),
        _ => (None, Dictionary::new()),
    };
    let fields = form.get(b"Fields").ok().cloned();
    match fields {
        Some(Object::Reference(id)) if matches!(doc.get_object(id), Ok(Object::Array(_))) => {
            if let Ok(Object::Array(items)) = doc.get_object_mut(id) {
                items.push(field.into());
            }
        }
        Some(Object::Array(mut items)) => {
            items.push(field.into());
            form.set("Fields", items);
        }
        _ => form.set("Fields", vec![Object::from(field)]),
    }
    form.set("SigFlags", 3);
    match form_id {
        Some(id) => {
            doc.objects.insert(id, Object::Dictionary(form));
        }
        None => {
            let id = doc.add_object(form);
            set(doc, root, b"AcroForm", Object::Reference(id))?;
        }
    }
    Ok(())
}

fn set(doc: &mut Document, id: ObjectId, key: &[u8], value: Object) -> Result<(), ToolError> {
    doc.get_dictionary_mut(id)
        .map_err(|_| broken("an object it needs is not a dictionary"))?
        .set(key, value);
    Ok(())
}

fn broken(what: &str) -> ToolError {
    ToolError::InvalidFile(format!("the PDF cannot take a signature field: {what}"))
}
