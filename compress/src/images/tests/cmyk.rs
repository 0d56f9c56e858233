//! Four-channel images: CMYK Flate converted or kept per preset, Adobe CMYK JPEGs converted
//! at screen and ebook, resampled in their own inks at printer and prepress or in a profile's
//! CMYK.

use lopdf::{Document, Object, Stream};

use super::{flate_image, image_stream, name, photo, read, run, size, stream};
use crate::Preset;
use crate::images::jpeg::{self, Pixels};

/// The photo's RGB as three inks, with a black ink of its own, and sensor-like noise that
/// Flate codes badly, as in a scanned or camera photo.
fn cmyk_photo(width: u32, height: u32) -> Vec<u8> {
    let mut state = 0x2545_f491_u32;
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state % 4) as u8
    };
    photo(width, height)
        .chunks_exact(3)
        .enumerate()
        .flat_map(|(i, rgb)| {
            let black = (i as u32 % width * 96 / width) as u8;
            [rgb[0], rgb[1], rgb[2], black].map(|v| v.saturating_add(noise()))
        })
        .collect()
}

fn cmyk_jpeg(width: u32, height: u32) -> Vec<u8> {
    let source = Pixels {
        data: cmyk_photo(width, height),
        width,
        height,
        channels: 4,
    };
    jpeg::encode(&source, 95, true).expect("encodes")
}

fn dct_image(width: u32, height: u32, jpeg: Vec<u8>) -> Stream {
    image_stream((width, height), "DeviceCMYK".into(), 8, "DCTDecode", jpeg)
}

/// Each ink's mean, to compare an image before and after a resample.
fn ink_means(pixels: &Pixels) -> [f64; 4] {
    let mut sums = [0.0; 4];
    for pixel in pixels.data.chunks_exact(4) {
        for (sum, &v) in sums.iter_mut().zip(pixel) {
            *sum += f64::from(v);
        }
    }
    sums.map(|sum| sum / (pixels.data.len() / 4) as f64)
}

#[test]
fn cmyk_becomes_rgb_for_ebook_and_stays_for_printer() {
    let cmyk: Vec<u8> = (0..64 * 64)
        .flat_map(|i| [(i % 64 * 4) as u8, 0, 0, 0])
        .collect();
    for preset in [Preset::Ebook, Preset::Printer] {
        let mut doc = Document::with_version("1.7");
        let id = doc.add_object(flate_image(64, 64, "DeviceCMYK".into(), 8, &cmyk));
        run(&mut doc, &[(id, (64.0, 64.0))], preset);
        // Read through any palette the few colours were stored as.
        let (after, space) = read(&doc, stream(&doc, id), Preset::Ebook).expect("readable");
        if preset == Preset::Ebook {
            assert_eq!(space, Object::Name(b"DeviceRGB".to_vec()));
            // 4/255 cyan: the table gives a touch less green too, as viewers draw it.
            assert_eq!(&after.data[..6], &[255, 255, 255, 251, 254, 255]);
        } else {
            assert_eq!(name(&doc, id, b"ColorSpace"), b"DeviceCMYK");
            assert_eq!(size(&doc, id), (64, 64));
        }
    }
}

#[test]
fn a_cmyk_flate_photo_becomes_a_cmyk_jpeg_at_printer() {
    let mut doc = Document::with_version("1.7");
    let samples = cmyk_photo(400, 400);
    let id = doc.add_object(flate_image(400, 400, "DeviceCMYK".into(), 8, &samples));
    // 100 pt at 300 dpi is 417 px: kept at its size, re-encoded.
    let report = run(&mut doc, &[(id, (100.0, 100.0))], Preset::Printer);
    assert_eq!(report.replaced, 1);
    assert_eq!(name(&doc, id, b"Filter"), b"DCTDecode");
    assert_eq!(name(&doc, id, b"ColorSpace"), b"DeviceCMYK");
    let after = read(&doc, stream(&doc, id), Preset::Printer)
        .expect("readable")
        .0;
    let source = Pixels {
        data: samples,
        width: 400,
        height: 400,
        channels: 4,
    };
    let jpeg = &stream(&doc, id).content;
    let db = jpeg::fidelity(jpeg, &source).expect("measured");
    assert!(db >= 35.0, "{db} dB");
    assert_eq!(after.channels, 4);
}

#[test]
fn an_adobe_cmyk_jpeg_is_resampled_in_its_own_inks_at_printer() {
    for preset in [Preset::Printer, Preset::Prepress] {
        let mut doc = Document::with_version("1.7");
        let id = doc.add_object(dct_image(256, 256, cmyk_jpeg(256, 256)));
        let before = read(&doc, stream(&doc, id), preset).expect("readable").0;
        // 32 pt is 133 px at 300 dpi.
        let report = run(&mut doc, &[(id, (32.0, 32.0))], preset);
        assert_eq!(report.replaced, 1, "{preset:?}");
        assert_eq!(size(&doc, id), (133, 133));
        // Still a four-channel JPEG: never Flate or RGB, whose inks no longer ride on the
        // Adobe marker.
        assert_eq!(name(&doc, id, b"Filter"), b"DCTDecode");
        assert_eq!(name(&doc, id, b"ColorSpace"), b"DeviceCMYK");
        let after = read(&doc, stream(&doc, id), preset).expect("readable").0;
        for (old, new) in ink_means(&before).iter().zip(ink_means(&after)) {
            assert!((old - new).abs() < 3.0, "{preset:?}: {old} against {new}");
        }
    }
}

