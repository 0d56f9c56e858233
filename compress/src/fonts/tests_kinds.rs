//! Whole-document tests for programs stored in odd ways: a TrueType Collection, a TrueType
//! declared as CFF, a Type 0 font whose /DescendantFonts and /W are objects of their own.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};
use ttf_parser::{Face, GlyphId};

use super::tests::{MONO, SANS, font_file, subset};
use crate::test_pdf::one_page;

/// A TrueType Collection of `fonts`, each face's tables copied after the header as they are.
fn collection(fonts: &[&[u8]]) -> Vec<u8> {
    let mut out = b"ttcf".to_vec();
    out.extend(0x0001_0000u32.to_be_bytes());
    out.extend((fonts.len() as u32).to_be_bytes());
    let mut offsets = Vec::new();
    let mut offset = 12 + 4 * fonts.len();
    for font in fonts {
        offsets.push(offset);
        offset += font.len().next_multiple_of(4);
    }
    for at in &offsets {
        out.extend((*at as u32).to_be_bytes());
    }
    for (font, &at) in fonts.iter().zip(&offsets) {
        let mut font = font.to_vec();
        let count = usize::from(u16::from_be_bytes([font[4], font[5]]));
        // Table offsets in a collection count from the start of the file.
        for i in 0..count {
            let field = 12 + 16 * i + 8;
            let moved =
                u32::from_be_bytes(font[field..field + 4].try_into().expect("4 bytes")) + at as u32;
            font[field..field + 4].copy_from_slice(&moved.to_be_bytes());
        }
        out.extend(font);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

fn descriptor(doc: &mut Document, name: &str, key: &str, file: ObjectId) -> ObjectId {
    doc.add_object(dictionary! {
        "Type" => "FontDescriptor", "FontName" => name, "Flags" => 32,
        "FontBBox" => vec![0.into(), 0.into(), 1000.into(), 1000.into()],
        "ItalicAngle" => 0, "Ascent" => 900, "Descent" => -200, "CapHeight" => 700,
        "StemV" => 80, key => file,
    })
}

/// One page showing `ops` with its only font, /F1.
fn page(doc: &mut Document, font: ObjectId, ops: &[u8]) {
    let content = doc.add_object(Stream::new(Dictionary::new(), ops.to_vec()));
    one_page(
        doc,
        dictionary! {
            "MediaBox" => vec![0.into(), 0.into(), 200.into(), 200.into()],
            "Contents" => content,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        },
        Dictionary::new(),
    );
}

fn program(doc: &Document, id: ObjectId) -> Vec<u8> {
    let Ok(Object::Stream(stream)) = doc.get_object(id) else {
        panic!("program is gone");
    };
    stream.decompressed_content().expect("decodes")
}

/// A document showing "Hello" with a WinAnsi TrueType font named `name`, its program the
/// collection of DejaVu Sans and DejaVu Sans Mono; the program's id.
fn collection_document(doc: &mut Document, name: &str, ttc: &[u8]) -> ObjectId {
    let file = doc.add_object(Stream::new(
        dictionary! { "Length1" => ttc.len() as i64 },
        ttc.to_vec(),
    ));
    let descriptor = descriptor(doc, name, "FontFile2", file);
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => name,
        "Encoding" => "WinAnsiEncoding", "FontDescriptor" => descriptor,
    });
    page(doc, font, b"BT /F1 12 Tf (Hello) Tj ET");
    file
}

#[test]
fn collection_is_cut_to_its_first_face_when_the_font_names_it() {
    let (Some(sans), Some(mono)) = (font_file(SANS), font_file(MONO)) else {
        return;
    };
    let ttc = collection(&[&mono, &sans]);
    let mut doc = Document::with_version("1.7");
    let file = collection_document(&mut doc, "ABCDEF+DejaVuSansMono", &ttc);
    assert_eq!(subset(&mut doc), 1);
    let out = program(&doc, file);
    assert!(!out.starts_with(b"ttcf"), "still a collection");
    assert!(
        out.len() < mono.len() / 4,
        "{} of {}",
        out.len(),
        mono.len()
    );
    let face = Face::parse(&out, 0).expect("a plain TrueType");
    let whole = Face::parse(&mono, 0).expect("parses");
    assert_eq!(face.number_of_glyphs(), whole.number_of_glyphs());
    let draws = |c| {
        let id = whole.glyph_index(c).unwrap_or(GlyphId(0));
        face.outline_glyph(id, &mut Nothing).is_some()
    };
    assert!("Helo".chars().all(draws), "a shown glyph was lost");
    assert!(!draws('Z'), "a glyph not shown was kept");
    let length = doc
        .get_object(file)
        .and_then(Object::as_stream)
        .expect("stream");
    assert_eq!(
        length.dict.get(b"Length1").and_then(Object::as_i64).ok(),
        Some(out.len() as i64)
    );
}

