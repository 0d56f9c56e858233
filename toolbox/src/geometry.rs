//! Boxes and matrices shared by the tools that draw on pages (stamps, layout, flatten, images
//! to PDF): a page's visible box (its CropBox within its MediaBox) as a reader displays it,
//! turned by /Rotate, the affine maps between spaces, and numbers as content streams write
//! them.

use std::fmt::Write as _;

use lopdf::{Document, Object};

use crate::pages::{self, PageRef};

/// `[x0 y0 x1 y1]`, normalized (x0 < x1, y0 < y1).
pub type Rect = [f64; 4];

/// `[a b c d e f]`: (x, y) -> (a x + c y + e, b x + d y + f), as PDF writes matrices.
pub type Matrix = [f64; 6];

/// The media box of a page that has none (US Letter), as readers assume.
const LETTER: Rect = [0.0, 0.0, 612.0, 792.0];

/// The smallest side a box may have to count as one.
const MIN_SIDE: f64 = 1.0;

/// One page as displayed: its visible box, turned.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// The visible box in the page's user space.
    pub visible: Rect,
    pub media: Rect,
    /// 0, 90, 180 or 270.
    pub rotate: i64,
    /// Displayed size.
    pub width: f64,
    pub height: f64,
    /// From displayed coordinates (origin at the displayed lower-left corner) to user space.
    pub to_user: Matrix,
}

impl Frame {
    pub fn of(doc: &Document, page: &PageRef) -> Frame {
        let media = page_rect(doc, page, b"MediaBox").unwrap_or(LETTER);
        let visible = page_rect(doc, page, b"CropBox")
            .and_then(|crop| intersection(crop, media))
            .unwrap_or(media);
        Frame::new(visible, media, rotation(doc, page))
    }

    /// The frame of `visible` turned `rotate` degrees clockwise.
    pub fn new(visible: Rect, media: Rect, rotate: i64) -> Frame {
        let [x0, y0, x1, y1] = visible;
        let (w, h) = (x1 - x0, y1 - y0);
        // Each matrix undoes the reader's clockwise turn: the displayed lower-left corner is
        // the box's lower-left, lower-right, upper-right or upper-left corner.
        let (width, height, to_user) = match rotate {
            90 => (h, w, [0.0, 1.0, -1.0, 0.0, x1, y0]),
            180 => (w, h, [-1.0, 0.0, 0.0, -1.0, x1, y1]),
            270 => (h, w, [0.0, -1.0, 1.0, 0.0, x0, y1]),
            _ => (w, h, [1.0, 0.0, 0.0, 1.0, x0, y0]),
        };
        Frame {
            visible,
            media,
            rotate,
            width,
            height,
            to_user,
        }
    }

    /// From user space to displayed coordinates.
    pub fn shown_from_user(&self) -> Matrix {
        // The matrices above are rotations with a translation: always invertible.
        invert(self.to_user).unwrap_or(IDENTITY)
    }

    /// The map from user space onto `cell` (on a sheet): the displayed page scaled, aspect
    /// kept, to fit the cell and centred in it.
    pub fn fit_into(&self, cell: Rect) -> Matrix {
        let (cw, ch) = (cell[2] - cell[0], cell[3] - cell[1]);
        let scale = (cw / self.width).min(ch / self.height);
        let x = cell[0] + (cw - self.width * scale) / 2.0;
        let y = cell[1] + (ch - self.height * scale) / 2.0;
        multiply(self.shown_from_user(), [scale, 0.0, 0.0, scale, x, y])
    }

    /// The user-space point shown at the displayed upper-left corner.
    pub fn top_left(&self) -> (f64, f64) {
        apply(self.to_user, (0.0, self.height))
    }
}

pub const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `first` then `second`.
pub fn multiply(first: Matrix, second: Matrix) -> Matrix {
    let [a1, b1, c1, d1, e1, f1] = first;
    let [a2, b2, c2, d2, e2, f2] = second;
    [
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    ]
}

pub fn invert([a, b, c, d, e, f]: Matrix) -> Option<Matrix> {
    let det = a * d - b * c;
    if det.abs() < 1e-12 || !det.is_finite() {
        return None;
    }
    let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det);
    Some([ia, ib, ic, id, -(e * ia + f * ic), -(e * ib + f * id)])
}

pub fn apply([a, b, c, d, e, f]: Matrix, (x, y): (f64, f64)) -> (f64, f64) {
    (a * x + c * y + e, b * x + d * y + f)
}

/// The box that holds `rect` once mapped by `m`.
pub fn transform_rect(m: Matrix, [x0, y0, x1, y1]: Rect) -> Rect {
    let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|p| apply(m, p));
    let mut out = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for (x, y) in corners {
        out = [out[0].min(x), out[1].min(y), out[2].max(x), out[3].max(y)];
    }
    out
}

