//! Stream-level savings: Flate streams recompressed at the best level, plain streams
//! compressed, and byte-identical streams merged into one object.

use foldhash::{HashMap, HashMapExt};
use lopdf::{Document, Object, ObjectId};

/// Decoded size one stream may reach here (a bomb is left as it is).
const MAX_DECODED: usize = 256 * 1024 * 1024;

/// Recompresses Flate and unfiltered streams; keeps whichever encoding is smaller.
pub fn recompress_streams(doc: &mut Document) -> usize {
    let mut changed = 0;
    for object in doc.objects.values_mut() {
        let Object::Stream(stream) = object else {
            continue;
        };
        // Images were handled with their own codecs; metadata stays readable as XML.
        let kind = stream.dict.get(b"Type").and_then(Object::as_name).ok();
        let subtype = stream.dict.get(b"Subtype").and_then(Object::as_name).ok();
        if matches!(kind, Some(b"Metadata" | b"XRef" | b"ObjStm")) || subtype == Some(b"Image") {
            continue;
        }
        let filters: Vec<Vec<u8>> = match stream.filters() {
            Ok(filters) => filters.into_iter().map(<[u8]>::to_vec).collect(),
            Err(_) => Vec::new(),
        };
        let plain = match filters.as_slice() {
            [] => stream.content.clone(),
            [f] if f == b"FlateDecode" && !stream.dict.has(b"DecodeParms") => {
                match stream.decompressed_content_with_limit(MAX_DECODED) {
                    Ok(plain) => plain,
                    Err(_) => continue,
                }
            }
            _ => continue,
        };
        let Ok(packed) = deflate_best(&plain) else {
            continue;
        };
        if packed.len() < stream.content.len() {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(packed);
            changed += 1;
        }
    }
    changed
}

fn deflate_best(data: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut encoder = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(data.len() / 2),
        flate2::Compression::best(),
    );
    encoder.write_all(data)?;
    encoder.finish()
}

/// Points every reference to a duplicate stream at its first copy; the copies are then
/// unreferenced and dropped with the other unused objects. Hashes every stream's bytes, so
/// with foldhash rather than SipHash (several times faster on megabytes of image data).
pub fn merge_duplicate_streams(doc: &mut Document) -> usize {
    let mut first: HashMap<(String, &[u8]), ObjectId> = HashMap::new();
    let mut replace: HashMap<ObjectId, ObjectId> = HashMap::new();
    for (&id, object) in &doc.objects {
        if let Object::Stream(stream) = object {
            let key = (format!("{:?}", stream.dict), stream.content.as_slice());
            match first.get(&key) {
                Some(&original) => {
                    replace.insert(id, original);
                }
                None => {
                    first.insert(key, id);
                }
            }
        }
    }
    if replace.is_empty() {
        return 0;
    }
    doc.traverse_objects(|object| {
        if let Object::Reference(id) = object
            && let Some(original) = replace.get(id)
        {
            *id = *original;
        }
    });
    replace.len()
}
