//! Content streams written again with fewer bytes, the operations unchanged: one space only
//! where two tokens would otherwise run together, none beside a delimiter, comments dropped,
//! numbers without their redundant zeros and signs (`0.500` is `.5`, `-0` is `0`). At screen
//! and ebook, fractions are also cut to six significant digits, the precision Ghostscript's
//! pdfwrite writes its numbers with (`%g`): finer than a float32 reader keeps, and on a page
//! an error of at most half a millionth of a coordinate. Strings, names, inline images and
//! every token that is not a plain number are copied byte for byte.
//!
//! A stream this lexer does not read whole (an unbalanced string, a stray `)` or `>`, a
//! hexadecimal string holding something else than digits, an inline image whose end is in
//! doubt) is left as it is.

use lexer::{Kind, Lexer, Token};
use number::number;

pub use owners::content_streams;

/// How far numbers are shortened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// Only what changes no value: zeros, `+`, the sign of zero.
    Exact,
    /// Fractions also rounded to six significant digits (screen and ebook).
    Rounded,
}

/// Significant digits a rounded fraction keeps: `%g`'s default.
const SIGNIFICANT: usize = 6;
/// Integers longer than this are copied as they are (no reader holds them exactly anyway).
const LONGEST_INTEGER: usize = 18;

/// `data` written again, when that is shorter and every token of it was read.
pub fn minify(data: &[u8], numbers: Numbers) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len());
    let mut written: Vec<(usize, usize)> = Vec::new();
    let mut previous: Option<Token> = None;
    let mut scratch = String::new();
    for token in Lexer::new(data) {
        let token = token?;
        if let Some(before) = previous
            && before.ends_regular()
            && token.starts_regular()
        {
            // A line per operation, as producers write them, for the same byte.
            let operation_ends = matches!(before.kind, Kind::Word | Kind::InlineImage);
            out.push(if operation_ends { b'\n' } else { b' ' });
        }
        let start = out.len();
        match token.kind {
            Kind::Number => {
                scratch.clear();
                number(token.text(data), numbers, &mut scratch);
                out.extend_from_slice(scratch.as_bytes());
            }
            _ => out.extend_from_slice(token.text(data)),
        }
        written.push((start, out.len()));
        previous = Some(token);
    }
    if out.len() >= data.len() {
        return None;
    }
    // The stream read back must give the tokens just written, one for one: a missing space
    // would join two of them.
    let mut read = Lexer::new(&out);
    let same = written.iter().all(|&(start, end)| {
        matches!(read.next(), Some(Some(token)) if (token.start, token.end) == (start, end))
    });
    (same && read.next().is_none()).then_some(out)
}

mod lexer;
mod number;
mod owners;
#[cfg(test)]
mod tests;
