//! The crop tool's "auto-detect margins": the box around every visible mark of each page,
//! from a small greyscale render. 50 dpi puts a pixel at 1.44 pt, so the box is within about
//! one and a half points of the ink.

use pdfium_render::prelude::*;

use super::{check_all_pages, open_pages, page_sizes};
use crate::pdf::{pdfium, render::render};
use crate::workers::protocol::{Failure, FailureKind};

/// Resolution of the render the box is measured on.
pub const BOX_DPI: u32 = 50;
/// A pixel darker than this (luminance, 0-255) is a mark: anti-aliased edges of text and
/// hairlines count, paper white does not.
pub const MARK_BELOW: u8 = 250;

/// The box that holds every visible mark of each page (ink darker than [`MARK_BELOW`],
/// rendered in grey at [`BOX_DPI`], annotations and form fields included), in PDF points in
/// the page's own coordinates (the CropBox's space: x0, y0, x1, y1, before /Rotate is
/// applied), padded by `pad` points and clamped to the CropBox; None for a blank page.
pub fn content_boxes(
    pdfium: &Pdfium,
    input: &str,
    pad: f32,
    max_pixels: u64,
) -> Result<Vec<Option<[f32; 4]>>, Failure> {
    if !pad.is_finite() || pad < 0.0 {
        return Err(Failure::new(
            FailureKind::BadOptions,
            format!("the padding must be zero or more points, got {pad}"),
        ));
    }
    let (document, count) = open_pages(pdfium, input)?;
    check_all_pages(&page_sizes(&document)?, BOX_DPI, BOX_DPI, max_pixels, None)?;
    (0..count)
        .map(|index| {
            let page = pdfium::page(&document, index)?;
            let pixels = render(&page, index, BOX_DPI, max_pixels, true)?;
            let Some(ink) = ink_bounds(&pixels.data, pixels.width as usize) else {
                return Ok(None);
            };
            let cant_map = |e: PdfiumError| {
                Failure::new(
                    FailureKind::Engine,
                    format!(
                        "PDFium could not map page {} to its coordinates: {e}",
                        index + 1
                    ),
                )
            };
            let size = (pixels.width, pixels.height);
            let marks = to_page(&page, size, ink).map_err(cant_map)?;
            let crop = match page.boundaries().bounding() {
                Ok(bounds) => to_array(bounds.bounds),
                // The whole render, mapped back.
                Err(_) => to_page(&page, size, [0, 0, size.0, size.1]).map_err(cant_map)?,
            };
            Ok(Some(pad_within(marks, pad, crop)))
        })
        .collect()
}

/// The pixels holding marks, as a device rectangle `[x0, y0, x1, y1)` (y down), or None.
fn ink_bounds(grey: &[u8], width: usize) -> Option<[u32; 4]> {
    if width == 0 {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, row) in grey.chunks_exact(width).enumerate() {
        let Some(first) = row.iter().position(|&v| v < MARK_BELOW) else {
            continue;
        };
        let last = row.iter().rposition(|&v| v < MARK_BELOW).unwrap_or(first);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    (x0 != usize::MAX).then(|| [x0, y0, x1, y1].map(|v| v as u32))
}

/// Maps a device rectangle of a render of `size` pixels back to page space, as PDFium drew
/// it (the page's rotation and the CropBox's origin undone).
fn to_page(page: &PdfPage, size: (u32, u32), rect: [u32; 4]) -> Result<[f32; 4], PdfiumError> {
    // The geometry `render` uses: the page scaled to a fixed size, no extra rotation.
    let config = PdfRenderConfig::new().set_fixed_size(size.0 as i32, size.1 as i32);
    let [x0, y0, x1, y1] = rect.map(|v| v as i32);
    let mut bounds = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for (x, y) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
        let (px, py) = page.pixels_to_points(x, y, &config)?;
        bounds = [
            bounds[0].min(px.value),
            bounds[1].min(py.value),
            bounds[2].max(px.value),
            bounds[3].max(py.value),
        ];
    }
    Ok(bounds)
}

fn to_array(rect: PdfRect) -> [f32; 4] {
    [
        rect.left().value,
        rect.bottom().value,
        rect.right().value,
        rect.top().value,
    ]
}

