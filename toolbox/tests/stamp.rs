//! Watermarks and page numbers, read back with lopdf and with poppler's pdftotext: on the
//! right pages, at the displayed position (rotated page, CropBox away from 0,0, unbalanced
//! content), with resources that do not clash, shared objects, embedded Unicode text that
//! copies, JPEGs kept byte for byte; and every real-world PDF of the corpora stamped.
#![allow(clippy::unwrap_used)]

mod stamping;

use std::path::{Path, PathBuf};

use lopdf::{Dictionary, Document, Object, ObjectId};
use quire_toolbox::ToolError;
use quire_toolbox::stamp::{Mark, Numbering, Position, Watermark, number_pages, watermark};
use stamping::{line_box, page_text, poppler, sample, words};

const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

fn numbering(format: &str) -> Numbering {
    Numbering {
        format: format.into(),
        position: Position::BottomCenter,
        first_page: 1,
        start: 1,
        size: 12.0,
        margin: 20.0,
        rgb: [0, 0, 0],
        font: None,
    }
}

fn text_mark(text: &str, font: Option<&str>) -> Watermark {
    Watermark {
        mark: Mark::Text {
            text: text.into(),
            size: 40.0,
            rgb: [200, 0, 0],
            font: font.map(PathBuf::from),
        },
        opacity: 0.3,
        rotation: 0.0,
        position: Some(Position::Center),
        pages: None,
        behind: false,
    }
}

fn dejavu() -> Option<&'static str> {
    let found = Path::new(DEJAVU).exists();
    if !found {
        eprintln!("{DEJAVU} not installed: Unicode checks skipped");
    }
    found.then_some(DEJAVU)
}

fn load(path: &Path) -> Document {
    Document::load(path).unwrap()
}

fn pages(doc: &Document) -> Vec<ObjectId> {
    doc.get_pages().into_values().collect()
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    doc.dereference(object).unwrap().1
}

/// A category (/Font, /ExtGState, /XObject) of a page's own resources.
fn category<'a>(doc: &'a Document, page: ObjectId, name: &[u8]) -> &'a Dictionary {
    let page = doc.get_dictionary(page).unwrap();
    let resources = resolve(doc, page.get(b"Resources").unwrap())
        .as_dict()
        .unwrap();
    resolve(doc, resources.get(name).unwrap())
        .as_dict()
        .unwrap()
}

/// The page's content streams, decoded.
fn streams(doc: &Document, page: ObjectId) -> Vec<String> {
    let contents = doc.get_dictionary(page).unwrap().get(b"Contents").unwrap();
    resolve(doc, contents)
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let stream = resolve(doc, item).as_stream().unwrap();
            let bytes = stream
                .decompressed_content()
                .unwrap_or_else(|_| stream.content.clone());
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect()
}

fn bad_options(result: Result<quire_toolbox::Written, ToolError>) -> String {
    match result {
        Err(ToolError::BadOptions(message)) => message,
        other => panic!("expected BadOptions, got {other:?}"),
    }
}

/// Where the sample's number line must be: centre x and lower edge (from the top) in the
/// coordinates pdftotext -bbox gives: the displayed page for the rotated page 2, the media
/// box for the cropped page 3.
const BOTTOM_CENTRES: [(f64, f64); 5] = [
    (306.0, 772.0),
    (396.0, 592.0),
    (250.0, 622.0),
    (306.0, 772.0),
    (306.0, 772.0),
];

