//! Whole-image cases through [`recompress_images`]: filter chains, sample depths, colour
//! spaces, /Decode, palettes, masks and JPX, each read back as pixels.

use lopdf::{Document, Object, ObjectId, Stream, dictionary};

use super::flate::{deflate, deflate_predicted, predictor_parms};
use super::jpeg::{self, Pixels};
use super::reencode::read;
use super::{ImageReport, recompress_images};
use crate::Preset;
use crate::displayed::DisplayedSizes;

mod cmyk;
mod fax;
mod masks;
mod tints;

/// An 8×8 RGB JPEG 2000 codestream, lossless, made with OpenJPEG's `opj_compress -n 2` from
/// R = 32·x mod 256, G = 32·y mod 256, B = 128.
const TINY_J2K: &[u8] = &[
    255, 79, 255, 81, 0, 47, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0,
    0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 7, 1, 1, 7, 1, 1, 7, 1, 1, 255, 82, 0, 12, 0, 0, 0, 1,
    1, 1, 4, 4, 0, 1, 255, 92, 0, 7, 64, 64, 72, 72, 80, 255, 100, 0, 37, 0, 1, 67, 114, 101, 97,
    116, 101, 100, 32, 98, 121, 32, 79, 112, 101, 110, 74, 80, 69, 71, 32, 118, 101, 114, 115, 105,
    111, 110, 32, 50, 46, 53, 46, 48, 255, 144, 0, 10, 0, 0, 0, 0, 0, 91, 0, 1, 255, 147, 207, 180,
    56, 16, 226, 56, 248, 45, 40, 125, 28, 239, 34, 146, 72, 204, 155, 223, 128, 72, 21, 49, 107,
    172, 30, 41, 80, 8, 127, 223, 128, 104, 6, 65, 148, 140, 180, 7, 54, 238, 103, 24, 211, 255,
    127, 192, 249, 1, 193, 243, 131, 0, 34, 26, 15, 3, 127, 235, 161, 245, 1, 128, 0, 207, 227,
    195, 234, 3, 135, 212, 6, 34, 26, 21, 0, 207, 227, 255, 217,
];

fn run(doc: &mut Document, shown: &[(ObjectId, (f32, f32))], preset: Preset) -> ImageReport {
    let sizes: DisplayedSizes = shown.iter().copied().collect();
    recompress_images(doc, &sizes, preset, u64::MAX)
}

fn stream(doc: &Document, id: ObjectId) -> &Stream {
    doc.get_object(id)
        .and_then(Object::as_stream)
        .expect("an image stream")
}

fn size(doc: &Document, id: ObjectId) -> (i64, i64) {
    let dict = &stream(doc, id).dict;
    let get = |key: &[u8]| dict.get(key).and_then(Object::as_i64).expect("a size");
    (get(b"Width"), get(b"Height"))
}

fn name<'a>(doc: &'a Document, id: ObjectId, key: &[u8]) -> &'a [u8] {
    stream(doc, id)
        .dict
        .get(key)
        .and_then(Object::as_name)
        .unwrap_or(b"")
}

fn pixels(doc: &Document, id: ObjectId, preset: Preset) -> Pixels {
    read(doc, stream(doc, id), preset).expect("readable").0
}

/// Smooth colour with fine noise: a photo to the encoders (thousands of colours).
fn photo(width: u32, height: u32) -> Vec<u8> {
    (0..width * height)
        .flat_map(|i| {
            let (x, y) = (i % width, i / width);
            let noise = (x * 7 + y * 13) % 5;
            [
                (x * 255 / width + noise) as u8,
                (y * 255 / height) as u8,
                ((x + y) * 127 / (width + height) + noise) as u8,
            ]
        })
        .collect()
}

fn flate_image(width: u32, height: u32, space: Object, bpc: i64, samples: &[u8]) -> Stream {
    let content = deflate(samples).expect("deflates");
    image_stream((width, height), space, bpc, "FlateDecode", content)
}

