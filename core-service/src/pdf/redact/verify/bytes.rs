//! The byte check: no removed term in a decompressed stream or string a page reaches, nor,
//! when the document was to be cleaned, anywhere in the file.

use std::collections::{BTreeSet, HashMap};

use lopdf::{Document, Object, ObjectId};

use super::{Checked, Expect};
use crate::workers::protocol::{Failure, FailureKind};

/// Terms shorter than this (spaces left out) are not looked for in raw bytes: two letters
/// occur by chance in any binary stream.
const MIN_BYTE_TERM: usize = 3;

/// Lowercase, with every space left out: PDFium puts spaces and line breaks of its own
/// between words.
fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !crate::pdf::redact::search::ignorable(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

pub(super) fn bytes(
    path: &std::path::Path,
    expect: &Expect,
    checked: &mut Checked,
) -> Result<(), Failure> {
    let needles: Vec<(String, Vec<Vec<u8>>)> = expect
        .terms
        .iter()
        .filter(|t| squeeze(t).chars().count() >= MIN_BYTE_TERM)
        .map(|t| {
            let lower = t
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            let utf16 = |s: &str| {
                s.encode_utf16()
                    .flat_map(u16::to_be_bytes)
                    .collect::<Vec<u8>>()
            };
            let forms = vec![
                lower.as_bytes().to_vec(),
                utf16(&lower),
                utf16(&lower.to_uppercase()),
            ];
            (t.clone(), forms)
        })
        .collect();
    if needles.is_empty() {
        return Ok(());
    }
    let doc = Document::load(path).map_err(|e| {
        Failure::new(
            FailureKind::Engine,
            format!("the redacted file cannot be read back: {e}"),
        )
    })?;
    let owners = page_owners(&doc);
    let skipped = binary_streams(&doc);
    for (id, object) in &doc.objects {
        let haystacks: Vec<Vec<u8>> = match object {
            Object::Stream(stream) => {
                if skipped.contains(id) {
                    continue;
                }
                checked.streams_searched += 1;
                let content = stream
                    .decompressed_content()
                    .unwrap_or_else(|_| stream.content.clone());
                vec![content]
            }
            other => strings(other),
        };
        for haystack in haystacks {
            let lower = haystack.to_ascii_lowercase();
            for (term, forms) in &needles {
                let found = forms
                    .iter()
                    .any(|f| lower.windows(f.len()).any(|w| w == f.as_slice()));
                if !found {
                    continue;
                }
                match owners.get(id) {
                    Some(pages) => {
                        for page in pages {
                            checked
                                .fail(*page, format!("the bytes of object {} hold {term:?}", id.0));
                        }
                    }
                    // Outside the pages: a failure when the document was to be cleaned, a
                    // note when the user kept bookmarks, metadata and attachments as they are.
                    None => {
                        let leak =
                            format!("{term:?} is still in object {} outside the pages", id.0);
                        if !checked.document_leaks.contains(&leak) {
                            checked.document_leaks.push(leak);
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The strings of a non-stream object, nested ones included.
fn strings(object: &Object) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut stack = vec![object];
    while let Some(object) = stack.pop() {
        match object {
            Object::String(bytes, _) => out.push(bytes.clone()),
            Object::Array(items) => stack.extend(items),
            Object::Dictionary(dict) => stack.extend(dict.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    out
}

/// Streams of pixels, font programs, colour profiles and CMaps: data where a term is not text
/// a reader sees (a CMap's `%%Version` header is not the word "version" on a page), and where
/// short byte runs match by chance. The text a CMap maps is checked through PDFium instead.
fn binary_streams(doc: &Document) -> BTreeSet<ObjectId> {
    let mut skipped = BTreeSet::new();
    for (id, object) in &doc.objects {
        let Ok(dict) = object
            .as_dict()
            .or_else(|_| object.as_stream().map(|s| &s.dict))
        else {
            continue;
        };
        if let Ok(stream) = object.as_stream()
            && (stream.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image")
                || stream.dict.has(b"N") && !stream.dict.has(b"Type"))
        {
            skipped.insert(*id);
        }
        if let Ok(stream) = object.as_stream()
            && stream.dict.get(b"Type").and_then(Object::as_name).ok() == Some(b"CMap")
        {
            skipped.insert(*id);
        }
        for key in [
            b"FontFile".as_slice(),
            b"FontFile2",
            b"FontFile3",
            b"ToUnicode",
            b"Encoding",
        ] {
            if let Ok(reference) = dict.get(key).and_then(Object::as_reference) {
                skipped.insert(reference);
            }
        }
    }
    skipped
}

/// For each object a page reaches (contents, resources, forms, annotations and their
/// appearances), the pages that reach it. Links to other pages and the page tree are not
/// followed.
fn page_owners(doc: &Document) -> HashMap<ObjectId, BTreeSet<u32>> {
    const NOT_FOLLOWED: [&[u8]; 9] = [
        b"Parent",
        b"P",
        b"Dest",
        b"A",
        b"D",
        b"Next",
        b"Prev",
        b"Pg",
        b"StructParent",
    ];
    let mut owners: HashMap<ObjectId, BTreeSet<u32>> = HashMap::new();
    for (number, page_id) in doc.get_pages() {
        let mut stack = vec![page_id];
        let mut seen = BTreeSet::new();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            owners.entry(id).or_default().insert(number);
            let Ok(object) = doc.get_object(id) else {
                continue;
            };
            let dict = match object {
                Object::Dictionary(d) => d,
                Object::Stream(s) => &s.dict,
                _ => continue,
            };
            let is_other_page =
                id != page_id && dict.get(b"Type").and_then(Object::as_name).ok() == Some(b"Page");
            if is_other_page {
                continue;
            }
            let mut values: Vec<&Object> = dict
                .iter()
                .filter(|(k, _)| !NOT_FOLLOWED.contains(&k.as_slice()))
                .map(|(_, v)| v)
                .collect();
            while let Some(value) = values.pop() {
                match value {
                    Object::Reference(r) => stack.push(*r),
                    Object::Array(items) => values.extend(items),
                    Object::Dictionary(d) => values.extend(
                        d.iter()
                            .filter(|(k, _)| !NOT_FOLLOWED.contains(&k.as_slice()))
                            .map(|(_, v)| v),
                    ),
                    _ => {}
                }
            }
        }
    }
    owners
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_compared_without_case_or_spaces() {
        assert_eq!(squeeze("Jane \r\n DOE"), "janedoe");
        assert_eq!(squeeze("archi\u{FFFE}tecture"), "architecture");
    }
}
