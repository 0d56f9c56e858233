//! Page numbers: at the displayed position (rotated page, CropBox away from 0,0, unbalanced
//! content), Bates numbers where asked, resources that do not clash and shared objects; read
//! back with lopdf and with poppler's pdftotext.
#![allow(clippy::unwrap_used)]

mod stamping;

use lopdf::ObjectId;
use quire_toolbox::stamp::{Numbering, Position, number_pages};
use stamping::marks::numbering;
use stamping::read_back::{category, load, pages, resolve, streams};
use stamping::{line_box, page_text, poppler, sample, words};

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