fn image_stream(
    (width, height): (u32, u32),
    space: Object,
    bpc: i64,
    filter: &str,
    content: Vec<u8>,
) -> Stream {
    Stream::new(
        dictionary! {
            "Type" => "XObject",
            "Subtype" => "Image",
            "Width" => i64::from(width),
            "Height" => i64::from(height),
            "ColorSpace" => space,
            "BitsPerComponent" => bpc,
            "Filter" => filter,
        },
        content,
    )
}

fn ascii85(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(4) {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        let mut value = u32::from_be_bytes(word);
        let mut digits = [0u8; 5];
        for digit in digits.iter_mut().rev() {
            *digit = (value % 85) as u8 + b'!';
            value /= 85;
        }
        out.extend_from_slice(&digits[..chunk.len() + 1]);
    }
    out.extend_from_slice(b"~>");
    out
}

#[test]
fn a_flate_photo_is_downsampled_to_jpeg() {
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(flate_image(
        400,
        400,
        "DeviceRGB".into(),
        8,
        &photo(400, 400),
    ));
    // 100 pt at 150 dpi is 208 px: 400 px is 1.9× that, above the 1.5 threshold.
    let report = run(&mut doc, &[(id, (100.0, 100.0))], Preset::Ebook);
    assert_eq!(report.replaced, 1);
    assert_eq!(size(&doc, id), (208, 208));
    assert_eq!(name(&doc, id, b"Filter"), b"DCTDecode");
}

#[test]
fn every_grey_depth_reads_back_exactly() {
    for bpc in [1u8, 2, 4, 8] {
        let max = (1u16 << bpc) - 1;
        // 16 × 4 samples of a ramp, packed at bpc bits.
        let plain: Vec<u8> = (0..64u16).map(|i| ((i % 16) * max / 15) as u8).collect();
        let packed = super::flate::pack(&plain, 16, bpc);
        let mut doc = Document::with_version("1.7");
        let id = doc.add_object(flate_image(
            16,
            4,
            "DeviceGray".into(),
            i64::from(bpc),
            &packed,
        ));
        let before = pixels(&doc, id, Preset::Ebook).data;
        let expected: Vec<u8> = plain
            .iter()
            .map(|&v| (u16::from(v) * 255 / max) as u8)
            .collect();
        assert_eq!(before, expected, "bpc {bpc}");
        run(&mut doc, &[(id, (16.0, 4.0))], Preset::Ebook);
        assert_eq!(pixels(&doc, id, Preset::Ebook).data, expected, "bpc {bpc}");
    }
}

#[test]
fn sixteen_bit_samples_become_eight_bit() {
    // Noise in the low bytes, which 8-bit output drops.
    let samples: Vec<u8> = (0..32 * 32)
        .flat_map(|i: u32| [(i % 32 * 8) as u8, (i * 97 % 251) as u8])
        .collect();
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(flate_image(32, 32, "DeviceGray".into(), 16, &samples));
    let report = run(&mut doc, &[(id, (32.0, 32.0))], Preset::Ebook);
    assert_eq!(report.replaced, 1);
    let after = pixels(&doc, id, Preset::Ebook).data;
    assert_eq!(&after[..4], &[0, 8, 16, 24]);
}

#[test]
fn a_decode_array_is_applied_and_dropped() {
    let ramp: Vec<u8> = (0..128 * 128).map(|i| (i % 128 * 2) as u8).collect();
    let mut image = flate_image(128, 128, "DeviceGray".into(), 8, &ramp);
    image.dict.set("Decode", vec![1.into(), 0.into()]);
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(image);
    // Downsampled (128 px to 67), so the samples are rewritten with /Decode applied.
    let report = run(&mut doc, &[(id, (32.0, 32.0))], Preset::Ebook);
    assert_eq!(report.replaced, 1);
    assert!(!stream(&doc, id).dict.has(b"Decode"));
    let after = pixels(&doc, id, Preset::Ebook).data;
    assert!(
        after[0] >= 245 && after[66] <= 10,
        "{} {}",
        after[0],
        after[66]
    );
}

