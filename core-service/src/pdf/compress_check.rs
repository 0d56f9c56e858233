//! The check a compressed PDF passes before it is handed back, by a reader other than the one
//! that wrote it: the output opens in PDFium with the input's page count, and its pages render
//! like the input's. Outside the images (which the presets resample and re-encode on purpose)
//! no more than a word's worth of pixels may differ beyond antialiasing, and the whole page
//! holds the preset's PSNR floor. A file that fails is handed back as it came (savings 0: the
//! core does that, `compress_verdict`, once every part of the check has answered).
//!
//! Rendering every page of both files would cost more than Ghostscript's whole compression
//! (PDFium at 40 dpi: about 10 ms a text page, a second for a page holding a 9000x9000 scan),
//! so a long document is checked on a sample spread over it, first and last page included.

use std::path::Path;

use pdfium_render::prelude::*;
use quire_compress::Preset;

use super::{
    compare::{changed_outside, psnr_outside},
    redact::MAX_CHANGED_SHARE,
    redact::frame::Frame,
    render,
};

/// Pages are compared at this resolution: a lost word is dozens of pixels, a lost image
/// thousands.
const COMPARE_DPI: u32 = 40;
/// Pages of a document checked at most.
pub const MAX_CHECKED_PAGES: u32 = 8;
/// Pixels around each image left out of the comparison (its resampled edge).
const MARGIN_PX: f64 = 2.0;

/// The PSNR (dB, at 40 dpi, whole page) a page must hold against the input's render, per
/// preset: under what the end-to-end quality test holds on the corpora (screen 23, ebook 32,
/// printer and prepress 35 at 60 dpi), so that only a loss fails it.
fn floor(preset: Preset) -> f64 {
    match preset {
        Preset::Screen => 18.0,
        Preset::Ebook => 24.0,
        Preset::Printer | Preset::Prepress => 28.0,
    }
}

/// Part `part` of `parts` of the check of the compressed file at `output` against `input`:
/// the pages compared, or why the output cannot be handed back. The sampled pages are dealt
/// out in turn, so that the parts, run on several workers at once, share the drawing.
pub fn check_part(
    pdfium: &Pdfium,
    input: &Path,
    output: &Path,
    preset: Preset,
    max_pixels: u64,
    (part, parts): (u32, u32),
) -> Result<u32, String> {
    let opened = |path: &Path| pdfium.load_pdf_from_file(path, None);
    match (opened(input), opened(output)) {
        (_, Err(e)) => Err(format!("the output does not open in PDFium: {e}")),
        // PDFium cannot read the input, so there is nothing to compare with: the output opens.
        (Err(_), Ok(_)) => Ok(0),
        (Ok(before), Ok(after)) => {
            let count = u32::try_from(before.pages().len()).unwrap_or(0);
            let pages: Vec<u32> = sample(count)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| u32::try_from(*i).is_ok_and(|i| i % parts.max(1) == part))
                .map(|(_, page)| page)
                .collect();
            check(&before, &after, preset, max_pixels, &pages)
        }
    }
}

/// What the check of `pages` (zero-based) found: how many it compared, or why the output
/// cannot be handed back. The page counts are compared whatever the pages.
pub fn check(
    input: &PdfDocument,
    output: &PdfDocument,
    preset: Preset,
    max_pixels: u64,
    pages: &[u32],
) -> Result<u32, String> {
    let count = u32::try_from(input.pages().len()).unwrap_or(0);
    let out_count = u32::try_from(output.pages().len()).unwrap_or(0);
    if count != out_count {
        return Err(format!(
            "the output has {out_count} pages, the input {count}"
        ));
    }
    let mut compared = 0;
    for &index in pages {
        let number = index + 1;
        let page_index =
            i32::try_from(index).map_err(|_| format!("page {number} is out of range"))?;
        let before = input
            .pages()
            .get(page_index)
            .map_err(|e| format!("input page {number} does not load: {e}"))?;
        // A page too large to draw at the comparison's resolution within the worker's memory
        // is not compared; its output is checked to load.
        let Ok(a) = render::render(&before, index, COMPARE_DPI, max_pixels, true) else {
            output
                .pages()
                .get(page_index)
                .map_err(|e| format!("page {number} of the output does not load: {e}"))?;
            continue;
        };
        let after = output
            .pages()
            .get(page_index)
            .map_err(|e| format!("page {number} of the output does not load: {e}"))?;
        let b = render::render(&after, index, COMPARE_DPI, max_pixels, true)
            .map_err(|f| format!("page {number} of the output does not render: {}", f.message))?;
        let Some(psnr) = psnr_outside(&a, &b, &[]) else {
            return Err(format!("page {number} changed size"));
        };
        if psnr < floor(preset) {
            return Err(format!(
                "page {number} renders at {psnr:.1} dB against the input, under the preset's {} dB",
                floor(preset)
            ));
        }
        let masks: Vec<[f64; 4]> = image_areas(&before)
            .into_iter()
            .chain(image_areas(&after))
            .collect();
        let changed = changed_outside(&a, &b, &masks);
        let limit = u64::from(a.width) * u64::from(a.height) / MAX_CHANGED_SHARE;
        if changed > limit {
            return Err(format!(
                "outside its images, {changed} pixels of page {number} differ from the input \
                 (at most {limit} may)"
            ));
        }
        compared += 1;
    }
    Ok(compared)
}

