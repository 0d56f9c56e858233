//! Stripping: /Info, every metadata stream and private application data.

use std::collections::HashSet;
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::{ToolError, Written, io, pages};

/// Removes /Info, the catalog's and every object's /Metadata stream, /PieceInfo (catalog and
/// pages, and wherever else a producer left it, with the /LastModified that goes with it).
pub fn strip(input: &Path, output: &Path) -> Result<Written, ToolError> {
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    strip_doc(&mut doc);
    io::save(&mut doc, output)?;
    Ok(Written {
        pages: crate::count(tree.pages.len()),
    })
}

/// What [`strip`] removes, from a loaded document; returns how many things it removed (the
/// information dictionary, each metadata stream, each page-piece dictionary). The streams
/// themselves go when the document is saved, as nothing reaches them any more.
pub(crate) fn strip_doc(doc: &mut Document) -> u32 {
    let mut stripped = Stripped::default();
    if doc.trailer.remove(b"Info").is_some() {
        stripped.info = 1;
    }
    for object in doc.objects.values_mut() {
        match object {
            Object::Stream(stream) => stripped.dict(&mut stream.dict),
            other => stripped.value(other),
        }
    }
    let streams = u32::try_from(stripped.streams.len()).unwrap_or(u32::MAX);
    stripped
        .info
        .saturating_add(streams)
        .saturating_add(stripped.direct)
        .saturating_add(stripped.pieces)
}

#[derive(Default)]
struct Stripped {
    info: u32,
    streams: HashSet<ObjectId>,
    direct: u32,
    pieces: u32,
}

impl Stripped {
    fn dict(&mut self, dict: &mut Dictionary) {
        match dict.remove(b"Metadata") {
            Some(Object::Reference(id)) => {
                self.streams.insert(id);
            }
            Some(_) => self.direct += 1,
            None => {}
        }
        if dict.remove(b"PieceInfo").is_some() {
            self.pieces += 1;
            dict.remove(b"LastModified");
        }
        for (_, value) in dict.iter_mut() {
            self.value(value);
        }
    }

    fn value(&mut self, value: &mut Object) {
        match value {
            Object::Dictionary(dict) => self.dict(dict),
            Object::Array(items) => items.iter_mut().for_each(|item| self.value(item)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use lopdf::{Stream, dictionary};

    use super::*;

    #[test]
    fn strip_counts_what_it_removes() {
        let mut doc = Document::with_version("1.7");
        let xmp = doc.add_object(Stream::new(dictionary! {}, b"<x/>".to_vec()));
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Metadata" => xmp, "PieceInfo" => dictionary! {},
            "LastModified" => Object::string_literal("D:2024"),
            "Resources" => dictionary! { "X" => dictionary! { "Metadata" => xmp } },
        });
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Metadata" => xmp });
        doc.trailer.set("Root", catalog);
        doc.trailer.set("Info", dictionary! {});
        assert_eq!(strip_doc(&mut doc), 3);
        let page = doc.get_dictionary(page).expect("page");
        assert!(!page.has(b"Metadata") && !page.has(b"PieceInfo") && !page.has(b"LastModified"));
        assert_eq!(strip_doc(&mut doc), 0);
    }
}
