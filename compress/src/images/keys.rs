//! Colour keys no viewer applies: an image's /SMask overrides its /Mask (ISO 32000 8.9.5,
//! table 89), so a colour-key array beside a soft mask is ignored when drawn. Left in, it
//! would hold the image to its exact samples (a key names exact values) for nothing.

use lopdf::{Document, Object, Stream};

/// The image without its /Mask array when it has a soft mask stream; `None` when there is
/// nothing to drop.
pub fn without_ignored_key(doc: &Document, stream: &Stream) -> Option<Stream> {
    let resolve = |key: &[u8]| {
        let object = stream.dict.get(key).ok()?;
        Some(doc.dereference(object).map_or(object, |(_, o)| o))
    };
    if !matches!(resolve(b"SMask")?, Object::Stream(_))
        || !matches!(resolve(b"Mask")?, Object::Array(_))
    {
        return None;
    }
    let mut unkeyed = stream.clone();
    unkeyed.dict.remove(b"Mask");
    Some(unkeyed)
}
