//! Reading: /Info first, the catalog's XMP packet where /Info lacks a field.

use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::{ToolError, io, text};

use super::xmp::{self, DC, PDF, XMP};
use super::{Metadata, STANDARD, date};

const MAX_CUSTOM: usize = 50;
const MAX_CUSTOM_CHARS: usize = 500;

/// Larger than any metadata packet; a stream that inflates past it is not read as one.
const XMP_LIMIT: usize = 16 << 20;

/// Info first, XMP (dc:title etc.) where Info lacks a field.
pub fn read(input: &Path) -> Result<Metadata, ToolError> {
    let doc = io::open(input)?;
    Ok(read_doc(&doc))
}

fn read_doc(doc: &Document) -> Metadata {
    let info = info_dict(doc);
    let field = |key: &[u8]| {
        info.and_then(|info| info.get(key).ok())
            .and_then(|value| value_text(doc, value))
            .and_then(|text| non_empty(&text))
    };
    let packet = catalog_xmp(doc).map(|(_, bytes)| bytes);
    let xmp_bytes = packet.as_ref().map(Vec::len);
    let packet = packet.map(|bytes| xmp::Packet::parse(&xmp::decode(&bytes).0));
    let from_xmp = |ns: &str, local: &str, sep: &str| {
        packet
            .as_ref()
            .and_then(|packet| packet.property(ns, local, sep))
    };
    let date = |key: &[u8]| field(key).map(|raw| date::to_iso(&raw).unwrap_or(raw));
    Metadata {
        title: field(b"Title").or_else(|| from_xmp(DC, "title", "")),
        author: field(b"Author").or_else(|| from_xmp(DC, "creator", "; ")),
        subject: field(b"Subject").or_else(|| from_xmp(DC, "description", "")),
        keywords: field(b"Keywords")
            .or_else(|| from_xmp(PDF, "Keywords", ""))
            .or_else(|| from_xmp(DC, "subject", ", ")),
        creator: field(b"Creator").or_else(|| from_xmp(XMP, "CreatorTool", "")),
        producer: field(b"Producer").or_else(|| from_xmp(PDF, "Producer", "")),
        created: date(b"CreationDate").or_else(|| from_xmp(XMP, "CreateDate", "")),
        modified: date(b"ModDate").or_else(|| from_xmp(XMP, "ModifyDate", "")),
        custom: info.map(|info| custom(doc, info)).unwrap_or_default(),
        xmp_bytes,
    }
}

fn custom(doc: &Document, info: &Dictionary) -> Vec<(String, String)> {
    info.iter()
        .filter(|(key, _)| !STANDARD.contains(&key.as_slice()))
        .filter_map(|(key, value)| {
            let value = value_text(doc, value)?;
            Some((cut(&String::from_utf8_lossy(key)), cut(&value)))
        })
        .take(MAX_CUSTOM)
        .collect()
}

fn cut(text: &str) -> String {
    text.chars().take(MAX_CUSTOM_CHARS).collect()
}

pub(super) fn non_empty(text: &str) -> Option<String> {
    (!text.trim().is_empty()).then(|| text.to_string())
}

/// An /Info value as text: strings decoded, names, numbers and booleans as written; arrays,
/// dictionaries and streams are not metadata a reader shows.
pub(super) fn value_text(doc: &Document, value: &Object) -> Option<String> {
    match doc.dereference(value).ok()?.1 {
        Object::String(bytes, _) => Some(text::decode(bytes)),
        Object::Name(name) => Some(String::from_utf8_lossy(name).into_owned()),
        Object::Integer(n) => Some(n.to_string()),
        Object::Real(n) => Some(n.to_string()),
        Object::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

pub(super) fn info_dict(doc: &Document) -> Option<&Dictionary> {
    let info = doc.trailer.get(b"Info").ok()?;
    doc.dereference(info).ok()?.1.as_dict().ok()
}

/// The catalog's metadata stream: its id and its decoded bytes (the stored bytes when its
/// filter cannot be decoded).
pub(super) fn catalog_xmp(doc: &Document) -> Option<(ObjectId, Vec<u8>)> {
    let id = doc
        .catalog()
        .ok()?
        .get(b"Metadata")
        .ok()?
        .as_reference()
        .ok()?;
    let stream = doc.get_object(id).ok()?.as_stream().ok()?;
    let bytes = stream
        .decompressed_content_with_limit(XMP_LIMIT)
        .unwrap_or_else(|_| stream.content.clone());
    Some((id, bytes))
}

#[cfg(test)]
mod tests {
    use lopdf::{Stream, dictionary};

    use super::*;

    #[test]
    fn info_wins_and_xmp_fills_in() {
        let mut doc = Document::with_version("1.7");
        let xml = format!(
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"{}\">\
             <rdf:Description rdf:about=\"\" xmlns:dc=\"{DC}\" xmlns:pdf=\"{PDF}\" pdf:Producer=\"X\">\
             <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">XMP title</rdf:li></rdf:Alt></dc:title>\
             <dc:subject><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></dc:subject>\
             </rdf:Description></rdf:RDF></x:xmpmeta>",
            xmp::RDF
        );
        let metadata = doc.add_object(Stream::new(
            dictionary! { "Type" => "Metadata", "Subtype" => "XML" },
            xml.clone().into_bytes(),
        ));
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Metadata" => metadata });
        doc.trailer.set("Root", catalog);
        let info = doc.add_object(dictionary! {
            "Producer" => Object::string_literal("Info producer"),
            "Title" => Object::string_literal("  "),
            "CreationDate" => Object::string_literal("D:20240102030405+01'00'"),
            "ModDate" => Object::string_literal("last week"),
            "Trapped" => "False",
            "Pages" => 12,
            "Junk" => vec![Object::Integer(1)],
            "Long" => Object::string_literal("x".repeat(600)),
        });
        doc.trailer.set("Info", info);
        let read = read_doc(&doc);
        assert_eq!(read.producer.as_deref(), Some("Info producer"));
        assert_eq!(read.title.as_deref(), Some("XMP title"));
        assert_eq!(read.keywords.as_deref(), Some("a, b"));
        assert_eq!(read.created.as_deref(), Some("2024-01-02T03:04:05+01:00"));
        assert_eq!(read.modified.as_deref(), Some("last week"));
        assert_eq!(read.xmp_bytes, Some(xml.len()));
        assert_eq!(read.custom.len(), 3);
        assert_eq!(read.custom[0], ("Trapped".into(), "False".into()));
        assert_eq!(read.custom[1], ("Pages".into(), "12".into()));
        assert_eq!(read.custom[2].1.chars().count(), MAX_CUSTOM_CHARS);
    }
}