/// `marks` grown by `pad` on every side, then cut to `crop`.
fn pad_within(marks: [f32; 4], pad: f32, crop: [f32; 4]) -> [f32; 4] {
    let [cx0, cy0, cx1, cy1] = crop;
    let clamp = |v: f32, lo: f32, hi: f32| v.max(lo).min(hi);
    [
        clamp(marks[0] - pad, cx0, cx1),
        clamp(marks[1] - pad, cy0, cy1),
        clamp(marks[2] + pad, cx0, cx1),
        clamp(marks[3] + pad, cy0, cy1),
    ]
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use lopdf::{Document, Object, dictionary};

    use super::super::testing::{corpus, make_pdf, with_pdfium};
    use super::*;

    const MAX_PIXELS: u64 = 100_000_000;
    /// A line of text and a filled rectangle at known places on an A4 page.
    const MARKS: &str = "BT /F1 24 Tf 100 600 Td (Hello Quire) Tj ET 0.2 g 150 200 250 150 re f";
    /// What the pixel grid lets through: 1.44 pt a pixel, plus anti-aliasing.
    const NEAR: f32 = 2.0;

    /// Writes `pages` (content streams) with the page dictionary entries `extra` added to
    /// each, e.g. a /Rotate or a /CropBox.
    fn make(path: &Path, pages: &[&str], extra: &[(&str, Object)]) {
        make_pdf(path, pages);
        let mut document = Document::load(path).expect("loads");
        for (_, id) in document.get_pages() {
            let page = document
                .get_object_mut(id)
                .and_then(Object::as_dict_mut)
                .expect("a page");
            for (key, value) in extra {
                page.set(*key, value.clone());
            }
        }
        document.save(path).expect("saved");
    }

    fn boxes(path: &Path, pad: f32) -> Vec<Option<[f32; 4]>> {
        with_pdfium(|p| content_boxes(p, path.to_str().expect("utf-8"), pad, MAX_PIXELS))
            .expect("measured")
    }

    fn rect(values: [f32; 4]) -> Object {
        Object::Array(values.iter().map(|&v| Object::Real(v)).collect())
    }

    /// Where the marks of [`MARKS`] are: the text's glyph boxes as PDFium reads them and
    /// the rectangle.
    fn expected_marks(path: &Path) -> [f32; 4] {
        with_pdfium(|p| {
            let document = p
                .load_pdf_from_file(path.to_str().expect("utf-8"), None)
                .expect("opens");
            let page = document.pages().get(0).expect("page");
            let text = page.text().expect("text");
            let mut bounds: [f32; 4] = [150.0, 200.0, 400.0, 350.0];
            for char in text.chars().iter() {
                if char.unicode_char().is_none_or(char::is_whitespace) {
                    continue;
                }
                let glyph = to_array(char.tight_bounds().expect("glyph box"));
                bounds = [
                    bounds[0].min(glyph[0]),
                    bounds[1].min(glyph[1]),
                    bounds[2].max(glyph[2]),
                    bounds[3].max(glyph[3]),
                ];
            }
            bounds
        })
    }

    /// `found` holds `marks` (within [`NEAR`]) and reaches no further than `pad` + NEAR
    /// beyond them, except where `crop` cuts.
    fn assert_fits(found: [f32; 4], marks: [f32; 4], pad: f32, crop: [f32; 4]) {
        let want = pad_within(marks, pad, crop);
        for side in 0..4 {
            let (got, want) = (found[side], want[side]);
            assert!(
                (got - want).abs() <= NEAR,
                "side {side}: found {found:?}, marks {marks:?}, pad {pad}, crop {crop:?}"
            );
        }
        assert!(
            found[0] >= crop[0]
                && found[1] >= crop[1]
                && found[2] <= crop[2]
                && found[3] <= crop[3],
            "outside the crop box: {found:?} {crop:?}"
        );
    }

    #[test]
    fn the_box_holds_text_and_a_rectangle_tightly() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("marks.pdf");
        make(&path, &[MARKS, ""], &[]);
        let marks = expected_marks(&path);
        // Helvetica 24 from x 100 at baseline 600: the glyphs sit roughly there.
        assert!(marks[0] > 99.0 && marks[0] < 104.0, "{marks:?}");
        assert!(marks[3] > 615.0 && marks[3] < 620.0, "{marks:?}");
        let a4 = [0.0, 0.0, 595.0, 842.0];
        for pad in [0.0, 6.0] {
            let found = boxes(&path, pad);
            assert_eq!(found.len(), 2);
            assert_fits(found[0].expect("marks"), marks, pad, a4);
            assert_eq!(found[1], None, "blank page");
        }
        // A pad wider than the margins stops at the page's edge.
        let found = boxes(&path, 500.0)[0].expect("marks");
        assert_eq!(found, a4);
    }

    #[test]
    fn rotated_pages_answer_in_unrotated_coordinates() {
        let dir = tempfile::tempdir().expect("temp dir");
        let plain = dir.path().join("plain.pdf");
        make(&plain, &[MARKS], &[]);
        let marks = expected_marks(&plain);
        let a4 = [0.0, 0.0, 595.0, 842.0];
        for rotation in [90, 180, 270] {
            let path = dir.path().join(format!("rotated-{rotation}.pdf"));
            make(&path, &[MARKS], &[("Rotate", Object::Integer(rotation))]);
            let found = boxes(&path, 3.0)[0].expect("marks");
            assert_fits(found, marks, 3.0, a4);
        }
    }

    #[test]
    fn a_crop_box_off_the_origin_bounds_the_answer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let plain = dir.path().join("plain.pdf");
        make(&plain, &[MARKS], &[]);
        let marks = expected_marks(&plain);
        // Everything inside the crop box: the same box as without it.
        let roomy = [50.0, 150.0, 500.0, 700.0];
        // The rectangle's lower part and the text's right end outside: cut there.
        let tight = [80.0, 260.0, 200.0, 640.0];
        for crop in [roomy, tight] {
            for rotation in [0, 90] {
                let path = dir.path().join(format!("crop-{}-{rotation}.pdf", crop[1]));
                make(
                    &path,
                    &[MARKS],
                    &[
                        ("CropBox", rect(crop)),
                        ("Rotate", Object::Integer(rotation)),
                    ],
                );
                let found = boxes(&path, 4.0)[0].expect("marks");
                assert_fits(found, marks, 4.0, crop);
            }
        }
    }

    #[test]
    fn annotations_count_as_marks() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("annotated.pdf");
        make_pdf(&path, &[""]);
        let mut document = Document::load(&path).expect("loads");
        let appearance = document.add_object(lopdf::Stream::new(
            dictionary! {
                "Type" => "XObject",
                "Subtype" => "Form",
                "BBox" => rect([0.0, 0.0, 50.0, 40.0]),
            },
            b"0 0 1 rg 0 0 50 40 re f".to_vec(),
        ));
        let annotation = document.add_object(dictionary! {
            "Type" => "Annot",
            "Subtype" => "Square",
            "Rect" => rect([300.0, 400.0, 350.0, 440.0]),
            "AP" => dictionary! { "N" => appearance },
        });
        let page = document.get_pages()[&1];
        document
            .get_object_mut(page)
            .and_then(Object::as_dict_mut)
            .expect("a page")
            .set("Annots", vec![Object::Reference(annotation)]);
        document.save(&path).expect("saved");
        let found = boxes(&path, 0.0)[0].expect("the annotation is a mark");
        assert_fits(
            found,
            [300.0, 400.0, 350.0, 440.0],
            0.0,
            [0.0, 0.0, 595.0, 842.0],
        );
    }

    #[test]
    fn bad_input_and_options_fail() {
        let dir = tempfile::tempdir().expect("temp dir");
        let not_pdf = dir.path().join("not.pdf");
        std::fs::write(&not_pdf, b"hello, not a PDF").expect("written");
        let good = dir.path().join("good.pdf");
        make_pdf(&good, &[MARKS]);
        with_pdfium(|p| {
            let failure =
                content_boxes(p, not_pdf.to_str().expect("utf-8"), 0.0, MAX_PIXELS).unwrap_err();
            assert_eq!(failure.kind, FailureKind::InvalidFile as i32, "{failure:?}");
            let good = good.to_str().expect("utf-8");
            let failure = content_boxes(p, good, 0.0, 1000).unwrap_err();
            assert_eq!(
                failure.kind,
                FailureKind::TooManyPixels as i32,
                "{failure:?}"
            );
            for pad in [-1.0, f32::NAN] {
                let failure = content_boxes(p, good, pad, MAX_PIXELS).unwrap_err();
                assert_eq!(failure.kind, FailureKind::BadOptions as i32, "{failure:?}");
            }
        });
    }

    #[test]
    fn the_pixel_scan_finds_the_marked_rows_and_columns() {
        let mut grey = vec![255u8; 10 * 6];
        assert_eq!(ink_bounds(&grey, 10), None);
        grey[2 * 10 + 3] = 249;
        grey[4 * 10 + 7] = 0;
        grey[5 * 10 + 9] = 250; // not a mark
        assert_eq!(ink_bounds(&grey, 10), Some([3, 2, 8, 5]));
        assert_eq!(
            pad_within([10.0, 10.0, 20.0, 20.0], 5.0, [8.0, 0.0, 100.0, 22.0]),
            [8.0, 5.0, 25.0, 22.0]
        );
    }

    #[test]
    fn real_world_pdfs_measure_without_panics() {
        with_pdfium(|p| {
            for path in corpus() {
                let document = p
                    .load_pdf_from_file(path.to_str().expect("utf-8"), None)
                    .expect("opens");
                let crops: Vec<[f32; 4]> = document
                    .pages()
                    .iter()
                    .map(|page| to_array(page.boundaries().bounding().expect("box").bounds))
                    .collect();
                drop(document);
                let found = content_boxes(p, path.to_str().expect("utf-8"), 2.0, MAX_PIXELS)
                    .unwrap_or_else(|f| panic!("{}: {f:?}", path.display()));
                assert_eq!(found.len(), crops.len(), "{}", path.display());
                for (found, crop) in found.iter().zip(&crops) {
                    let Some(b) = found else { continue };
                    assert!(
                        b[0] <= b[2]
                            && b[1] <= b[3]
                            && b[0] >= crop[0] - 0.01
                            && b[1] >= crop[1] - 0.01
                            && b[2] <= crop[2] + 0.01
                            && b[3] <= crop[3] + 0.01,
                        "{}: {b:?} outside {crop:?}",
                        path.display()
                    );
                }
                let marked = found.iter().filter(|b| b.is_some()).count();
                eprintln!(
                    "{}: {marked} of {} pages marked",
                    path.display(),
                    found.len()
                );
            }
        });
    }
}
