//! Stream filters as the rest of the compressor reads them: names and direct dictionaries.

use lopdf::{Document, Object, ObjectId};

/// The filters of PDF 32000-1 (7.4.1), with the inline-image abbreviations some writers use
/// in streams too: what every conforming viewer decodes.
const STANDARD: [&[u8]; 17] = [
    b"ASCIIHexDecode",
    b"ASCII85Decode",
    b"LZWDecode",
    b"FlateDecode",
    b"RunLengthDecode",
    b"CCITTFaxDecode",
    b"JBIG2Decode",
    b"DCTDecode",
    b"JPXDecode",
    b"Crypt",
    b"AHx",
    b"A85",
    b"LZW",
    b"Fl",
    b"RL",
    b"CCF",
    b"DCT",
];

/// How many references deep a filter entry is followed.
const DEPTH: usize = 8;

/// Replaces references in every stream's `/Filter` and `/DecodeParms` (the entries and the
/// items of their arrays) by the objects they name: read as they were, a referenced filter
/// was taken for none and its encoded bytes compressed again under a single `/FlateDecode`.
pub fn resolve(doc: &mut Document) {
    let streams: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, object)| match object {
            Object::Stream(stream) => [b"Filter".as_slice(), b"DecodeParms"]
                .iter()
                .any(|key| stream.dict.get(key).is_ok_and(has_reference)),
            _ => false,
        })
        .map(|(&id, _)| id)
        .collect();
    for id in streams {
        let resolved: Vec<(&[u8], Object)> = [b"Filter".as_slice(), b"DecodeParms"]
            .into_iter()
            .filter_map(|key| {
                let Ok(Object::Stream(stream)) = doc.get_object(id) else {
                    return None;
                };
                let value = stream.dict.get(key).ok()?;
                Some((key, direct(doc, value)))
            })
            .collect();
        if let Ok(Object::Stream(stream)) = doc.get_object_mut(id) {
            for (key, value) in resolved {
                stream.dict.set(key, value);
            }
        }
    }
}

fn has_reference(object: &Object) -> bool {
    match object {
        Object::Reference(_) => true,
        Object::Array(items) => items.iter().any(has_reference),
        _ => false,
    }
}

/// `object` with references followed, its array's items too (a `/DecodeParms` item names a
/// dictionary); a reference to nothing becomes null, as PDF 32000-1 7.3.10 reads it.
fn direct(doc: &Document, object: &Object) -> Object {
    let follow = |object: &Object| {
        let mut object = object;
        for _ in 0..DEPTH {
            match object {
                Object::Reference(id) => match doc.get_object(*id) {
                    Ok(target) => object = target,
                    Err(_) => return Object::Null,
                },
                other => return other.clone(),
            }
        }
        Object::Null
    };
    match follow(object) {
        Object::Array(items) => Object::Array(items.iter().map(follow).collect()),
        other => other,
    }
}

/// The first filter name outside the standard set, in any stream.
pub fn unknown(doc: &Document) -> Option<String> {
    doc.objects.values().find_map(|object| {
        let Object::Stream(stream) = object else {
            return None;
        };
        let names: Vec<&[u8]> = match stream.dict.get(b"Filter").ok()? {
            Object::Name(name) => vec![name],
            Object::Array(items) => items.iter().filter_map(|i| i.as_name().ok()).collect(),
            _ => return None,
        };
        names
            .into_iter()
            .find(|name| !STANDARD.contains(name))
            .map(|name| String::from_utf8_lossy(name).into_owned())
    })
}
