//! Extract images: a document built here with one image of every kind the tool handles
//! (checked file by file, pixel by pixel), the tool's errors, and every PDF of the corpora
//! (no panic, only the allowed errors, counts compared with poppler's `pdfimages -list`).
#![allow(clippy::unwrap_used)]

mod corpus_files;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::process::Command;

use image::{ExtendedColorType, ImageEncoder};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};
use quire_toolbox::ToolError;
use quire_toolbox::extract_images::{Extracted, Skipped, extract_images};

const MANY: u64 = 50_000_000;

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn ascii85(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(4) {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        let mut value = u32::from_be_bytes(word);
        if chunk.len() == 4 && value == 0 {
            out.push(b'z');
            continue;
        }
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

fn jpeg(width: u32, height: u32, colour: ExtendedColorType) -> Vec<u8> {
    let channels = if colour == ExtendedColorType::L8 {
        1
    } else {
        3
    };
    let pixels: Vec<u8> = (0..width * height * channels)
        .map(|i| (i * 7 % 256) as u8)
        .collect();
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
        .write_image(&pixels, width, height, colour)
        .unwrap();
    out
}

fn image(
    doc: &mut Document,
    (w, h): (i64, i64),
    space: Object,
    bpc: i64,
    extra: Dictionary,
    data: Vec<u8>,
) -> ObjectId {
    let mut dict = dictionary! {
        "Type" => "XObject", "Subtype" => "Image", "Width" => w, "Height" => h,
        "ColorSpace" => space, "BitsPerComponent" => bpc,
    };
    dict.extend(&extra);
    doc.add_object(Stream::new(dict, data))
}

/// A page drawing every XObject of `xobjects` (a form's own images are drawn by the form).
fn page(doc: &mut Document, parent: ObjectId, xobjects: Vec<(&str, ObjectId)>) -> ObjectId {
    let content: String = xobjects
        .iter()
        .map(|(name, _)| format!("q 100 0 0 100 0 0 cm /{name} Do Q\n"))
        .collect();
    let content = doc.add_object(Stream::new(Dictionary::new(), content.into_bytes()));
    let mut names = Dictionary::new();
    for (name, id) in xobjects {
        names.set(name, id);
    }
    doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => parent, "Contents" => content,
        "MediaBox" => vec![0.into(), 0.into(), 600.into(), 800.into()],
        "Resources" => dictionary! { "XObject" => names },
    })
}

fn finish(mut doc: Document, root: ObjectId, kids: Vec<ObjectId>, path: &Path) {
    let count = kids.len() as i64;
    let kids: Vec<Object> = kids.into_iter().map(Object::Reference).collect();
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
    doc.trailer.set("Root", catalog);
    doc.save(path).unwrap();
}

/// The JPEGs the sample stores, to compare the files with.
struct Jpegs {
    rgb: Vec<u8>,
    grey: Vec<u8>,
}

