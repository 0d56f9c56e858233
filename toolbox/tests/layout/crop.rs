//! Cropping by margins and to given boxes.

use std::process::Command;

use quire_toolbox::ToolError;
use quire_toolbox::layout::{Margins, crop, crop_to_boxes};

use crate::fixture::{PAGES, close, close_box, load, own_box, page_ids, sample, shown};

const MARGINS: Margins = Margins {
    top: 10.0,
    right: 20.0,
    bottom: 30.0,
    left: 40.0,
};

/// Each page's displayed size as `pdfinfo` reports it: "Page N size: W x H pts" is the
/// crop box, turned by "Page N rot".
fn displayed_sizes(pdf: &std::path::Path, pages: usize) -> Vec<(f64, f64)> {
    let output = Command::new("pdfinfo")
        .args(["-f", "1", "-l", &pages.to_string(), "-box"])
        .arg(pdf)
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let field = |page: usize, name: &str| -> Vec<f64> {
        let prefix = format!("Page {page:>4} {name}:");
        let line = text.lines().find(|l| l.starts_with(&prefix)).unwrap();
        line[prefix.len()..]
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    (1..=pages)
        .map(|page| {
            let crop = field(page, "CropBox");
            let (w, h) = (crop[2] - crop[0], crop[3] - crop[1]);
            if field(page, "rot")[0] == 90.0 {
                (h, w)
            } else {
                (w, h)
            }
        })
        .collect()
}

#[test]
fn margins_shrink_every_displayed_page_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("cropped.pdf");
    let written = crop(&input, MARGINS, None, &output).unwrap();
    assert_eq!(written.pages, 5);
    for (i, (w, h)) in displayed_sizes(&output, 5).into_iter().enumerate() {
        let (want_w, want_h) = shown(i);
        assert!(close(w, want_w - 60.0, 0.02), "page {}: width {w}", i + 1);
        assert!(close(h, want_h - 40.0, 0.02), "page {}: height {h}", i + 1);
    }
    let doc = load(&output);
    let ids = page_ids(&doc);
    // Page 4 is turned 90 degrees clockwise: its displayed top is the box's left side, its
    // displayed left the box's bottom.
    let rotated = own_box(&doc, ids[3], b"CropBox").unwrap();
    assert!(
        close_box(rotated, [10.0, 40.0, 582.0, 772.0], 0.01),
        "{rotated:?}"
    );
    // Page 5's crop box does not start at the origin.
    let offset = own_box(&doc, ids[4], b"CropBox").unwrap();
    assert!(
        close_box(offset, [140.0, 180.0, 380.0, 540.0], 0.01),
        "{offset:?}"
    );
    // The trim box is kept inside the new crop box.
    let trim = own_box(&doc, ids[1], b"TrimBox").unwrap();
    assert!(
        close_box(trim, [40.0, 30.0, 592.0, 782.0], 0.01),
        "{trim:?}"
    );
    assert_eq!(own_box(&doc, ids[0], b"TrimBox"), None);
}

#[test]
fn only_the_chosen_pages_are_cropped() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("cropped.pdf");
    crop(&input, MARGINS, Some("2,4"), &output).unwrap();
    let sizes = displayed_sizes(&output, 5);
    for (i, (w, h)) in sizes.into_iter().enumerate() {
        let (want_w, want_h) = shown(i);
        let cut = if i == 1 || i == 3 {
            (60.0, 40.0)
        } else {
            (0.0, 0.0)
        };
        assert!(
            close(w, want_w - cut.0, 0.02) && close(h, want_h - cut.1, 0.02),
            "page {}",
            i + 1
        );
    }
}

#[test]
fn margins_that_leave_too_little_name_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("cropped.pdf");
    // Page 5 is 300 pt wide as displayed: 140 + 140 leaves 20.
    let wide = Margins {
        top: 0.0,
        right: 140.0,
        bottom: 0.0,
        left: 140.0,
    };
    match crop(&input, wide, None, &output) {
        Err(ToolError::BadOptions(message)) => assert!(message.contains("page 5"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(crop(&input, wide, Some("1-4"), &output).is_ok());
    let negative = Margins {
        top: -1.0,
        ..MARGINS
    };
    assert!(matches!(
        crop(&input, negative, None, &output),
        Err(ToolError::BadOptions(_))
    ));
    assert!(matches!(
        crop(&input, MARGINS, Some("6"), &output),
        Err(ToolError::BadOptions(_))
    ));
}

#[test]
fn boxes_are_set_and_clamped_to_the_media_box() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("boxed.pdf");
    let boxes = [
        Some([50.0, 60.0, 300.0, 400.0]),
        None,
        Some([-10.0, -10.0, 5000.0, 300.0]),
        Some([400.0, 500.0, 100.0, 200.0]),
        None,
    ];
    assert_eq!(crop_to_boxes(&input, &boxes, &output).unwrap().pages, 5);
    let doc = load(&output);
    let ids = page_ids(&doc);
    let crop_of = |i: usize| own_box(&doc, ids[i], b"CropBox");
    assert!(close_box(
        crop_of(0).unwrap(),
        [50.0, 60.0, 300.0, 400.0],
        0.01
    ));
    assert_eq!(crop_of(1), None);
    assert!(close_box(
        crop_of(2).unwrap(),
        [0.0, 0.0, 842.0, 300.0],
        0.01
    ));
    // Given in the page's unrotated space, corners in any order.
    assert!(close_box(
        crop_of(3).unwrap(),
        [100.0, 200.0, 400.0, 500.0],
        0.01
    ));
    assert!(close_box(crop_of(4).unwrap(), PAGES[4].0, 0.01));
    // The trim box of page 2 is untouched: page 2 was left alone.
    assert!(close_box(
        own_box(&doc, ids[1], b"TrimBox").unwrap(),
        [10.0, 10.0, 602.0, 782.0],
        0.01
    ));
}

#[test]
fn boxes_must_be_one_per_page_and_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("boxed.pdf");
    match crop_to_boxes(&input, &[None; 4], &output) {
        Err(ToolError::BadOptions(message)) => assert!(message.contains("5 pages"), "{message}"),
        other => panic!("{other:?}"),
    }
    let outside = [None, None, Some([900.0, 0.0, 1000.0, 100.0]), None, None];
    match crop_to_boxes(&input, &outside, &output) {
        Err(ToolError::BadOptions(message)) => assert!(message.contains("page 3"), "{message}"),
        other => panic!("{other:?}"),
    }
    let nan = [Some([f32::NAN, 0.0, 1.0, 1.0]), None, None, None, None];
    assert!(matches!(
        crop_to_boxes(&input, &nan, &output),
        Err(ToolError::BadOptions(_))
    ));
}
