//! compare's pixels: which pixels of two renders differ, and the side-by-side picture that
//! shows them (A on the left tinted red where it changed, B on the right tinted green, both
//! over a pale copy of the page).

use crate::pdf::render::Pixels;

/// A pixel differs when any of its channels moves by more than this (out of 255):
/// antialiasing and the JPEG noise of a re-saved image stay below.
pub const CHANNEL_DIFF: u8 = 32;
/// The picture's greatest width, both pages and the gap between them.
pub const MAX_WIDTH: u32 = 1600;
const GAP: u32 = 16;
const GAP_GREY: u8 = 160;
/// Where one page is smaller than the other: no page there.
const NO_PAGE: [u8; 3] = [210, 210, 210];
const RED: [u8; 3] = [230, 0, 0];
const GREEN: [u8; 3] = [0, 170, 0];

/// Both renders laid over one canvas of the larger width and the larger height; a pixel that
/// only one page covers differs.
pub struct PixelDiff {
    pub width: u32,
    pub height: u32,
    changed: Vec<bool>,
    pub count: u64,
}

impl PixelDiff {
    /// The share of the canvas that differs, 0.0-1.0.
    pub fn share(&self) -> f64 {
        let total = u64::from(self.width) * u64::from(self.height);
        if total == 0 {
            0.0
        } else {
            self.count as f64 / total as f64
        }
    }
}

pub fn diff(a: &Pixels, b: &Pixels) -> PixelDiff {
    let (width, height) = (a.width.max(b.width), a.height.max(b.height));
    let mut changed = vec![true; width as usize * height as usize];
    let (common_w, common_h) = (
        a.width.min(b.width) as usize,
        a.height.min(b.height) as usize,
    );
    for y in 0..common_h {
        let row_a = &a.data[y * a.width as usize * 3..][..common_w * 3];
        let row_b = &b.data[y * b.width as usize * 3..][..common_w * 3];
        let out = &mut changed[y * width as usize..][..common_w];
        for ((flag, pa), pb) in out
            .iter_mut()
            .zip(row_a.chunks_exact(3))
            .zip(row_b.chunks_exact(3))
        {
            *flag = pa
                .iter()
                .zip(pb)
                .any(|(x, y)| x.abs_diff(*y) > CHANNEL_DIFF);
        }
    }
    let count = changed.iter().filter(|&&c| c).count() as u64;
    PixelDiff {
        width,
        height,
        changed,
        count,
    }
}

/// A and B side by side, changes tinted, scaled down to at most [`MAX_WIDTH`] in all.
pub fn side_by_side(a: &Pixels, b: &Pixels, diff: &PixelDiff) -> Pixels {
    let panel_w = diff.width.clamp(1, (MAX_WIDTH - GAP) / 2);
    let panel_h = ((u64::from(diff.height) * u64::from(panel_w) + u64::from(diff.width) / 2)
        / u64::from(diff.width.max(1)))
    .max(1) as u32;
    let width = panel_w * 2 + GAP;
    let mut data = vec![GAP_GREY; width as usize * panel_h as usize * 3];
    for (side, pixels, tint) in [(0, a, RED), (1, b, GREEN)] {
        let full = tinted(pixels, diff, tint);
        let panel = shrink(&full, (diff.width, diff.height), (panel_w, panel_h));
        let left = (side * (panel_w + GAP)) as usize * 3;
        for (y, row) in panel.chunks_exact(panel_w as usize * 3).enumerate() {
            let start = y * width as usize * 3 + left;
            data[start..start + row.len()].copy_from_slice(row);
        }
    }
    Pixels {
        width,
        height: panel_h,
        channels: 3,
        data,
    }
}

/// One page over the diff's canvas: pale where unchanged, tinted where changed.
fn tinted(pixels: &Pixels, diff: &PixelDiff, tint: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::with_capacity(diff.changed.len() * 3);
    for y in 0..diff.height {
        for x in 0..diff.width {
            if x >= pixels.width || y >= pixels.height {
                out.extend_from_slice(&NO_PAGE);
                continue;
            }
            let at = (y as usize * pixels.width as usize + x as usize) * 3;
            let [r, g, b] = [0, 1, 2].map(|c| u32::from(pixels.data[at + c]));
            if diff.changed[y as usize * diff.width as usize + x as usize] {
                // Full tint on this page's own ink, a light wash where only the other
                // page has ink: the change is marked without drawing the other's text.
                let lum = (r * 77 + g * 150 + b * 29) >> 8;
                out.extend(tint.map(|base| {
                    let base = u32::from(base);
                    (base + (255 - base) * lum * 85 / (100 * 255)) as u8
                }));
            } else {
                // 40 % of the page over white.
                out.extend([r, g, b].map(|v| ((3 * 255 + 2 * v) / 5) as u8));
            }
        }
    }
    out
}

