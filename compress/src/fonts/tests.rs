//! Whole-document tests: PDFs built here around a real TrueType font from the system.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};
use ttf_parser::{Face, GlyphId};

use super::subset_fonts;
use crate::test_pdf::one_page;

/// Subsets by the usage the document's pages give.
pub(super) fn subset(doc: &mut Document) -> usize {
    let (usage, _) = crate::survey(doc);
    subset_fonts(doc, &usage)
}

pub(super) const SANS: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
pub(super) const MONO: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

pub(super) fn font_file(path: &str) -> Option<Vec<u8>> {
    match std::fs::read(path) {
        Ok(data) => Some(data),
        Err(_) => {
            eprintln!("skipped: {path} missing (apt-get install fonts-dejavu-core)");
            None
        }
    }
}

/// A simple WinAnsi TrueType font with its program embedded; returns the font's id.
fn add_font(doc: &mut Document, program: &[u8]) -> ObjectId {
    let mut file = Stream::new(
        dictionary! { "Length1" => program.len() as i64 },
        program.to_vec(),
    );
    file.compress().ok();
    let file_id = doc.add_object(file);
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor", "FontName" => "DejaVuSans", "Flags" => 32,
        "FontBBox" => vec![0.into(), 0.into(), 1000.into(), 1000.into()],
        "ItalicAngle" => 0, "Ascent" => 900, "Descent" => -200, "CapHeight" => 700,
        "StemV" => 80, "FontFile2" => file_id,
    });
    doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "DejaVuSans",
        "Encoding" => "WinAnsiEncoding", "FontDescriptor" => descriptor,
    })
}

fn content(doc: &mut Document, text: &str, resources: Dictionary, form: bool) -> ObjectId {
    let ops = format!("BT /F1 12 Tf 10 10 Td ({text}) Tj ET");
    let mut dict = dictionary! { "Resources" => resources };
    if form {
        dict.set("Type", "XObject");
        dict.set("Subtype", "Form");
        dict.set("BBox", vec![0.into(), 0.into(), 100.into(), 100.into()]);
    }
    doc.add_object(Stream::new(dict, ops.into_bytes()))
}

/// One page showing `page_text` directly and `form_text` through a Form XObject, an
/// annotation whose appearance shows `annot_text`, and a form field whose /DA names `da_font`.
fn document(font: ObjectId, da_font: ObjectId, doc: &mut Document, texts: [&str; 3]) {
    let fonts = dictionary! { "F1" => font };
    let form = content(doc, texts[1], dictionary! { "Font" => fonts.clone() }, true);
    let appearance = content(doc, texts[2], dictionary! { "Font" => fonts.clone() }, true);
    let page_content = doc.add_object(Stream::new(
        Dictionary::new(),
        format!("BT /F1 12 Tf 10 50 Td ({}) Tj ET /X1 Do", texts[0]).into_bytes(),
    ));
    let widget = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "T" => Object::string_literal("name"),
        "Rect" => vec![0.into(), 0.into(), 100.into(), 20.into()],
        "DA" => Object::string_literal("/Mono 10 Tf 0 g"),
        "AP" => dictionary! { "N" => appearance },
    });
    one_page(
        doc,
        dictionary! {
            "MediaBox" => vec![0.into(), 0.into(), 200.into(), 200.into()],
            "Contents" => page_content,
            "Resources" => dictionary! { "Font" => fonts, "XObject" => dictionary! { "X1" => form } },
            "Annots" => vec![widget.into()],
        },
        dictionary! {
            "AcroForm" => dictionary! {
                "Fields" => vec![widget.into()],
                "DR" => dictionary! { "Font" => dictionary! { "Mono" => da_font } },
            },
        },
    );
}

fn program(doc: &Document, font: ObjectId) -> (ObjectId, Vec<u8>) {
    let descriptor = doc
        .get_dictionary(font)
        .and_then(|f| f.get(b"FontDescriptor"))
        .and_then(Object::as_reference)
        .expect("descriptor");
    let file = doc
        .get_dictionary(descriptor)
        .and_then(|d| d.get(b"FontFile2"))
        .and_then(Object::as_reference)
        .expect("program");
    let Ok(Object::Stream(stream)) = doc.get_object(file) else {
        panic!("program is not a stream");
    };
    (file, stream.decompressed_content().expect("decodes"))
}

/// Whether the subset still draws `c`, by the glyph ID DejaVu Sans gives it (subsets keep
/// IDs) and through its own `cmap` (which maps no code to a dropped glyph).
fn has_outline(face: &Face, c: char) -> bool {
    struct Count(usize);
    impl ttf_parser::OutlineBuilder for Count {
        fn move_to(&mut self, _: f32, _: f32) {
            self.0 += 1;
        }
        fn line_to(&mut self, _: f32, _: f32) {}
        fn quad_to(&mut self, _: f32, _: f32, _: f32, _: f32) {}
        fn curve_to(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32, _: f32) {}
        fn close(&mut self) {}
    }
    let sans = font_file(SANS).expect("checked by the caller");
    let id = Face::parse(&sans, 0)
        .expect("parses")
        .glyph_index(c)
        .unwrap_or(GlyphId(0));
    let mut count = Count(0);
    face.outline_glyph(id, &mut count);
    count.0 > 0 && face.glyph_index(c) == Some(id)
}

