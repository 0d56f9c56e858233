//! Generated documents with what PDF/A forbids or leaves out: fonts not embedded (the
//! standard 14 and a TrueType font), transparency (a soft-masked image, a fill at half
//! opacity), JavaScript and a Launch action, annotations without appearance or hidden,
//! DeviceCMYK colour, an LZW-compressed page.

use std::collections::HashMap;
use std::path::Path;

use lopdf::{Document, Object, Stream, StringFormat, dictionary};

/// What the generated document holds.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub fonts: bool,
    pub truetype: bool,
    pub transparency: bool,
    pub scripts: bool,
    pub annotations: bool,
    pub cmyk: bool,
    pub lzw: bool,
    /// A text file attached in the /EmbeddedFiles name tree.
    pub attachment: bool,
}

impl Spec {
    pub const ALL: Spec = Spec {
        fonts: true,
        truetype: true,
        transparency: true,
        scripts: true,
        annotations: true,
        cmyk: true,
        lzw: true,
        attachment: true,
    };
    pub const PLAIN: Spec = Spec {
        fonts: true,
        truetype: false,
        transparency: false,
        scripts: false,
        annotations: false,
        cmyk: false,
        lzw: false,
        attachment: false,
    };
}

/// Arial's widths for WinAnsi codes 32-126 (the same as Helvetica's).
const ARIAL_WIDTHS: [i64; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 278, 260, 278, 584,
];

/// Writes the document `spec` describes to `path`.
pub fn build(path: &Path, spec: Spec) {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let mut fonts = lopdf::Dictionary::new();
    let mut content = String::from("BT /F1 18 Tf 72 720 Td (Hello PDF/A, Helvetica) Tj ET\n");
    fonts.set(
        "F1",
        dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica", "Encoding" => "WinAnsiEncoding" },
    );
    if spec.fonts {
        fonts.set(
            "F2",
            dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Times-Bold" },
        );
        fonts.set(
            "F3",
            dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier-Oblique" },
        );
        fonts.set(
            "F4",
            dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Symbol" },
        );
        content.push_str("BT /F2 14 Tf 72 690 Td (Times bold: caf\\351 \\(1\\)) Tj ET\n");
        content.push_str("BT /F3 12 Tf 72 670 Td [(Courier) -250 (oblique)] TJ ET\n");
        content.push_str("BT /F4 12 Tf 72 650 Td (abg) Tj ET\n");
    }
    if spec.truetype {
        let descriptor = doc.add_object(dictionary! {
            "Type" => "FontDescriptor", "FontName" => "Arial", "Flags" => 32,
            "FontBBox" => vec![(-665).into(), (-325).into(), 2000.into(), 1040.into()],
            "ItalicAngle" => 0, "Ascent" => 905, "Descent" => -212, "CapHeight" => 716, "StemV" => 80,
        });
        fonts.set(
            "F5",
            dictionary! {
                "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Arial",
                "Encoding" => "WinAnsiEncoding", "FirstChar" => 32, "LastChar" => 126,
                "Widths" => ARIAL_WIDTHS.iter().map(|&w| Object::Integer(w)).collect::<Vec<_>>(),
                "FontDescriptor" => descriptor,
            },
        );
        content.push_str("BT /F5 12 Tf 72 630 Td (Arial, as TrueType, not embedded) Tj ET\n");
    }
    let mut resources = dictionary! { "Font" => fonts };
    if spec.cmyk {
        content.push_str("q 0 1 1 0 k 72 560 100 40 re f Q\n");
    }
    if spec.transparency {
        resources.set(
            "ExtGState",
            dictionary! { "GS1" => dictionary! { "Type" => "ExtGState", "ca" => 0.5, "CA" => 0.5 } },
        );
        let mask = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 2, "Height" => 2,
                "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
            },
            vec![0, 128, 200, 255],
        ));
        let image = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 2, "Height" => 2,
                "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8, "SMask" => mask,
                "Interpolate" => true,
            },
            vec![255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0],
        ));
        resources.set("XObject", dictionary! { "Im1" => image });
        content.push_str("q /GS1 gs 0 0 1 rg 200 560 100 40 re f Q\n");
        content.push_str("q 50 0 0 50 320 550 cm /Im1 Do Q\n");
    }
    let resources = doc.add_object(resources);
    let content_id = doc.add_object(Stream::new(dictionary! {}, content.into_bytes()));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id, "Resources" => resources,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
    });
    let mut kids = vec![Object::Reference(page)];
    if spec.lzw {
        let text = b"BT /F1 12 Tf 72 720 Td (Second page, LZW compressed) Tj ET\n".repeat(3);
        let mut stream = Stream::new(dictionary! { "Filter" => "LZWDecode" }, lzw(&text));
        stream.allows_compression = false;
        let content = doc.add_object(stream);
        let page2 = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content, "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        });
        kids.push(Object::Reference(page2));
    }
    let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages_id };
    let mut names = lopdf::Dictionary::new();
    if spec.attachment {
        let file = doc.add_object(Stream::new(
            dictionary! { "Type" => "EmbeddedFile" },
            b"invoice,total\n1,42\n".to_vec(),
        ));
        let spec = doc.add_object(dictionary! {
            "Type" => "Filespec", "F" => Object::string_literal("data.csv"),
            "EF" => dictionary! { "F" => file },
        });
        names.set(
            "EmbeddedFiles",
            dictionary! { "Names" => vec![Object::string_literal("data.csv"), spec.into()] },
        );
    }
    if spec.annotations || spec.scripts {
        let mut annots = Vec::new();
        if spec.annotations {
            annots.push(doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Text", "Rect" => vec![400.into(), 700.into(), 420.into(), 720.into()],
                "Contents" => Object::string_literal("a note without appearance"), "C" => vec![1.into(), 1.into(), 0.into()],
            }));
            annots.push(doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Square", "Rect" => vec![400.into(), 600.into(), 500.into(), 650.into()],
                "F" => 2, "C" => vec![1.into(), 0.into(), 0.into()],
            }));
            annots.push(doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Square", "Rect" => vec![400.into(), 500.into(), 500.into(), 550.into()],
                "C" => vec![0.into(), 0.into(), 1.into()], "F" => 0,
            }));
            annots.push(doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![72.into(), 700.into(), 300.into(), 740.into()],
                "Border" => vec![0.into(), 0.into(), 0.into()],
                "A" => dictionary! { "S" => "URI", "URI" => Object::string_literal("https://example.com/") },
            }));
        }
        if spec.scripts {
            annots.push(doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![72.into(), 640.into(), 300.into(), 660.into()],
                "Border" => vec![0.into(), 0.into(), 0.into()],
                "A" => dictionary! { "S" => "Launch", "F" => Object::string_literal("calc.exe") },
            }));
            let js = doc.add_object(dictionary! {
                "S" => "JavaScript", "JS" => Object::string_literal("app.alert('hi');"),
            });
            catalog.set("OpenAction", js);
            names.set(
                "JavaScript",
                dictionary! { "Names" => vec![Object::string_literal("hello"), js.into()] },
            );
        }
        if let Ok(page) = doc.get_dictionary_mut(page) {
            page.set(
                "Annots",
                annots
                    .into_iter()
                    .map(Object::Reference)
                    .collect::<Vec<_>>(),
            );
        }
    }
    if !names.is_empty() {
        catalog.set("Names", names);
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }),
    );
    let catalog = doc.add_object(catalog);
    doc.trailer.set("Root", catalog);
    let info = doc.add_object(dictionary! {
        "Title" => Object::string_literal("PDF/A test"),
        "Author" => Object::String(b"\xfe\xff\x00A\x00d\x00\xe9".to_vec(), StringFormat::Literal),
        "Producer" => Object::string_literal("quire tests"),
        "CreationDate" => Object::string_literal("D:20240102030405"),
    });
    doc.trailer.set("Info", info);
    doc.save(path).unwrap();
}

