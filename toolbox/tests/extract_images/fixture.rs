//! The sample document: one image of every kind extract-images handles, built with lopdf.

use std::io::Write;
use std::path::Path;

use image::{ExtendedColorType, ImageEncoder};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

pub fn ascii85(data: &[u8]) -> Vec<u8> {
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

pub fn jpeg(width: u32, height: u32, colour: ExtendedColorType) -> Vec<u8> {
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

pub fn image(
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
pub fn page(doc: &mut Document, parent: ObjectId, xobjects: Vec<(&str, ObjectId)>) -> ObjectId {
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

pub fn finish(mut doc: Document, root: ObjectId, kids: Vec<ObjectId>, path: &Path) {
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
pub struct Jpegs {
    pub rgb: Vec<u8>,
    pub grey: Vec<u8>,
}

/// Three pages:
/// 1. an RGB JPEG (object A); Flate RGB 8×6 with PNG predictors and indirect /DecodeParms;
///    an Indexed 4-bit 5×3 (RunLength); a stencil mask 8×2;
/// 2. a byte-identical copy of A as another object; a 1-bit 10×4 grey with /Decode [1 0]
///    (ASCIIHex); a 2×2 icon; a form drawing a form that draws a 3×4 RGB image (the inner
///    form's resources name the outer one: a cycle);
/// 3. A again; 16-bit grey 6×5; CMYK Flate 4×4; an 8×8 grey with an 8×8 /SMask; an
///    ASCII85-wrapped grey JPEG; a CCITT image.
pub fn sample(path: &Path) -> Jpegs {
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