/// Area-average down-scaling of packed RGB (a copy when the size is kept).
fn shrink(rgb: &[u8], (w, h): (u32, u32), (nw, nh): (u32, u32)) -> Vec<u8> {
    if (w, h) == (nw, nh) {
        return rgb.to_vec();
    }
    let span = |i: u32, from: u32, to: u32| {
        let start = (u64::from(i) * u64::from(from) / u64::from(to)) as usize;
        let end = (u64::from(i + 1) * u64::from(from) / u64::from(to)) as usize;
        (start, end.max(start + 1).min(from as usize))
    };
    let columns: Vec<(usize, usize)> = (0..nw).map(|x| span(x, w, nw)).collect();
    let mut out = Vec::with_capacity(nw as usize * nh as usize * 3);
    let mut sums = vec![[0u32; 3]; nw as usize];
    for y in 0..nh {
        let (y0, y1) = span(y, h, nh);
        sums.iter_mut().for_each(|s| *s = [0; 3]);
        for row in rgb[y0 * w as usize * 3..y1 * w as usize * 3].chunks_exact(w as usize * 3) {
            for (sum, &(x0, x1)) in sums.iter_mut().zip(&columns) {
                for px in row[x0 * 3..x1 * 3].chunks_exact(3) {
                    sum[0] += u32::from(px[0]);
                    sum[1] += u32::from(px[1]);
                    sum[2] += u32::from(px[2]);
                }
            }
        }
        for (sum, &(x0, x1)) in sums.iter().zip(&columns) {
            let n = ((x1 - x0) * (y1 - y0)) as u32;
            out.extend(sum.map(|s| ((s + n / 2) / n) as u8));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(width: u32, height: u32, fill: u8) -> Pixels {
        Pixels {
            width,
            height,
            channels: 3,
            data: vec![fill; (width * height * 3) as usize],
        }
    }

    #[test]
    fn counts_changed_pixels_over_the_union_of_both_pages() {
        let a = page(10, 10, 255);
        let mut b = page(10, 10, 255);
        // Small moves are not changes; one large one is.
        b.data[0] = 255 - CHANNEL_DIFF;
        b.data[3 * 5 + 1] = 255 - CHANNEL_DIFF - 1;
        let d = diff(&a, &b);
        assert_eq!((d.width, d.height, d.count), (10, 10, 1));
        assert!((d.share() - 0.01).abs() < 1e-9);
        // A taller B: the 10x5 strip only B covers differs.
        let d = diff(&a, &page(10, 15, 255));
        assert_eq!((d.width, d.height, d.count), (10, 15, 50));
    }

    #[test]
    fn the_picture_fits_1600_pixels_and_tints_both_sides() {
        let a = page(2000, 1000, 255);
        let mut b = page(2000, 1000, 255);
        for y in 0..1000usize {
            for x in 0..200usize {
                let at = (y * 2000 + x) * 3;
                b.data[at..at + 3].copy_from_slice(&[0, 0, 0]);
            }
        }
        let d = diff(&a, &b);
        let picture = side_by_side(&a, &b, &d);
        assert_eq!((picture.width, picture.height), (1600, 396));
        let at = |x: u32, y: u32| {
            let i = ((y * picture.width + x) * 3) as usize;
            [picture.data[i], picture.data[i + 1], picture.data[i + 2]]
        };
        // Left: white under B's new ink, a light red wash; right: B's ink, green.
        let [r, g, _] = at(10, 100);
        assert!(r > 245 && g < 230, "{:?}", at(10, 100));
        let [r, g, _] = at(792 + 16 + 10, 100);
        assert!(g > 150 && r < 20, "{:?}", at(818, 100));
        // Unchanged: pale.
        assert!(at(700, 100).iter().all(|&v| v > 240));
        assert_eq!(at(795, 100), [GAP_GREY; 3]);
    }
}