/// Screen and ebook draw DeviceCMYK in RGB, as Ghostscript's do: an Adobe CMYK JPEG becomes
/// an RGB one whose colours are its inks (with /Decode applied) through the conversion
/// table, as poppler and PDFium draw them. In a profile's CMYK it keeps its inks.
#[test]
fn an_adobe_cmyk_jpeg_becomes_rgb_at_screen_and_ebook() {
    for (preset, side) in [(Preset::Screen, 64), (Preset::Ebook, 133)] {
        for inverted in [false, true] {
            let mut doc = Document::with_version("1.7");
            let mut image = dct_image(256, 256, cmyk_jpeg(256, 256));
            if inverted {
                let decode: Vec<Object> = (0..8).map(|i| Object::Integer(1 - i % 2)).collect();
                image.dict.set("Decode", decode);
            }
            let id = doc.add_object(image);
            let inks = read(&doc, stream(&doc, id), Preset::Printer)
                .expect("readable")
                .0;
            let expected = Pixels {
                data: crate::images::cmyk::cmyk_to_rgb(&inks.data),
                channels: 3,
                ..inks
            };
            // 64 pt is 64 px at screen's 72 dpi and 133 px at ebook's 150.
            let report = run(&mut doc, &[(id, (64.0, 64.0))], preset);
            assert_eq!(report.replaced, 1, "{preset:?}");
            assert_eq!(size(&doc, id), (side, side));
            assert_eq!(name(&doc, id, b"Filter"), b"DCTDecode");
            assert_eq!(name(&doc, id, b"ColorSpace"), b"DeviceRGB");
            assert!(stream(&doc, id).dict.get(b"Decode").is_err());
            let after = read(&doc, stream(&doc, id), preset).expect("readable").0;
            let means = |p: &Pixels| {
                let mut sums = [0.0; 3];
                for pixel in p.data.chunks_exact(3) {
                    for (sum, &v) in sums.iter_mut().zip(pixel) {
                        *sum += f64::from(v);
                    }
                }
                sums.map(|sum| sum / (p.data.len() / 3) as f64)
            };
            for (old, new) in means(&expected).iter().zip(means(&after)) {
                assert!((old - new).abs() < 3.0, "{preset:?}: {old} against {new}");
            }
        }
    }
    let mut doc = Document::with_version("1.7");
    let profile = doc.add_object(Stream::new(lopdf::dictionary! { "N" => 4 }, vec![0; 8]));
    let icc = Object::Array(vec!["ICCBased".into(), profile.into()]);
    let jpeg = cmyk_jpeg(256, 256);
    let id = doc.add_object(image_stream((256, 256), icc.clone(), 8, "DCTDecode", jpeg));
    run(&mut doc, &[(id, (64.0, 64.0))], Preset::Ebook);
    assert_eq!(stream(&doc, id).dict.get(b"ColorSpace").ok(), Some(&icc));
    assert_eq!(name(&doc, id, b"Filter"), b"DCTDecode");
}

#[test]
fn an_inverting_decode_is_applied_to_the_inks_and_dropped() {
    let mut doc = Document::with_version("1.7");
    let mut image = dct_image(256, 256, cmyk_jpeg(256, 256));
    let inverted: Vec<Object> = (0..8).map(|i| Object::Integer(1 - i % 2)).collect();
    image.dict.set("Decode", inverted);
    let id = doc.add_object(image);
    let before = read(&doc, stream(&doc, id), Preset::Printer)
        .expect("readable")
        .0;
    run(&mut doc, &[(id, (32.0, 32.0))], Preset::Printer);
    assert!(stream(&doc, id).dict.get(b"Decode").is_err());
    assert_eq!(name(&doc, id, b"ColorSpace"), b"DeviceCMYK");
    let after = read(&doc, stream(&doc, id), Preset::Printer)
        .expect("readable")
        .0;
    for (old, new) in ink_means(&before).iter().zip(ink_means(&after)) {
        assert!((old - new).abs() < 3.0, "{old} against {new}");
    }
}

#[test]
fn a_four_channel_jpeg_without_the_adobe_marker_keeps_its_bytes() {
    let jpeg = cmyk_jpeg(256, 256);
    // Cut the APP14 segment out: its length follows the marker.
    let at = jpeg
        .windows(2)
        .position(|w| w == [0xFF, 0xEE])
        .expect("an Adobe marker");
    let length = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
    let unmarked = [&jpeg[..at], &jpeg[at + 2 + length..]].concat();
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(dct_image(256, 256, unmarked.clone()));
    let report = run(&mut doc, &[(id, (64.0, 64.0))], Preset::Screen);
    assert_eq!(report.replaced, 0);
    assert_eq!(stream(&doc, id).content, unmarked);
}
