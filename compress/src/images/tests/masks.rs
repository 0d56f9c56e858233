//! Soft masks, /Matte pairs, colour keys and stencil masks: resized with their images, or
//! kept with them.

use lopdf::{Document, Object, dictionary};

use super::*;
use crate::test_pdf::one_page;

#[test]
fn a_soft_mask_is_resized_with_its_image() {
    // With /Matte (premultiplied colour) too: both resampled alike, to one size.
    for matte in [false, true] {
        let mut doc = Document::with_version("1.7");
        let alpha: Vec<u8> = (0..400 * 400)
            .map(|i| ((i % 400 + i / 400) % 256) as u8)
            .collect();
        let mut mask = flate_image(400, 400, "DeviceGray".into(), 8, &alpha);
        if matte {
            mask.dict.set("Matte", vec![0.into(), 0.into(), 0.into()]);
        }
        let mask = doc.add_object(mask);
        let mut image = flate_image(400, 400, "DeviceRGB".into(), 8, &photo(400, 400));
        image.dict.set("SMask", mask);
        let id = doc.add_object(image);
        let report = run(&mut doc, &[(id, (100.0, 100.0))], Preset::Ebook);
        assert_eq!((report.replaced, report.masks), (2, 1));
        assert_eq!(size(&doc, id), (208, 208));
        assert_eq!(size(&doc, mask), (208, 208));
        // Never JPEG for a mask.
        assert_eq!(name(&doc, mask, b"Filter"), b"FlateDecode");
    }
}

#[test]
fn a_matte_mask_shared_by_two_images_keeps_one_size_with_each() {
    let mut doc = Document::with_version("1.7");
    let alpha: Vec<u8> = (0..400 * 400)
        .map(|i| ((i % 400 + i / 400) % 256) as u8)
        .collect();
    let mut mask = flate_image(400, 400, "DeviceGray".into(), 8, &alpha);
    mask.dict.set("Matte", vec![1.into(), 1.into(), 1.into()]);
    let mask = doc.add_object(mask);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let mut image = flate_image(400, 400, "DeviceRGB".into(), 8, &photo(400, 400));
        image.dict.set("SMask", mask);
        ids.push(doc.add_object(image));
    }
    // One drawn small, one larger: the mask takes the larger size, and so do both images.
    run(
        &mut doc,
        &[(ids[0], (50.0, 50.0)), (ids[1], (100.0, 100.0))],
        Preset::Ebook,
    );
    assert_eq!(size(&doc, mask), (208, 208));
    assert_eq!(size(&doc, ids[0]), (208, 208));
    assert_eq!(size(&doc, ids[1]), (208, 208));
}

#[test]
fn a_matte_pair_stays_whole_when_its_mask_cannot_shrink() {
    let mut doc = Document::with_version("1.7");
    // Rows that repeat shifted: Flate at 400 px beats anything resampled.
    let alpha: Vec<u8> = (0..400 * 400).map(|i| (i % 251) as u8).collect();
    let mut mask = flate_image(400, 400, "DeviceGray".into(), 8, &alpha);
    mask.dict.set("Matte", vec![0.into(), 0.into(), 0.into()]);
    let mask = doc.add_object(mask);
    let mut image = flate_image(400, 400, "DeviceRGB".into(), 8, &photo(400, 400));
    image.dict.set("SMask", mask);
    let id = doc.add_object(image);
    run(&mut doc, &[(id, (100.0, 100.0))], Preset::Ebook);
    assert_eq!(size(&doc, mask), (400, 400));
    assert_eq!(size(&doc, id), (400, 400));
}

#[test]
fn a_colour_keyed_image_keeps_its_size() {
    for by_reference in [false, true] {
        let mut doc = Document::with_version("1.7");
        let mut image = flate_image(400, 400, "DeviceRGB".into(), 8, &photo(400, 400));
        let key = Object::Array(vec![0.into(); 6]);
        if by_reference {
            // Some writers store the key array as an object of its own.
            image.dict.set("Mask", doc.add_object(key));
        } else {
            image.dict.set("Mask", key);
        }
        let id = doc.add_object(image);
        run(&mut doc, &[(id, (100.0, 100.0))], Preset::Screen);
        assert_eq!(size(&doc, id), (400, 400));
        assert_ne!(name(&doc, id, b"Filter"), b"DCTDecode");
    }
}

