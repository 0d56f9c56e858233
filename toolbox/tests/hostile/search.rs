//! An output read back with lopdf, and searched for what must be gone: names in its objects,
//! tokens in qpdf's decoded form of it, text in its streams.

use std::path::Path;

use lopdf::{Dictionary, Document, Object};

pub fn load(path: &Path) -> Document {
    Document::load(path).unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()))
}

/// Names (as keys or as values) that must not be left after sanitize with every option.
pub const FORBIDDEN: [&[u8]; 6] = [
    b"JavaScript",
    b"JS",
    b"EmbeddedFile",
    b"EmbeddedFiles",
    b"URI",
    b"Launch",
];

/// Where `doc` still holds one of `names`, as a key or a name value: "object: name".
pub fn forbidden_in(doc: &Document, names: &[&[u8]]) -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |id: String, object: &Object| {
        walk(object, &mut |name| {
            if names.contains(&name) {
                found.push(format!("{id}: /{}", String::from_utf8_lossy(name)));
            }
        });
    };
    check("trailer".into(), &Object::Dictionary(doc.trailer.clone()));
    for (id, object) in &doc.objects {
        check(format!("{} {}", id.0, id.1), object);
    }
    found
}

fn walk(object: &Object, f: &mut impl FnMut(&[u8])) {
    match object {
        Object::Name(name) => f(name),
        Object::Array(items) => items.iter().for_each(|item| walk(item, f)),
        Object::Dictionary(dict) => walk_dict(dict, f),
        Object::Stream(stream) => walk_dict(&stream.dict, f),
        _ => {}
    }
}

fn walk_dict(dict: &Dictionary, f: &mut impl FnMut(&[u8])) {
    for (key, value) in dict {
        f(key);
        walk(value, f);
    }
}

/// The forbidden names as PDF tokens in `bytes`: `/JS` followed by a delimiter or white space
/// (so `/JSFont` does not count).
pub fn forbidden_tokens(bytes: &[u8]) -> Vec<String> {
    // The search runs in std's optimized code: a byte loop of a test build takes seconds
    // on the decoded form of a large file.
    let text = String::from_utf8_lossy(bytes);
    let mut found = Vec::new();
    for name in FORBIDDEN {
        let token = format!("/{}", String::from_utf8_lossy(name));
        let hits = text
            .match_indices(&token)
            .filter(|(at, _)| {
                text.as_bytes().get(at + token.len()).is_none_or(|next| {
                    matches!(
                        next,
                        b' ' | b'\n'
                            | b'\r'
                            | b'\t'
                            | b'\x0c'
                            | b'\0'
                            | b'/'
                            | b'<'
                            | b'>'
                            | b'['
                            | b']'
                            | b'('
                            | b')'
                            | b'{'
                            | b'}'
                            | b'%'
                    )
                })
            })
            .count();
        if hits > 0 {
            found.push(format!("{token}: {hits}"));
        }
    }
    found
}

/// The decoded bytes of every stream of `doc` (contents, forms, images, files), joined.
pub fn all_streams(doc: &Document) -> Vec<u8> {
    let mut all = Vec::new();
    for object in doc.objects.values() {
        if let Object::Stream(stream) = object {
            all.extend(
                stream
                    .decompressed_content()
                    .unwrap_or_else(|_| stream.content.clone()),
            );
            all.push(b'\n');
        }
    }
    all
}

pub fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}
