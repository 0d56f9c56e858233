//! Redacting text: the covered words leave the file (pdftotext no longer finds them, no
//! decompressed stream holds them) and the words beside them stay where they were (pdftotext
//! -bbox), whether shown by Tj, TJ with kerning, with character and word spacing and
//! horizontal scaling, inside a form drawn on two pages, as an invisible OCR layer, on a
//! turned page, or described by /ActualText.
#![allow(clippy::unwrap_used)]

mod redacting;

use lopdf::{Object, Stream, dictionary};
use redacting::build::{Builder, helvetica_width, redaction, run, string};
use redacting::tools::{self, same_place, word, words};

/// Whether the bytes hold `term` as ASCII (any case) or as the hex the engine writes.
fn leaks(bytes: &[u8], term: &str) -> bool {
    let hex: String = term.bytes().map(|b| format!("{b:02X}")).collect();
    tools::holds(bytes, term) || tools::holds(bytes, &hex)
}

/// The box of `word` on a Helvetica 12 line starting at `x`, baseline `y`, after `before`.
fn area_of(before: &str, word: &str, x: f64, y: f64) -> [f64; 4] {
    let start = x + helvetica_width(before) * 12.0;
    let end = start + helvetica_width(word) * 12.0;
    [start - 0.5, y - 3.0, end + 0.5, y + 10.0]
}

#[test]
fn tj_and_kerned_tj_lose_only_the_covered_word() {
    if !tools::available("tj_and_kerned_tj_lose_only_the_covered_word") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page(
        "BT /F1 12 Tf 72 700 Td (Alpha Secret Omega) Tj ET\n\
         BT /F1 12 Tf 72 650 Td [(Hello) -250 (Hid) 30 (den) -250 (World)] TJ ET\n\
         BT /F1 12 Tf 2 Tc 3 Tw 90 Tz 72 600 Td (Left Middle Right) Tj ET\n\
         BT /F1 12 Tf 72 550 Td (Untouched line) Tj ET\n\
         BT /F1 12 Tf 0 Tc 0 Tw 100 Tz 14 TL 72 500 Td (Start) Tj (Quoted Secret here) ' 2 1 (Double Secret there) \" ET",
        dictionary! {},
    );
    let input = b.save(&dir.path().join("text.pdf"));
    // "Hidden": Hello, a 250 kern, Hid, a -30 kern, den.
    let hid = 72.0 + helvetica_width("Hello") * 12.0 + 3.0;
    let den_end = hid + helvetica_width("Hidden") * 12.0 - 0.36;
    // "Middle" with Tc 2, Tw 3 (on the space), Tz 90.
    let middle = 72.0 + ((helvetica_width("Left ") * 12.0) + 5.0 * 2.0 + 3.0) * 0.9;
    let middle_end = middle + (helvetica_width("Middle") * 12.0 + 6.0 * 2.0) * 0.9;
    // After ' (next line, 14 below) and " (word spacing 2, character spacing 1); Tc, Tw and
    // Tz of the line before are reset first (they outlive text objects).
    let double = 72.0 + helvetica_width("Double ") * 12.0 + 7.0 + 2.0;
    let double_end = double + helvetica_width("Secret") * 12.0 + 6.0;
    let areas = [
        (1, area_of("Quoted ", "Secret", 72.0, 486.0)),
        (1, [double - 0.5, 469.0, double_end - 0.5, 482.0]),
        (1, area_of("Alpha ", "Secret", 72.0, 700.0)),
        (1, [hid - 0.5, 647.0, den_end + 0.5, 660.0]),
        (1, [middle - 0.5, 597.0, middle_end - 1.0, 610.0]),
    ];
    let (output, report) = run(&input, &redaction(&areas));
    assert_eq!(report.glyphs_removed, 6 + 6 + 6 + 6 + 6);
    assert!(report.unsafe_pages.is_empty(), "{report:?}");
    tools::check(&output);
    let text = tools::text(&output, None);
    for gone in ["Secret", "Hid", "den", "Middle"] {
        assert!(!text.contains(gone), "{gone} still in {text}");
    }
    let (before, after) = (words(&input), words(&output));
    for kept in [
        "Quoted",
        "here",
        "Double",
        "there",
        "Start",
        "Alpha",
        "Omega",
        "Hello",
        "World",
        "Left",
        "Right",
        "Untouched",
        "line",
    ] {
        same_place(&word(&before, 1, kept), &word(&after, 1, kept));
    }
    let bytes = tools::qdf(&output);
    for gone in ["Secret", "Hidden", "Middle"] {
        assert!(!leaks(&bytes, gone), "{gone} is still in the file's bytes");
    }
    assert!(!tools::holds(&bytes, "(Hid)") && !tools::holds(&bytes, "(den)"));
}

