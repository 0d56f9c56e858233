//! Redacting images: the covered pixels are burnt into the image data (read back decoded,
//! pixel by pixel), whatever the placement (turned), the encoding (Flate, JPEG), the masks
//! (soft mask made opaque, stencil bits cleared) or the form (inline images); an image drawn
//! on another page keeps its pixels; an image that cannot be decoded makes its page unsafe.
#![allow(clippy::unwrap_used)]

mod redacting;

use image::ImageEncoder;
use lopdf::{Document, Object, ObjectId, Stream, dictionary};
use redacting::build::{Builder, redaction, run};

/// The images each page draws (its /XObject resources), decoded by lopdf or, for JPEG, by
/// the image crate.
fn page_images(doc: &Document) -> Vec<Vec<(ObjectId, Stream)>> {
    doc.get_pages()
        .into_values()
        .map(|page| {
            let resources = doc.get_dictionary(page).unwrap().get(b"Resources").unwrap();
            let (_, resources) = doc.dereference(resources).unwrap();
            let Ok(xobjects) = resources.as_dict().unwrap().get(b"XObject") else {
                return Vec::new();
            };
            let (_, xobjects) = doc.dereference(xobjects).unwrap();
            xobjects
                .as_dict()
                .unwrap()
                .iter()
                .map(|(_, v)| {
                    let id = v.as_reference().unwrap();
                    (id, doc.get_object(id).unwrap().as_stream().unwrap().clone())
                })
                .collect()
        })
        .collect()
}

fn gradient(width: u32, height: u32) -> Vec<u8> {
    (0..height)
        .flat_map(|y| (0..width).flat_map(move |x| [(x * 4) as u8, (y * 4) as u8, 200]))
        .collect()
}

#[test]
fn a_turned_image_is_painted_where_the_area_covers_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let pixels = gradient(40, 20);
    let image = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 40, "Height" => 20,
            "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8,
        },
        pixels.clone(),
    ));
    // A quarter turn anticlockwise: 200 x 100 on its side at (300, 100).
    let content = "q 0 200 -100 0 300 100 cm /Im Do Q";
    let resources = dictionary! { "XObject" => dictionary! { "Im" => image } };
    b.page(content, resources.clone());
    b.page(content, resources);
    let input = b.save(&dir.path().join("turned.pdf"));
    let area = [210.0, 150.0, 260.0, 230.0];
    let (output, report) = run(&input, &redaction(&[(1, area)]));
    assert_eq!(report.images_redacted, 1);
    assert!(report.unsafe_pages.is_empty());
    let doc = Document::load(&output).unwrap();
    let images = page_images(&doc);
    let (painted_id, painted) = &images[0][0];
    let (kept_id, kept) = &images[1][0];
    assert_ne!(painted_id, kept_id, "page 2 keeps the original");
    assert_eq!(
        kept.decompressed_content()
            .unwrap_or_else(|_| kept.content.clone()),
        pixels
    );
    let data = painted.decompressed_content().unwrap();
    let mut inside = 0;
    for y in 0..20 {
        for x in 0..40 {
            // The pixel centre in the unit square, then on the page.
            let (u, v) = ((x as f64 + 0.5) / 40.0, 1.0 - (y as f64 + 0.5) / 20.0);
            let (px, py) = (-100.0 * v + 300.0, 200.0 * u + 100.0);
            let at = (y * 40 + x) * 3;
            if px >= area[0] && px <= area[2] && py >= area[1] && py <= area[3] {
                inside += 1;
                assert_eq!(&data[at..at + 3], &[0, 0, 0], "pixel {x},{y}");
            } else {
                assert_eq!(&data[at..at + 3], &pixels[at..at + 3], "pixel {x},{y}");
            }
        }
    }
    assert!(inside > 50, "{inside} pixels covered");
}

