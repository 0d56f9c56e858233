//! Embedded files by level: PDF/A-1 allows none; PDF/A-2 only files that are PDF/A
//! themselves; PDF/A-3 any file, each declared in the catalog's /AF with how it relates to
//! the document (ISO 19005-3 6.8), its file specification carrying /F, /UF and
//! /AFRelationship and its stream a MIME type.
//!
//! The files kept are the /Names /EmbeddedFiles tree's (written back as one flat node) and
//! those file attachment annotations hold, which join the tree since the annotations
//! themselves are drawn into the page (see `annots`).

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId, StringFormat};

use super::Level;
use super::changes::Changes;
use crate::ToolError;

/// Deeper than a name tree is ever built.
const MAX_DEPTH: usize = 32;
/// Largest embedded file read to tell whether it is a PDF/A file.
const MAX_INSPECTED: usize = 64 << 20;

/// Keys a file specification of an embedded file keeps.
const FILESPEC_KEYS: [&[u8]; 6] = [b"Type", b"F", b"UF", b"Desc", b"EF", b"AFRelationship"];
/// Keys an embedded file's /Params keeps.
const PARAMS_KEYS: [&[u8]; 4] = [b"Size", b"CreationDate", b"ModDate", b"CheckSum"];
/// /AFRelationship values of ISO 19005-3.
const RELATIONSHIPS: [&[u8]; 5] = [
    b"Source",
    b"Data",
    b"Alternative",
    b"Supplement",
    b"Unspecified",
];

/// Applies the level's rule on embedded files; tells what went.
pub fn apply(doc: &mut Document, level: Level, changes: &mut Changes) -> Result<(), ToolError> {
    let mut entries = tree_entries(doc);
    entries.extend(attachment_entries(doc));
    let had = entries.len();
    let mut seen = HashSet::new();
    entries.retain(|(_, spec)| match spec {
        Object::Reference(id) => seen.insert(*id),
        _ => true,
    });
    let kept: Vec<(Vec<u8>, Object)> = match level {
        Level::A1b => Vec::new(),
        Level::A2b => entries
            .into_iter()
            .filter(|(_, spec)| is_pdfa_file(doc, spec))
            .collect(),
        Level::A3b => entries,
    };
    let removed = had.saturating_sub(kept.len());
    if removed > 0 {
        let why = match level {
            Level::A1b => "PDF/A-1 allows none",
            _ => "PDF/A-2 allows only PDF/A files: convert to PDF/A-3b to keep them",
        };
        changes.note(format!(
            "removed {removed} embedded file{} ({why})",
            if removed == 1 { "" } else { "s" }
        ));
    }
    strip_everywhere(doc);
    if kept.is_empty() {
        return Ok(());
    }
    let mut specs = Vec::with_capacity(kept.len());
    let mut tree = Vec::with_capacity(kept.len());
    for (name, spec) in kept {
        let id = match spec {
            Object::Reference(id) => id,
            other => {
                let id = crate::io::new_id(doc)?;
                doc.objects.insert(id, other);
                id
            }
        };
        tidy_spec(doc, id, &name, level, changes);
        specs.push(Object::Reference(id));
        tree.push((name, Object::Reference(id)));
    }
    let root = crate::names::write_tree(doc, tree)?;
    let names = names_dict_mut(doc)?;
    names.set("EmbeddedFiles", root);
    if level == Level::A3b {
        doc.catalog_mut()
            .map_err(|_| ToolError::InvalidFile("the PDF has no catalog".into()))?
            .set("AF", specs);
    }
    Ok(())
}

/// The catalog's /Names dictionary, made direct in the catalog when it is missing.
fn names_dict_mut(doc: &mut Document) -> Result<&mut Dictionary, ToolError> {
    let no_catalog = || ToolError::InvalidFile("the PDF has no catalog".into());
    let names = doc
        .catalog()
        .map_err(|_| no_catalog())?
        .get(b"Names")
        .ok()
        .cloned();
    match names {
        Some(Object::Reference(id)) if doc.get_dictionary(id).is_ok() => {
            doc.get_dictionary_mut(id).map_err(|_| no_catalog())
        }
        Some(Object::Dictionary(_)) => doc
            .catalog_mut()
            .map_err(|_| no_catalog())?
            .get_mut(b"Names")
            .and_then(Object::as_dict_mut)
            .map_err(|_| no_catalog()),
        _ => {
            let catalog = doc.catalog_mut().map_err(|_| no_catalog())?;
            catalog.set("Names", Dictionary::new());
            catalog
                .get_mut(b"Names")
                .and_then(Object::as_dict_mut)
                .map_err(|_| no_catalog())
        }
    }
}