#[test]
fn a_form_drawn_on_two_pages_is_redacted_on_one_only() {
    if !tools::available("a_form_drawn_on_two_pages_is_redacted_on_one_only") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let helvetica = b.helvetica;
    let form = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), (-5).into(), 300.into(), 20.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => helvetica } },
        },
        b"BT /F1 12 Tf 0 0 Td (Form Secret Text) Tj ET".to_vec(),
    ));
    for _ in 0..2 {
        b.page(
            "q 1 0 0 1 72 500 cm /Fm Do Q",
            dictionary! { "XObject" => dictionary! { "Fm" => form } },
        );
    }
    let input = b.save(&dir.path().join("form.pdf"));
    let (output, report) = run(
        &input,
        &redaction(&[(1, area_of("Form ", "Secret", 72.0, 500.0))]),
    );
    assert_eq!(report.glyphs_removed, 6);
    assert!(report.unsafe_pages.is_empty());
    tools::check(&output);
    assert!(!tools::text(&output, Some(1)).contains("Secret"));
    assert!(tools::text(&output, Some(2)).contains("Form Secret Text"));
    let (before, after) = (words(&input), words(&output));
    same_place(&word(&before, 1, "Text"), &word(&after, 1, "Text"));
    same_place(&word(&before, 2, "Secret"), &word(&after, 2, "Secret"));
    // Page 2 still draws the original form, page 1 a copy.
    let doc = lopdf::Document::load(&output).unwrap();
    let pages: Vec<_> = doc.get_pages().into_values().collect();
    let form_of = |page| {
        let resources = doc.get_dictionary(page).unwrap().get(b"Resources").unwrap();
        let (_, resources) = doc.dereference(resources).unwrap();
        let xobjects = resources.as_dict().unwrap().get(b"XObject").unwrap();
        let (_, xobjects) = doc.dereference(xobjects).unwrap();
        xobjects
            .as_dict()
            .unwrap()
            .iter()
            .map(|(_, v)| v.as_reference().unwrap())
            .collect::<Vec<_>>()
    };
    let (first, second) = (form_of(pages[0]), form_of(pages[1]));
    assert_eq!(second.len(), 1);
    assert!(
        first.iter().any(|id| !second.contains(id)),
        "page 1 draws a copy"
    );
}

