//! Identical font programs merged into one stream object: documents assembled from several
//! files (or producers that embed a font once per page) carry the same program many times,
//! often compressed differently, so they are compared decoded.

use std::collections::hash_map::Entry;

use foldhash::{HashMap, HashMapExt};

use lopdf::{Document, Object, ObjectId};

/// Largest program compared (larger ones are left alone).
const MAX_PROGRAM: usize = 64 << 20;

/// The font program streams the font descriptors reference, with the key naming them.
pub fn programs(doc: &Document) -> Vec<(ObjectId, &'static [u8])> {
    let mut out = Vec::new();
    for object in doc.objects.values() {
        let Object::Dictionary(dict) = object else {
            continue;
        };
        for key in [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"] {
            if let Ok(Object::Reference(id)) = dict.get(key) {
                out.push((*id, key));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Points every reference to a copy of a program at its first instance; returns how many
/// copies were dropped from use. The programs are hashed whole, so with foldhash rather than
/// SipHash (a quarter of the merge's time went to SipHash on a file of a few dozen fonts).
pub fn merge_programs(doc: &mut Document) -> usize {
    let mut first: HashMap<(&'static [u8], String, Vec<u8>), ObjectId> = HashMap::new();
    let mut replace: HashMap<ObjectId, ObjectId> = HashMap::new();
    for (id, key) in programs(doc) {
        let Ok(Object::Stream(stream)) = doc.get_object(id) else {
            continue;
        };
        let Ok(data) = crate::plain::decode(stream, MAX_PROGRAM) else {
            continue;
        };
        // What else describes the program (Subtype, Length1-3) must match too.
        let mut dict = stream.dict.clone();
        for transport in [b"Length".as_slice(), b"Filter", b"DecodeParms", b"DL"] {
            dict.remove(transport);
        }
        let described = format!("{dict:?}");
        match first.entry((key, described, data)) {
            Entry::Occupied(original) => {
                replace.insert(id, *original.get());
            }
            Entry::Vacant(slot) => {
                slot.insert(id);
            }
        }
    }
    if replace.is_empty() {
        return 0;
    }
    crate::streams::redirect(doc, |id| replace.get(id).copied());
    replace.len()
}