#[test]
fn numbers_sit_at_the_displayed_bottom_centre_of_each_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let written = number_pages(&input, &numbering("Page {n} of {total}"), &out).unwrap();
    assert_eq!(written.pages, 5);
    assert_eq!(pages(&load(&out)).len(), 5);
    if !poppler() {
        return;
    }
    for (i, (_, words)) in words(&out).iter().enumerate() {
        let n = (i + 1).to_string();
        let line = line_box(words, &["Page", &n, "of", "5"])
            .unwrap_or_else(|| panic!("page {n}: no number in {words:?}"));
        let (x, bottom) = BOTTOM_CENTRES[i];
        let centre = (line.x_min + line.x_max) / 2.0;
        assert!(
            (centre - x).abs() < 2.0,
            "page {n}: centre {centre}, not {x}"
        );
        assert!(
            (line.y_max - bottom).abs() < 2.0,
            "page {n}: lower edge {}, not {bottom}",
            line.y_max
        );
        // Upright: wider than tall.
        assert!(line.x_max - line.x_min > 3.0 * (line.y_max - line.y_min));
    }
    for page in 1..=5 {
        let text = page_text(&out, page);
        // The page's own text still shows: its inherited resources were kept.
        assert!(text.contains(&format!("Body{page}")), "page {page}: {text}");
        for other in 1..=5 {
            let number = format!("Page {other} of 5");
            assert_eq!(text.contains(&number), other == page, "page {page}: {text}");
        }
    }
}

#[test]
fn bates_numbers_start_where_asked_at_the_displayed_top_left() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let bates = Numbering {
        format: "ACME-{n:6}".into(),
        position: Position::TopLeft,
        first_page: 2,
        start: 7,
        margin: 30.0,
        ..numbering("")
    };
    number_pages(&input, &bates, &out).unwrap();
    if !poppler() {
        return;
    }
    assert!(!page_text(&out, 1).contains("ACME"));
    for (page, number) in [(2, "ACME-000007"), (3, "ACME-000008"), (5, "ACME-000010")] {
        let text = page_text(&out, page);
        assert!(text.contains(number), "page {page}: {text}");
        assert_eq!(text.matches("ACME").count(), 1, "page {page}: {text}");
    }
    let pages = words(&out);
    // Top-left corners: the displayed page's for the rotated page, the crop box's for page 3.
    for (page, left, top) in [(2, 30.0, 30.0), (3, 130.0, 272.0), (4, 30.0, 30.0)] {
        let words = &pages[page - 1].1;
        let number = words.iter().find(|w| w.text.starts_with("ACME")).unwrap();
        assert!((number.x_min - left).abs() < 2.0, "page {page}: {number:?}");
        assert!((number.y_min - top).abs() < 2.0, "page {page}: {number:?}");
    }
}

#[test]
fn resources_get_fresh_names_and_objects_are_shared() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    number_pages(&input, &numbering("{n}"), &out).unwrap();
    let doc = load(&out);
    let ids = pages(&doc);
    // Page 1 inherited a font named /QuireNumber: it keeps it, the number takes another name.
    let fonts = category(&doc, ids[0], b"Font");
    let courier = resolve(&doc, fonts.get(b"QuireNumber").unwrap())
        .as_dict()
        .unwrap();
    assert_eq!(
        courier.get(b"BaseFont").unwrap().as_name().unwrap(),
        b"Courier"
    );
    let ours = fonts.get(b"QuireNumber2").unwrap().as_reference().unwrap();
    assert!(
        streams(&doc, ids[0])
            .last()
            .unwrap()
            .contains("/QuireNumber2 12 Tf")
    );
    for &page in &ids[3..] {
        let fonts = category(&doc, page, b"Font");
        assert_eq!(
            fonts.get(b"QuireNumber").unwrap().as_reference().unwrap(),
            ours
        );
        assert!(fonts.has(b"F1"));
    }
    // Pages 4 and 5 shared their resources: they share the extended copy.
    let resources = |page: ObjectId| doc.get_dictionary(page).unwrap().get(b"Resources").unwrap();
    assert_eq!(resources(ids[3]), resources(ids[4]));
    assert!(resources(ids[3]).as_reference().is_ok());
    // Existing content is wrapped in q ... Q, the number comes after it.
    let page5 = streams(&doc, ids[4]);
    assert_eq!(page5.len(), 5, "{page5:?}");
    assert_eq!(page5[0].trim(), "q");
    assert_eq!(page5[3].trim(), "Q");
    assert!(page5[4].starts_with("q\n") && page5[4].ends_with("Q\n"));
    assert!(
        page5[4].contains("(5)") || page5[4].contains("<35>"),
        "{}",
        page5[4]
    );
}

