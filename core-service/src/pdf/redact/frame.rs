//! Where a page is shown: the page's crop box turned by its /Rotate. The browser marks areas
//! on the page as displayed, in shares of its width and height from the top-left corner;
//! the engine and PDFium's character boxes work in the page's default user space.

use pdfium_render::prelude::*;
use quire_toolbox::redact::Rect;

/// One page's displayed frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The crop box in user space: left, bottom, right, top.
    crop: [f64; 4],
    /// Clockwise quarter turns, 0 to 3.
    turns: u8,
}

impl Frame {
    pub fn new(crop: [f64; 4], turns: u8) -> Frame {
        let [x0, y0, x1, y1] = crop;
        Frame {
            crop: [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)],
            turns: turns % 4,
        }
    }

    pub fn of(page: &PdfPage) -> Frame {
        let bounds = page
            .boundaries()
            .crop()
            .or_else(|_| page.boundaries().media())
            .map(|b| b.bounds)
            .unwrap_or(PdfRect::ZERO);
        let turns = match page.rotation() {
            Ok(PdfPageRenderRotation::Degrees90) => 1,
            Ok(PdfPageRenderRotation::Degrees180) => 2,
            Ok(PdfPageRenderRotation::Degrees270) => 3,
            _ => 0,
        };
        Frame::new(
            [
                f64::from(bounds.left().value),
                f64::from(bounds.bottom().value),
                f64::from(bounds.right().value),
                f64::from(bounds.top().value),
            ],
            turns,
        )
    }

    /// Width and height as displayed, in points.
    pub fn displayed(&self) -> (f64, f64) {
        let [x0, y0, x1, y1] = self.crop;
        if self.turns % 2 == 1 {
            (y1 - y0, x1 - x0)
        } else {
            (x1 - x0, y1 - y0)
        }
    }

    /// A displayed point (points from the top-left corner) in user space.
    fn to_user(self, u: f64, v: f64) -> (f64, f64) {
        let [x0, y0, x1, y1] = self.crop;
        match self.turns {
            // A quarter turn clockwise puts the crop box's bottom-left corner at the top-left.
            1 => (x0 + v, y0 + u),
            2 => (x1 - u, y0 + v),
            3 => (x1 - v, y1 - u),
            _ => (x0 + u, y1 - v),
        }
    }

    /// A user-space point as displayed (points from the top-left corner).
    fn to_displayed(self, x: f64, y: f64) -> (f64, f64) {
        let [x0, y0, x1, y1] = self.crop;
        match self.turns {
            1 => (y - y0, x - x0),
            2 => (x1 - x, y - y0),
            3 => (y1 - y, x1 - x),
            _ => (x - x0, y1 - y),
        }
    }

    /// A displayed rectangle given in shares of the page into user space.
    pub fn user_rect(&self, x: f64, y: f64, width: f64, height: f64) -> Rect {
        let (w, h) = self.displayed();
        let a = self.to_user(x * w, y * h);
        let b = self.to_user((x + width) * w, (y + height) * h);
        Rect {
            x0: a.0.min(b.0),
            y0: a.1.min(b.1),
            x1: a.0.max(b.0),
            y1: a.1.max(b.1),
        }
    }

    /// A user-space rectangle as shares of the displayed page: x, y, width, height.
    pub fn shares(&self, rect: &Rect) -> [f64; 4] {
        let (w, h) = self.displayed();
        let a = self.to_displayed(rect.x0, rect.y0);
        let b = self.to_displayed(rect.x1, rect.y1);
        let (u0, u1) = (a.0.min(b.0), a.0.max(b.0));
        let (v0, v1) = (a.1.min(b.1), a.1.max(b.1));
        let share = |value: f64, of: f64| if of > 0.0 { value / of } else { 0.0 };
        [
            share(u0, w),
            share(v0, h),
            share(u1 - u0, w),
            share(v1 - v0, h),
        ]
    }

    /// A user-space point in pixels of the page rendered `scale` pixels per point.
    pub fn to_pixels(self, x: f64, y: f64, scale: f64) -> (f64, f64) {
        let (u, v) = self.to_displayed(x, y);
        (u * scale, v * scale)
    }

    /// A pixel of the page rendered `scale` pixels per point, in user space.
    pub fn from_pixels(&self, px: f64, py: f64, scale: f64) -> (f64, f64) {
        self.to_user(px / scale, py / scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 4], b: [f64; 4]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn shares_round_trip_at_every_rotation() {
        for turns in 0..4 {
            let frame = Frame::new([10.0, 20.0, 610.0, 820.0], turns);
            let rect = frame.user_rect(0.1, 0.2, 0.3, 0.05);
            let back = frame.shares(&rect);
            assert!(close(back, [0.1, 0.2, 0.3, 0.05]), "{turns}: {back:?}");
        }
    }

    #[test]
    fn a_quarter_turn_puts_the_bottom_left_corner_top_left() {
        let frame = Frame::new([0.0, 0.0, 600.0, 800.0], 1);
        assert_eq!(frame.displayed(), (800.0, 600.0));
        let corner = frame.user_rect(0.0, 0.0, 0.01, 0.01);
        assert!((corner.x0 - 0.0).abs() < 1e-9 && (corner.y0 - 0.0).abs() < 1e-9);
        // The displayed top-right corner is the crop box's top-left.
        let top_right = frame.user_rect(0.99, 0.0, 0.01, 0.01);
        assert!((top_right.x0 - 0.0).abs() < 1e-9 && (top_right.y1 - 800.0).abs() < 1e-9);
    }

    #[test]
    fn unrotated_pages_count_from_the_top() {
        let frame = Frame::new([0.0, 0.0, 612.0, 792.0], 0);
        let rect = frame.user_rect(0.0, 0.0, 0.5, 0.25);
        assert!(close(
            [rect.x0, rect.y0, rect.x1, rect.y1],
            [0.0, 594.0, 306.0, 792.0]
        ));
        assert_eq!(frame.to_pixels(0.0, 792.0, 2.0), (0.0, 0.0));
        assert_eq!(frame.from_pixels(612.0, 0.0, 2.0), (306.0, 792.0));
    }
}
