//! Premultiplied images: a soft mask with /Matte says its image's colour was blended with the
//! matte colour by the mask. Resampling both with the same linear filter keeps that true (the
//! resampled colour is the mask-weighted mean, which is what premultiplied resampling is
//! for), but only if both end at the same size: a viewer reads them pixel for pixel. So a
//! pair is given one displayed size, and a pair that would still end at two sizes (one of the
//! two kept as it was) keeps both as they were.

use std::collections::{HashMap, HashSet};

use lopdf::{Document, Object, ObjectId, Stream};

use super::reencode::Role;

/// (image, mask) for every image among `ids` whose soft mask has /Matte.
pub fn pairs(doc: &Document, ids: impl Iterator<Item = ObjectId>) -> Vec<(ObjectId, ObjectId)> {
    ids.filter_map(|image| {
        let stream = doc.get_object(image).ok()?.as_stream().ok()?;
        let mask = stream.dict.get(b"SMask").ok()?.as_reference().ok()?;
        let mask_dict = &doc.get_object(mask).ok()?.as_stream().ok()?.dict;
        mask_dict.has(b"Matte").then_some((image, mask))
    })
    .collect()
}

/// The replacements without those that would leave a pair at two sizes.
pub fn same_sizes(
    pairs: &[(ObjectId, ObjectId)],
    replacements: Vec<(ObjectId, Role, Stream)>,
    doc: &Document,
) -> Vec<(ObjectId, Role, Stream)> {
    let replaced: HashMap<ObjectId, &Stream> =
        replacements.iter().map(|(id, _, s)| (*id, s)).collect();
    let size = |id: ObjectId| {
        let stream = match replaced.get(&id) {
            Some(stream) => *stream,
            None => doc.get_object(id).ok()?.as_stream().ok()?,
        };
        let side = |key: &[u8]| stream.dict.get(key).and_then(Object::as_i64).ok();
        Some((side(b"Width")?, side(b"Height")?))
    };
    let undone: HashSet<ObjectId> = pairs
        .iter()
        .filter(|&&(image, mask)| size(image).is_none() || size(image) != size(mask))
        .flat_map(|&(image, mask)| [image, mask])
        .collect();
    replacements
        .into_iter()
        .filter(|(id, _, _)| !undone.contains(id))
        .collect()
}
