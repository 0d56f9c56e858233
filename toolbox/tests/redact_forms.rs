//! Redacting inside forms: a form drawn twice on one page (once under the area) and a form
//! inside a form, each placement judged on its own; and what is drawn whole wherever it is
//! used (a tiling pattern's cell, a soft mask's group) makes the page unsafe when it holds
//! text and reaches an area.
#![allow(clippy::unwrap_used)]

mod redacting;

use lopdf::{Stream, dictionary};
use redacting::build::{Builder, helvetica_width, redaction, run};
use redacting::tools::{self, same_place, words};

#[test]
fn each_placement_of_a_form_is_judged_on_its_own() {
    if !tools::available("each_placement_of_a_form_is_judged_on_its_own") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let helvetica = b.helvetica;
    let fonts = dictionary! { "Font" => dictionary! { "F1" => helvetica } };
    let inner = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), (-5).into(), 300.into(), 20.into()], "Resources" => fonts.clone(),
        },
        b"BT /F1 12 Tf 0 0 Td (Inner Secret Words) Tj ET".to_vec(),
    ));
    // The outer form draws the inner one 30 points above its own text.
    let outer = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), (-5).into(), 300.into(), 60.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => helvetica }, "XObject" => dictionary! { "In" => inner } },
        },
        b"BT /F1 12 Tf 0 0 Td (Outer Secret Words) Tj ET q 1 0 0 1 0 30 cm /In Do Q".to_vec(),
    ));
    b.page(
        "q 1 0 0 1 72 600 cm /Out Do Q q 1 0 0 1 72 300 cm /Out Do Q",
        dictionary! { "XObject" => dictionary! { "Out" => outer } },
    );
    let input = b.save(&dir.path().join("forms.pdf"));
    // "Secret" of the inner form in the upper placement only: y 630.
    let start = 72.0 + helvetica_width("Inner ") * 12.0;
    let end = start + helvetica_width("Secret") * 12.0;
    let (output, report) = run(
        &input,
        &redaction(&[(1, [start - 0.5, 627.0, end + 0.5, 642.0])]),
    );
    assert_eq!(report.glyphs_removed, 6);
    assert!(report.unsafe_pages.is_empty());
    tools::check(&output);
    let (before, after) = (words(&input), words(&output));
    let secrets = |words: &[tools::Word]| words.iter().filter(|w| w.text == "Secret").count();
    assert_eq!((secrets(&before), secrets(&after)), (4, 3));
    let gone = after
        .iter()
        .any(|w| w.text == "Secret" && w.y0 < 792.0 - 627.0 && w.y1 > 792.0 - 642.0);
    assert!(!gone, "{after:?}");
    for word in before
        .iter()
        .filter(|w| w.text != "Secret" || w.y1 < 792.0 - 642.0 || w.y0 > 792.0 - 627.0)
    {
        let kept = after.iter().find(|w| {
            w.text == word.text && (w.y0 - word.y0).abs() < 0.01 && (w.x0 - word.x0).abs() < 0.01
        });
        same_place(word, kept.unwrap_or_else(|| panic!("{word:?} went")));
    }
}

#[test]
fn patterns_and_soft_masks_with_text_make_the_page_unsafe() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let helvetica = b.helvetica;
    let fonts = dictionary! { "Font" => dictionary! { "F1" => helvetica } };
    let cell = b.add(Stream::new(
        dictionary! {
            "Type" => "Pattern", "PatternType" => 1, "PaintType" => 1, "TilingType" => 1,
            "BBox" => vec![0.into(), 0.into(), 100.into(), 20.into()], "XStep" => 100, "YStep" => 20,
            "Resources" => fonts.clone(),
        },
        b"BT /F1 8 Tf 0 5 Td (Secret) Tj ET".to_vec(),
    ));
    let vector_cell = b.add(Stream::new(
        dictionary! {
            "Type" => "Pattern", "PatternType" => 1, "PaintType" => 1, "TilingType" => 1,
            "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()], "XStep" => 10, "YStep" => 10,
        },
        b"0 0 5 5 re f".to_vec(),
    ));
    let group = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Group" => dictionary! { "S" => "Transparency" }, "Resources" => fonts,
        },
        b"1 g 0 0 612 792 re f BT /F1 40 Tf 100 400 Td 0 g (Secret) Tj ET".to_vec(),
    ));
    let masked = b.add(dictionary! {
        "Type" => "ExtGState", "SMask" => dictionary! { "S" => "Luminosity", "G" => group },
    });
    let patterns = dictionary! { "P1" => cell, "P2" => vector_cell };
    b.page(
        "/Pattern cs /P1 scn 50 50 500 200 re f",
        dictionary! { "Pattern" => patterns.clone() },
    );
    b.page(
        "/Pattern cs /P2 scn 50 50 500 200 re f",
        dictionary! { "Pattern" => patterns },
    );
    b.page(
        "q /M gs 0 0 1 rg 0 0 612 792 re f Q",
        dictionary! { "ExtGState" => dictionary! { "M" => masked } },
    );
    let input = b.save(&dir.path().join("cells.pdf"));
    let area = [100.0, 100.0, 200.0, 150.0];
    let (_, report) = run(
        &input,
        &redaction(&[(1, area), (2, area), (3, [90.0, 390.0, 300.0, 450.0])]),
    );
    assert_eq!(report.unsafe_pages, vec![1, 3], "{report:?}");
    assert_eq!(report.paths_covered, 3);
}