/// What two boxes share, if it has an area.
pub fn intersection(a: Rect, b: Rect) -> Option<Rect> {
    let shared = [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ];
    (shared[2] - shared[0] >= MIN_SIDE && shared[3] - shared[1] >= MIN_SIDE).then_some(shared)
}

/// The rotation a reader applies: /Rotate, own or inherited, as a multiple of 90 in 0..360;
/// anything else counts as 0, as readers draw it.
fn rotation(doc: &Document, page: &PageRef) -> i64 {
    let degrees = match pages::effective(doc, page, b"Rotate") {
        Some(Object::Integer(degrees)) => *degrees,
        Some(Object::Real(degrees)) if degrees.is_finite() => degrees.round() as i64,
        _ => 0,
    };
    let degrees = degrees.rem_euclid(360);
    if degrees % 90 == 0 { degrees } else { 0 }
}

/// A page box, own or inherited, normalized.
pub fn page_rect(doc: &Document, page: &PageRef, key: &[u8]) -> Option<Rect> {
    rect(doc, pages::effective(doc, page, key)?)
}

/// Four finite numbers with an area, normalized; `None` otherwise.
pub fn rect(doc: &Document, object: &Object) -> Option<Rect> {
    let values = doc.dereference(object).ok()?.1.as_array().ok()?;
    if values.len() != 4 {
        return None;
    }
    let mut numbers = [0.0; 4];
    for (slot, value) in numbers.iter_mut().zip(values) {
        *slot = number_of(doc.dereference(value).ok()?.1)?;
    }
    let [a, b, c, d] = numbers;
    let rect = [a.min(c), b.min(d), a.max(c), b.max(d)];
    (rect[2] - rect[0] >= MIN_SIDE && rect[3] - rect[1] >= MIN_SIDE).then_some(rect)
}

/// A finite number.
pub fn number_of(object: &Object) -> Option<f64> {
    let value = match object {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        _ => return None,
    };
    value.is_finite().then_some(value)
}

/// A box as a PDF array.
pub fn rect_object(rect: Rect) -> Object {
    Object::Array(rect.iter().map(|&v| real(v)).collect())
}

/// A coordinate as a PDF number: an integer when it is one, else a real.
pub fn real(value: f64) -> Object {
    let rounded = (value * 1000.0).round() / 1000.0;
    if rounded.fract() == 0.0 && rounded.abs() < 1e9 {
        Object::Integer(rounded as i64)
    } else {
        Object::Real(rounded as f32)
    }
}

/// A `cm` operator for `m`.
pub fn cm(m: Matrix) -> String {
    cm_to(m, 6)
}

/// A `cm` operator for `m`, its numbers with at most `decimals` decimals.
pub fn cm_to(m: Matrix, decimals: usize) -> String {
    let mut out = String::new();
    for value in m {
        out.push_str(&number_to(value, decimals));
        out.push(' ');
    }
    out.push_str("cm");
    out
}

/// A number as content streams write it: at most 6 decimals, no exponent, no "-0".
pub fn number(value: f64) -> String {
    number_to(value, 6)
}

/// As [`number`], with at most `decimals` decimals; anything not finite is 0.
pub fn number_to(value: f64, decimals: usize) -> String {
    let value = if value.is_finite() { value } else { 0.0 };
    let mut text = String::new();
    let _ = write!(text, "{value:.decimals$}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".into(),
        text => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_from_user_undoes_to_user_and_fit_centres() {
        let media = [0.0, 0.0, 600.0, 800.0];
        for rotate in [0, 90, 180, 270] {
            let frame = Frame::new([10.0, 20.0, 110.0, 220.0], media, rotate);
            let round = multiply(frame.to_user, frame.shown_from_user());
            for (got, want) in round.iter().zip(IDENTITY) {
                assert!((got - want).abs() < 1e-9, "{rotate}: {round:?}");
            }
            let m = frame.fit_into([0.0, 0.0, 400.0, 400.0]);
            let placed = transform_rect(m, frame.visible);
            let (w, h) = (placed[2] - placed[0], placed[3] - placed[1]);
            assert!((w.max(h) - 400.0).abs() < 1e-9, "{rotate}: {placed:?}");
            assert!((placed[0] + placed[2] - 400.0).abs() < 1e-9);
            assert!((placed[1] + placed[3] - 400.0).abs() < 1e-9);
        }
        assert_eq!(number(-0.0000001), "0");
        assert_eq!(number(0.1234567), "0.123457");
        assert_eq!(real(595.28), Object::Real(595.28));
        assert_eq!(real(36.0), Object::Integer(36));
    }
}
