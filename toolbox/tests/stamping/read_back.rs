//! The stamped outputs read back with lopdf: pages, their resources and content streams.

use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId};

pub fn load(path: &Path) -> Document {
    Document::load(path).unwrap()
}

pub fn pages(doc: &Document) -> Vec<ObjectId> {
    doc.get_pages().into_values().collect()
}

pub fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    doc.dereference(object).unwrap().1
}

/// A category (/Font, /ExtGState, /XObject) of a page's own resources.
pub fn category<'a>(doc: &'a Document, page: ObjectId, name: &[u8]) -> &'a Dictionary {
    let page = doc.get_dictionary(page).unwrap();
    let resources = resolve(doc, page.get(b"Resources").unwrap())
        .as_dict()
        .unwrap();
    resolve(doc, resources.get(name).unwrap())
        .as_dict()
        .unwrap()
}

/// The page's content streams, decoded.
pub fn streams(doc: &Document, page: ObjectId) -> Vec<String> {
    let contents = doc.get_dictionary(page).unwrap().get(b"Contents").unwrap();
    resolve(doc, contents)
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let stream = resolve(doc, item).as_stream().unwrap();
            let bytes = stream
                .decompressed_content()
                .unwrap_or_else(|_| stream.content.clone());
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect()
}
