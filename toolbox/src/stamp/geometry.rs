//! Where marks go on the page as displayed: the page's frame (its visible box turned by its
//! /Rotate, from the crate's geometry) and a position in it. Marks are laid out from the
//! frame's lower-left corner, and the frame's matrix takes them back to the page's own space.
//! Stamps write their numbers with 4 decimals, a hundredth of a point's precision to spare.

use super::Position;
pub use crate::geometry::Frame;
use crate::geometry::{self, Matrix};

/// Decimals of the numbers stamps write.
const DECIMALS: usize = 4;

/// The `cm` operator that makes `frame`'s displayed coordinates current.
pub fn cm(frame: &Frame) -> String {
    matrix_cm(frame.to_user)
}

/// The lower-left corner of a `w` x `h` box at `position` in `frame`, `margin` from the edges.
pub fn place(frame: &Frame, position: Position, w: f64, h: f64, margin: f64) -> (f64, f64) {
    use Position::*;
    let x = match position {
        TopLeft | MiddleLeft | BottomLeft => margin,
        TopCenter | Center | BottomCenter => (frame.width - w) / 2.0,
        TopRight | MiddleRight | BottomRight => frame.width - margin - w,
    };
    let y = match position {
        BottomLeft | BottomCenter | BottomRight => margin,
        MiddleLeft | Center | MiddleRight => (frame.height - h) / 2.0,
        TopLeft | TopCenter | TopRight => frame.height - margin - h,
    };
    (x, y)
}

/// A `cm` operator for `matrix`, with its line end.
pub fn matrix_cm(matrix: Matrix) -> String {
    geometry::cm_to(matrix, DECIMALS) + "\n"
}

/// A number as content streams write it: at most 4 decimals, no exponent, no "-0".
pub fn number(value: f64) -> String {
    geometry::number_to(value, DECIMALS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a displayed point lands in user space.
    fn apply(frame: &Frame, point: (f64, f64)) -> (f64, f64) {
        geometry::apply(frame.to_user, point)
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
            let frame = Frame::new(box_, box_, rotate);
            assert_eq!((frame.width, frame.height), size, "{rotate}");
            assert_eq!(apply(&frame, (0.0, 0.0)), lower_left, "{rotate}");
            assert_eq!(apply(&frame, (frame.width, 0.0)), lower_right, "{rotate}");
        }
    }

    #[test]
    fn placing_and_numbers() {
        let page = [0.0, 0.0, 200.0, 100.0];
        let frame = Frame::new(page, page, 0);
        assert_eq!(
            place(&frame, Position::BottomCenter, 20.0, 10.0, 5.0),
            (90.0, 5.0)
        );
        assert_eq!(
            place(&frame, Position::TopRight, 20.0, 10.0, 5.0),
            (175.0, 85.0)
        );
        assert_eq!(
            place(&frame, Position::Center, 20.0, 10.0, 5.0),
            (90.0, 45.0)
        );
        assert_eq!(number(1.0), "1");
        assert_eq!(number(-0.00001), "0");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(-12.34567), "-12.3457");
        assert_eq!(number(f64::NAN), "0");
    }
}
