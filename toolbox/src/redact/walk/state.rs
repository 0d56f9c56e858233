//! The graphics and text state a content stream changes as it draws: what places glyphs, paths
//! and images on the page.

use std::rc::Rc;

use crate::geometry::{IDENTITY, Matrix, multiply};
use crate::redact::fonts::Font;

/// A font as selected by Tf: read, or why it cannot be.
pub type Selected = Rc<Result<Font, &'static str>>;

/// What `q` saves and `Q` restores, as far as redaction needs it.
#[derive(Clone)]
pub struct GState {
    /// From the stream's user space to the page's default user space.
    pub ctm: Matrix,
    pub font: Option<Selected>,
    pub size: f64,
    /// Tc, Tw, Tz / 100, TL, Ts, Tr.
    pub char_spacing: f64,
    pub word_spacing: f64,
    pub scale: f64,
    pub leading: f64,
    pub rise: f64,
    pub line_width: f64,
    /// Whether the fill (stroke) colour space is a pattern, and the pattern set.
    pub fill_pattern: Option<Option<Vec<u8>>>,
    pub stroke_pattern: Option<Option<Vec<u8>>>,
}

impl GState {
    pub fn new(ctm: Matrix) -> GState {
        GState {
            ctm,
            font: None,
            size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            scale: 1.0,
            leading: 0.0,
            rise: 0.0,
            line_width: 1.0,
            fill_pattern: None,
            stroke_pattern: None,
        }
    }

    /// How much a length in user space grows on the page: the longer of the CTM's axes.
    pub fn magnification(&self) -> f64 {
        let [a, b, c, d, _, _] = self.ctm;
        a.hypot(b).max(c.hypot(d))
    }
}

/// The text matrix and the text line matrix.
#[derive(Clone, Copy)]
pub struct TextState {
    pub matrix: Matrix,
    pub line: Matrix,
}

impl TextState {
    pub fn new() -> TextState {
        TextState {
            matrix: IDENTITY,
            line: IDENTITY,
        }
    }

    /// Td: the next line, offset from the start of this one.
    pub fn next_line(&mut self, tx: f64, ty: f64) {
        self.line = multiply([1.0, 0.0, 0.0, 1.0, tx, ty], self.line);
        self.matrix = self.line;
    }

    pub fn set(&mut self, m: Matrix) {
        self.line = m;
        self.matrix = m;
    }

    /// Moves the text position along the line (horizontal writing) or down it (vertical).
    pub fn advance(&mut self, tx: f64, ty: f64) {
        self.matrix = multiply([1.0, 0.0, 0.0, 1.0, tx, ty], self.matrix);
    }
}
