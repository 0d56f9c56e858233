//! Redacting text in fonts that are not one byte per glyph of a standard font: a Type 0 font
//! with Identity-H (DejaVu Sans, embedded by the watermark tool), and Type 3
//! fonts whose glyph space is not a thousandth of text space. Judged by pdftotext: the word
//! goes, its neighbours stay in place.
#![allow(clippy::unwrap_used)]

mod redacting;

use std::path::Path;

use lopdf::{Object, Stream, dictionary};
use quire_toolbox::stamp::{Mark, Position, Watermark, watermark};
use redacting::build::{Builder, redaction, run};
use redacting::tools::{self, same_place, word, words};

const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/// A displayed box (pdftotext -bbox, from the top-left of an unturned Letter page) in user
/// space, shrunk by a point so that only the word's own glyphs are inside.
fn user_box(w: &tools::Word) -> [f64; 4] {
    [
        w.x0 + 1.0,
        792.0 - w.y1 + 1.0,
        w.x1 - 1.0,
        792.0 - w.y0 - 1.0,
    ]
}

#[test]
fn identity_h_text_in_an_embedded_font() {
    if !tools::available("identity_h_text_in_an_embedded_font") || !Path::new(DEJAVU).exists() {
        eprintln!("note: skipped (tools or {DEJAVU} missing)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page(
        "BT /F1 12 Tf 72 700 Td (A page with a stamp) Tj ET",
        dictionary! {},
    );
    let plain = b.save(&dir.path().join("plain.pdf"));
    let input = dir.path().join("stamped.pdf");
    let mark = Watermark {
        mark: Mark::Text {
            text: "Привет Секрет мир".into(),
            size: 30.0,
            rgb: [200, 0, 0],
            font: Some(DEJAVU.into()),
        },
        opacity: 1.0,
        rotation: 0.0,
        position: Some(Position::Center),
        pages: None,
        behind: false,
    };
    watermark(&plain, &mark, &input).unwrap();
    let before = words(&input);
    let secret = word(&before, 1, "Секрет");
    let (output, report) = run(&input, &redaction(&[(1, user_box(&secret))]));
    assert_eq!(report.glyphs_removed, 6, "{report:?}");
    assert!(report.unsafe_pages.is_empty(), "{report:?}");
    tools::check(&output);
    let after = words(&output);
    assert!(!tools::text(&output, None).contains("Секрет"));
    for kept in ["Привет", "мир", "stamp"] {
        same_place(&word(&before, 1, kept), &word(&after, 1, kept));
    }
}

/// A Type 3 font drawing each of a..z and the space as a box, its glyph space a hundredth of
/// text space.
fn type3(b: &mut Builder) -> lopdf::ObjectId {
    let mut procs = lopdf::Dictionary::new();
    let mut differences = vec![Object::Integer(32), "space".into()];
    let mut widths = vec![Object::Integer(30)];
    differences.push(Object::Integer(97));
    for letter in 'a'..='z' {
        let proc = b.add(Stream::new(
            dictionary! {},
            b"60 0 0 0 50 70 d1 5 0 45 70 re f".to_vec(),
        ));
        procs.set(letter.to_string(), proc);
        differences.push(Object::Name(letter.to_string().into_bytes()));
    }
    let space = b.add(Stream::new(dictionary! {}, b"30 0 d0".to_vec()));
    procs.set("space", space);
    // Codes 32 to 122: the space, then nothing until a..z.
    widths.extend((33..97).map(|_| Object::Integer(0)));
    widths.extend((97..=122).map(|_| Object::Integer(60)));
    b.add(dictionary! {
        "Type" => "Font", "Subtype" => "Type3",
        "FontBBox" => vec![0.into(), 0.into(), 60.into(), 70.into()],
        "FontMatrix" => vec![0.01.into(), 0.into(), 0.into(), 0.01.into(), 0.into(), 0.into()],
        "CharProcs" => procs, "FirstChar" => 32, "LastChar" => 122, "Widths" => widths,
        "Encoding" => dictionary! { "Type" => "Encoding", "Differences" => differences },
        "Resources" => dictionary! {},
    })
}

#[test]
fn type3_glyphs_measured_through_their_font_matrix() {
    if !tools::available("type3_glyphs_measured_through_their_font_matrix") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let font = type3(&mut b);
    // Each letter advances 0.6 x 20 = 12 pt, the space 6 pt.
    b.page(
        "BT /T3 20 Tf 72 600 Td (abc def ghi) Tj ET",
        dictionary! { "Font" => dictionary! { "T3" => font } },
    );
    let input = b.save(&dir.path().join("type3.pdf"));
    let before = words(&input);
    assert!(tools::text(&input, None).contains("abc def ghi"));
    // "def" from 72 + 3 x 12 + 6 = 114 to 150.
    let (output, report) = run(&input, &redaction(&[(1, [113.0, 598.0, 151.0, 615.0])]));
    assert_eq!(report.glyphs_removed, 3);
    tools::check(&output);
    let after = words(&output);
    assert!(!tools::text(&output, None).contains("def"));
    for kept in ["abc", "ghi"] {
        same_place(&word(&before, 1, kept), &word(&after, 1, kept));
    }
}
