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

use lexer::{Kind, Token, tokens};
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

/// The operators whose numbers are rounded: path construction, line width, dashes, colours.
/// Text positioning, the text state and the matrix (`cm`) stay exact: PDFium and other text
/// extractors put a space between two glyphs from the gap between them, and a shift of a
/// ten-thousandth of a point can tip it where a producer set two glyphs edge to edge.
const ROUNDED: [&[u8]; 19] = [
    b"m", b"l", b"c", b"v", b"y", b"re", b"w", b"d", b"g", b"G", b"rg", b"RG", b"k", b"K", b"sc",
    b"SC", b"scn", b"SCN", b"M",
];

/// `data` written again, when that is shorter and every token of it was read.
pub fn minify(data: &[u8], numbers: Numbers) -> Option<Vec<u8>> {
    let tokens = tokens(data)?;
    let rounded = rounded_operands(data, &tokens, numbers);
    let mut out = Vec::with_capacity(data.len());
    let mut written: Vec<(usize, usize)> = Vec::with_capacity(tokens.len());
    let mut previous: Option<&Token> = None;
    let mut scratch = String::new();
    for (token, &round) in tokens.iter().zip(&rounded) {
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
                let numbers = if round {
                    Numbers::Rounded
                } else {
                    Numbers::Exact
                };
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
    let same = lexer::tokens(&out).is_some_and(|read| {
        read.len() == written.len()
            && read
                .iter()
                .zip(&written)
                .all(|(token, &span)| (token.start, token.end) == span)
    });
    same.then_some(out)
}

/// For each token, whether it is a number to round: an operand of one of the [`ROUNDED`]
/// operators, found walking back from each operator.
fn rounded_operands(data: &[u8], tokens: &[Token], numbers: Numbers) -> Vec<bool> {
    let mut rounded = vec![false; tokens.len()];
    if numbers == Numbers::Exact {
        return rounded;
    }
    let mut round = false;
    for (token, slot) in tokens.iter().zip(rounded.iter_mut()).rev() {
        match token.kind {
            Kind::Word if !matches!(token.text(data), b"true" | b"false" | b"null") => {
                round = ROUNDED.contains(&token.text(data));
            }
            Kind::InlineImage => round = false,
            Kind::Number => *slot = round,
            _ => {}
        }
    }
    rounded
}

mod lexer;
mod number;
mod owners;
#[cfg(test)]
mod tests;
