//! The rendering check: each page drawn by PDFium matches the input's outside the areas and
//! the removed glyphs.

use pdfium_render::prelude::*;
use quire_toolbox::redact::Rect;

use super::Checked;
pub use crate::pdf::compare::MAX_CHANGED_SHARE;
use crate::{
    pdf::{
        compare::{COMPARE_DPI, changed_outside, psnr_outside},
        redact::frame::Frame,
        render,
    },
    workers::protocol::Failure,
};

/// Pixels around each area left out of the comparison (antialiased edges, glyphs cut by it).
const MARGIN_PX: f64 = 2.0;

pub(super) fn rendering(
    input: &PdfDocument,
    output: &PdfDocument,
    areas: &[(u32, Rect)],
    pictured: &[u32],
    max_pixels: u64,
    checked: &mut Checked,
) -> Result<(), Failure> {
    let scale = f64::from(COMPARE_DPI) / 72.0;
    for (index, (before, after)) in input.pages().iter().zip(output.pages().iter()).enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let page_index = u32::try_from(index).unwrap_or(u32::MAX);
        let a = render::render(&before, page_index, COMPARE_DPI, max_pixels, true)?;
        let b = render::render(&after, page_index, COMPARE_DPI, max_pixels, true)?;
        let frame = Frame::of(&after);
        let on_page: Vec<Rect> = areas
            .iter()
            .filter(|(p, _)| *p == number)
            .map(|(_, r)| *r)
            .collect();
        // An annotation that reaches into an area is removed whole, and its appearance (a
        // link's border, a note's icon) may reach past the area.
        let removed_annotations: Vec<Rect> = before
            .annotations()
            .iter()
            .filter_map(|annotation| annotation.bounds().ok())
            .map(|b| Rect {
                x0: f64::from(b.left().value),
                y0: f64::from(b.bottom().value),
                x1: f64::from(b.right().value),
                y1: f64::from(b.top().value),
            })
            .filter(|r| {
                on_page
                    .iter()
                    .any(|a| a.x0 < r.x1 && r.x0 < a.x1 && a.y0 < r.y1 && r.y0 < a.y1)
            })
            .collect();
        let masks: Vec<[f64; 4]> = on_page
            .iter()
            .chain(&removed_annotations)
            .map(|r| {
                let p = frame.to_pixels(r.x0, r.y0, scale);
                let q = frame.to_pixels(r.x1, r.y1, scale);
                [
                    p.0.min(q.0) - MARGIN_PX,
                    p.1.min(q.1) - MARGIN_PX,
                    p.0.max(q.0) + MARGIN_PX,
                    p.1.max(q.1) + MARGIN_PX,
                ]
            })
            .collect();
        match psnr_outside(&a, &b, &masks) {
            None => checked.fail(number, "the page's size changed".to_owned()),
            Some(psnr) => {
                let changed = changed_outside(&a, &b, &masks);
                let limit = u64::from(a.width) * u64::from(a.height) / MAX_CHANGED_SHARE;
                // A page drawn as a picture is the input's own rendering with the areas painted
                // over: only its resolution differs, which this check is not about.
                if changed > limit && !pictured.contains(&number) {
                    checked.fail(
                        number,
                        format!(
                            "outside the areas {changed} pixels of the page drawn differ from the \
                             input ({psnr:.1} dB)"
                        ),
                    );
                }
                if !pictured.contains(&number) {
                    checked.most_changed = checked.most_changed.max(changed);
                }
                if psnr.is_finite() {
                    checked.worst_psnr =
                        Some(checked.worst_psnr.map_or(psnr, |w: f64| w.min(psnr)));
                }
            }
        }
    }
    Ok(())
}
