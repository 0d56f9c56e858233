//! Variable text laid out in a widget's box (ISO 32000-1 §12.7.3.3): one line centred
//! vertically, wrapped lines from the top, comb cells, list box rows; a size of 0 fits the text
//! to the box.

use super::face::Face;
use super::widget::Frame;
use crate::geometry::number;

/// The size auto-fit starts from for wrapped text and lists, as viewers do.
const AUTO_MAX: f64 = 12.0;
/// The smallest size auto-fit goes down to; text that still does not fit is clipped.
const AUTO_MIN: f64 = 4.0;
/// Line spacing, in font sizes.
const LEADING: f64 = 1.15;
/// The colour viewers highlight a list box's selected rows with.
const HIGHLIGHT: &str = "0.6 0.757 0.855 rg";

/// How a widget draws its text.
pub struct Style<'a> {
    pub face: &'a Face<'a>,
    /// 0: auto-fit.
    pub size: f64,
    pub colour: &'a str,
    /// 0 left, 1 centred, 2 right.
    pub quadding: u8,
}

impl Style<'_> {
    fn show(&self, size: f64, (x, y): (f64, f64), text: &str) -> String {
        let (name, _) = self.face.resource();
        format!(
            "BT {} {} Tf {} {} {} Td {} Tj ET\n",
            operand(&name),
            number(size),
            self.colour,
            number(x),
            number(y),
            self.face.show(text)
        )
    }

    fn x(&self, frame: &Frame, width: f64) -> f64 {
        let pad = frame.inset() + 1.0;
        match self.quadding {
            1 => (frame.width - width) / 2.0,
            2 => frame.width - pad - width,
            _ => pad,
        }
    }

    /// The size that fits one line in the box's height.
    fn height_fit(&self, frame: &Frame) -> f64 {
        ((frame.height - 2.0 * frame.inset()) / LEADING).max(AUTO_MIN)
    }
}

/// The appearance's content: the frame's decoration, then the text as marked content
/// (/Tx BMC ... EMC) clipped to the box less its inset.
pub fn wrap(frame: &Frame, text: &str) -> String {
    let inset = frame.inset();
    format!(
        "{}/Tx BMC\nq\n{} {} {} {} re W n\n{text}Q\nEMC\n",
        frame.decoration(),
        number(inset),
        number(inset),
        number((frame.width - 2.0 * inset).max(0.0)),
        number((frame.height - 2.0 * inset).max(0.0)),
    )
}

/// One line, centred vertically.
pub fn single_line(frame: &Frame, style: &Style, text: &str) -> String {
    let width = style.face.width(text);
    let size = if style.size > 0.0 {
        style.size
    } else {
        let room = frame.width - 2.0 * (frame.inset() + 1.0);
        let fit = if width > 0.0 { room / width } else { f64::MAX };
        style.height_fit(frame).min(fit).max(AUTO_MIN)
    };
    let (ascent, descent) = style.face.vertical();
    let y = (frame.height - (ascent - descent) * size) / 2.0 - descent * size;
    style.show(size, (style.x(frame, width * size), y), text)
}

/// One character per cell of a comb field of `cells` cells.
pub fn comb(frame: &Frame, style: &Style, text: &str, cells: u32) -> String {
    let cell = frame.width / f64::from(cells.max(1));
    let widest = text
        .chars()
        .map(|c| style.face.width(c.encode_utf8(&mut [0; 4])))
        .fold(0.0, f64::max);
    let size = if style.size > 0.0 {
        style.size
    } else {
        let fit = if widest > 0.0 {
            cell * 0.9 / widest
        } else {
            f64::MAX
        };
        style.height_fit(frame).min(fit).max(AUTO_MIN)
    };
    let (ascent, descent) = style.face.vertical();
    let y = (frame.height - (ascent - descent) * size) / 2.0 - descent * size;
    let mut ops = String::new();
    for (i, c) in text.chars().enumerate() {
        let c = c.to_string();
        let x = cell * i as f64 + (cell - style.face.width(&c) * size) / 2.0;
        ops.push_str(&style.show(size, (x, y), &c));
    }
    ops
}

/// Lines wrapped at word boundaries (a word wider than the box is broken), from the top.
pub fn multiline(frame: &Frame, style: &Style, text: &str) -> String {
    let room = frame.width - 2.0 * (frame.inset() + 1.0);
    let height = frame.height - 2.0 * frame.inset();
    let mut size = if style.size > 0.0 {
        style.size
    } else {
        AUTO_MAX.min(style.height_fit(frame))
    };
    let mut lines = wrap_lines(style.face, text, room / size);
    if style.size <= 0.0 {
        while size > AUTO_MIN && lines.len() as f64 * size * LEADING > height {
            size = (size - 0.5).max(AUTO_MIN);
            lines = wrap_lines(style.face, text, room / size);
        }
    }
    let (ascent, _) = style.face.vertical();
    let top = frame.height - frame.inset() - 1.0;
    let mut ops = String::new();
    for (i, line) in lines.iter().enumerate() {
        let y = top - ascent * size - i as f64 * size * LEADING;
        if line.is_empty() {
            continue;
        }
        let width = style.face.width(line) * size;
        ops.push_str(&style.show(size, (style.x(frame, width), y), line));
    }
    ops
}

/// `text`'s paragraphs broken into lines no wider than `room` (at size 1).
fn wrap_lines(face: &Face, text: &str, room: f64) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if face.width(&candidate) <= room {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            // A word wider than the box: as many characters a line as fit.
            for c in word.chars() {
                let mut longer = line.clone();
                longer.push(c);
                if !line.is_empty() && face.width(&longer) > room {
                    lines.push(std::mem::take(&mut line));
                    line.push(c);
                } else {
                    line = longer;
                }
            }
        }
        lines.push(line);
    }
    lines
}

/// A list box: one row per option from `top`, the selected ones highlighted.
pub fn list(
    frame: &Frame,
    style: &Style,
    labels: &[String],
    selected: &[usize],
    top: usize,
) -> String {
    let size = if style.size > 0.0 {
        style.size
    } else {
        AUTO_MAX.min(style.height_fit(frame))
    };
    let row = size * LEADING;
    let inset = frame.inset();
    let (ascent, descent) = style.face.vertical();
    let mut ops = String::new();
    let mut y_top = frame.height - inset;
    for (index, label) in labels.iter().enumerate().skip(top) {
        if y_top <= inset {
            break;
        }
        if selected.contains(&index) {
            ops.push_str(&format!(
                "{HIGHLIGHT} {} {} {} {} re f\n",
                number(inset),
                number(y_top - row),
                number(frame.width - 2.0 * inset),
                number(row)
            ));
        }
        let y = y_top - row + (row - (ascent - descent) * size) / 2.0 - descent * size;
        let width = style.face.width(label) * size;
        ops.push_str(&style.show(size, (style.x(frame, width), y), label));
        y_top -= row;
    }
    ops
}

/// A name as an operand: the `/` and its characters, `#`-escaped where needed.
pub fn operand(name: &[u8]) -> String {
    let mut out = String::from("/");
    for &byte in name {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'+') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("#{byte:02X}"));
        }
    }
    out
}
