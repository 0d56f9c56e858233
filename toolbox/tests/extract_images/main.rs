//! Extract images: a document built here with one image of every kind the tool handles
//! (checked file by file, pixel by pixel), the tool's errors, and every PDF of the corpora
//! (no panic, only the allowed errors, counts compared with poppler's `pdfimages -list`).
#![allow(clippy::unwrap_used)]

mod corpus;
#[path = "../corpus_files/mod.rs"]
mod corpus_files;
mod fixture;

use std::collections::{BTreeMap, BTreeSet};

use lopdf::{Document, dictionary};
use quire_toolbox::ToolError;
use quire_toolbox::extract_images::{Extracted, Skipped, extract_images};

use corpus::pdfimages_objects;
use fixture::{finish, image, page, sample, zlib};

const MANY: u64 = 50_000_000;

fn by_name(list: &[Extracted]) -> BTreeMap<&str, &Extracted> {
    list.iter().map(|e| (e.name.as_str(), e)).collect()
}

#[test]
fn every_kind_of_image_comes_out_right() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("sample.pdf");
    let jpegs = sample(&input);
    let out = dir.path().join("out");
    let (list, skipped) = extract_images(&input, "doc", &out, 4, true, MANY).unwrap();
    let files = by_name(&list);
    let expected: [(&str, &[u32], (u32, u32)); 11] = [
        ("doc-p1-1.jpg", &[1, 2, 3], (16, 12)),
        ("doc-p1-2.png", &[1], (8, 6)),
        ("doc-p1-3.png", &[1], (5, 3)),
        ("doc-p1-4.png", &[1], (8, 2)),
        ("doc-p2-1.png", &[2], (10, 4)),
        ("doc-p2-2.png", &[2], (3, 4)),
        ("doc-p3-1.png", &[3], (6, 5)),
        ("doc-p3-2.png", &[3], (4, 4)),
        ("doc-p3-3.png", &[3], (8, 8)),
        ("doc-p3-3-mask.png", &[3], (8, 8)),
        ("doc-p3-4.jpg", &[3], (16, 16)),
    ];
    assert_eq!(
        files.keys().copied().collect::<BTreeSet<_>>(),
        expected.iter().map(|e| e.0).collect::<BTreeSet<_>>()
    );
    for (name, pages, size) in expected {
        let file = files[name];
        assert_eq!(
            (file.pages.as_slice(), (file.width, file.height)),
            (pages, size),
            "{name}"
        );
        assert_eq!(file.path, out.join(name));
        if name.ends_with(".png") {
            let decoded = image::open(&file.path).unwrap();
            assert_eq!((decoded.width(), decoded.height()), size, "{name}");
        }
    }
    assert_eq!(
        skipped,
        Skipped {
            undecodable: 1,
            small: 1,
            too_large: 0,
            duplicates: 1
        }
    );
    // JPEGs as stored, byte for byte (the second one out of its ASCII85 wrapper).
    assert_eq!(std::fs::read(out.join("doc-p1-1.jpg")).unwrap(), jpegs.rgb);
    assert_eq!(std::fs::read(out.join("doc-p3-4.jpg")).unwrap(), jpegs.grey);

    let rgb = |name: &str| image::open(out.join(name)).unwrap().into_rgb8();
    let luma = |name: &str| {
        let decoded = image::open(out.join(name)).unwrap();
        assert_eq!(decoded.color(), image::ColorType::L8, "{name}");
        decoded.into_luma8()
    };
    // Predictors undone: sample i of row y is i * 10 + y * 3.
    let flate = rgb("doc-p1-2.png");
    assert_eq!(flate.get_pixel(5, 3).0, [159, 169, 179]);
    assert_eq!(flate.get_pixel(0, 0).0, [0, 10, 20]);
    // Palette: pixel (3, 2) is index 13.
    assert_eq!(rgb("doc-p1-3.png").get_pixel(3, 2).0, [208, 47, 104]);
    // Stencil: painted (0) samples black.
    let stencil = luma("doc-p1-4.png");
    assert_eq!(
        (stencil.get_pixel(0, 0).0, stencil.get_pixel(0, 1).0),
        ([255], [0])
    );
    // /Decode [1 0]: a 1 bit (x + y odd) is black.
    let one_bit = luma("doc-p2-1.png");
    assert_eq!(
        (one_bit.get_pixel(0, 0).0, one_bit.get_pixel(1, 0).0),
        ([255], [0])
    );
    assert_eq!(one_bit.get_pixel(9, 3).0, [255]);
    assert_eq!(rgb("doc-p2-2.png").get_pixel(2, 3).0, [231, 238, 245]);
    // 16-bit: the high byte of x * 10000 + y * 300.
    assert_eq!(
        luma("doc-p3-1.png").get_pixel(4, 3).0,
        [((40_000 + 900) >> 8) as u8]
    );
    // CMYK, naively: (2, 1) is c 120, m 60, y 128, k 20.
    let naive = |ink: f64| (255.0 * (1.0 - ink / 255.0) * (1.0 - 20.0 / 255.0)).round() as u8;
    assert_eq!(
        rgb("doc-p3-2.png").get_pixel(2, 1).0,
        [naive(120.0), naive(60.0), naive(128.0)]
    );
    assert_eq!(rgb("doc-p3-2.png").get_pixel(0, 0).0, [255, 255, 127]);
    // The soft mask apart from its image.
    assert_eq!(luma("doc-p3-3.png").get_pixel(5, 0).0, [200]);
    assert_eq!(luma("doc-p3-3-mask.png").get_pixel(5, 0).0, [160]);

    // poppler sees the same image objects (it lists each use, and the mask as "smask").
    if let Some(objects) = pdfimages_objects(&input) {
        // The two copies of the JPEG, the icon and the CCITT image included.
        assert_eq!(objects.len(), 13, "{objects:?}");
        assert_eq!(total(&list, &skipped), 13);
    }
}