#[test]
fn an_invisible_ocr_layer_goes_with_the_pixels_under_it() {
    if !tools::available("an_invisible_ocr_layer_goes_with_the_pixels_under_it") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    // A grey 200 x 100 "scan", one sample per point.
    let pixels: Vec<u8> = (0..100)
        .flat_map(|_| (0..200).map(|x| (x % 200) as u8 + 40))
        .collect();
    let image = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 200, "Height" => 100,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        pixels,
    ));
    b.page(
        "q 200 0 0 100 72 400 cm /Im Do Q\n\
         BT 3 Tr /F1 12 Tf 80 440 Td (Scanned Secret Words) Tj ET",
        dictionary! { "XObject" => dictionary! { "Im" => image } },
    );
    let input = b.save(&dir.path().join("ocr.pdf"));
    let area = area_of("Scanned ", "Secret", 80.0, 440.0);
    let (output, report) = run(&input, &redaction(&[(1, area)]));
    assert_eq!((report.glyphs_removed, report.images_redacted), (6, 1));
    tools::check(&output);
    let text = tools::text(&output, None);
    assert!(!text.contains("Secret") && text.contains("Scanned") && text.contains("Words"));
    assert!(!leaks(&tools::qdf(&output), "Secret"));
    // The image drawn now: painted black inside the area, as it was elsewhere.
    // One image left, the painted copy: the original went with the save.
    let doc = lopdf::Document::load(&output).unwrap();
    let images: Vec<_> = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| s.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image"))
        .collect();
    assert_eq!(images.len(), 1);
    let painted = images[0];
    let data = painted.decompressed_content().unwrap();
    assert_eq!(data.len(), 200 * 100);
    for y in 0..100usize {
        for x in 0..200usize {
            // The pixel's centre on the page.
            let (px, py) = (72.0 + x as f64 + 0.5, 400.0 + (99 - y) as f64 + 0.5);
            let inside = px >= area[0] && px <= area[2] && py >= area[1] && py <= area[3];
            let value = data[y * 200 + x];
            if inside {
                assert_eq!(value, 0, "pixel {x},{y} inside");
            } else {
                assert_eq!(value, (x % 200) as u8 + 40, "pixel {x},{y} outside");
            }
        }
    }
}

#[test]
fn a_turned_page_is_redacted_in_its_user_space() {
    if !tools::available("a_turned_page_is_redacted_in_its_user_space") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page_with(
        b"BT /F1 12 Tf 72 700 Td (Alpha Secret Omega) Tj ET\nBT /F1 12 Tf 0 1 -1 0 300 100 Tm (Up the Secret page) Tj ET",
        dictionary! {},
        dictionary! { "Rotate" => 90 },
    );
    let input = b.save(&dir.path().join("turned.pdf"));
    // The second line runs up the page from (300, 100): "Secret" spans y from 100 + "Up the ".
    let up = 100.0 + helvetica_width("Up the ") * 12.0;
    let up_end = up + helvetica_width("Secret") * 12.0;
    // After ' (next line, 14 below) and " (word spacing 2, character spacing 1); Tc, Tw and
    // Tz of the line before are reset first (they outlive text objects).
    let double = 72.0 + helvetica_width("Double ") * 12.0 + 7.0 + 2.0;
    let double_end = double + helvetica_width("Secret") * 12.0 + 6.0;
    let areas = [
        (1, area_of("Quoted ", "Secret", 72.0, 486.0)),
        (1, [double - 0.5, 469.0, double_end - 0.5, 482.0]),
        (1, area_of("Alpha ", "Secret", 72.0, 700.0)),
        (1, [290.0, up - 0.5, 303.0, up_end + 0.5]),
    ];
    let mut options = redaction(&areas);
    options.label = Some("REDACTED".into());
    let (output, report) = run(&input, &options);
    assert_eq!(report.glyphs_removed, 12);
    tools::check(&output);
    let text = tools::text(&output, None);
    assert!(!text.contains("Secret"), "{text}");
    let (before, after) = (words(&input), words(&output));
    for kept in ["Alpha", "Omega", "Up", "the", "page"] {
        same_place(&word(&before, 1, kept), &word(&after, 1, kept));
    }
    // The label reads upright on the displayed page, wider than high, in the box that runs
    // across the displayed page; the other box stands too narrow for it.
    let labels: Vec<_> = after.iter().filter(|w| w.text == "REDACTED").collect();
    assert_eq!(labels.len(), 1, "{after:?}");
    assert!(
        labels[0].x1 - labels[0].x0 > labels[0].y1 - labels[0].y0,
        "{:?}",
        labels[0]
    );
}

