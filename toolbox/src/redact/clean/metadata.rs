//! Document information entries and XMP packets holding a term are removed: the entry from
//! /Info, the packet from whatever names it (the catalog, a page, an image).

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Terms;

/// The largest packet read.
const MAX_PACKET: usize = 16 << 20;

/// Returns how many entries and packets went.
pub fn remove(doc: &mut Document, terms: &Terms) -> u32 {
    info(doc, terms) + packets(doc, terms)
}

fn info(doc: &mut Document, terms: &Terms) -> u32 {
    let Some(info) = doc.trailer.get(b"Info").ok().cloned() else {
        return 0;
    };
    let Some(mut dict) = doc
        .dereference(&info)
        .ok()
        .and_then(|(_, d)| d.as_dict().ok())
        .cloned()
    else {
        return 0;
    };
    let holding: Vec<Vec<u8>> = dict
        .iter()
        .filter(|(_, value)| {
            let text = match doc.dereference(value).map(|(_, v)| v) {
                Ok(Object::String(bytes, _)) => crate::text::decode(bytes),
                Ok(Object::Name(name)) => String::from_utf8_lossy(name).into_owned(),
                _ => return false,
            };
            terms.found_in(&text)
        })
        .map(|(key, _)| key.clone())
        .collect();
    for key in &holding {
        dict.remove(key);
    }
    if !holding.is_empty() {
        match info {
            Object::Reference(id) => {
                doc.objects.insert(id, Object::Dictionary(dict));
            }
            _ => doc.trailer.set("Info", Object::Dictionary(dict)),
        }
    }
    holding.len() as u32
}

/// Metadata streams (typed /Metadata, or XML named by a /Metadata entry) holding a term: every
/// /Metadata entry naming one is removed.
fn packets(doc: &mut Document, terms: &Terms) -> u32 {
    let mut named: HashSet<ObjectId> = HashSet::new();
    for object in doc.objects.values() {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &stream.dict,
            _ => continue,
        };
        if let Ok(id) = dict.get(b"Metadata").and_then(Object::as_reference) {
            named.insert(id);
        }
    }
    let condemned: HashSet<ObjectId> = doc
        .objects
        .iter()
        .filter_map(|(&id, object)| {
            let stream = object.as_stream().ok()?;
            let metadata = stream.dict.has_type(b"Metadata") || named.contains(&id);
            (metadata && holds(stream, terms)).then_some(id)
        })
        .collect();
    if condemned.is_empty() {
        return 0;
    }
    for object in doc.objects.values_mut() {
        let dict: &mut Dictionary = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &mut stream.dict,
            _ => continue,
        };
        if dict
            .get(b"Metadata")
            .and_then(Object::as_reference)
            .is_ok_and(|id| condemned.contains(&id))
        {
            dict.remove(b"Metadata");
        }
    }
    for id in &condemned {
        doc.objects.remove(id);
    }
    condemned.len() as u32
}

/// Whether a packet holds a term, read as XML (its usual entities undone).
fn holds(stream: &lopdf::Stream, terms: &Terms) -> bool {
    let Ok(bytes) = stream.decompressed_content_with_limit(MAX_PACKET) else {
        // Unreadable: it may hold anything.
        return true;
    };
    if terms.found_in_bytes(&bytes) {
        return true;
    }
    let text = String::from_utf8_lossy(&bytes)
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&");
    terms.found_in(&text)
}
