//! Two renderings of a page compared, as the redaction's check and the PDF/A conversion's
//! do: PDFium draws both at 50 dpi in grey, and a pixel counts as changed only when nothing
//! near it in the other drawing is close (antialiasing and half-pixel shifts are not changes).

use pdfium_render::prelude::*;

use crate::{
    pdf::render::{self, Pixels},
    workers::protocol::Failure,
};

/// Pages are compared at this resolution: a removed word is dozens of pixels, a shifted line
/// hundreds.
pub const COMPARE_DPI: u32 = 50;
/// The share of a page's pixels (at 50 dpi) that may differ from the input beyond
/// antialiasing before the page counts as having lost something: 1 in 2,000, 117 pixels on a
/// Letter page, where a word of body text is 100 to 200. Glyphs whose accents or swashes
/// reach past the box the redaction engine measured them by stay under it.
pub const MAX_CHANGED_SHARE: u64 = 2_000;
/// A pixel differs when no pixel next to it in the other render is within this many levels:
/// antialiasing, a half-pixel shift and a JPEG's noise (a page drawn as a picture) stay under.
const PIXEL_TOLERANCE: u8 = 64;

/// The pages (1-based) of `output` that differ from those of `input` beyond the tolerance,
/// each with what differs; pages past the end of either are not compared.
pub fn differing_pages(
    input: &PdfDocument,
    output: &PdfDocument,
    max_pixels: u64,
) -> Result<Vec<(u32, String)>, Failure> {
    let mut out = Vec::new();
    for (index, (before, after)) in input.pages().iter().zip(output.pages().iter()).enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let page_index = u32::try_from(index).unwrap_or(u32::MAX);
        let a = render::render(&before, page_index, COMPARE_DPI, max_pixels, true)?;
        let b = render::render(&after, page_index, COMPARE_DPI, max_pixels, true)?;
        let Some(psnr) = psnr_outside(&a, &b, &[]) else {
            out.push((number, "the page's size changed".to_owned()));
            continue;
        };
        let changed = count_changed(&a, &b, &[], Darker::Ink);
        let limit = u64::from(a.width) * u64::from(a.height) / MAX_CHANGED_SHARE;
        if changed > limit {
            out.push((
                number,
                format!("{changed} pixels of the page drawn differ from the input ({psnr:.1} dB)"),
            ));
        }
    }
    Ok(out)
}

/// Pixels outside the masks that differ by more than antialiasing: a pixel of one render with
/// no pixel within PIXEL_TOLERANCE levels among its 3x3 neighbours in the other, either way
/// (ink lost, ink added). Both renders have the same size.
pub fn changed_outside(a: &Pixels, b: &Pixels, masks: &[[f64; 4]]) -> u64 {
    count_changed(a, b, masks, Darker::Changed)
}

/// Whether ink drawn darker than the input's counts as a change.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Darker {
    Changed,
    /// Not where the input's pixel was already ink (darker by more than the tolerance than
    /// the lightest pixel near it): PDF/A-1 draws the words a translucent highlight covered
    /// over its blended colour instead of through it, black where the reader saw them grey.
    /// More contrast hides nothing; a lighter word, a darkened background still count.
    Ink,
}

/// Pixels this far around one are its surroundings when telling ink from background: past
/// the stem of a bold glyph at 50 dpi.
const INK_RADIUS: usize = 3;

fn count_changed(a: &Pixels, b: &Pixels, masks: &[[f64; 4]], darker: Darker) -> u64 {
    let (w, h) = (a.width as usize, a.height as usize);
    let is_ink = |cx: usize, cy: usize| {
        let v = a.data[cy * w + cx];
        let lightest = (cy.saturating_sub(INK_RADIUS)..=(cy + INK_RADIUS).min(h - 1))
            .flat_map(|ny| {
                (cx.saturating_sub(INK_RADIUS)..=(cx + INK_RADIUS).min(w - 1))
                    .map(move |nx| ny * w + nx)
            })
            .map(|at| a.data[at])
            .max()
            .unwrap_or(v);
        lightest.saturating_sub(v) > PIXEL_TOLERANCE
    };
    let forgiven = |cx: usize, cy: usize| {
        darker == Darker::Ink && b.data[cy * w + cx] < a.data[cy * w + cx] && is_ink(cx, cy)
    };
    let near = |x: &Pixels, y: &Pixels, cx: usize, cy: usize| {
        let v = x.data[cy * w + cx];
        (cy.saturating_sub(1)..=(cy + 1).min(h - 1)).any(|ny| {
            (cx.saturating_sub(1)..=(cx + 1).min(w - 1))
                .any(|nx| v.abs_diff(y.data[ny * w + nx]) <= PIXEL_TOLERANCE)
        })
    };
    let mut changed = 0;
    for cy in 0..h {
        let fy = cy as f64 + 0.5;
        for cx in 0..w {
            let fx = cx as f64 + 0.5;
            if masks
                .iter()
                .any(|m| m[0] <= fx && fx <= m[2] && m[1] <= fy && fy <= m[3])
            {
                continue;
            }
            if (!near(a, b, cx, cy) || !near(b, a, cx, cy)) && !forgiven(cx, cy) {
                changed += 1;
            }
        }
    }
    changed
}

