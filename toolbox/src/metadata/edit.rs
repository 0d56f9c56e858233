//! Editing: /Info changed, and the catalog's XMP packet kept in step.

use std::path::Path;

use lopdf::{Dictionary, Document, Object};

use crate::{ToolError, Written, io, pages, text};

use super::read::{catalog_xmp, info_dict, non_empty, value_text};
use super::xmp::{self, Change, DC, PDF, Value, XMP};
use super::{Edit, STANDARD, date};

/// Applies `edit` to /Info AND keeps the catalog's XMP in step (dc:title, dc:creator,
/// dc:description, pdf:Keywords and dc:subject, xmp:CreatorTool, pdf:Producer; xmp:ModifyDate,
/// xmp:MetadataDate and /ModDate set to now, UTC). A PDF with no XMP gets none added (only
/// /Info changes). A packet that cannot be read as XMP (no rdf:RDF, an unknown filter, UTF-16)
/// is replaced by one built from the new /Info.
pub fn edit(input: &Path, edit: &Edit, output: &Path) -> Result<Written, ToolError> {
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    let now = date::Utc::now();
    let mut info = info_dict(&doc).cloned().unwrap_or_default();
    for (key, value) in fields(edit) {
        match value {
            None => {}
            Some(value) if value.trim().is_empty() => {
                info.remove(key);
            }
            Some(value) => info.set(key, text::encode(value)),
        }
    }
    info.set("ModDate", Object::string_literal(now.pdf()));
    if let Some((id, bytes)) = catalog_xmp(&doc) {
        let mut changes = changes(edit);
        changes.extend(dates(&now));
        let (xml, utf8) = xmp::decode(&bytes);
        let packet = utf8
            .then(|| xmp::apply(&xml, &changes))
            .flatten()
            .unwrap_or_else(|| xmp::fresh(&from_info(&doc, &info, &now)));
        if let Ok(Object::Stream(stream)) = doc.get_object_mut(id) {
            stream.set_plain_content(packet.into_bytes());
            stream.dict.set("Type", Object::Name(b"Metadata".to_vec()));
            stream.dict.set("Subtype", Object::Name(b"XML".to_vec()));
        }
    }
    set_info(&mut doc, info)?;
    io::save(&mut doc, output)?;
    Ok(Written {
        pages: crate::count(tree.pages.len()),
    })
}

fn fields(edit: &Edit) -> [(&'static [u8], Option<&str>); 6] {
    [
        (b"Title".as_slice(), edit.title.as_deref()),
        (b"Author", edit.author.as_deref()),
        (b"Subject", edit.subject.as_deref()),
        (b"Keywords", edit.keywords.as_deref()),
        (b"Creator", edit.creator.as_deref()),
        (b"Producer", edit.producer.as_deref()),
    ]
}

/// The XMP properties that mirror the /Info entry `key`, with `value` written their way
/// (`None` removes them).
fn mirrors(key: &[u8], value: Option<&str>) -> Vec<Change> {
    let change = |ns, local, value: Option<Value>| Change { ns, local, value };
    let text = |f: fn(String) -> Value| value.map(|v| f(v.to_string()));
    match key {
        b"Title" => vec![change(DC, "title", text(Value::Alt))],
        b"Author" => vec![change(
            DC,
            "creator",
            value.map(|v| Value::Seq(vec![v.into()])),
        )],
        b"Subject" => vec![change(DC, "description", text(Value::Alt))],
        b"Keywords" => vec![
            change(PDF, "Keywords", text(Value::Text)),
            change(
                DC,
                "subject",
                value.map(|v| {
                    Value::Bag(
                        v.split([',', ';'])
                            .map(str::trim)
                            .filter(|k| !k.is_empty())
                            .map(String::from)
                            .collect(),
                    )
                }),
            ),
        ],
        b"Creator" => vec![change(XMP, "CreatorTool", text(Value::Text))],
        b"Producer" => vec![change(PDF, "Producer", text(Value::Text))],
        _ => Vec::new(),
    }
}

/// The XMP changes an edit makes to the fields it touches.
fn changes(edit: &Edit) -> Vec<Change> {
    fields(edit)
        .into_iter()
        .filter_map(|(key, value)| {
            let value = value?;
            let value = (!value.trim().is_empty()).then_some(value);
            Some(mirrors(key, value))
        })
        .flatten()
        .collect()
}

fn dates(now: &date::Utc) -> [Change; 2] {
    let iso = now.iso();
    [
        Change {
            ns: XMP,
            local: "ModifyDate",
            value: Some(Value::Text(iso.clone())),
        },
        Change {
            ns: XMP,
            local: "MetadataDate",
            value: Some(Value::Text(iso)),
        },
    ]
}

/// Every property of a new packet that mirrors `info`.
fn from_info(doc: &Document, info: &Dictionary, now: &date::Utc) -> Vec<Change> {
    let mut changes: Vec<Change> = STANDARD[..6]
        .iter()
        .filter_map(|key| {
            let value = value_text(doc, info.get(key).ok()?)?;
            let value = non_empty(&value)?;
            Some(mirrors(key, Some(&value)))
        })
        .flatten()
        .collect();
    if let Some(created) = info
        .get(b"CreationDate")
        .ok()
        .and_then(|value| value_text(doc, value))
        .and_then(|raw| date::to_iso(&raw))
    {
        changes.push(Change {
            ns: XMP,
            local: "CreateDate",
            value: Some(Value::Text(created)),
        });
    }
    changes.extend(dates(now));
    changes
}

/// Writes `info` as the document's /Info, in the object the trailer names when it is one.
fn set_info(doc: &mut Document, info: Dictionary) -> Result<(), ToolError> {
    if let Ok(id) = doc.trailer.get(b"Info").and_then(Object::as_reference)
        && let Ok(object @ Object::Dictionary(_)) = doc.get_object_mut(id)
    {
        *object = Object::Dictionary(info);
        return Ok(());
    }
    let id = io::new_id(doc)?;
    doc.objects.insert(id, Object::Dictionary(info));
    doc.trailer.set("Info", id);
    Ok(())
}