#[test]
fn options_change_what_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("sample.pdf");
    sample(&input);
    // No masks, no size floor: the icon is written, the mask is not.
    let (list, skipped) =
        extract_images(&input, "x", &dir.path().join("a"), 0, false, MANY).unwrap();
    let names = by_name(&list);
    assert!(names.contains_key("x-p2-2.png") && !names.keys().any(|n| n.contains("mask")));
    assert_eq!(list.len(), 11);
    assert_eq!(
        skipped,
        Skipped {
            undecodable: 1,
            duplicates: 1,
            ..Skipped::default()
        }
    );
    // At most 40 pixels decoded: the JPEGs are copied all the same.
    let (list, skipped) = extract_images(&input, "x", &dir.path().join("b"), 4, false, 40).unwrap();
    let names: BTreeSet<&str> = list.iter().map(|e| e.name.as_str()).collect();
    // Written: both JPEGs, the 5×3 palette, the 8×2 stencil, the 10×4 1-bit (40: not over),
    // the 3×4 form image, 6×5 16-bit, 4×4 CMYK; too large: 8×6 RGB, 8×8 masked image.
    assert_eq!(names.len(), 8, "{names:?}");
    assert_eq!(skipped.too_large, 2);
    assert!(names.contains("x-p1-1.jpg") && names.contains("x-p3-3.jpg"));
}

#[test]
fn no_images_damaged_and_encrypted_files() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.pdf");
    let mut doc = Document::with_version("1.5");
    let root = doc.new_object_id();
    let p = page(&mut doc, root, Vec::new());
    finish(doc, root, vec![p], &plain);
    let (list, skipped) = extract_images(&plain, "x", dir.path(), 0, true, MANY).unwrap();
    assert!(list.is_empty());
    assert_eq!(skipped, Skipped::default());

    let damaged = dir.path().join("damaged.pdf");
    std::fs::write(&damaged, b"%PDF-1.4\nthis is not a PDF").unwrap();
    let err = extract_images(&damaged, "x", dir.path(), 0, true, MANY).unwrap_err();
    assert!(matches!(err, ToolError::InvalidFile(_)), "{err:?}");

    let sample_pdf = dir.path().join("sample.pdf");
    sample(&sample_pdf);
    let locked = dir.path().join("locked.pdf");
    let all = quire_toolbox::security::Permissions::ALL;
    quire_toolbox::security::protect(&sample_pdf, "secret", "owner", all, &locked).unwrap();
    let err = extract_images(&locked, "x", dir.path(), 0, true, MANY).unwrap_err();
    assert!(matches!(err, ToolError::Encrypted), "{err:?}");
}

#[test]
fn short_data_is_padded_and_missing_data_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("short.pdf");
    let mut doc = Document::with_version("1.5");
    let root = doc.new_object_id();
    // 8×8 grey declared, 5 rows stored; and one with less than a row.
    let flate = || dictionary! { "Filter" => "FlateDecode" };
    let short = image(
        &mut doc,
        (8, 8),
        "DeviceGray".into(),
        8,
        flate(),
        zlib(&[77; 40]),
    );
    let empty = image(
        &mut doc,
        (8, 8),
        "DeviceGray".into(),
        8,
        flate(),
        zlib(&[77; 7]),
    );
    let p = page(&mut doc, root, vec![("S", short), ("E", empty)]);
    finish(doc, root, vec![p], &input);
    let (list, skipped) = extract_images(&input, "s", dir.path(), 0, false, MANY).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(skipped.undecodable, 1);
    let png = image::open(&list[0].path).unwrap().into_luma8();
    assert_eq!((png.get_pixel(7, 4).0, png.get_pixel(0, 5).0), ([77], [0]));
}

/// Images written that are not masks, plus every skipped one: the image objects reachable.
fn total(list: &[Extracted], skipped: &Skipped) -> u32 {
    let images = list.iter().filter(|e| !e.name.contains("-mask.")).count() as u32;
    images + skipped.undecodable + skipped.small + skipped.too_large + skipped.duplicates
}