#[test]
fn a_jpeg_is_painted_and_stays_a_jpeg() {
    let dir = tempfile::tempdir().unwrap();
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95)
        .write_image(&gradient(64, 64), 64, 64, image::ExtendedColorType::Rgb8)
        .unwrap();
    let mut b = Builder::new();
    let image = b.add(
        Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 64, "Height" => 64,
                "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8, "Filter" => "DCTDecode",
            },
            jpeg,
        )
        .with_compression(false),
    );
    b.page(
        "q 128 0 0 128 100 100 cm /Im Do Q",
        dictionary! { "XObject" => dictionary! { "Im" => image } },
    );
    let input = b.save(&dir.path().join("jpeg.pdf"));
    // The left half of the picture: x 100..164.
    let (output, report) = run(&input, &redaction(&[(1, [90.0, 90.0, 164.0, 240.0])]));
    assert_eq!(report.images_redacted, 1);
    let doc = Document::load(&output).unwrap();
    let (_, painted) = &page_images(&doc)[0][0];
    assert_eq!(
        painted.dict.get(b"Filter").unwrap(),
        &Object::Name(b"DCTDecode".to_vec())
    );
    let decoded = image::load_from_memory(&painted.content).unwrap().to_rgb8();
    let original = gradient(64, 64);
    for y in 0..64u32 {
        for x in 0..64u32 {
            let pixel = decoded.get_pixel(x, y).0;
            let at = ((y * 64 + x) * 3) as usize;
            // Away from the edge JPEG's blocks smear across.
            if x < 28 {
                assert!(pixel.iter().all(|&c| c < 16), "pixel {x},{y}: {pixel:?}");
            } else if x > 36 {
                let near = pixel
                    .iter()
                    .zip(&original[at..at + 3])
                    .all(|(&a, &b)| a.abs_diff(b) < 24);
                assert!(
                    near,
                    "pixel {x},{y}: {pixel:?} against {:?}",
                    &original[at..at + 3]
                );
            }
        }
    }
}

#[test]
fn masks_and_inline_images_are_painted_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let smask = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 10, "Height" => 10,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        vec![0u8; 100],
    ));
    let image = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 10, "Height" => 10,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8, "SMask" => smask,
        },
        vec![128u8; 100],
    ));
    // A stencil mask, all bits painting (0), 16 x 2.
    let stencil = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 16, "Height" => 2,
            "ImageMask" => true,
        },
        vec![0u8; 4],
    ));
    let mut content =
        b"q 100 0 0 100 100 100 cm /Im Do Q\nq 160 0 0 20 100 300 cm /St Do Q\n".to_vec();
    // An inline image, 4 x 1 grey, under the third area.
    content.extend_from_slice(
        b"q 40 0 0 10 100 500 cm BI /W 4 /H 1 /BPC 8 /CS /G ID \x10\x20\x30\x40 EI Q",
    );
    b.page_with(
        &content,
        dictionary! { "XObject" => dictionary! { "Im" => image, "St" => stencil } },
        dictionary! {},
    );
    let input = b.save(&dir.path().join("masks.pdf"));
    let areas = [
        (1, [100.0, 100.0, 150.0, 200.0]),
        (1, [100.0, 300.0, 140.0, 320.0]),
        (1, [100.0, 500.0, 120.0, 510.0]),
    ];
    let (output, report) = run(&input, &redaction(&areas));
    assert_eq!(report.images_redacted, 3, "{report:?}");
    let doc = Document::load(&output).unwrap();
    let images = &page_images(&doc)[0];
    assert_eq!(images.len(), 3, "no original is left: {images:?}");
    for (_, stream) in images {
        let data = stream.decompressed_content().unwrap();
        if stream.dict.has(b"SMask") {
            // The left half painted black, and opaque in its soft mask.
            let mask = stream.dict.get(b"SMask").unwrap().as_reference().unwrap();
            let mask = doc
                .get_object(mask)
                .unwrap()
                .as_stream()
                .unwrap()
                .decompressed_content()
                .unwrap();
            for i in 0..100 {
                let left = i % 10 < 5;
                assert_eq!(data[i], if left { 0 } else { 128 }, "image {i}");
                assert_eq!(mask[i], if left { 255 } else { 0 }, "mask {i}");
            }
        } else if stream.dict.has(b"ImageMask") {
            // Columns 0..3 of 16 (centres at 105, 115, 125, 135) no longer paint.
            assert_eq!(data, [0xF0, 0x00, 0xF0, 0x00]);
        } else {
            assert_eq!(data, [0, 0, 0x30, 0x40], "the inline image, now an XObject");
        }
    }
    let page = doc.get_pages()[&1];
    assert!(!String::from_utf8_lossy(&doc.get_page_content(page)).contains("BI"));
}