/// Three pages:
/// 1. an RGB JPEG (object A); Flate RGB 8×6 with PNG predictors and indirect /DecodeParms;
///    an Indexed 4-bit 5×3 (RunLength); a stencil mask 8×2;
/// 2. a byte-identical copy of A as another object; a 1-bit 10×4 grey with /Decode [1 0]
///    (ASCIIHex); a 2×2 icon; a form drawing a form that draws a 3×4 RGB image (the inner
///    form's resources name the outer one: a cycle);
/// 3. A again; 16-bit grey 6×5; CMYK Flate 4×4; an 8×8 grey with an 8×8 /SMask; an
///    ASCII85-wrapped grey JPEG; a CCITT image.
fn sample(path: &Path) -> Jpegs {
    let mut doc = Document::with_version("1.5");
    let root = doc.new_object_id();
    let rgb_jpeg = jpeg(16, 12, ExtendedColorType::Rgb8);
    let grey_jpeg = jpeg(16, 16, ExtendedColorType::L8);
    let dct = dictionary! { "Filter" => "DCTDecode" };
    let jpeg_a = image(
        &mut doc,
        (16, 12),
        "DeviceRGB".into(),
        8,
        dct.clone(),
        rgb_jpeg.clone(),
    );
    let jpeg_b = image(
        &mut doc,
        (16, 12),
        "DeviceRGB".into(),
        8,
        dct,
        rgb_jpeg.clone(),
    );

    // PNG predictors: Sub on even rows, Up on odd ones.
    let raw: Vec<Vec<u8>> = (0..6u32)
        .map(|y| (0..24u32).map(|i| (i * 10 + y * 3) as u8).collect())
        .collect();
    let mut predicted = Vec::new();
    for (y, row) in raw.iter().enumerate() {
        let (kind, refs): (u8, Vec<u8>) = if y % 2 == 0 {
            (
                1,
                (0..24)
                    .map(|i| if i < 3 { 0 } else { row[i - 3] })
                    .collect(),
            )
        } else {
            (2, raw[y - 1].clone())
        };
        predicted.push(kind);
        predicted.extend(row.iter().zip(&refs).map(|(v, r)| v.wrapping_sub(*r)));
    }
    let parms = doc.add_object(dictionary! {
        "Predictor" => 15, "Colors" => 3, "BitsPerComponent" => 8, "Columns" => 8,
    });
    let flate_rgb = image(
        &mut doc,
        (8, 6),
        "DeviceRGB".into(),
        8,
        dictionary! { "Filter" => "FlateDecode", "DecodeParms" => parms },
        zlib(&predicted),
    );

    let palette: Vec<u8> = (0..16u8)
        .flat_map(|i| [i * 16, 255 - i * 16, i * 8])
        .collect();
    let mut packed = Vec::new();
    for y in 0..3u8 {
        let row: Vec<u8> = (0..5u8).map(|x| (x + 5 * y) % 16).collect();
        packed.extend([row[0] << 4 | row[1], row[2] << 4 | row[3], row[4] << 4]);
    }
    // RunLength: one literal run of 9 bytes, then end of data.
    let mut run_length = vec![8];
    run_length.extend(&packed);
    run_length.push(128);
    let indexed_space = Object::Array(vec![
        "Indexed".into(),
        "DeviceRGB".into(),
        15.into(),
        Object::string_literal(palette),
    ]);
    let indexed = image(
        &mut doc,
        (5, 3),
        indexed_space,
        4,
        dictionary! { "Filter" => "RunLengthDecode" },
        run_length,
    );
    let stencil = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 8, "Height" => 2,
            "ImageMask" => true,
        },
        vec![0b1111_0000, 0b0000_1111],
    ));

    let one_bit_rows: Vec<u8> = (0..4u32)
        .flat_map(|y| {
            let bits: u16 = (0..10).fold(0, |acc, x| acc | (((x + y) % 2) as u16) << (15 - x));
            bits.to_be_bytes()
        })
        .collect();
    let hex: String = one_bit_rows.iter().map(|b| format!("{b:02X}")).collect();
    let one_bit = image(
        &mut doc,
        (10, 4),
        "DeviceGray".into(),
        1,
        dictionary! {
            "Filter" => "ASCIIHexDecode", "Decode" => vec![1.into(), 0.into()],
        },
        format!("{hex}>").into_bytes(),
    );
    let icon = image(
        &mut doc,
        (2, 2),
        "DeviceGray".into(),
        8,
        Dictionary::new(),
        vec![9; 4],
    );
    let form_image = image(
        &mut doc,
        (3, 4),
        "DeviceRGB".into(),
        8,
        Dictionary::new(),
        (0..36).map(|i| i * 7).collect(),
    );
    let outer = doc.new_object_id();
    let inner = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 1.into(), 1.into()],
            "Resources" => dictionary! { "XObject" => dictionary! { "Im" => form_image, "Back" => outer } },
        },
        b"/Im Do".to_vec(),
    ));
    doc.objects.insert(
        outer,
        Object::Stream(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 1.into(), 1.into()],
                "Resources" => dictionary! { "XObject" => dictionary! { "Inner" => inner } },
            },
            b"/Inner Do".to_vec(),
        )),
    );

    let sixteen: Vec<u8> = (0..5u32)
        .flat_map(|y| (0..6u32).flat_map(move |x| ((x * 10_000 + y * 300) as u16).to_be_bytes()))
        .collect();
    let gray16 = image(
        &mut doc,
        (6, 5),
        "DeviceGray".into(),
        16,
        dictionary! { "Filter" => "FlateDecode" },
        zlib(&sixteen),
    );
    let cmyk_data: Vec<u8> = (0..4u32)
        .flat_map(|y| {
            (0..4u32).flat_map(move |x| [x as u8 * 60, y as u8 * 60, 128, (x * y * 10) as u8])
        })
        .collect();
    let cmyk = image(
        &mut doc,
        (4, 4),
        "DeviceCMYK".into(),
        8,
        dictionary! { "Filter" => "FlateDecode" },
        zlib(&cmyk_data),
    );
    let mask_data: Vec<u8> = (0..64u32).map(|i| (i % 8 * 32) as u8).collect();
    let smask = image(
        &mut doc,
        (8, 8),
        "DeviceGray".into(),
        8,
        dictionary! { "Filter" => "FlateDecode" },
        zlib(&mask_data),
    );
    let masked = image(
        &mut doc,
        (8, 8),
        "DeviceGray".into(),
        8,
        dictionary! { "SMask" => smask },
        vec![200; 64],
    );
    let a85 = image(
        &mut doc,
        (16, 16),
        "DeviceGray".into(),
        8,
        dictionary! { "Filter" => vec!["ASCII85Decode".into(), "DCTDecode".into()] },
        ascii85(&grey_jpeg),
    );
    let ccitt = image(
        &mut doc,
        (16, 16),
        "DeviceGray".into(),
        1,
        dictionary! { "Filter" => "CCITTFaxDecode", "DecodeParms" => dictionary! { "K" => -1, "Columns" => 16 } },
        vec![0; 8],
    );

    let p1 = page(
        &mut doc,
        root,
        vec![
            ("A", jpeg_a),
            ("Fl", flate_rgb),
            ("Ix", indexed),
            ("St", stencil),
        ],
    );
    let p2 = page(
        &mut doc,
        root,
        vec![
            ("B", jpeg_b),
            ("One", one_bit),
            ("Icon", icon),
            ("Fm", outer),
        ],
    );
    let p3 = page(
        &mut doc,
        root,
        vec![
            ("A", jpeg_a),
            ("G16", gray16),
            ("K", cmyk),
            ("M", masked),
            ("A85", a85),
            ("Fax", ccitt),
        ],
    );
    finish(doc, root, vec![p1, p2, p3], path);
    Jpegs {
        rgb: rgb_jpeg,
        grey: grey_jpeg,
    }
}

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

