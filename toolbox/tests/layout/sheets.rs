//! Fitting pages to a paper size, and two or four pages per sheet.

use lopdf::Object;
use quire_toolbox::ToolError;
use quire_toolbox::layout::{Paper, fit_to_paper, n_up};

use crate::fixture::{A4, LINK2, LINK5, PAGES, annots, close, close_box, load, outline_target};
use crate::fixture::{own_box, page_ids, sample, shown};
use crate::poppler::{render, text, words};

/// Where a page of displayed size `w` x `h` lands when fitted into `cell` (x0, y0, x1, y1
/// in points from the sheet's lower-left corner): its box and its scale.
fn fitted((w, h): (f64, f64), cell: [f64; 4]) -> ([f64; 4], f64) {
    let (cw, ch) = (cell[2] - cell[0], cell[3] - cell[1]);
    let s = (cw / w).min(ch / h);
    let x = cell[0] + (cw - w * s) / 2.0;
    let y = cell[1] + (ch - h * s) / 2.0;
    ([x, y, x + w * s, y + h * s], s)
}

/// `rect` of page `i` (user space, unrotated pages only) where the page landed.
fn moved(i: usize, rect: [f64; 4], placed: [f64; 4], s: f64) -> [f64; 4] {
    let [vx, vy, _, _] = PAGES[i].0;
    let x = |v: f64| (v - vx) * s + placed[0];
    let y = |v: f64| (v - vy) * s + placed[1];
    [x(rect[0]), y(rect[1]), x(rect[2]), y(rect[3])]
}

#[test]
fn fit_to_paper_centres_every_page_on_a4() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("fitted.pdf");
    assert_eq!(fit_to_paper(&input, Paper::A4, &output).unwrap().pages, 5);
    let doc = load(&output);
    let ids = page_ids(&doc);
    assert_eq!(ids.len(), 5);
    for (i, &id) in ids.iter().enumerate() {
        let (w, h) = shown(i);
        let (sw, sh) = if w > h { (A4.1, A4.0) } else { A4 };
        let media = own_box(&doc, id, b"MediaBox").unwrap();
        assert!(
            close_box(media, [0.0, 0.0, sw, sh], 0.01),
            "page {}: {media:?}",
            i + 1
        );
        let dict = doc.get_dictionary(id).unwrap();
        assert!(
            !dict.has(b"Rotate") && !dict.has(b"CropBox"),
            "page {}",
            i + 1
        );
        assert!(
            text(&output, i + 1).contains(&format!("Page {}", i + 1)),
            "page {}",
            i + 1
        );
        // The frame drawn on the visible box fills the sheet one way and is centred the
        // other; the black square stays in the displayed upper-left corner (the square page 5
        // has outside its crop box does not show).
        let (placed, s) = fitted((w, h), [0.0, 0.0, sw, sh]);
        let from_top = [placed[0], sh - placed[3], placed[2], sh - placed[1]];
        let page = render(&output, i + 1, 20);
        let ink = page.ink(0..250).unwrap();
        assert!(
            close_box(ink, from_top, 7.3),
            "page {}: ink {ink:?}, placed {from_top:?}",
            i + 1
        );
        let square = [
            from_top[0],
            from_top[1],
            from_top[0] + 30.0 * s,
            from_top[1] + 30.0 * s,
        ];
        let black = page.ink(0..60).unwrap();
        assert!(
            close_box(black, square, 7.3),
            "page {}: black {black:?}, want {square:?}",
            i + 1
        );
        if i == 1 || i == 4 {
            let (link, wanted) = if i == 1 { (LINK2, 2) } else { (LINK5, 2) };
            let found = annots(&doc, id);
            assert_eq!(found.len(), 1, "page {}", i + 1);
            assert_eq!(found[0].2, Some(wanted), "page {}", i + 1);
            let want = moved(i, link, placed, s);
            assert!(
                close_box(found[0].1, want, 0.01),
                "page {}: {:?} {want:?}",
                i + 1,
                found[0].1
            );
        }
    }
    // The note stays; the outline still leads to page 4.
    assert_eq!(annots(&doc, ids[0])[0].0, "Text");
    assert_eq!(outline_target(&doc), Some(3));
}

#[test]
fn fit_to_letter() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("letter.pdf");
    fit_to_paper(&input, Paper::Letter, &output).unwrap();
    let doc = load(&output);
    let sizes: Vec<[f64; 4]> = page_ids(&doc)
        .into_iter()
        .map(|id| own_box(&doc, id, b"MediaBox").unwrap())
        .collect();
    let (portrait, landscape) = ([0.0, 0.0, 612.0, 792.0], [0.0, 0.0, 792.0, 612.0]);
    let want = [portrait, portrait, landscape, landscape, portrait];
    for (got, want) in sizes.iter().zip(want) {
        assert!(close_box(*got, want, 0.01), "{got:?}");
    }
}