#[test]
fn actual_text_of_a_sequence_that_lost_glyphs_goes() {
    if !tools::available("actual_text_of_a_sequence_that_lost_glyphs_goes") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let properties =
        b.add(dictionary! { "ActualText" => string("Named Classified"), "Lang" => string("en") });
    b.page(
        "/Span <</ActualText (Hush Secret) /MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Alpha Secret Omega) Tj ET EMC\n\
         /Span /P1 BDC BT /F1 12 Tf 72 600 Td (Other Classified) Tj ET EMC\n\
         /Span <</ActualText (Kept words)>> BDC BT /F1 12 Tf 72 500 Td (Kept words) Tj ET EMC",
        dictionary! { "Properties" => dictionary! { "P1" => properties } },
    );
    let input = b.save(&dir.path().join("actual.pdf"));
    // After ' (next line, 14 below) and " (word spacing 2, character spacing 1); Tc, Tw and
    // Tz of the line before are reset first (they outlive text objects).
    let double = 72.0 + helvetica_width("Double ") * 12.0 + 7.0 + 2.0;
    let double_end = double + helvetica_width("Secret") * 12.0 + 6.0;
    let areas = [
        (1, area_of("Quoted ", "Secret", 72.0, 486.0)),
        (1, [double - 0.5, 469.0, double_end - 0.5, 482.0]),
        (1, area_of("Alpha ", "Secret", 72.0, 700.0)),
        (1, area_of("Other ", "Classified", 72.0, 600.0)),
    ];
    let (output, _) = run(&input, &redaction(&areas));
    let bytes = tools::qdf(&output);
    for gone in ["Secret", "Hush", "Classified"] {
        assert!(!leaks(&bytes, gone), "{gone} is still in the file");
    }
    assert!(tools::holds(&bytes, "/ActualText (Kept words)"));
    assert!(tools::holds(&bytes, "/Lang (en)"));
    let text = tools::text(&output, None);
    assert!(text.contains("Alpha") && text.contains("Other") && text.contains("Kept words"));
}

#[test]
fn paths_inside_go_paths_across_stay() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page(
        "0 0 1 rg 100 100 20 20 re f\n\
         q 2 0 0 2 0 0 cm 60 60 m 70 60 l 70 70 l h S Q\n\
         50 50 200 10 re f\n\
         100 100 m 110 110 l 300 300 l S\n\
         100 300 m 110 310 l S 105 305 m 300 300 l S",
        dictionary! {},
    );
    let input = b.save(&dir.path().join("paths.pdf"));
    let (output, report) = run(
        &input,
        &redaction(&[
            (1, [90.0, 90.0, 150.0, 150.0]),
            (1, [90.0, 290.0, 150.0, 320.0]),
        ]),
    );
    // The square, the doubled triangle (120..140) and the short stroke go; the long bar
    // misses the areas, the diagonal and the second stroke cross them.
    assert_eq!(
        (report.paths_removed, report.paths_covered),
        (3, 2),
        "{report:?}"
    );
    let doc = lopdf::Document::load(&output).unwrap();
    let page = doc.get_pages()[&1];
    let content = String::from_utf8_lossy(&doc.get_page_content(page)).into_owned();
    assert!(!content.contains("100 100 20 20 re"));
    assert!(!content.contains("60 60 m"));
    assert!(content.contains("50 50 200 10 re"));
    assert!(content.contains("110 110 l"));
    assert!(!content.contains("110 310 l"));
    assert!(content.contains("105 305 m"));
}

#[test]
fn content_that_does_not_parse_makes_the_page_unsafe() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page("BT /F1 12 Tf 72 700 Td (Secret Tj ET", dictionary! {});
    b.page("BT /F1 12 Tf 72 700 Td (Fine) Tj ET", dictionary! {});
    let input = b.save(&dir.path().join("broken.pdf"));
    let (output, report) = run(
        &input,
        &redaction(&[(1, [0.0, 0.0, 600.0, 800.0]), (2, [0.0, 0.0, 10.0, 10.0])]),
    );
    assert_eq!(report.unsafe_pages, vec![1]);
    let doc = lopdf::Document::load(&output).unwrap();
    assert_eq!(doc.get_pages().len(), 2);
}
