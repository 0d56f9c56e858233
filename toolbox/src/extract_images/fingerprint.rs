//! A hash of an image stream as stored, to find byte-identical copies saved as separate
//! objects (a producer that embeds a logo once per page): its raw bytes and its dictionary,
//! where references are followed so that two copies pointing at equal but distinct objects
//! (an ICC profile, a soft mask each) still match. /Length is left out: equal bytes have it.

use std::hash::{DefaultHasher, Hash, Hasher};

use lopdf::{Dictionary, Document, Object, Stream};

/// How deep references are followed, and how many are followed for one image; past either an
/// object is hashed by its number (a hostile dictionary could otherwise fan out without end).
const MAX_DEPTH: u8 = 6;
const MAX_FOLLOWED: u32 = 256;

pub fn fingerprint(doc: &Document, stream: &Stream) -> u64 {
    let mut walk = Walk {
        doc,
        hasher: DefaultHasher::new(),
        followed: 0,
    };
    walk.stream(stream, 0);
    walk.hasher.finish()
}

struct Walk<'a> {
    doc: &'a Document,
    hasher: DefaultHasher,
    followed: u32,
}

/// Whether two streams that share a fingerprint are the same image: equal bytes, then
/// (the hash already covers them) dictionaries taken as equal.
pub fn same_bytes(a: &Stream, b: &Stream) -> bool {
    a.content == b.content
}

impl Walk<'_> {
    fn stream(&mut self, stream: &Stream, depth: u8) {
        self.dictionary(&stream.dict, depth);
        stream.content.hash(&mut self.hasher);
    }

    fn dictionary(&mut self, dict: &Dictionary, depth: u8) {
        // Key order is the writer's: two equal dictionaries may list their keys differently.
        let mut entries: Vec<_> = dict
            .iter()
            .filter(|(key, _)| key.as_slice() != b"Length")
            .collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        entries.len().hash(&mut self.hasher);
        for (key, value) in entries {
            key.hash(&mut self.hasher);
            self.object(value, depth);
        }
    }

    fn object(&mut self, object: &Object, depth: u8) {
        std::mem::discriminant(object).hash(&mut self.hasher);
        match object {
            Object::Null => {}
            Object::Boolean(b) => b.hash(&mut self.hasher),
            Object::Integer(i) => i.hash(&mut self.hasher),
            Object::Real(r) => r.to_bits().hash(&mut self.hasher),
            Object::Name(name) => name.hash(&mut self.hasher),
            Object::String(bytes, _) => bytes.hash(&mut self.hasher),
            Object::Array(items) => {
                items.len().hash(&mut self.hasher);
                for item in items {
                    self.object(item, depth);
                }
            }
            Object::Dictionary(dict) => self.dictionary(dict, depth),
            Object::Stream(stream) => self.stream(stream, depth),
            Object::Reference(id) => {
                let doc = self.doc;
                match doc.get_object(*id) {
                    Ok(target) if depth < MAX_DEPTH && self.followed < MAX_FOLLOWED => {
                        self.followed += 1;
                        self.object(target, depth + 1);
                    }
                    _ => id.hash(&mut self.hasher),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn copies_match_and_differences_do_not() {
        let mut doc = Document::with_version("1.5");
        let icc_a = doc.add_object(Stream::new(dictionary! { "N" => 3 }, b"profile".to_vec()));
        let icc_b = doc.add_object(Stream::new(dictionary! { "N" => 3 }, b"profile".to_vec()));
        let image = |icc, bytes: &[u8]| {
            Stream::new(
                dictionary! { "Width" => 1, "ColorSpace" => vec!["ICCBased".into(), Object::Reference(icc)] },
                bytes.to_vec(),
            )
        };
        let a = image(icc_a, b"abc");
        assert_eq!(
            fingerprint(&doc, &a),
            fingerprint(&doc, &image(icc_b, b"abc"))
        );
        assert_ne!(
            fingerprint(&doc, &a),
            fingerprint(&doc, &image(icc_b, b"abd"))
        );
        // A self-referencing object ends at the depth limit.
        let looped = doc.new_object_id();
        doc.objects
            .insert(looped, Object::Dictionary(dictionary! { "Next" => looped }));
        let odd = Stream::new(dictionary! { "X" => looped }, Vec::new());
        let _ = fingerprint(&doc, &odd);
    }
}