#[test]
fn undecodable_images_make_the_page_unsafe_and_wholly_covered_ones_go() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let jbig2 = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 8, "Height" => 8,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 1, "Filter" => "JBIG2Decode",
        },
        vec![1, 2, 3, 4],
    ));
    let plain = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 2, "Height" => 2,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        vec![1, 2, 3, 4],
    ));
    b.page(
        "q 100 0 0 100 100 100 cm /J Do Q",
        dictionary! { "XObject" => dictionary! { "J" => jbig2 } },
    );
    b.page(
        "q 10 0 0 10 100 100 cm /P Do Q",
        dictionary! { "XObject" => dictionary! { "P" => plain } },
    );
    let input = b.save(&dir.path().join("jbig2.pdf"));
    let area = [90.0, 90.0, 150.0, 150.0];
    let (output, report) = run(&input, &redaction(&[(1, area), (2, area)]));
    assert_eq!(report.unsafe_pages, vec![1]);
    assert_eq!(report.images_redacted, 1);
    let doc = Document::load(&output).unwrap();
    assert!(
        page_images(&doc)[1].is_empty(),
        "the covered image is no longer drawn"
    );
}

#[test]
fn a_fax_scan_is_painted_and_stays_a_fax() {
    let dir = tempfile::tempdir().unwrap();
    // 64 x 32, 1 bit, black (0) everywhere: a page of ink.
    let samples = vec![0u8; 8 * 32];
    let code = quire_compress::redaction::encode_ccitt(&samples, (64, 32)).unwrap();
    let mut b = Builder::new();
    let image = b.add(
        Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 64, "Height" => 32,
                "ColorSpace" => "DeviceGray", "BitsPerComponent" => 1, "Filter" => "CCITTFaxDecode",
                "DecodeParms" => dictionary! { "K" => -1, "Columns" => 64, "Rows" => 32, "BlackIs1" => false },
            },
            code,
        )
        .with_compression(false),
    );
    b.page(
        "q 64 0 0 32 100 100 cm /Scan Do Q",
        dictionary! { "XObject" => dictionary! { "Scan" => image } },
    );
    let input = b.save(&dir.path().join("fax.pdf"));
    // Painted white: columns 8..15 of every row (x 108..116).
    let mut options = redaction(&[(1, [108.0, 90.0, 116.0, 140.0])]);
    options.fill = [255, 255, 255];
    let (output, report) = run(&input, &options);
    assert!(report.unsafe_pages.is_empty(), "{report:?}");
    let doc = Document::load(&output).unwrap();
    let (_, painted) = &page_images(&doc)[0][0];
    assert_eq!(
        painted.dict.get(b"Filter").unwrap(),
        &Object::Name(b"CCITTFaxDecode".to_vec())
    );
    let mut rows = Vec::new();
    fax::decoder::decode_g4(
        painted.content.iter().copied(),
        64,
        Some(32),
        |transitions| {
            rows.push(
                fax::decoder::pels(transitions, 64)
                    .map(|c| c == fax::Color::White)
                    .collect::<Vec<_>>(),
            );
        },
    )
    .unwrap();
    assert_eq!(rows.len(), 32);
    for row in rows {
        for (x, white) in row.into_iter().enumerate() {
            assert_eq!(white, (8..16).contains(&x), "column {x}");
        }
    }
}
