//! The compaction on a CID-keyed font made from URW's Nimbus Sans (a name-keyed CFF laid
//! out again with a ROS, CIDs `2 × glyph + 10`, and two font DICTs taking turns).

use lopdf::{Document, Object, ObjectId, Stream, dictionary};
use ttf_parser::GlyphId;

use super::read::{self, dict, integer};
use super::{Font, compact};
use crate::fonts::program::{outline, table};
use crate::fonts::type1::cff::{charset, dict_int, dict_offset, dict_op, index};

const NIMBUS: &str = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf";

fn cid(glyph: u16) -> u16 {
    glyph * 2 + 10
}

/// Nimbus Sans' CFF as a CID-keyed font, or `None` when the font is not installed.
fn cid_keyed() -> Option<Vec<u8>> {
    let Ok(otf) = std::fs::read(NIMBUS) else {
        eprintln!("skipped: {NIMBUS} missing (apt-get install fonts-urw-base35)");
        return None;
    };
    let cff = table(&otf, b"CFF ").expect("a CFF table").to_vec();
    let header = usize::from(cff[2]);
    let name = read::index(&cff, header).expect("names");
    let tops = read::index(&cff, name.end).expect("top");
    let top = dict(&cff[tops.items[0].clone()]).expect("top dict");
    let strings = read::index(&cff, tops.end).expect("strings");
    let global_subrs = read::index(&cff, strings.end).expect("global subrs");
    let glyphs = read::index(&cff, integer(&top, 17, 0).expect("charstrings")).expect("index");
    let (size, at) = (
        integer(&top, 18, 0).expect("size"),
        integer(&top, 18, 1).expect("offset"),
    );
    let private = dict(&cff[at..at + size]).expect("private");
    let end = match integer(&private, 19, 0) {
        Some(relative) => read::index(&cff, at + relative).expect("subrs").end,
        None => at + size,
    };

    let count = glyphs.items.len() as u16;
    let mut names: Vec<Vec<u8>> = strings
        .items
        .iter()
        .map(|r| cff[r.clone()].to_vec())
        .collect();
    let adobe = 391 + names.len() as i32;
    names.extend([b"Adobe".to_vec(), b"Identity".to_vec()]);
    let charset = charset(&(1..count).map(cid).collect::<Vec<_>>());
    let mut fd_select = vec![0u8];
    fd_select.extend((0..count).map(|g| (g % 2) as u8));
    let char_strings = index(
        &glyphs
            .items
            .iter()
            .map(|r| &cff[r.clone()])
            .collect::<Vec<_>>(),
    );
    let top_dict = |offsets: [usize; 4]| {
        let mut out = Vec::new();
        for value in [adobe, adobe + 1, 0] {
            dict_int(&mut out, value);
        }
        dict_op(&mut out, 1230);
        dict_int(&mut out, i32::from(cid(count)));
        dict_op(&mut out, 1234);
        for entry in top
            .iter()
            .filter(|e| ![15, 16, 17, 18].contains(&e.operator))
        {
            out.extend_from_slice(entry.operands);
            dict_op(&mut out, entry.operator);
        }
        for (value, op) in offsets.into_iter().zip([15, 17, 1236, 1237]) {
            dict_offset(&mut out, value);
            dict_op(&mut out, op);
        }
        out
    };
    let font_dict = |at: usize| {
        let mut out = Vec::new();
        dict_offset(&mut out, size);
        dict_offset(&mut out, at);
        dict_op(&mut out, 18);
        out
    };
    let names_index = index(&names);
    let mut layout = header
        + (name.end - name.start)
        + index(&[top_dict([0; 4])]).len()
        + names_index.len()
        + (global_subrs.end - global_subrs.start);
    let charset_at = layout;
    layout += charset.len();
    let fd_select_at = layout;
    layout += fd_select.len();
    let char_strings_at = layout;
    layout += char_strings.len();
    let fd_array_at = layout;
    layout += index(&[font_dict(0), font_dict(0)]).len();
    let mut out = cff[..header].to_vec();
    out.extend_from_slice(&cff[name.start..name.end]);
    out.extend(index(&[top_dict([
        charset_at,
        char_strings_at,
        fd_array_at,
        fd_select_at,
    ])]));
    out.extend(names_index);
    out.extend_from_slice(&cff[global_subrs.start..global_subrs.end]);
    out.extend(charset);
    out.extend(fd_select);
    out.extend(char_strings);
    out.extend(index(&[font_dict(layout), font_dict(layout)]));
    out.extend_from_slice(&cff[at..end]);
    Some(out)
}

