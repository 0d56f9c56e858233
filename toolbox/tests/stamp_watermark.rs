//! Watermarks: on the pages asked, with their opacity, behind the content or over it, tiled
//! across the page; JPEGs kept byte for byte, a PNG's alpha channel as a soft mask.
#![allow(clippy::unwrap_used)]

mod stamping;

use lopdf::Object;
use quire_toolbox::stamp::{Watermark, watermark};
use stamping::marks::{image_mark, jpeg_file, text_mark};
use stamping::read_back::{category, load, pages, resolve, streams};
use stamping::{page_text, poppler, sample};

#[test]
fn watermark_pages_opacity_and_behind() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let confidential = Watermark {
        pages: Some("2-3".into()),
        behind: true,
        ..text_mark("CONFIDENTIAL", None)
    };
    assert_eq!(watermark(&input, &confidential, &out).unwrap().pages, 5);
    let before = load(&input);
    let doc = load(&out);
    let ids = pages(&doc);
    let mut states = Vec::new();
    for (i, &page) in ids.iter().enumerate() {
        let stamped = (1..=2).contains(&i);
        if !stamped {
            let old = before.get_dictionary(pages(&before)[i]).unwrap();
            let new = doc.get_dictionary(page).unwrap();
            assert_eq!(
                old.get(b"Contents").ok(),
                new.get(b"Contents").ok(),
                "page {}",
                i + 1
            );
            continue;
        }
        // Behind: the mark's stream comes first, the page's own content after it, unwrapped.
        let streams = streams(&doc, page);
        assert!(
            streams[0].contains(" gs\n") && streams[0].contains(" Do Q"),
            "{streams:?}"
        );
        assert!(streams[1].contains(&format!("Body{}", i + 1)));
        let state = category(&doc, page, b"ExtGState")
            .get(b"QuireGS")
            .unwrap()
            .as_reference()
            .unwrap();
        let dict = doc.get_dictionary(state).unwrap();
        for key in [b"ca".as_slice(), b"CA"] {
            assert!((dict.get(key).unwrap().as_float().unwrap() - 0.3).abs() < 1e-6);
        }
        states.push(state);
    }
    assert_eq!(states.len(), 2);
    assert_eq!(states[0], states[1], "one ExtGState for every page");
    if poppler() {
        for page in 1..=5 {
            let text = page_text(&out, page);
            assert_eq!(
                text.contains("CONFIDENTIAL"),
                (2..=3).contains(&page),
                "{page}: {text}"
            );
        }
    }
}