#[test]
fn unicode_text_is_embedded_and_copies() {
    let Some(font) = dejavu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let text = "Brouillon — Черновик";
    watermark(&input, &text_mark(text, Some(font)), &out).unwrap();
    let doc = load(&out);
    let form = category(&doc, pages(&doc)[0], b"XObject")
        .get(b"QuireMark")
        .unwrap()
        .as_reference()
        .unwrap();
    let form = doc.get_object(form).unwrap().as_stream().unwrap();
    let resources = resolve(&doc, form.dict.get(b"Resources").unwrap())
        .as_dict()
        .unwrap();
    let fonts = resolve(&doc, resources.get(b"Font").unwrap())
        .as_dict()
        .unwrap();
    let type0 = resolve(&doc, fonts.get(b"F").unwrap()).as_dict().unwrap();
    assert_eq!(type0.get(b"Subtype").unwrap().as_name().unwrap(), b"Type0");
    assert_eq!(
        type0.get(b"Encoding").unwrap().as_name().unwrap(),
        b"Identity-H"
    );
    assert!(type0.has(b"ToUnicode"));
    let descendants = resolve(&doc, type0.get(b"DescendantFonts").unwrap())
        .as_array()
        .unwrap();
    let cid = resolve(&doc, &descendants[0]).as_dict().unwrap();
    assert_eq!(
        cid.get(b"Subtype").unwrap().as_name().unwrap(),
        b"CIDFontType2"
    );
    // A width for each glyph used: 17 distinct characters ("Brouiln", space, dash, "Черновик").
    let widths = resolve(&doc, cid.get(b"W").unwrap()).as_array().unwrap();
    assert_eq!(widths.len(), 2 * 17);
    let descriptor = resolve(&doc, cid.get(b"FontDescriptor").unwrap())
        .as_dict()
        .unwrap();
    let file = resolve(&doc, descriptor.get(b"FontFile2").unwrap())
        .as_stream()
        .unwrap();
    // A subset: far smaller than the font, with its length declared, and still a TrueType
    // program (the text below still copies through it).
    let ttf = std::fs::read(font).unwrap();
    let program = file.decompressed_content().unwrap();
    assert_eq!(
        file.dict.get(b"Length1").unwrap().as_i64().unwrap(),
        program.len() as i64
    );
    assert!(
        program.len() * 5 < ttf.len(),
        "{} of {} bytes",
        program.len(),
        ttf.len()
    );
    assert_eq!(&program[..4], &[0, 1, 0, 0]);
    if poppler() {
        for page in 1..=5 {
            let copied = page_text(&out, page);
            assert!(copied.contains(text), "page {page}: {copied}");
        }
    }
    // Page numbers in Cyrillic too.
    let cyrillic = Numbering {
        font: Some(font.into()),
        ..numbering("Стр. {n}")
    };
    number_pages(&input, &cyrillic, &out).unwrap();
    if poppler() {
        assert!(page_text(&out, 3).contains("Стр. 3"));
    }
}

#[test]
fn text_outside_winansi_needs_a_font_with_its_glyphs() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let message = bad_options(watermark(
        &input,
        &text_mark("Brouillon Черновик", None),
        &out,
    ));
    assert!(message.contains("\"Ч\" (U+0427)"), "{message}");
    let message = bad_options(number_pages(&input, &numbering("第{n}页"), &out));
    assert!(message.contains("\"第\""), "{message}");
    if let Some(font) = dejavu() {
        let message = bad_options(watermark(&input, &text_mark("草稿", Some(font)), &out));
        assert!(message.contains("\"草\" (U+8349)"), "{message}");
    }
    assert!(!out.exists());
    // The WinAnsi extras stay in Helvetica, with nothing embedded.
    let text = "Entwurf – 5 € ’";
    watermark(&input, &text_mark(text, None), &out).unwrap();
    let doc = load(&out);
    assert!(
        doc.objects
            .values()
            .all(|o| o.as_stream().map_or(true, |s| !s.dict.has(b"Length1")))
    );
    if poppler() {
        assert!(page_text(&out, 1).contains(text));
    }
}

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