#[test]
fn only_the_kept_glyphs_stay_each_with_its_cid_font_dict_and_outline() {
    let Some(font) = cid_keyed() else { return };
    let whole = ttf_parser::cff::Table::parse(&font).expect("the made font parses");
    assert_eq!(whole.glyph_cid(GlyphId(7)), Some(cid(7)));
    let keep = [5u16, 6, 40];
    let (out, cids) = compact(&font, &keep).expect("compacted");
    assert_eq!(cids, vec![0, cid(5), cid(6), cid(40)]);
    // The subroutines stay whole (the subsetter before it blanks what no kept glyph calls).
    assert!(
        out.len() * 2 < font.len(),
        "{} of {}",
        out.len(),
        font.len()
    );
    let table = ttf_parser::cff::Table::parse(&out).expect("parses");
    assert_eq!(table.number_of_glyphs(), 4);
    for (new, old) in [0u16, 5, 6, 40].into_iter().enumerate() {
        let new = GlyphId(new as u16);
        assert_eq!(
            table.glyph_cid(new),
            Some(if old == 0 { 0 } else { cid(old) })
        );
        let drawn = outline(|b| table.outline(new, b).ok());
        assert_eq!(drawn, outline(|b| whole.outline(GlyphId(old), b).ok()));
        assert!(old == 0 || !drawn.1.is_empty(), "glyph {old} draws nothing");
    }
    let read = Font::read(&out).expect("reads");
    assert_eq!(read.fds, vec![0, 1, 0, 0]);
}

#[test]
fn fonts_it_cannot_compact_come_back_as_none() {
    let Some(font) = cid_keyed() else { return };
    let all: Vec<u16> = (0..1000).collect();
    assert!(compact(&font, &all).is_none(), "nothing to drop");
    let otf = std::fs::read(NIMBUS).expect("installed");
    let named = table(&otf, b"CFF ").expect("cff");
    assert!(compact(named, &[5]).is_none(), "a name-keyed font");
    // Damaged: cut anywhere, or a byte changed, never a panic.
    for cut in (0..font.len()).step_by(97) {
        let _ = compact(&font[..cut], &[5]);
    }
    for at in (0..600.min(font.len())).step_by(7) {
        let mut bad = font.clone();
        bad[at] ^= 0x55;
        let _ = compact(&bad, &[5, 6]);
    }
}

/// A Type 0 font over the CID-keyed font, its descriptor with a /CIDSet of every CID.
fn type0(doc: &mut Document, program: ObjectId) -> ObjectId {
    let set = doc.add_object(Stream::new(dictionary! {}, vec![0xff; 200]));
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor", "FontName" => "NimbusSans", "Flags" => 32,
        "FontBBox" => vec![0.into(), 0.into(), 1000.into(), 1000.into()],
        "ItalicAngle" => 0, "Ascent" => 900, "Descent" => -200, "CapHeight" => 700,
        "StemV" => 80, "FontFile3" => program, "CIDSet" => set,
    });
    let cid_font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "NimbusSans",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("Identity"), "Supplement" => 0,
        },
        "FontDescriptor" => descriptor,
    });
    doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "NimbusSans",
        "Encoding" => "Identity-H", "DescendantFonts" => vec![Object::Reference(cid_font)],
    })
}

#[test]
fn a_pdf_keeps_the_cids_it_shows_and_its_cid_set_says_which() {
    let Some(font) = cid_keyed() else { return };
    let mut doc = Document::with_version("1.7");
    let program = doc.add_object(Stream::new(
        dictionary! { "Subtype" => "CIDFontType0C" },
        font.clone(),
    ));
    let type0 = type0(&mut doc, program);
    let shown = [cid(36), cid(37), cid(38)];
    let hex: String = shown.iter().map(|c| format!("{c:04X}")).collect();
    let content = doc.add_object(Stream::new(
        dictionary! {},
        format!("BT /F1 12 Tf 72 700 Td <{hex}> Tj ET").into_bytes(),
    ));
    crate::test_pdf::one_page(
        &mut doc,
        dictionary! {
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Contents" => content,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => type0 } },
        },
        dictionary! {},
    );
    assert_eq!(crate::fonts::tests::subset(&mut doc), 1);
    let stream = doc
        .get_object(program)
        .and_then(Object::as_stream)
        .expect("program");
    let table = ttf_parser::cff::Table::parse(&stream.content).expect("parses");
    assert_eq!(table.number_of_glyphs(), 4);
    let cids: Vec<u16> = (0..4)
        .map(|g| table.glyph_cid(GlyphId(g)).expect("a cid"))
        .collect();
    assert_eq!(cids, [0, shown[0], shown[1], shown[2]]);
    let descriptor = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .find(|d| d.has(b"FontFile3"))
        .expect("descriptor");
    let set = descriptor
        .get(b"CIDSet")
        .and_then(Object::as_reference)
        .and_then(|id| doc.get_object(id))
        .and_then(Object::as_stream)
        .expect("a CIDSet");
    let mut expected = vec![0u8; usize::from(shown[2]) / 8 + 1];
    for c in [0, shown[0], shown[1], shown[2]] {
        expected[usize::from(c) / 8] |= 0x80 >> (c % 8);
    }
    assert_eq!(set.content, expected);
}