#[test]
fn a_tiled_watermark_covers_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let draft = Watermark {
        position: None,
        rotation: 45.0,
        ..text_mark("DRAFT", None)
    };
    watermark(&input, &draft, &out).unwrap();
    let doc = load(&out);
    // The displayed size of each page: the rotated one is landscape, the cropped one small.
    let sizes = [
        (612.0, 792.0),
        (792.0, 612.0),
        (300.0, 400.0),
        (612.0, 792.0),
        (612.0, 792.0),
    ];
    for (i, &page) in pages(&doc).iter().enumerate() {
        let form = category(&doc, page, b"XObject").get(b"QuireMark").unwrap();
        let form = resolve(&doc, form).as_stream().unwrap();
        let bbox: Vec<f64> = form
            .dict
            .get(b"BBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| f64::from(v.as_float().unwrap()))
            .collect();
        let (w, h) = (bbox[2], bbox[3]);
        // Each tile: "q a b c d e f cm /QuireMark Do Q", in displayed coordinates.
        let mark = streams(&doc, page).pop().unwrap();
        let centres: Vec<(f64, f64)> = mark
            .lines()
            .filter(|line| line.ends_with(" Do Q"))
            .map(|line| {
                let m: Vec<f64> = line
                    .split(' ')
                    .skip(1)
                    .take(6)
                    .map(|n| n.parse().unwrap())
                    .collect();
                // Turned 45 degrees: a = d = cos, b = -c = sin.
                assert!((m[0] - m[3]).abs() < 1e-3 && (m[1] + m[2]).abs() < 1e-3);
                assert!((m[0] - m[1]).abs() < 1e-3 && m[0] > 0.0, "{line}");
                let centre = (w / 2.0, h / 2.0);
                (
                    m[0] * centre.0 + m[2] * centre.1 + m[4],
                    m[1] * centre.0 + m[3] * centre.1 + m[5],
                )
            })
            .collect();
        // Every point of the page is near a tile: within one step along the text.
        let (width, height) = sizes[i];
        for x in (0..=width as usize).step_by(25) {
            for y in (0..=height as usize).step_by(25) {
                let (x, y) = (x as f64, y as f64);
                let nearest = centres
                    .iter()
                    .map(|c| (c.0 - x).hypot(c.1 - y))
                    .fold(f64::MAX, f64::min);
                assert!(
                    nearest < w + h,
                    "page {}: ({x}, {y}) is {nearest} from a tile",
                    i + 1
                );
            }
        }
        // And no tile is wholly off the page.
        for c in &centres {
            assert!(
                c.0 > -w && c.0 < width + w && c.1 > -w && c.1 < height + w,
                "{c:?}"
            );
        }
    }
    if poppler() {
        let text = page_text(&out, 1);
        assert!(text.contains('D') && text.contains('T'), "{text}");
    }
}

#[test]
fn a_jpeg_is_embedded_byte_for_byte_at_its_share_of_the_width() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let (jpeg, bytes) = jpeg_file(dir.path());
    watermark(&input, &image_mark(&jpeg, 0.5), &out).unwrap();
    let doc = load(&out);
    let images: Vec<_> = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| s.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image"))
        .collect();
    assert_eq!(images.len(), 1, "one image for every page");
    assert_eq!(images[0].content, bytes);
    assert_eq!(
        images[0].dict.get(b"Filter").unwrap().as_name().unwrap(),
        b"DCTDecode"
    );
    assert_eq!(images[0].dict.get(b"Width").unwrap().as_i64().unwrap(), 64);
    assert_eq!(images[0].dict.get(b"Height").unwrap().as_i64().unwrap(), 32);
    let ids = pages(&doc);
    // Half the displayed width: 306 points on letter, 396 on the page turned a quarter.
    assert!(
        streams(&doc, ids[0])
            .pop()
            .unwrap()
            .contains("q 306 0 0 306 ")
    );
    assert!(
        streams(&doc, ids[1])
            .pop()
            .unwrap()
            .contains("q 396 0 0 396 ")
    );
}

#[test]
fn a_png_alpha_channel_becomes_a_soft_mask() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let png = dir.path().join("logo.png");
    image::RgbaImage::from_fn(10, 4, |x, _| {
        image::Rgba([255, 0, 0, if x < 5 { 255 } else { 64 }])
    })
    .save(&png)
    .unwrap();
    watermark(&input, &image_mark(&png, 0.2), &out).unwrap();
    let doc = load(&out);
    let image = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .find(|s| s.dict.has(b"SMask"))
        .unwrap();
    assert_eq!(
        image.dict.get(b"ColorSpace").unwrap().as_name().unwrap(),
        b"DeviceRGB"
    );
    assert_eq!(
        image.decompressed_content().unwrap(),
        [255, 0, 0].repeat(40)
    );
    let mask = resolve(&doc, image.dict.get(b"SMask").unwrap())
        .as_stream()
        .unwrap();
    assert_eq!(
        mask.dict.get(b"ColorSpace").unwrap().as_name().unwrap(),
        b"DeviceGray"
    );
    let alpha: Vec<u8> = (0..40).map(|i| if i % 10 < 5 { 255 } else { 64 }).collect();
    assert_eq!(mask.decompressed_content().unwrap(), alpha);
}