#[test]
fn a_stencil_mask_is_subsampled_at_the_mono_resolution() {
    let mut doc = Document::with_version("1.7");
    let bits: Vec<u8> = (0..1200 * 1200)
        .map(|i| u8::from((i % 1200 / 3 + i / 1200 / 5) % 2 == 0))
        .collect();
    let mut stencil = flate_image(
        1200,
        1200,
        Object::Null,
        1,
        &crate::images::flate::pack(&bits, 1200, 1),
    );
    stencil.dict.remove(b"ColorSpace");
    stencil.dict.set("ImageMask", true);
    let mask = doc.add_object(stencil);
    let mut image = flate_image(4, 4, "DeviceGray".into(), 8, &[9; 16]);
    image.dict.set("Mask", mask);
    let id = doc.add_object(image);
    // 72 pt: 300 px at the 300 dpi mono resolution of ebook.
    run(&mut doc, &[(id, (72.0, 72.0))], Preset::Ebook);
    assert_eq!(size(&doc, mask), (300, 300));
    assert!(stream(&doc, mask).dict.get(b"ImageMask").is_ok());
}

/// /SMask overrides /Mask: a colour key beside a soft mask is dropped, and no longer holds
/// the image to its exact samples at its size.
#[test]
fn a_colour_key_beside_a_soft_mask_is_dropped_and_the_image_resampled() {
    let mut doc = Document::with_version("1.7");
    let alpha: Vec<u8> = (0..400 * 400)
        .map(|i| ((i % 400 + i / 400) % 256) as u8)
        .collect();
    let mask = doc.add_object(flate_image(400, 400, "DeviceGray".into(), 8, &alpha));
    let mut image = flate_image(400, 400, "DeviceRGB".into(), 8, &photo(400, 400));
    image.dict.set("SMask", mask);
    image.dict.set("Mask", Object::Array(vec![0.into(); 6]));
    let id = doc.add_object(image);
    let report = run(&mut doc, &[(id, (100.0, 100.0))], Preset::Ebook);
    assert_eq!((report.replaced, report.masks), (2, 1));
    assert_eq!(size(&doc, id), (208, 208));
    assert_eq!(size(&doc, mask), (208, 208));
    assert!(stream(&doc, id).dict.get(b"Mask").is_err());
    assert_eq!(
        stream(&doc, id).dict.get(b"SMask").ok(),
        Some(&Object::Reference(mask))
    );
}

/// An image drawn only inside a soft mask's group (a luminosity mask made of a photo) is
/// found by the survey and resampled at the size it has there.
#[test]
fn an_image_drawn_only_in_a_soft_mask_group_is_resampled() {
    let mut doc = Document::with_version("1.7");
    let id = doc.add_object(flate_image(
        400,
        400,
        "DeviceRGB".into(),
        8,
        &photo(400, 400),
    ));
    let group = doc.add_object(Stream::new(
        dictionary! {
            "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 100.into(), 100.into()],
            "Group" => dictionary! {"S" => "Transparency", "CS" => "DeviceGray"},
            "Resources" => dictionary! {"XObject" => dictionary! {"Im" => id}},
        },
        b"100 0 0 100 0 0 cm /Im Do".to_vec(),
    ));
    let state = doc.add_object(dictionary! {
        "Type" => "ExtGState",
        "SMask" => dictionary! {"Type" => "Mask", "S" => "Luminosity", "G" => group},
    });
    let content = doc.add_object(Stream::new(
        dictionary! {},
        b"/GS gs 0 0 100 100 re f".to_vec(),
    ));
    one_page(
        &mut doc,
        dictionary! {
            "Contents" => content,
            "MediaBox" => vec![0.into(), 0.into(), 100.into(), 100.into()],
            "Resources" => dictionary! {"ExtGState" => dictionary! {"GS" => state}},
        },
        dictionary! {},
    );
    let (_, sizes) = crate::survey(&doc);
    let report = recompress_images(&mut doc, &sizes, Preset::Ebook, u64::MAX);
    assert_eq!(report.replaced, 1);
    assert_eq!(size(&doc, id), (208, 208));
}