/// The image objects `pdfimages -list` reports (images and stencils, not masks or inline
/// images), or `None` without poppler.
fn pdfimages_objects(path: &Path) -> Option<BTreeSet<u32>> {
    let output = Command::new("pdfimages")
        .arg("-list")
        .arg(path)
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut objects = BTreeSet::new();
    for line in text.lines().skip(2) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() > 10
            && matches!(fields[2], "image" | "stencil")
            && let Ok(number) = fields[10].parse()
        {
            objects.insert(number);
        }
    }
    Some(objects)
}

/// Files where this finds more image objects than `pdfimages -list`, how many more, and why.
/// poppler draws the pages and lists what is drawn; this reads the resources.
const EXPLAINED: [(&str, i64, &str); 3] = [
    // /I5 is listed in the page's resources (and is /I6's /Mask), the content never draws it.
    (
        "ocrmypdf__tests__resources__masks.pdf",
        1,
        "listed, not drawn",
    ),
    // A 1×1 image on a hidden optional-content layer on each page, one shared by all pages:
    // poppler does not draw hidden layers. (The same pages merged with another file lost
    // their /OCProperties, so every layer shows there and both agree.)
    (
        "pypdf__resources__Seige_of_Vicksburg_Sample_OCR.pdf",
        7,
        "hidden layers",
    ),
    // Four images drawn by Type 3 glyphs: poppler's image extractor does not run glyph procedures.
    ("pypdf__resources__example.pdf", 4, "Type 3 glyphs"),
];

