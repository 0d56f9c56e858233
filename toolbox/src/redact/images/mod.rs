//! Images burnt where an area covers them: decoded whatever their filter (the compressor's
//! decoders: Flate, LZW, RunLength, ASCII, DCT through libjpeg-turbo, JPX; CCITT Group 4 and
//! one-dimensional Group 3 through the `fax` crate), the covered pixels painted, and written
//! as a new stream: JPEG again (quality 92, full chroma) for a JPEG, Group 4 for a fax, Flate
//! for the rest (a JPEG 2000 image loses the alpha channel /SMaskInData took from it). A stencil mask's
//! covered bits are cleared, a soft mask is made opaque there and an explicit mask cleared,
//! each in a copy: masks and images may be shared. JBIG2, two-dimensional Group 3 fax and
//! damaged data are errors: the page is unsafe.

mod cover;
mod samples;
mod stream;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use crate::geometry::Matrix;
use crate::redact::geometry::Areas;
use cover::Cover;
use samples::Target;
use stream::paint;

/// Larger images are not decoded (their page is unsafe).
const MAX_PIXELS: u64 = 64 << 20;

/// A painted copy of an image and of its masks.
pub struct Painted {
    image: Stream,
    masks: Vec<(&'static str, Stream)>,
}

impl Painted {
    /// Adds the copy (its masks first) to `doc`.
    pub fn add_to(self, doc: &mut Document) -> ObjectId {
        let mut image = self.image;
        for (key, mask) in self.masks {
            let id = doc.add_object(mask);
            image.dict.set(key, Object::Reference(id));
        }
        doc.add_object(image)
    }
}

/// The image `stream` drawn with `ctm`, painted where `areas` cover it; `None` when no pixel
/// centre is covered; an error says why it cannot be decoded.
pub fn redact(
    doc: &Document,
    stream: &Stream,
    ctm: Matrix,
    areas: &Areas,
    fill: [u8; 3],
) -> Result<Option<Painted>, &'static str> {
    let cover = Cover::of(ctm, size(doc, &stream.dict)?, areas);
    if cover.is_empty() {
        return Ok(None);
    }
    let stencil = flag(doc, &stream.dict, b"ImageMask");
    let target = if stencil {
        Target::One
    } else {
        Target::Fill(fill)
    };
    let image = paint(doc, stream, &cover, target)?;
    let mut masks = Vec::new();
    for key in ["SMask", "Mask"] {
        let Some(mask) = stream
            .dict
            .get(key.as_bytes())
            .ok()
            .and_then(|m| doc.dereference(m).ok())
            .and_then(|(_, m)| m.as_stream().ok())
        else {
            continue;
        };
        let mask_size = size(doc, &mask.dict)?;
        let mask_cover = Cover::of(ctm, mask_size, areas);
        if !mask_cover.is_empty() {
            masks.push((key, paint(doc, mask, &mask_cover, Target::One)?));
        }
    }
    Ok(Some(Painted { image, masks }))
}

pub(super) fn size(doc: &Document, dict: &Dictionary) -> Result<(u32, u32), &'static str> {
    let side = |key: &[u8]| {
        let value = doc.dereference(dict.get(key).ok()?).ok()?.1.as_i64().ok()?;
        u32::try_from(value).ok().filter(|&v| v > 0)
    };
    let (Some(width), Some(height)) = (side(b"Width"), side(b"Height")) else {
        return Err("an image without a size");
    };
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err("an image too large to decode");
    }
    Ok((width, height))
}

pub(super) fn flag(doc: &Document, dict: &Dictionary, key: &[u8]) -> bool {
    dict.get(key)
        .ok()
        .and_then(|v| doc.dereference(v).ok())
        .is_some_and(|(_, v)| matches!(v, Object::Boolean(true)))
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn covered_pixels_take_the_fill_and_the_rest_stay() {
        let doc = Document::with_version("1.7");
        let pixels: Vec<u8> = (0..16u8).flat_map(|i| [i, i, i]).collect();
        let image = Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 4, "Height" => 4,
                "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8,
            },
            pixels.clone(),
        );
        // Drawn 40 x 40 at the origin; the area takes the left half of the top row.
        let areas = Areas::new(vec![[0.0, 30.0, 20.0, 40.0]]);
        let painted = redact(
            &doc,
            &image,
            [40.0, 0.0, 0.0, 40.0, 0.0, 0.0],
            &areas,
            [255, 0, 0],
        )
        .expect("decodes")
        .expect("covered");
        let data = painted.image.decompressed_content().expect("flate");
        let mut expected = pixels;
        expected[..6].copy_from_slice(&[255, 0, 0, 255, 0, 0]);
        assert_eq!(data, expected);
        let elsewhere = Areas::new(vec![[100.0, 100.0, 120.0, 120.0]]);
        assert!(
            redact(
                &doc,
                &image,
                [40.0, 0.0, 0.0, 40.0, 0.0, 0.0],
                &elsewhere,
                [0, 0, 0]
            )
            .expect("decodes")
            .is_none()
        );
    }

    #[test]
    fn undecodable_filters_are_errors() {
        let doc = Document::with_version("1.7");
        let image = Stream::new(
            dictionary! {
                "Subtype" => "Image", "Width" => 4, "Height" => 4, "ColorSpace" => "DeviceGray",
                "BitsPerComponent" => 1, "Filter" => "JBIG2Decode",
            },
            vec![0; 8],
        );
        let areas = Areas::new(vec![[0.0, 0.0, 10.0, 10.0]]);
        assert!(
            redact(
                &doc,
                &image,
                [40.0, 0.0, 0.0, 40.0, 0.0, 0.0],
                &areas,
                [0, 0, 0]
            )
            .is_err()
        );
    }
}