/// The pages checked: all of a short document; of a longer one, the first, the last and
/// pages evenly spread between.
pub fn sample(count: u32) -> Vec<u32> {
    if count <= MAX_CHECKED_PAGES {
        return (0..count).collect();
    }
    let last = count - 1;
    let steps = MAX_CHECKED_PAGES - 1;
    let mut pages: Vec<u32> = (0..=steps)
        .map(|i| u32::try_from(u64::from(i) * u64::from(last) / u64::from(steps)).unwrap_or(last))
        .collect();
    pages.dedup();
    pages
}

/// Where the page draws images (or forms holding them), in pixels at the comparison's
/// resolution, a margin around each.
fn image_areas(page: &PdfPage) -> Vec<[f64; 4]> {
    let frame = Frame::of(page);
    let scale = f64::from(COMPARE_DPI) / 72.0;
    page.objects()
        .iter()
        .filter(holds_an_image)
        .filter_map(|object| object.bounds().ok())
        .map(|quad| {
            let rect = quad.to_rect();
            let p = frame.to_pixels(
                f64::from(rect.left().value),
                f64::from(rect.bottom().value),
                scale,
            );
            let q = frame.to_pixels(
                f64::from(rect.right().value),
                f64::from(rect.top().value),
                scale,
            );
            [
                p.0.min(q.0) - MARGIN_PX,
                p.1.min(q.1) - MARGIN_PX,
                p.0.max(q.0) + MARGIN_PX,
                p.1.max(q.1) + MARGIN_PX,
            ]
        })
        .collect()
}

/// An image, or a form that draws one at any depth (its objects' bounds are in the form's
/// space, so the whole form is left out).
fn holds_an_image(object: &PdfPageObject) -> bool {
    if object.as_image_object().is_some() {
        return true;
    }
    object
        .as_x_object_form_object()
        .is_some_and(|form| form.iter().any(|inner| holds_an_image(&inner)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::tools::testing::{BLANK, IMAGE, TEXT, make_pdf, with_pdfium};

    /// A page of body text: two lines, the second of which a damaged output may lose.
    const TWO_LINES: &str = "BT /F1 11 Tf 72 700 Td (The first line of the page stays) Tj 0 -14 Td (and this one is lost) Tj ET";
    const ONE_LINE: &str = "BT /F1 11 Tf 72 700 Td (The first line of the page stays) Tj ET";

    fn checked(input: &[&str], output: &[&str]) -> Result<u32, String> {
        let dir = tempfile::tempdir().expect("temp dir");
        let (a, b) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
        make_pdf(&a, input);
        make_pdf(&b, output);
        with_pdfium(|pdfium| {
            let before = pdfium.load_pdf_from_file(&a, None).expect("input opens");
            let after = pdfium.load_pdf_from_file(&b, None).expect("output opens");
            let pages = sample(u32::try_from(before.pages().len()).expect("pages"));
            check(&before, &after, Preset::Ebook, 1 << 28, &pages)
        })
    }

    #[test]
    fn the_same_pages_pass_and_a_lost_line_or_page_fails() {
        assert_eq!(checked(&[TWO_LINES, IMAGE], &[TWO_LINES, IMAGE]), Ok(2));
        let lost = checked(&[TWO_LINES], &[ONE_LINE]).expect_err("a line was lost");
        assert!(lost.contains("differ"), "{lost}");
        let blank = checked(&[TEXT], &[BLANK]).expect_err("the text was lost");
        assert!(blank.contains("page 1"), "{blank}");
        let short = checked(&[TEXT, TEXT], &[TEXT]).expect_err("a page was lost");
        assert!(short.contains("pages"), "{short}");
    }

    #[test]
    fn the_parts_share_the_pages_out() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (a, b) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
        make_pdf(&a, &[TWO_LINES, TWO_LINES, TWO_LINES]);
        make_pdf(&b, &[TWO_LINES, ONE_LINE, TWO_LINES]);
        let part = |part| {
            with_pdfium(|pdfium| check_part(pdfium, &a, &b, Preset::Screen, 1 << 28, (part, 2)))
        };
        // Pages 1 and 3 go to the first part, page 2 (which lost a line) to the second.
        assert_eq!(part(0), Ok(2));
        let lost = part(1).expect_err("page 2 lost a line");
        assert!(lost.contains("page 2"), "{lost}");
        let unreadable = dir.path().join("cut.pdf");
        std::fs::write(&unreadable, b"%PDF-1.7\n").expect("written");
        let cut = with_pdfium(|pdfium| {
            check_part(pdfium, &a, &unreadable, Preset::Screen, 1 << 28, (0, 1))
        });
        assert!(cut.expect_err("no pdf").contains("does not open"));
    }

    #[test]
    fn short_documents_are_checked_whole_and_long_ones_on_a_spread() {
        assert_eq!(sample(3), vec![0, 1, 2]);
        assert_eq!(sample(8), (0..8).collect::<Vec<_>>());
        let spread = sample(236);
        assert_eq!(spread.len(), 8);
        assert_eq!(spread.first(), Some(&0));
        assert_eq!(spread.last(), Some(&235));
        assert!(spread.windows(2).all(|w| w[0] < w[1]));
    }
}