/// Every file of the corpora with the service's settings (16-pixel floor, masks): no panic,
/// no error but InvalidFile or Encrypted, every PNG readable; then with no floor and no masks,
/// the image objects found compared with poppler's (differences explained in [`EXPLAINED`]).
#[test]
fn corpus_extracts_without_panics() {
    let files = corpus_files::corpus();
    if files.is_empty() {
        eprintln!("no corpus under .cache: skipped");
        return;
    }
    let mut by_ext: BTreeMap<String, u32> = BTreeMap::new();
    let mut skipped_all = Skipped::default();
    let (mut ok, mut invalid, mut encrypted) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut comparisons = Vec::new();
    for (name, path) in &files {
        let out = tempfile::tempdir().unwrap();
        let result =
            std::panic::catch_unwind(|| extract_images(path, "img", out.path(), 16, true, MANY));
        let (list, skipped) = match result {
            Err(_) => {
                failures.push(format!("{name}: panic"));
                continue;
            }
            Ok(Err(ToolError::InvalidFile(_))) => {
                invalid += 1;
                continue;
            }
            Ok(Err(ToolError::Encrypted)) => {
                encrypted += 1;
                continue;
            }
            Ok(Err(other)) => {
                failures.push(format!("{name}: {other:?}"));
                continue;
            }
            Ok(Ok(done)) => done,
        };
        ok += 1;
        for file in &list {
            let ext = file.name.rsplit('.').next().unwrap_or_default();
            let kind = if file.name.contains("-mask.") {
                format!("{ext} (mask)")
            } else {
                ext.to_string()
            };
            *by_ext.entry(kind).or_default() += 1;
            // Every PNG reads back whole, at the size reported.
            if ext == "png" {
                match image::open(&file.path) {
                    Ok(png) if (png.width(), png.height()) == (file.width, file.height) => {}
                    Ok(png) => failures.push(format!(
                        "{name}: {} is {}x{}, reported {}x{}",
                        file.name,
                        png.width(),
                        png.height(),
                        file.width,
                        file.height
                    )),
                    Err(err) => failures.push(format!("{name}: {} unreadable: {err}", file.name)),
                }
            } else if ext == "jpg" {
                // JPEGs as stored: their own header says the size the PDF declares.
                match image::image_dimensions(&file.path) {
                    Ok(size) if size == (file.width, file.height) => {}
                    other => failures.push(format!("{name}: {}: {other:?}", file.name)),
                }
            } else if !file.path.is_file() {
                failures.push(format!("{name}: {} not written", file.name));
            }
        }
        skipped_all.undecodable += skipped.undecodable;
        skipped_all.small += skipped.small;
        skipped_all.too_large += skipped.too_large;
        skipped_all.duplicates += skipped.duplicates;
        // Against poppler: every image object, none skipped as small, masks aside.
        if let Some(objects) = pdfimages_objects(path) {
            let again = tempfile::tempdir().unwrap();
            let (list, skipped) =
                extract_images(path, "img", again.path(), 0, false, MANY).unwrap();
            let mine = i64::from(total(&list, &skipped));
            let theirs = objects.len() as i64;
            let explained = EXPLAINED.iter().find(|(file, _, _)| file == name);
            match explained {
                Some((_, more, _)) if mine - theirs == *more => {}
                None if mine == theirs => {}
                _ => failures.push(format!(
                    "{name}: {mine} image objects here, {theirs} by pdfimages"
                )),
            }
            if mine != theirs {
                comparisons.push(format!("{name}: {mine} here, {theirs} by pdfimages"));
            }
        }
    }
    eprintln!("corpus: {ok} read, {invalid} invalid, {encrypted} encrypted");
    eprintln!("written by kind: {by_ext:?}");
    eprintln!("skipped: {skipped_all:?}");
    eprintln!(
        "image objects differing from pdfimages -list:\n  {}",
        comparisons.join("\n  ")
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