fn jpeg_file(dir: &Path) -> (PathBuf, Vec<u8>) {
    let pixels: Vec<u8> = (0..64 * 32)
        .flat_map(|i| [(i % 256) as u8, 80, 160])
        .collect();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 85)
        .encode(&pixels, 64, 32, image::ExtendedColorType::Rgb8)
        .unwrap();
    let path = dir.join("logo.jpg");
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

fn image_mark(path: &Path, width_share: f32) -> Watermark {
    Watermark {
        mark: Mark::Image {
            path: path.into(),
            width_share,
        },
        opacity: 1.0,
        rotation: 0.0,
        position: Some(Position::Center),
        pages: None,
        behind: false,
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

#[test]
fn bad_options_say_what_to_fix() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let text = text_mark("DRAFT", None);
    for opacity in [1.5, -0.1, f32::NAN] {
        let message = bad_options(watermark(
            &input,
            &Watermark {
                opacity,
                ..text.clone()
            },
            &out,
        ));
        assert!(message.contains("from 0 (invisible) to 1"), "{message}");
    }
    let message = bad_options(watermark(
        &input,
        &Watermark {
            pages: Some("2-9".into()),
            ..text.clone()
        },
        &out,
    ));
    assert!(message.contains("5 pages"), "{message}");
    for size in [0.0, 501.0] {
        let big = Watermark {
            mark: Mark::Text {
                text: "A".into(),
                size,
                rgb: [0; 3],
                font: None,
            },
            ..text.clone()
        };
        assert!(bad_options(watermark(&input, &big, &out)).contains("1 to 500"));
        let numbers = Numbering {
            size,
            ..numbering("{n}")
        };
        assert!(bad_options(number_pages(&input, &numbers, &out)).contains("1 to 500"));
    }
    assert!(bad_options(watermark(&input, &text_mark(" ", None), &out)).contains("empty"));
    assert!(bad_options(watermark(&input, &text_mark("a\nb", None), &out)).contains("one line"));
    for first_page in [0, 6] {
        let late = Numbering {
            first_page,
            ..numbering("{n}")
        };
        let message = bad_options(number_pages(&input, &late, &out));
        assert!(message.contains("page"), "{message}");
    }
    assert!(bad_options(number_pages(&input, &numbering("Page"), &out)).contains("{n}"));
    let not_an_image = dir.path().join("notes.png");
    std::fs::write(&not_an_image, "not a picture").unwrap();
    for path in [not_an_image, dir.path().join("missing.jpg")] {
        let message = bad_options(watermark(&input, &image_mark(&path, 0.5), &out));
        assert_eq!(message, "the watermark image is not a PNG or JPEG");
    }
    let (jpeg, _) = jpeg_file(dir.path());
    for share in [0.0, 1.5] {
        assert!(bad_options(watermark(&input, &image_mark(&jpeg, share), &out)).contains("share"));
    }
    assert!(!out.exists());
}

mod corpus {
    //! Every real-world PDF of the corpora watermarked (tiled text) and numbered.

    use std::collections::BTreeMap;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::path::{Path, PathBuf};

    use quire_toolbox::stamp::{number_pages, watermark};
    use quire_toolbox::{ToolError, page_count};

    use super::{numbering, text_mark};
    use crate::stamping::{poppler, raw_text};

    fn files() -> BTreeMap<String, PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(".cache");
        let mut files = BTreeMap::new();
        for dir in ["pdf-corpus", "compress-corpus"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|ext| ext == "pdf") {
                    files
                        .entry(entry.file_name().to_string_lossy().into_owned())
                        .or_insert(path);
                }
            }
        }
        files
    }

    /// "stamped", "invalid" or "encrypted", or what went wrong.
    fn run(input: &Path, work: &Path, text: bool) -> Result<&'static str, String> {
        let refused = |err: ToolError| match err {
            ToolError::InvalidFile(_) => Ok("invalid"),
            ToolError::Encrypted => Ok("encrypted"),
            other => Err(format!("{other:?}")),
        };
        let n = match page_count(input) {
            Ok(n) => n,
            Err(err) => return refused(err),
        };
        let marked = work.join("watermarked.pdf");
        let mut tiled = text_mark("DRAFT", None);
        tiled.position = None;
        tiled.rotation = 30.0;
        if let Err(err) = watermark(input, &tiled, &marked) {
            return refused(err);
        }
        if page_count(&marked).ok() != Some(n) {
            return Err("watermark changed the page count".into());
        }
        let numbered = work.join("numbered.pdf");
        match number_pages(input, &numbering("Page {n} of {total}"), &numbered) {
            Ok(written) if written.pages == n => {}
            Ok(written) => return Err(format!("{} pages written for {n}", written.pages)),
            Err(err) => return refused(err),
        }
        if page_count(&numbered).ok() != Some(n) {
            return Err("number_pages changed the page count".into());
        }
        if !text {
            return Ok("stamped");
        }
        let wanted = format!("Page {n} of {n}");
        if raw_text(&numbered, n).is_some_and(|(last, _)| last.contains(&wanted)) {
            return Ok("stamped, number read back");
        }
        // Not read back: fine only when the page is too small to hold the number, or when
        // poppler stumbles over the page's own content (an unterminated dictionary that
        // swallows what follows, an operator without its operands).
        if smallest_side(&numbered, n) < 100.0 {
            return Ok("stamped, page too small to read back");
        }
        match raw_text(input, n) {
            Some((_, complaints)) if !complaints.contains("Syntax Error") => Err(format!(
                "pdftotext -raw of the last page lacks \"{wanted}\""
            )),
            _ => Ok("stamped, poppler cannot read the page's own content"),
        }
    }

    /// The shorter side of a page's visible box.
    fn smallest_side(pdf: &Path, page: u32) -> f64 {
        let doc = lopdf::Document::load(pdf).unwrap();
        let id = doc.get_pages()[&page];
        let dict = doc.get_dictionary(id).unwrap();
        [b"MediaBox".as_slice(), b"CropBox"]
            .iter()
            .filter_map(|key| {
                let values = doc
                    .dereference(dict.get(key).ok()?)
                    .ok()?
                    .1
                    .as_array()
                    .ok()?;
                let numbers: Vec<f64> = values
                    .iter()
                    .map(|v| doc.dereference(v).ok()?.1.as_float().ok().map(f64::from))
                    .collect::<Option<_>>()?;
                let [a, b, c, d] = numbers[..] else {
                    return None;
                };
                Some((c - a).abs().min((d - b).abs()))
            })
            .fold(f64::MAX, f64::min)
    }

    #[test]
    fn every_corpus_file_watermarked_and_numbered() {
        let files = files();
        if files.is_empty() {
            println!("corpus absent (.cache/pdf-corpus, .cache/compress-corpus): skipped");
            return;
        }
        let text = poppler();
        let mut outcomes: BTreeMap<&str, usize> = BTreeMap::new();
        let mut failures = Vec::new();
        for (name, path) in &files {
            let work = tempfile::tempdir().unwrap();
            match catch_unwind(AssertUnwindSafe(|| run(path, work.path(), text))) {
                Ok(Ok(outcome)) => {
                    if outcome.starts_with("stamped,") && outcome != "stamped, number read back" {
                        println!("{name}: {outcome}");
                    }
                    *outcomes.entry(outcome).or_default() += 1;
                }
                Ok(Err(failure)) => failures.push(format!("{name}: {failure}")),
                Err(_) => failures.push(format!("{name}: panicked")),
            }
        }
        println!(
            "corpus: {} files, {outcomes:?}, {} failed",
            files.len(),
            failures.len()
        );
        assert!(failures.is_empty(), "{failures:#?}");
    }
}
