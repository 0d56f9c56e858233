//! The boxes that mark the areas: filled in the chosen colour in default user space, after the
//! page's content, with the label (if any) centred in each, upright as the page is displayed,
//! shrunk to fit, in black or white, whichever stands out against the fill.

use std::fmt::Write as _;

use crate::geometry::{Frame, Rect, apply, number, transform_rect};
use crate::stamp::content::name as operand_name;
use crate::stamp::font::Font;

/// The label's largest size, and the smallest worth drawing (below it the box stays plain).
const MAX_LABEL: f64 = 24.0;
const MIN_LABEL: f64 = 3.0;

/// The share of a box's displayed width and height the label may take.
const LABEL_SHARE: f64 = 0.85;

/// The label, and the font resource name it is drawn with.
pub struct Label<'a> {
    pub text: &'a str,
    pub font: &'a Font,
    pub resource: &'a [u8],
}

/// Operators drawing the boxes of `areas` (balanced: `q ... Q`).
pub fn draw(areas: &[Rect], fill: [u8; 3], label: Option<&Label<'_>>, frame: &Frame) -> String {
    let [r, g, b] = fill.map(|c| number(f64::from(c) / 255.0));
    let mut out = format!("q {r} {g} {b} rg\n");
    for area in areas {
        let _ = writeln!(
            out,
            "{} {} {} {} re f",
            number(area[0]),
            number(area[1]),
            number(area[2] - area[0]),
            number(area[3] - area[1])
        );
    }
    if let Some(label) = label {
        // Perceived brightness (ITU-R BT.601): dark text on light fills.
        let brightness =
            0.299 * f64::from(fill[0]) + 0.587 * f64::from(fill[1]) + 0.114 * f64::from(fill[2]);
        let ink = if brightness > 140.0 { "0 g" } else { "1 g" };
        for area in areas {
            out.push_str(&text(area, ink, label, frame));
        }
    }
    out.push_str("Q\n");
    out
}

/// The label centred in one box, or nothing when the box is too small for it.
fn text(area: &Rect, ink: &str, label: &Label<'_>, frame: &Frame) -> String {
    let shown = transform_rect(frame.shown_from_user(), *area);
    let (width, height) = (shown[2] - shown[0], shown[3] - shown[1]);
    let (ascent, descent) = label.font.vertical();
    let unit = label.font.width(label.text);
    if unit <= 0.0 || ascent - descent <= 0.0 {
        return String::new();
    }
    let size = (width * LABEL_SHARE / unit)
        .min(height * LABEL_SHARE / (ascent - descent))
        .min(MAX_LABEL);
    if size < MIN_LABEL {
        return String::new();
    }
    // The baseline's start in displayed coordinates, then in user space; the text turns with
    // the page so that it reads upright.
    let x = (shown[0] + shown[2]) / 2.0 - unit * size / 2.0;
    let y = (shown[1] + shown[3]) / 2.0 - (ascent + descent) * size / 2.0;
    let (ux, uy) = apply(frame.to_user, (x, y));
    let [a, b, c, d, _, _] = frame.to_user;
    format!(
        "BT {} {} Tf 0 Tc 0 Tw 100 Tz 0 Ts 0 Tr {ink} {} {} {} {} {} {} Tm {} Tj ET\n",
        operand_name(label.resource),
        number(size),
        number(a),
        number(b),
        number(c),
        number(d),
        number(ux),
        number(uy),
        label.font.show(label.text),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_and_a_label_that_fits() {
        let frame = Frame::new([0.0, 0.0, 600.0, 800.0], [0.0, 0.0, 600.0, 800.0], 0);
        let font = Font::Helvetica;
        let label = Label {
            text: "REDACTED",
            font: &font,
            resource: b"RdLabel",
        };
        let drawn = draw(
            &[[100.0, 100.0, 300.0, 120.0], [0.0, 0.0, 5.0, 5.0]],
            [0, 0, 0],
            Some(&label),
            &frame,
        );
        assert!(drawn.starts_with("q 0 0 0 rg\n100 100 200 20 re f\n0 0 5 5 re f\n"));
        // White on black, once: the small box gets no label.
        assert_eq!(drawn.matches(" Tj ").count(), 1);
        assert!(drawn.contains("1 g") && drawn.ends_with("Q\n"));
        let turned = Frame::new([0.0, 0.0, 600.0, 800.0], [0.0, 0.0, 600.0, 800.0], 90);
        let drawn = draw(
            &[[100.0, 100.0, 120.0, 300.0]],
            [255, 255, 255],
            Some(&label),
            &turned,
        );
        // Upright on a page turned a quarter clockwise: the text runs up the page.
        assert!(drawn.contains("0 g 0 1 -1 0 "), "{drawn}");
    }
}