/// The centre of the word `label` on a sheet, in points from the top-left corner.
fn word_at(pdf: &std::path::Path, sheet: usize, label: usize) -> (f64, f64) {
    let found = words(pdf, sheet);
    let (_, x, y) = found
        .iter()
        .find(|(text, _, _)| *text == label.to_string())
        .unwrap_or_else(|| panic!("no \"{label}\" on sheet {sheet}: {found:?}"));
    (*x, *y)
}

#[test]
fn two_up_puts_pages_side_by_side_on_landscape_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("2up.pdf");
    assert_eq!(n_up(&input, 2, Paper::A4, &output).unwrap().pages, 3);
    let doc = load(&output);
    let ids = page_ids(&doc);
    assert_eq!(ids.len(), 3);
    for &id in &ids {
        let media = own_box(&doc, id, b"MediaBox").unwrap();
        assert!(close_box(media, [0.0, 0.0, A4.1, A4.0], 0.01), "{media:?}");
    }
    let first = text(&output, 1);
    let (one, two) = (first.find("Page 1").unwrap(), first.find("Page 2").unwrap());
    assert!(one < two, "{first}");
    for page in 1..=5_usize {
        let sheet = page.div_ceil(2);
        let (x, _) = word_at(&output, sheet, page);
        assert_eq!(x < A4.1 / 2.0, page % 2 == 1, "page {page} at x {x}");
    }
    // Page 2's link leads to page 3, on sheet 2; the note of page 1 is gone.
    let on_first: Vec<_> = annots(&doc, ids[0])
        .into_iter()
        .map(|a| (a.0, a.2))
        .collect();
    assert_eq!(on_first, [("Link".to_string(), Some(1))]);
    assert_eq!(annots(&doc, ids[2])[0].2, Some(1));
    assert_eq!(outline_target(&doc), Some(1));
    assert!(doc.catalog().unwrap().get(b"PageLabels").is_err());
}

#[test]
fn four_up_fills_a_grid_in_reading_order() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("4up.pdf");
    assert_eq!(n_up(&input, 4, Paper::A4, &output).unwrap().pages, 2);
    let doc = load(&output);
    let ids = page_ids(&doc);
    assert_eq!(ids.len(), 2);
    let first = text(&output, 1);
    let (one, two) = (first.find("Page 1").unwrap(), first.find("Page 2").unwrap());
    assert!(one < two, "{first}");
    for page in 1..=5 {
        let (sheet, slot) = ((page - 1) / 4 + 1, (page - 1) % 4);
        let (x, y) = word_at(&output, sheet, page);
        assert_eq!(x < A4.0 / 2.0, slot % 2 == 0, "page {page} at x {x}");
        assert_eq!(y < A4.1 / 2.0, slot < 2, "page {page} at y {y}");
    }
    // Page 5's link, now on sheet 2, leads to sheet 1, which holds page 3; its rectangle
    // moved with page 5 into the upper-left cell.
    let links = annots(&doc, ids[1]);
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].2, Some(0));
    let (w, h) = ((A4.0 - 36.0) / 2.0, (A4.1 - 36.0) / 2.0);
    let (placed, s) = fitted(shown(4), [12.0, 24.0 + h, 12.0 + w, A4.1 - 12.0]);
    let want = moved(4, LINK5, placed, s);
    assert!(
        close_box(links[0].1, want, 0.01),
        "{:?} {want:?}",
        links[0].1
    );
    assert_eq!(annots(&doc, ids[0])[0].2, Some(0));
    assert_eq!(outline_target(&doc), Some(0));
    // The pages themselves are gone: the sheets are the only page objects.
    let pages = doc
        .objects
        .values()
        .filter(|o| matches!(o, Object::Dictionary(d) if d.has_type(b"Page")))
        .count();
    assert_eq!(pages, 2);
    assert!(close(
        own_box(&doc, ids[0], b"MediaBox").unwrap()[3],
        A4.1,
        0.01
    ));
}

#[test]
fn n_up_takes_two_or_four() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let output = dir.path().join("3up.pdf");
    for n in [0, 1, 3, 6] {
        assert!(matches!(
            n_up(&input, n, Paper::A4, &output),
            Err(ToolError::BadOptions(_))
        ));
    }
}
