//! Which streams are content streams: the pages' contents, form XObjects (appearance
//! streams included), tiling patterns and Type 3 glyph procedures.

use foldhash::HashSet;
use lopdf::{Dictionary, Document, Object, ObjectId};

pub fn content_streams(doc: &Document) -> HashSet<ObjectId> {
    let mut ids = HashSet::default();
    for page_id in doc.get_pages().into_values() {
        if let Ok(page) = doc.get_dictionary(page_id) {
            ids.extend(crate::pages::content_ids(doc, page).unwrap_or_default());
        }
    }
    for (&id, object) in &doc.objects {
        match object {
            Object::Stream(stream) if draws(&stream.dict) => {
                ids.insert(id);
            }
            Object::Dictionary(dict) if is_type3(dict) => {
                let procedures = dict
                    .get(b"CharProcs")
                    .and_then(|o| doc.dereference(o))
                    .and_then(|(_, o)| o.as_dict());
                let glyphs = procedures.into_iter().flat_map(Dictionary::iter);
                ids.extend(glyphs.filter_map(|(_, value)| value.as_reference().ok()));
            }
            _ => {}
        }
    }
    // A stream some file also uses as something else (an image, say) is not rewritten.
    ids.retain(|&id| {
        doc.get_object(id)
            .and_then(Object::as_stream)
            .is_ok_and(|s| name(&s.dict, b"Subtype") != Some(b"Image"))
    });
    ids
}

fn draws(dict: &Dictionary) -> bool {
    name(dict, b"Subtype") == Some(b"Form")
        || dict.get(b"PatternType").and_then(Object::as_i64).ok() == Some(1)
}

fn is_type3(dict: &Dictionary) -> bool {
    name(dict, b"Subtype") == Some(b"Type3")
}

fn name<'a>(dict: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    dict.get(key).and_then(Object::as_name).ok()
}