/// Every embedded file reference left outside the rebuilt tree goes: the old tree, /AF
/// arrays, the portfolio, and the file attachment annotations (drawn into their pages
/// before this runs, or removed).
fn strip_everywhere(doc: &mut Document) {
    if let Ok(names) = names_dict_mut(doc) {
        names.remove(b"EmbeddedFiles");
    }
    if let Ok(catalog) = doc.catalog_mut() {
        catalog.remove(b"AF");
        catalog.remove(b"Collection");
    }
    for object in doc.objects.values_mut() {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &mut stream.dict,
            _ => continue,
        };
        dict.remove(b"AF");
    }
}

/// The (name, file specification) pairs of the /Names /EmbeddedFiles tree.
fn tree_entries(doc: &Document) -> Vec<(Vec<u8>, Object)> {
    let root = crate::names::names_dict(doc).and_then(|names| names.get(b"EmbeddedFiles").ok());
    let mut entries = Vec::new();
    if let Some(root) = root {
        collect(doc, root, 0, &mut HashSet::new(), &mut entries);
    }
    entries
        .into_iter()
        .filter(|(_, spec)| embedded_stream(doc, spec).is_some())
        .collect()
}

fn collect(
    doc: &Document,
    node: &Object,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
    entries: &mut Vec<(Vec<u8>, Object)>,
) {
    if let Object::Reference(id) = node
        && !seen.insert(*id)
    {
        return;
    }
    let Some(node) = doc
        .dereference(node)
        .ok()
        .and_then(|(_, n)| n.as_dict().ok())
    else {
        return;
    };
    let array = |key: &[u8]| {
        node.get(key)
            .ok()
            .and_then(|v| doc.dereference(v).ok())
            .and_then(|(_, v)| v.as_array().ok())
    };
    if let Some(pairs) = array(b"Names") {
        for pair in pairs.chunks_exact(2) {
            if let Object::String(key, _) = &pair[0] {
                entries.push((key.clone(), pair[1].clone()));
            }
        }
    }
    if depth < MAX_DEPTH
        && let Some(kids) = array(b"Kids")
    {
        for kid in kids {
            collect(doc, kid, depth + 1, seen, entries);
        }
    }
}

/// The files of file attachment annotations, named after their file specification.
fn attachment_entries(doc: &Document) -> Vec<(Vec<u8>, Object)> {
    let mut out = Vec::new();
    for object in doc.objects.values() {
        let Object::Dictionary(annot) = object else {
            continue;
        };
        if annot.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"FileAttachment") {
            continue;
        }
        let Ok(spec) = annot.get(b"FS") else {
            continue;
        };
        if embedded_stream(doc, spec).is_none() {
            continue;
        }
        let name = file_name(doc, spec).unwrap_or_else(|| b"attachment".to_vec());
        out.push((name, spec.clone()));
    }
    out
}

