//! The 2-D affine matrices of PDF content (`[a b c d e f]`), as far as image sizes need them.

use lopdf::Object;

pub type Matrix = [f32; 6];
pub const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// Six numbers as a matrix.
pub fn matrix(operands: &[Object]) -> Option<Matrix> {
    if operands.len() != 6 {
        return None;
    }
    let mut m = [0.0; 6];
    for (slot, operand) in m.iter_mut().zip(operands) {
        *slot = operand.as_float().ok()?;
    }
    m.iter().all(|v| v.is_finite()).then_some(m)
}

/// `m` then `ctm`: the matrix `cm m` leaves in force.
pub fn multiply(m: Matrix, ctm: Matrix) -> Matrix {
    let [a, b, c, d, e, f] = m;
    let [aa, bb, cc, dd, ee, ff] = ctm;
    [
        a * aa + b * cc,
        a * bb + b * dd,
        c * aa + d * cc,
        c * bb + d * dd,
        e * aa + f * cc + ee,
        e * bb + f * dd + ff,
    ]
}

/// Width and height of the unit square under `m`: an image's drawn size.
pub fn unit_size(m: Matrix) -> (f32, f32) {
    (m[0].hypot(m[1]), m[2].hypot(m[3]))
}

/// The matrix that fits a form's /BBox, transformed by its /Matrix, onto an annotation's
/// /Rect (ISO 32000 12.5.5: the appearance is scaled and translated, never rotated, to fill
/// the rectangle).
pub fn fit(bbox: [f32; 4], form: Matrix, rect: [f32; 4]) -> Option<Matrix> {
    let corners = [
        (bbox[0], bbox[1]),
        (bbox[2], bbox[1]),
        (bbox[0], bbox[3]),
        (bbox[2], bbox[3]),
    ]
    .map(|(x, y)| {
        (
            form[0] * x + form[2] * y + form[4],
            form[1] * x + form[3] * y + form[5],
        )
    });
    let (x0, x1, y0, y1) = corners.iter().fold(
        (f32::MAX, f32::MIN, f32::MAX, f32::MIN),
        |(x0, x1, y0, y1), &(x, y)| (x0.min(x), x1.max(x), y0.min(y), y1.max(y)),
    );
    let (width, height) = (x1 - x0, y1 - y0);
    let (rx0, rx1) = (rect[0].min(rect[2]), rect[0].max(rect[2]));
    let (ry0, ry1) = (rect[1].min(rect[3]), rect[1].max(rect[3]));
    if !(width > 0.0 && height > 0.0) {
        return None;
    }
    let (sx, sy) = ((rx1 - rx0) / width, (ry1 - ry0) / height);
    Some([sx, 0.0, 0.0, sy, rx0 - x0 * sx, ry0 - y0 * sy])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_and_rotations_give_the_drawn_size() {
        let scaled = multiply([200.0, 0.0, 0.0, 100.0, 10.0, 10.0], IDENTITY);
        assert_eq!(unit_size(scaled), (200.0, 100.0));
        // Rotated 90 degrees then scaled by 2: the image is still 200 x 100 on the page.
        let rotated = multiply(
            [0.0, 100.0, -50.0, 0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        );
        assert_eq!(unit_size(rotated), (200.0, 100.0));
    }

    #[test]
    fn an_appearance_is_fitted_to_its_rectangle() {
        // A 100 x 50 box drawn into a 50 x 25 rectangle at (10, 20): half size.
        let fitted = fit([0.0, 0.0, 100.0, 50.0], IDENTITY, [10.0, 20.0, 60.0, 45.0]);
        assert_eq!(fitted, Some([0.5, 0.0, 0.0, 0.5, 10.0, 20.0]));
        // An empty box fits nothing.
        assert_eq!(fit([0.0; 4], IDENTITY, [0.0, 0.0, 1.0, 1.0]), None);
    }
}
