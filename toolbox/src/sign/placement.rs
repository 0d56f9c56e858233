//! Where a visible signature goes: the placement's shares of the displayed page turned into a
//! box on the page as displayed, and into the page's own space.

use lopdf::Document;

use super::Placement;
use crate::ToolError;
use crate::geometry::{self, Frame, Matrix, Rect};
use crate::pages::Tree;

/// How far past the page's edge a box may reach, in shares of the page, before it counts as
/// leaving the page: a box placed flush with an edge by a browser's floating-point maths.
const TOLERANCE: f64 = 1e-3;

/// A signature box on one page.
pub struct Spot {
    /// 0-based.
    pub index: usize,
    /// Displayed size, in points.
    pub width: f64,
    pub height: f64,
    /// The box in the page's user space.
    pub rect: Rect,
    /// The page's turn, without translation: a widget's appearance drawn through it shows
    /// upright on the displayed page.
    pub turn: Matrix,
    /// From the box's own space (origin at its displayed lower-left corner) to user space.
    pub to_user: Matrix,
}

/// The numbers of a placement, checked before the document is read.
pub fn check(placement: &Placement) -> Result<(), ToolError> {
    let Placement { x, y, width, .. } = *placement;
    if !(x.is_finite() && (0.0..1.0).contains(&x) && y.is_finite() && (0.0..1.0).contains(&y)) {
        return Err(ToolError::BadOptions(format!(
            "the signature is placed at ({x}, {y}): give its top-left corner in shares of the \
             page from 0 to below 1"
        )));
    }
    if !(width.is_finite() && width > 0.0 && width <= 1.0) {
        return Err(ToolError::BadOptions(format!(
            "the signature is {width} of the page wide: use a share above 0 and at most 1"
        )));
    }
    Ok(())
}

/// The box `placement` asks for on its page, `aspect` (height over width) tall.
pub fn locate(
    doc: &Document,
    tree: &Tree,
    placement: &Placement,
    aspect: f64,
) -> Result<Spot, ToolError> {
    let count = tree.pages.len();
    // 0 is the last page, where signatures usually go.
    let index = match placement.page {
        0 => count.saturating_sub(1),
        page => page as usize - 1,
    };
    let Some(page) = tree.pages.get(index) else {
        return Err(ToolError::BadOptions(format!(
            "the signature is to go on page {} but the PDF has {count} page{}: choose a page \
             from 1 to {count}",
            placement.page,
            if count == 1 { "" } else { "s" }
        )));
    };
    let frame = Frame::of(doc, page);
    let width = f64::from(placement.width) * frame.width;
    let height = width * aspect;
    let left = f64::from(placement.x) * frame.width;
    let top = f64::from(placement.y) * frame.height;
    if left + width > frame.width * (1.0 + TOLERANCE)
        || top + height > frame.height * (1.0 + TOLERANCE)
    {
        return Err(ToolError::BadOptions(format!(
            "the signature ({:.0} x {:.0} points) does not fit on page {} ({:.0} x {:.0} \
             points) where it is placed: move it up or left, or make it smaller",
            width, height, placement.page, frame.width, frame.height
        )));
    }
    let bottom = frame.height - top - height;
    let shown = [left, bottom, left + width, bottom + height];
    let [a, b, c, d, _, _] = frame.to_user;
    Ok(Spot {
        index,
        width,
        height,
        rect: geometry::transform_rect(frame.to_user, shown),
        turn: [a, b, c, d, 0.0, 0.0],
        to_user: geometry::multiply([1.0, 0.0, 0.0, 1.0, left, bottom], frame.to_user),
    })
}
