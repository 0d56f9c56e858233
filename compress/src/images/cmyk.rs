//! CMYK to RGB without a colour profile, the way viewers draw DeviceCMYK: the sRGB colour of
//! each of the 16 corners of the CMYK cube (pure inks and their overprints, as Adobe's
//! conversion renders them; poppler and MuPDF use the same table) and multilinear
//! interpolation between them. The naive 255·(1−C)(1−K) is far brighter and more saturated
//! than what PDFium, poppler or Ghostscript show (14.8 dB on pikepdf's cmyk-jpeg.pdf). Also
//! which CMYK JPEGs take this conversion, and which keep their inks.

use lopdf::{Document, Object};

use super::Preset;
use super::autofilter::MIN_JPEG_SIDE;

/// Whether a four-channel JPEG in `space` becomes RGB: at screen and ebook, as
/// Ghostscript's do, when the space is DeviceCMYK. poppler and PDFium draw an Adobe CMYK
/// JPEG's inks as decoded, /Decode applied, never inverted for the marker (mean colour of
/// the corpus's three Adobe CMYK JPEGs within 10 levels of those inks through the naive
/// formula, both ways round with and without an inverting /Decode), which is what the
/// conversion reads. An ICC-based CMYK JPEG keeps its inks: the conversion's table is no
/// profile. Nor does one too small to be a JPEG again: on pikepdf's 2×2 cmyk-jpeg.pdf
/// the decoder here gives other inks than libjpeg, poppler and PDFium do (13.6 dB apart; the
/// corpus's larger ones decode to the same bytes), which its kept bytes hide.
pub fn jpeg_to_rgb(
    doc: &Document,
    space: &Object,
    (width, height): (u32, u32),
    preset: Preset,
) -> bool {
    preset.cmyk_to_rgb() && width.min(height) >= MIN_JPEG_SIDE && is_device_cmyk(doc, space)
}

/// Whether /Decode, already applied, leaves each ink as stored or inverted: the two ways an
/// Adobe JPEG's inks are read, which applying it before the re-encode keeps apart.
pub fn inks_as_stored(decode_array: Option<&[f32]>) -> bool {
    decode_array.is_none_or(|array| {
        array
            .chunks(2)
            .all(|pair| pair == [0.0, 1.0] || pair == [1.0, 0.0])
    })
}

/// Whether an image's /ColorSpace is DeviceCMYK itself (by name, abbreviated, or as a
/// one-item array), not a profile's CMYK, which this table does not convert faithfully.
pub fn is_device_cmyk(doc: &Document, space: &Object) -> bool {
    let resolved = doc.dereference(space).map_or(space, |(_, o)| o);
    let name = match resolved {
        Object::Array(items) if items.len() == 1 => items[0].as_name().ok(),
        other => other.as_name().ok(),
    };
    matches!(name, Some(b"DeviceCMYK" | b"CMYK"))
}

/// RGB of each corner, indexed by the bits C M Y K (C highest).
const CORNERS: [[f32; 3]; 16] = [
    [1.0, 1.0, 1.0],          // paper
    [0.1373, 0.1216, 0.1255], // K
    [1.0, 0.9490, 0.0],       // Y
    [0.1098, 0.1020, 0.0],    // Y K
    [0.9255, 0.0, 0.5490],    // M
    [0.1412, 0.0, 0.0],       // M K
    [0.9294, 0.1098, 0.1412], // M Y
    [0.1333, 0.0, 0.0],       // M Y K
    [0.0, 0.6784, 0.9373],    // C
    [0.0, 0.0588, 0.1412],    // C K
    [0.0, 0.6510, 0.3137],    // C Y
    [0.0, 0.0745, 0.0],       // C Y K
    [0.1804, 0.1922, 0.5725], // C M
    [0.0, 0.0, 0.0078],       // C M K
    [0.2118, 0.2119, 0.2235], // C M Y
    [0.0, 0.0, 0.0],          // C M Y K
];

/// Converts packed 8-bit CMYK pixels (0 = no ink) to packed RGB.
pub fn cmyk_to_rgb(cmyk: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(cmyk.len() / 4 * 3);
    // Flat areas repeat one colour: skip the interpolation for a run.
    let mut last: Option<([u8; 4], [u8; 3])> = None;
    for pixel in cmyk.chunks_exact(4) {
        let key = [pixel[0], pixel[1], pixel[2], pixel[3]];
        let rgb = match last {
            Some((seen, rgb)) if seen == key => rgb,
            _ => {
                let rgb = convert(key);
                last = Some((key, rgb));
                rgb
            }
        };
        out.extend_from_slice(&rgb);
    }
    out
}

fn convert([c, m, y, k]: [u8; 4]) -> [u8; 3] {
    let [c, m, y, k] = [c, m, y, k].map(|v| f32::from(v) / 255.0);
    let mut rgb = [0.0f32; 3];
    for (corner, colour) in CORNERS.iter().enumerate() {
        let weight = |bit: usize, v: f32| if corner >> bit & 1 == 1 { v } else { 1.0 - v };
        let w = weight(3, c) * weight(2, m) * weight(1, y) * weight(0, k);
        if w > 0.0 {
            for (channel, value) in rgb.iter_mut().zip(colour) {
                *channel += w * value;
            }
        }
    }
    rgb.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_midpoints_follow_the_table() {
        assert_eq!(cmyk_to_rgb(&[0, 0, 0, 0]), [255, 255, 255]);
        assert_eq!(cmyk_to_rgb(&[0, 0, 0, 255]), [35, 31, 32]);
        assert_eq!(cmyk_to_rgb(&[255, 0, 0, 0]), [0, 173, 239]);
        assert_eq!(cmyk_to_rgb(&[255, 255, 255, 255]), [0, 0, 0]);
        // Half black: halfway between paper and full black.
        let [r, g, b] = convert([0, 0, 0, 128]);
        assert!(
            (144..=146).contains(&r) && (141..=143).contains(&g),
            "{r} {g} {b}"
        );
        // A run of one colour gives that colour each time.
        assert_eq!(
            cmyk_to_rgb(&[0, 255, 0, 0, 0, 255, 0, 0]),
            [236, 0, 140, 236, 0, 140]
        );
    }
}