#[test]
fn indexed_images_expand_through_their_palette_and_decode() {
    let lookup = vec![0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255];
    let space = Object::Array(vec![
        "Indexed".into(),
        "DeviceRGB".into(),
        3.into(),
        Object::string_literal(lookup.clone()),
    ]);
    let indices: Vec<u8> = (0..32 * 32).map(|i| (i / 8 % 4) as u8).collect();
    let mut image = flate_image(32, 32, space, 2, &super::flate::pack(&indices, 32, 2));
    image.dict.set("Decode", vec![3.into(), 0.into()]);
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(image);
    let expected: Vec<u8> = indices
        .iter()
        .flat_map(|&i| lookup[usize::from(3 - i) * 3..][..3].to_vec())
        .collect();
    assert_eq!(pixels(&doc, id, Preset::Ebook).data, expected);
    run(&mut doc, &[(id, (32.0, 32.0))], Preset::Ebook);
    assert_eq!(pixels(&doc, id, Preset::Ebook).data, expected);
}

#[test]
fn an_ascii85_jpeg_chain_is_decoded_and_downsampled() {
    let source = Pixels {
        data: photo(256, 256),
        width: 256,
        height: 256,
        channels: 3,
    };
    let jpeg = jpeg::encode(&source, 95, true).expect("encodes");
    let image = Stream::new(
        dictionary! {
            "Subtype" => "Image",
            "Width" => 256,
            "Height" => 256,
            "ColorSpace" => "DeviceRGB",
            "BitsPerComponent" => 8,
            "Filter" => vec!["ASCII85Decode".into(), "DCTDecode".into()],
        },
        ascii85(&jpeg),
    );
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(image);
    let report = run(&mut doc, &[(id, (64.0, 64.0))], Preset::Ebook);
    assert_eq!(report.replaced, 1);
    assert_eq!(size(&doc, id), (133, 133));
    assert_eq!(name(&doc, id, b"Filter"), b"DCTDecode");
}

#[test]
fn an_ascii_hex_flate_chain_with_a_predictor_is_decoded() {
    let rgb: Vec<u8> = (0..24 * 16)
        .flat_map(|i| [(i % 24 * 10) as u8, (i / 24 * 15) as u8, 7])
        .collect();
    let packed = deflate_predicted(&rgb, (24, 16), 3, 8).expect("encodes");
    let hex: Vec<u8> = packed
        .iter()
        .flat_map(|b| format!("{b:02X}").into_bytes())
        .chain(*b">")
        .collect();
    let image = Stream::new(
        dictionary! {
            "Subtype" => "Image",
            "Width" => 24,
            "Height" => 16,
            "ColorSpace" => "DeviceRGB",
            "BitsPerComponent" => 8,
            "Filter" => vec!["ASCIIHexDecode".into(), "FlateDecode".into()],
            "DecodeParms" => vec![Object::Null, predictor_parms(24, 3, 8).into()],
        },
        hex,
    );
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(image);
    assert_eq!(pixels(&doc, id, Preset::Ebook).data, rgb);
    let report = run(&mut doc, &[(id, (24.0, 16.0))], Preset::Printer);
    assert_eq!(report.replaced, 1);
    assert_eq!(pixels(&doc, id, Preset::Printer).data, rgb);
}

#[test]
fn jpx_decodes_to_its_pixels() {
    let (pixels, own_icc) = super::jpx::decode(TINY_J2K, (8, 8)).expect("decodes");
    assert!(!own_icc);
    let expected: Vec<u8> = (0..64u32)
        .flat_map(|i| [(i % 8 * 32) as u8, (i / 8 * 32) as u8, 128])
        .collect();
    assert_eq!(pixels.data, expected);
    assert!(super::jpx::decode(TINY_J2K, (8, 9)).is_none());
    let image = Stream::new(
        dictionary! {
            "Subtype" => "Image",
            "Width" => 8,
            "Height" => 8,
            "Filter" => "JPXDecode",
        },
        TINY_J2K.to_vec(),
    );
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(image);
    assert_eq!(pixels_of_jpx(&doc, id), expected);
}

fn pixels_of_jpx(doc: &Document, id: ObjectId) -> Vec<u8> {
    let mut image = stream(doc, id).clone();
    // read() wants a depth; JPX ignores it.
    image.dict.set("BitsPerComponent", 8);
    read(doc, &image, Preset::Ebook).expect("readable").0.data
}
