//! Two renders of a page compared, in grey: the redaction's, the compressor's and the PDF/A
//! conversion's checks that nothing a reader saw was lost.

use super::render::Pixels;

/// A pixel differs when no pixel next to it in the other render is within this many levels:
/// antialiasing, a half-pixel shift and a JPEG's noise (a page drawn as a picture) stay under.
const PIXEL_TOLERANCE: u8 = 64;

/// Pixels outside the masks that differ by more than antialiasing: a pixel of one render with
/// no pixel within PIXEL_TOLERANCE levels among its 3x3 neighbours in the other, either way
/// (ink lost, ink added). Both renders have the same size.
pub fn changed_outside(a: &Pixels, b: &Pixels, masks: &[[f64; 4]]) -> u64 {
    let (w, h) = (a.width as usize, a.height as usize);
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
            if !near(a, b, cx, cy) || !near(b, a, cx, cy) {
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
}