#[test]
fn truetype_keeps_glyphs_of_page_form_and_appearance_and_da_font_whole() {
    let (Some(sans), Some(mono)) = (font_file(SANS), font_file(MONO)) else {
        return;
    };
    let mut doc = Document::with_version("1.7");
    let font = add_font(&mut doc, &sans);
    let da_font = add_font(&mut doc, &mono);
    document(font, da_font, &mut doc, ["Hello", "Frm", "Ant"]);

    assert_eq!(subset(&mut doc), 1);
    let (_, subset) = program(&doc, font);
    assert!(
        subset.len() < sans.len() / 4,
        "{} of {}",
        subset.len(),
        sans.len()
    );
    let face = Face::parse(&subset, 0).expect("subset parses");
    assert_eq!(
        face.number_of_glyphs(),
        Face::parse(&sans, 0).expect("parses").number_of_glyphs()
    );
    for c in "HeloFrmAnt".chars() {
        assert!(has_outline(&face, c), "{c} lost its outline");
    }
    for c in "ZQxyz".chars() {
        assert!(!has_outline(&face, c), "{c} was kept");
    }
    let (_, kept) = program(&doc, da_font);
    assert_eq!(kept, mono, "the /DA font changed");
}

#[test]
fn identical_programs_are_merged_and_subset_once() {
    let Some(sans) = font_file(SANS) else { return };
    let mut doc = Document::with_version("1.7");
    let first = add_font(&mut doc, &sans);
    let second = add_font(&mut doc, &sans);
    // The second copy is stored uncompressed: it is still the same program.
    let (file, _) = program(&doc, second);
    if let Ok(Object::Stream(stream)) = doc.get_object_mut(file) {
        stream.dict.remove(b"Filter");
        stream.set_content(sans.clone());
    }
    let fonts = dictionary! { "F1" => first, "F2" => second };
    let content = doc.add_object(Stream::new(
        Dictionary::new(),
        b"BT /F1 12 Tf (ab) Tj /F2 12 Tf (yz) Tj ET".to_vec(),
    ));
    one_page(
        &mut doc,
        dictionary! {
            "Contents" => content,
            "MediaBox" => vec![0.into(), 0.into(), 200.into(), 200.into()],
            "Resources" => dictionary! { "Font" => fonts },
        },
        Dictionary::new(),
    );

    assert_eq!(subset(&mut doc), 1);
    let (first_file, data) = program(&doc, first);
    let (second_file, _) = program(&doc, second);
    assert_eq!(first_file, second_file);
    let face = Face::parse(&data, 0).expect("subset parses");
    for c in "abyz".chars() {
        assert!(has_outline(&face, c), "{c} lost its outline");
    }
    assert!(!has_outline(&face, 'c'));
}

#[test]
fn fonts_used_in_unreadable_content_stay_whole() {
    let Some(sans) = font_file(SANS) else { return };
    let mut doc = Document::with_version("1.7");
    let font = add_font(&mut doc, &sans);
    // Text shown without any font set: the font it uses cannot be known.
    let content = doc.add_object(Stream::new(Dictionary::new(), b"BT (abc) Tj ET".to_vec()));
    one_page(
        &mut doc,
        dictionary! {
            "Contents" => content,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        },
        Dictionary::new(),
    );
    assert_eq!(subset(&mut doc), 0);
}

#[test]
fn type0_identity_h_keeps_the_glyphs_of_its_cids() {
    let Some(sans) = font_file(SANS) else { return };
    let face = Face::parse(&sans, 0).expect("parses");
    let gid = |c| face.glyph_index(c).expect("glyph").0;
    let shown: Vec<u8> = "Wave".chars().flat_map(|c| gid(c).to_be_bytes()).collect();
    let mut doc = Document::with_version("1.7");
    let mut file = Stream::new(dictionary! {}, sans.clone());
    file.compress().ok();
    let file_id = doc.add_object(file);
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor", "FontName" => "DejaVuSans", "Flags" => 4,
        "FontBBox" => vec![0.into(), 0.into(), 1000.into(), 1000.into()],
        "ItalicAngle" => 0, "Ascent" => 900, "Descent" => -200, "CapHeight" => 700,
        "StemV" => 80, "FontFile2" => file_id,
    });
    let cid_font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => "DejaVuSans",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Identity"), "Supplement" => 0,
        },
        "FontDescriptor" => descriptor, "CIDToGIDMap" => "Identity",
    });
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "DejaVuSans",
        "Encoding" => "Identity-H", "DescendantFonts" => vec![cid_font.into()],
    });
    let mut ops = b"BT /F1 12 Tf <".to_vec();
    ops.extend(shown.iter().flat_map(|b| format!("{b:02X}").into_bytes()));
    ops.extend_from_slice(b"> Tj ET");
    let content = doc.add_object(Stream::new(Dictionary::new(), ops));
    one_page(
        &mut doc,
        dictionary! {
            "Contents" => content,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        },
        Dictionary::new(),
    );

    assert_eq!(subset(&mut doc), 1);
    let Ok(Object::Stream(stream)) = doc.get_object(file_id) else {
        panic!("program is gone");
    };
    let subset = stream.decompressed_content().expect("decodes");
    assert!(subset.len() < sans.len() / 4);
    let face = Face::parse(&subset, 0).expect("subset parses");
    for c in "Wave".chars() {
        assert!(has_outline(&face, c), "{c} lost its outline");
    }
    assert!(!has_outline(&face, 'w'));
}