/// PSNR of two grey renders over the pixels outside the masks (infinite when equal); None
/// when their sizes differ.
pub fn psnr_outside(a: &Pixels, b: &Pixels, masks: &[[f64; 4]]) -> Option<f64> {
    if (a.width, a.height) != (b.width, b.height) {
        return None;
    }
    let mut sum = 0u64;
    let mut count = 0u64;
    for y in 0..a.height as usize {
        let fy = y as f64 + 0.5;
        for x in 0..a.width as usize {
            let fx = x as f64 + 0.5;
            if masks
                .iter()
                .any(|m| m[0] <= fx && fx <= m[2] && m[1] <= fy && fy <= m[3])
            {
                continue;
            }
            let at = y * a.width as usize + x;
            let d = u64::from(a.data[at].abs_diff(b.data[at]));
            sum += d * d;
            count += 1;
        }
    }
    if sum == 0 || count == 0 {
        return Some(f64::INFINITY);
    }
    let mse = sum as f64 / count as f64;
    Some(10.0 * (255.0f64 * 255.0 / mse).log10())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grey(width: u32, height: u32, data: Vec<u8>) -> Pixels {
        Pixels {
            width,
            height,
            channels: 1,
            data,
        }
    }

    #[test]
    fn differences_inside_a_mask_do_not_count() {
        let a = grey(4, 1, vec![0, 0, 0, 0]);
        let b = grey(4, 1, vec![255, 0, 0, 0]);
        assert_eq!(
            psnr_outside(&a, &b, &[[0.0, 0.0, 1.0, 1.0]]),
            Some(f64::INFINITY)
        );
        let outside = psnr_outside(&a, &b, &[]).expect("same size");
        assert!(
            (outside - 10.0 * (4.0f64).log10()).abs() < 1e-9,
            "{outside}"
        );
        assert_eq!(psnr_outside(&a, &grey(2, 2, vec![0; 4]), &[]), None);
    }

    #[test]
    fn a_shift_of_a_pixel_is_not_a_change_but_a_lost_mark_is() {
        // A vertical line at x = 2, then the same line one pixel to the right, then gone.
        let line = |x: usize| {
            let mut data = vec![255; 25];
            for y in 0..5 {
                data[y * 5 + x] = 0;
            }
            grey(5, 5, data)
        };
        assert_eq!(changed_outside(&line(2), &line(3), &[]), 0);
        assert_eq!(
            changed_outside(&line(2), &grey(5, 5, vec![255; 25]), &[]),
            5
        );
        assert_eq!(
            changed_outside(
                &line(2),
                &grey(5, 5, vec![255; 25]),
                &[[2.0, 0.0, 3.0, 5.0]]
            ),
            0
        );
    }

    #[test]
    fn ink_drawn_darker_is_no_change_for_pdfa_but_lighter_ink_or_a_darker_ground_is() {
        // A grey word (90) on a light highlight (243), as a reader saw it through 40 % yellow.
        let mut seen = vec![243; 49];
        seen[24] = 90;
        let darker = {
            let mut data = seen.clone();
            data[24] = 0;
            data
        };
        let (a, b) = (grey(7, 7, seen.clone()), grey(7, 7, darker));
        assert_eq!(count_changed(&a, &b, &[], Darker::Changed), 1);
        assert_eq!(count_changed(&a, &b, &[], Darker::Ink), 0);
        // The word lost, or the ground around it darkened: changes either way.
        let lost = grey(7, 7, vec![243; 49]);
        assert_eq!(count_changed(&a, &lost, &[], Darker::Ink), 1);
        let mut ground = seen;
        ground[0] = 0;
        assert_eq!(count_changed(&a, &grey(7, 7, ground), &[], Darker::Ink), 1);
    }
}