/// The embedded file stream a file specification holds.
fn embedded_stream(doc: &Document, spec: &Object) -> Option<ObjectId> {
    let spec = doc.dereference(spec).ok()?.1.as_dict().ok()?;
    let ef = doc
        .dereference(spec.get(b"EF").ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()?;
    let file = ef.get(b"UF").or_else(|_| ef.get(b"F")).ok()?;
    let id = file.as_reference().ok()?;
    doc.get_object(id).ok()?.as_stream().ok()?;
    Some(id)
}

fn file_name(doc: &Document, spec: &Object) -> Option<Vec<u8>> {
    let spec = doc.dereference(spec).ok()?.1.as_dict().ok()?;
    match spec.get(b"UF").or_else(|_| spec.get(b"F")).ok()? {
        Object::String(bytes, _) => Some(bytes.clone()),
        _ => None,
    }
}

/// Whether the embedded file is itself a PDF/A file (its XMP declares a PDF/A part).
fn is_pdfa_file(doc: &Document, spec: &Object) -> bool {
    let Some(id) = embedded_stream(doc, spec) else {
        return false;
    };
    let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
        return false;
    };
    let Ok(data) = stream.decompressed_content_with_limit(MAX_INSPECTED) else {
        return false;
    };
    data.starts_with(b"%PDF-")
        && (find(&data, b"pdfaid:part").is_some() || find(&data, b"pdfaid/part").is_some())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A file specification as PDF/A-3 wants it: typed, with /F and /UF, a relationship, and
/// its stream with a MIME type; keys the validators do not know go.
fn tidy_spec(doc: &mut Document, id: ObjectId, name: &[u8], level: Level, changes: &mut Changes) {
    let Some(stream_id) = embedded_stream(doc, &Object::Reference(id)) else {
        return;
    };
    let Ok(spec) = doc.get_dictionary_mut(id) else {
        return;
    };
    let file = spec
        .get(b"UF")
        .or_else(|_| spec.get(b"F"))
        .ok()
        .and_then(|v| v.as_str().ok())
        .map_or_else(|| name.to_vec(), <[u8]>::to_vec);
    let keys: Vec<Vec<u8>> = spec.iter().map(|(k, _)| k.clone()).collect();
    for key in keys {
        if !FILESPEC_KEYS.contains(&key.as_slice()) {
            spec.remove(&key);
        }
    }
    spec.set("Type", Object::Name(b"Filespec".to_vec()));
    let text = Object::String(file.clone(), StringFormat::Literal);
    if !matches!(spec.get(b"F"), Ok(Object::String(..))) {
        spec.set("F", text.clone());
    }
    if !matches!(spec.get(b"UF"), Ok(Object::String(..))) {
        spec.set("UF", text);
    }
    let relationship = spec.get(b"AFRelationship").and_then(Object::as_name).ok();
    if level == Level::A3b && !relationship.is_some_and(|r| RELATIONSHIPS.contains(&r)) {
        spec.set("AFRelationship", Object::Name(b"Unspecified".to_vec()));
        changes.count(
            "declared how",
            1,
            "embedded file relates to the document (/AFRelationship /Unspecified)",
            "embedded files relate to the document (/AFRelationship /Unspecified)",
        );
    }
    spec.set(
        "EF",
        lopdf::dictionary! { "F" => stream_id, "UF" => stream_id },
    );
    let mime = mime_type(&file);
    let Ok(Object::Stream(stream)) = doc.get_object_mut(stream_id) else {
        return;
    };
    stream
        .dict
        .set("Type", Object::Name(b"EmbeddedFile".to_vec()));
    let valid = stream
        .dict
        .get(b"Subtype")
        .and_then(Object::as_name)
        .ok()
        .is_some_and(valid_mime);
    if !valid {
        stream
            .dict
            .set("Subtype", Object::Name(mime.as_bytes().to_vec()));
    }
    let keys: Vec<Vec<u8>> = stream.dict.iter().map(|(k, _)| k.clone()).collect();
    for key in keys {
        if !matches!(
            key.as_slice(),
            b"Type" | b"Subtype" | b"Params" | b"Length" | b"Filter" | b"DecodeParms" | b"DL"
        ) {
            stream.dict.remove(&key);
        }
    }
    if let Ok(Object::Dictionary(params)) = stream.dict.get_mut(b"Params") {
        let keys: Vec<Vec<u8>> = params.iter().map(|(k, _)| k.clone()).collect();
        for key in keys {
            if !PARAMS_KEYS.contains(&key.as_slice()) {
                params.remove(&key);
            }
        }
    }
}

/// ISO 19005-3 6.8: a MIME type, type/subtype of the characters RFC 2045 allows.
fn valid_mime(name: &[u8]) -> bool {
    let ok = |part: &[u8]| {
        !part.is_empty()
            && part
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+' | b'.'))
    };
    let mut parts = name.splitn(2, |&b| b == b'/');
    matches!((parts.next(), parts.next()), (Some(a), Some(b)) if ok(a) && ok(b))
}

/// The MIME type of a file, by its extension.
fn mime_type(name: &[u8]) -> &'static str {
    let name = String::from_utf8_lossy(name).to_ascii_lowercase();
    let ext = name.rsplit('.').next().unwrap_or("");
    match ext {
        "pdf" => "application/pdf",
        "xml" => "application/xml",
        "json" => "application/json",
        "txt" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "tif" | "tiff" => "image/tiff",
        "zip" => "application/zip",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_types_are_checked_and_guessed() {
        assert!(valid_mime(b"application/pdf"));
        assert!(valid_mime(b"text/plain"));
        assert!(!valid_mime(b"application"));
        assert!(!valid_mime(b"text/ plain"));
        assert_eq!(mime_type(b"Invoice.XML"), "application/xml");
        assert_eq!(mime_type(b"data"), "application/octet-stream");
    }
}
