//! The page as a reader displays it: its visible box (the CropBox within the MediaBox) turned
//! by its /Rotate. Marks are laid out in that displayed frame, from its lower-left corner, and
//! a matrix takes the frame back to the page's own space.

use std::fmt::Write as _;

use lopdf::{Document, Object};

use super::Position;
use crate::pages::{self, PageRef};

/// The media box of a page that has none (US Letter), as readers assume.
const LETTER: [f64; 4] = [0.0, 0.0, 612.0, 792.0];

/// One page's displayed frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub width: f64,
    pub height: f64,
    /// From displayed coordinates to the page's user space.
    matrix: [f64; 6],
}

impl Frame {
    pub fn of(doc: &Document, page: &PageRef) -> Frame {
        let media = rect(doc, page, b"MediaBox").unwrap_or(LETTER);
        let visible = rect(doc, page, b"CropBox")
            .and_then(|crop| intersection(crop, media))
            .unwrap_or(media);
        Frame::new(visible, rotation(doc, page))
    }

    /// The frame of the box `[x0 y0 x1 y1]` (normalized) turned `rotate` degrees clockwise.
    pub fn new([x0, y0, x1, y1]: [f64; 4], rotate: i64) -> Frame {
        let (w, h) = (x1 - x0, y1 - y0);
        // Each matrix undoes the reader's clockwise turn: the displayed lower-left corner
        // is the box's lower-left, lower-right, upper-right or upper-left corner.
        let (width, height, matrix) = match rotate {
            90 => (h, w, [0.0, 1.0, -1.0, 0.0, x1, y0]),
            180 => (w, h, [-1.0, 0.0, 0.0, -1.0, x1, y1]),
            270 => (h, w, [0.0, -1.0, 1.0, 0.0, x0, y1]),
            _ => (w, h, [1.0, 0.0, 0.0, 1.0, x0, y0]),
        };
        Frame {
            width,
            height,
            matrix,
        }
    }

    /// The `cm` operator that makes displayed coordinates current.
    pub fn cm(&self) -> String {
        matrix_cm(self.matrix)
    }

    /// The lower-left corner of a `w` x `h` box at `position`, `margin` from the edges.
    pub fn place(&self, position: Position, w: f64, h: f64, margin: f64) -> (f64, f64) {
        use Position::*;
        let x = match position {
            TopLeft | MiddleLeft | BottomLeft => margin,
            TopCenter | Center | BottomCenter => (self.width - w) / 2.0,
            TopRight | MiddleRight | BottomRight => self.width - margin - w,
        };
        let y = match position {
            BottomLeft | BottomCenter | BottomRight => margin,
            MiddleLeft | Center | MiddleRight => (self.height - h) / 2.0,
            TopLeft | TopCenter | TopRight => self.height - margin - h,
        };
        (x, y)
    }
}

/// A `cm` operator for `[a b c d e f]`.
pub fn matrix_cm(matrix: [f64; 6]) -> String {
    let mut out = String::new();
    for value in matrix {
        out.push_str(&number(value));
        out.push(' ');
    }
    out.push_str("cm\n");
    out
}

/// A number as content streams write it: at most 4 decimals, no exponent, no "-0".
pub fn number(value: f64) -> String {
    let value = if value.is_finite() { value } else { 0.0 };
    let mut text = String::new();
    let _ = write!(text, "{:.4}", value);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".into(),
        text => text.into(),
    }
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

/// A page box, normalized; `None` when missing or not four finite numbers with an area.
fn rect(doc: &Document, page: &PageRef, key: &[u8]) -> Option<[f64; 4]> {
    let Object::Array(values) = pages::effective(doc, page, key)? else {
        return None;
    };
    let mut numbers = [0.0; 4];
    if values.len() != 4 {
        return None;
    }
    for (slot, value) in numbers.iter_mut().zip(values) {
        let value = doc.dereference(value).ok()?.1;
        *slot = match value {
            Object::Integer(i) => *i as f64,
            Object::Real(r) => f64::from(*r),
            _ => return None,
        };
        if !slot.is_finite() {
            return None;
        }
    }
    let [a, b, c, d] = numbers;
    let rect = [a.min(c), b.min(d), a.max(c), b.max(d)];
    (rect[2] - rect[0] >= 1.0 && rect[3] - rect[1] >= 1.0).then_some(rect)
}

/// What two boxes share, if it has an area.
fn intersection(a: [f64; 4], b: [f64; 4]) -> Option<[f64; 4]> {
    let shared = [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ];
    (shared[2] - shared[0] >= 1.0 && shared[3] - shared[1] >= 1.0).then_some(shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a displayed point lands in user space.
    fn apply(frame: &Frame, (u, v): (f64, f64)) -> (f64, f64) {
        let [a, b, c, d, e, f] = frame.matrix;
        (a * u + c * v + e, b * u + d * v + f)
    }

    #[test]
    fn the_displayed_lower_left_corner_per_rotation() {
        let box_ = [10.0, 20.0, 110.0, 220.0];
        // Displayed lower-left and lower-right corners, in user space.
        let cases = [
            (0, (100.0, 200.0), (10.0, 20.0), (110.0, 20.0)),
            (90, (200.0, 100.0), (110.0, 20.0), (110.0, 220.0)),
            (180, (100.0, 200.0), (110.0, 220.0), (10.0, 220.0)),
            (270, (200.0, 100.0), (10.0, 220.0), (10.0, 20.0)),
        ];
        for (rotate, size, lower_left, lower_right) in cases {
            let frame = Frame::new(box_, rotate);
            assert_eq!((frame.width, frame.height), size, "{rotate}");
            assert_eq!(apply(&frame, (0.0, 0.0)), lower_left, "{rotate}");
            assert_eq!(apply(&frame, (frame.width, 0.0)), lower_right, "{rotate}");
        }
    }

    #[test]
    fn placing_and_numbers() {
        let frame = Frame::new([0.0, 0.0, 200.0, 100.0], 0);
        assert_eq!(
            frame.place(Position::BottomCenter, 20.0, 10.0, 5.0),
            (90.0, 5.0)
        );
        assert_eq!(
            frame.place(Position::TopRight, 20.0, 10.0, 5.0),
            (175.0, 85.0)
        );
        assert_eq!(frame.place(Position::Center, 20.0, 10.0, 5.0), (90.0, 45.0));
        assert_eq!(number(1.0), "1");
        assert_eq!(number(-0.00001), "0");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(-12.34567), "-12.3457");
        assert_eq!(number(f64::NAN), "0");
    }
}
