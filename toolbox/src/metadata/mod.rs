//! Document information and XMP metadata: read, edit, strip.
//!
//! The document information dictionary (the trailer's /Info) is what most readers show; the
//! catalog's XMP packet is what PDF/A and search tools read. Reading takes /Info first and the
//! XMP where /Info lacks a field; editing changes both, so that they keep telling the same
//! story (an XMP packet is edited in place, everything it holds besides the fields changed is
//! kept); stripping removes both, and every other object's metadata stream and private
//! application data.

mod date;
mod xmp;

use std::collections::HashSet;
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::{ToolError, Written, io, pages, text};

use xmp::{Change, DC, PDF, Value, XMP};

/// The document's metadata as a reader sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
    pub creator: Option<String>,
    pub producer: Option<String>,
    /// As written (PDF date strings `D:20240102...`), shown as ISO 8601 when they parse.
    pub created: Option<String>,
    pub modified: Option<String>,
    /// Other /Info entries (name, value), e.g. custom keys; at most 50, values cut at 500 chars.
    pub custom: Vec<(String, String)>,
    /// An XMP packet is attached to the catalog, and its size in bytes.
    pub xmp_bytes: Option<usize>,
}

/// Changes: None keeps a field, Some("") removes it (so does a value of white space alone),
/// Some(v) sets it.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
    pub creator: Option<String>,
    pub producer: Option<String>,
}

/// The /Info entries [`Metadata`] has fields for; the others are `custom`.
const STANDARD: [&[u8]; 8] = [
    b"Title",
    b"Author",
    b"Subject",
    b"Keywords",
    b"Creator",
    b"Producer",
    b"CreationDate",
    b"ModDate",
];

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

fn non_empty(text: &str) -> Option<String> {
    (!text.trim().is_empty()).then(|| text.to_string())
}

/// An /Info value as text: strings decoded, names, numbers and booleans as written; arrays,
/// dictionaries and streams are not metadata a reader shows.
fn value_text(doc: &Document, value: &Object) -> Option<String> {
    match doc.dereference(value).ok()?.1 {
        Object::String(bytes, _) => Some(text::decode(bytes)),
        Object::Name(name) => Some(String::from_utf8_lossy(name).into_owned()),
        Object::Integer(n) => Some(n.to_string()),
        Object::Real(n) => Some(n.to_string()),
        Object::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn info_dict(doc: &Document) -> Option<&Dictionary> {
    let info = doc.trailer.get(b"Info").ok()?;
    doc.dereference(info).ok()?.1.as_dict().ok()
}

/// The catalog's metadata stream: its id and its decoded bytes (the stored bytes when its
/// filter cannot be decoded).
fn catalog_xmp(doc: &Document) -> Option<(ObjectId, Vec<u8>)> {
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
