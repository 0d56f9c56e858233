//! Which pixels of an image an area takes: those whose centre, through the image's unit
//! square and the CTM, lands inside an area. Rotated and skewed placements work alike: along a
//! row the centres move by a constant step, so each area takes one run of each row, and only
//! the rows its corners reach (through the inverse CTM) are looked at.

use crate::geometry::{Matrix, apply, invert};
use crate::redact::geometry::Areas;

/// Runs of pixels to paint: row, first column, last column (inclusive).
pub struct Cover {
    pub runs: Vec<(u32, u32, u32)>,
}

impl Cover {
    pub fn of(ctm: Matrix, (width, height): (u32, u32), areas: &Areas) -> Cover {
        let mut runs = Vec::new();
        let (w, h) = (f64::from(width), f64::from(height));
        let Some(inverse) = invert(ctm) else {
            return Cover { runs };
        };
        for rect in areas.rects() {
            // The rows the area can reach: its corners in the image's rows, a row of margin.
            let rows: Vec<f64> = [
                (rect[0], rect[1]),
                (rect[2], rect[1]),
                (rect[2], rect[3]),
                (rect[0], rect[3]),
            ]
            .iter()
            .map(|&p| (1.0 - apply(inverse, p).1) * h - 0.5)
            .collect();
            let low = rows.iter().copied().fold(f64::MAX, f64::min).floor() - 1.0;
            let high = rows.iter().copied().fold(f64::MIN, f64::max).ceil() + 1.0;
            if high < 0.0 || low > h - 1.0 {
                continue;
            }
            let (first_row, last_row) = (low.max(0.0) as u32, high.min(h - 1.0) as u32);
            for row in first_row..=last_row {
                // Row 0 is the top of the image: v = 1 in the unit square.
                let v = 1.0 - (f64::from(row) + 0.5) / h;
                let start = apply(ctm, (0.5 / w, v));
                let next = apply(ctm, (1.5 / w, v));
                let step = (next.0 - start.0, next.1 - start.1);
                let Some((lo, hi)) = span(start.0, step.0, rect[0], rect[2])
                    .and_then(|x| intersect(x, span(start.1, step.1, rect[1], rect[3])?))
                else {
                    continue;
                };
                let first = lo.ceil().max(0.0);
                let last = hi.floor().min(w - 1.0);
                if first <= last {
                    runs.push((row, first as u32, last as u32));
                }
            }
        }
        runs.sort_unstable();
        Cover { runs }
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

/// The real column indices `i` for which `origin + i * step` lies in `[low, high]`.
fn span(origin: f64, step: f64, low: f64, high: f64) -> Option<(f64, f64)> {
    if step.abs() < 1e-12 {
        return (origin >= low && origin <= high).then_some((f64::MIN, f64::MAX));
    }
    let (a, b) = ((low - origin) / step, (high - origin) / step);
    Some((a.min(b), a.max(b)))
}

fn intersect(a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upright_and_turned_placements() {
        // A 10 x 10 image drawn 100 pt wide at (0, 0); the area covers x 0..30, y 80..100:
        // the top two rows, first three columns.
        let areas = Areas::new(vec![[0.0, 80.0, 30.0, 100.0]]);
        let cover = Cover::of([100.0, 0.0, 0.0, 100.0, 0.0, 0.0], (10, 10), &areas);
        assert_eq!(cover.runs, vec![(0, 0, 2), (1, 0, 2)]);
        // Turned a quarter (x' = -y, y' = x, then moved right by 100): image columns run up
        // the page, rows run left to right from x = 0 to 100.
        let cover = Cover::of([0.0, 100.0, -100.0, 0.0, 100.0, 0.0], (10, 10), &areas);
        // Columns 8 and 9 (y 85, 95) of rows 0..2 (x 5, 15, 25).
        assert_eq!(cover.runs, vec![(0, 8, 9), (1, 8, 9), (2, 8, 9)]);
        let nowhere = Areas::new(vec![[200.0, 200.0, 300.0, 300.0]]);
        assert!(Cover::of([100.0, 0.0, 0.0, 100.0, 0.0, 0.0], (10, 10), &nowhere).is_empty());
    }
}