#[test]
fn collection_stays_whole_unless_its_first_face_is_named() {
    let (Some(sans), Some(mono)) = (font_file(SANS), font_file(MONO)) else {
        return;
    };
    let ttc = collection(&[&mono, &sans]);
    // No face named: which face a viewer draws is unknown. The second face named: most
    // viewers draw the first one all the same.
    for name in ["Helvetica", "DejaVuSans"] {
        let mut doc = Document::with_version("1.7");
        let file = collection_document(&mut doc, name, &ttc);
        subset(&mut doc);
        assert_eq!(program(&doc, file), ttc, "{name}");
    }
}

struct Nothing;
impl ttf_parser::OutlineBuilder for Nothing {
    fn move_to(&mut self, _: f32, _: f32) {}
    fn line_to(&mut self, _: f32, _: f32) {}
    fn quad_to(&mut self, _: f32, _: f32, _: f32, _: f32) {}
    fn curve_to(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32, _: f32) {}
    fn close(&mut self) {}
}

/// An Identity-H Type 0 font over DejaVu Sans; `file` goes in the descriptor under `key`.
/// Its /DescendantFonts and the CID font's /W (a width for each of the first 300 CIDs) are
/// objects of their own. Returns (font, CID font).
fn type0(doc: &mut Document, subtype: &str, key: &str, file: ObjectId) -> (ObjectId, ObjectId) {
    let descriptor = descriptor(doc, "DejaVuSans", key, file);
    let widths = doc.add_object(vec![
        Object::Integer(0),
        Object::Array((0..300).map(|w| Object::Integer(500 + w)).collect()),
    ]);
    let cid_font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => subtype, "BaseFont" => "DejaVuSans",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Identity"), "Supplement" => 0,
        },
        "FontDescriptor" => descriptor, "W" => widths,
    });
    let descendants = doc.add_object(vec![Object::Reference(cid_font)]);
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "DejaVuSans",
        "Encoding" => "Identity-H", "DescendantFonts" => descendants,
    });
    (font, cid_font)
}

/// Shows "Wave" by DejaVu Sans' glyph IDs; returns them.
fn show_wave(doc: &mut Document, font: ObjectId, sans: &[u8]) -> Vec<u16> {
    let face = Face::parse(sans, 0).expect("parses");
    let gids: Vec<u16> = "Wave"
        .chars()
        .map(|c| face.glyph_index(c).expect("glyph").0)
        .collect();
    let hex: String = gids.iter().map(|g| format!("{g:04X}")).collect();
    page(doc, font, format!("BT /F1 12 Tf <{hex}> Tj ET").as_bytes());
    gids
}

#[test]
fn truetype_declared_as_cff_is_read_by_its_bytes_and_subset() {
    let Some(sans) = font_file(SANS) else { return };
    let mut doc = Document::with_version("1.7");
    let file = doc.add_object(Stream::new(
        dictionary! { "Subtype" => "CIDFontType0C" },
        sans.clone(),
    ));
    let (font, _) = type0(&mut doc, "CIDFontType0", "FontFile3", file);
    let gids = show_wave(&mut doc, font, &sans);
    assert_eq!(subset(&mut doc), 1);
    let out = program(&doc, file);
    assert!(
        out.len() < sans.len() / 4,
        "{} of {}",
        out.len(),
        sans.len()
    );
    let face = Face::parse(&out, 0).expect("still a TrueType");
    for g in gids {
        assert!(face.outline_glyph(GlyphId(g), &mut Nothing).is_some());
    }
    // The subset's cmap no longer lists glyphs not kept: looked up in the original.
    let whole = Face::parse(&sans, 0).expect("parses");
    let w = whole.glyph_index('w').expect("glyph");
    assert!(face.outline_glyph(w, &mut Nothing).is_none(), "w was kept");
}

#[test]
fn widths_are_cut_when_descendants_and_w_are_indirect() {
    let Some(sans) = font_file(SANS) else { return };
    let mut doc = Document::with_version("1.7");
    let file = doc.add_object(Stream::new(dictionary! {}, sans.clone()));
    let (font, cid_font) = type0(&mut doc, "CIDFontType2", "FontFile2", file);
    let mut gids = show_wave(&mut doc, font, &sans);
    subset(&mut doc);
    let w = doc
        .get_dictionary(cid_font)
        .and_then(|d| d.get(b"W"))
        .and_then(|o| doc.dereference(o))
        .and_then(|(_, o)| o.as_array())
        .expect("a /W array")
        .clone();
    // Every CID shown keeps its width (500 + CID), and only those.
    let mut kept = Vec::new();
    for pair in w.chunks(2) {
        let first = pair[0].as_i64().expect("cid");
        for (n, width) in pair[1].as_array().expect("widths").iter().enumerate() {
            let cid = first + n as i64;
            assert_eq!(width.as_i64().expect("width"), 500 + cid);
            kept.push(cid as u16);
        }
    }
    gids.sort_unstable();
    gids.dedup();
    assert_eq!(kept, gids);
}