/// LZW as PDF writes it (early change, codes of 9 to 12 bits, most significant bit first).
pub fn lzw(data: &[u8]) -> Vec<u8> {
    const CLEAR: u32 = 256;
    const END: u32 = 257;
    let mut out = Vec::new();
    let mut acc: u64 = 0;
    let mut bits = 0u32;
    let mut emit = |code: u32, width: u32, out: &mut Vec<u8>| {
        acc = (acc << width) | u64::from(code);
        bits += width;
        while bits >= 8 {
            out.push((acc >> (bits - 8)) as u8);
            bits -= 8;
        }
    };
    let mut table: HashMap<Vec<u8>, u32> = HashMap::new();
    let reset = |table: &mut HashMap<Vec<u8>, u32>| {
        table.clear();
        for b in 0..=255u8 {
            table.insert(vec![b], u32::from(b));
        }
    };
    reset(&mut table);
    let mut next = 258u32;
    let mut width = 9u32;
    emit(CLEAR, width, &mut out);
    let mut current: Vec<u8> = Vec::new();
    for &byte in data {
        let mut candidate = current.clone();
        candidate.push(byte);
        if table.contains_key(&candidate) {
            current = candidate;
            continue;
        }
        emit(table[&current], width, &mut out);
        table.insert(candidate, next);
        next += 1;
        // Early change: the width grows one code before the table fills it.
        if next + 1 == (1 << width) && width < 12 {
            width += 1;
        }
        if next >= 4094 {
            emit(CLEAR, width, &mut out);
            reset(&mut table);
            next = 258;
            width = 9;
        }
        current = vec![byte];
    }
    if !current.is_empty() {
        emit(table[&current], width, &mut out);
    }
    emit(END, width, &mut out);
    if bits > 0 {
        out.push(((acc << (8 - bits)) & 0xFF) as u8);
    }
    out
}
