//! Content streams read as operations that remember where they were written, and written back
//! with only the changed operations replaced: what the redaction does not touch keeps its
//! bytes (no number rounded, no inline image re-encoded). Comments are dropped, as text in
//! them is text the file still carries.

mod lexer;
mod objects;

use std::ops::Range;

use lopdf::Object;

pub use lexer::{parse, parse_at_most};

/// One operation of a content stream.
#[derive(Debug, Clone)]
pub struct Op {
    pub operator: String,
    pub operands: Vec<Object>,
    /// Where it was written, operands included.
    pub span: Range<usize>,
    /// For an inline image (`BI`, its dictionary as the one operand): where its data is.
    pub image: Option<Range<usize>>,
}

impl Op {
    /// The operand at `i` as a number.
    pub fn number(&self, i: usize) -> Option<f64> {
        crate::geometry::number_of(self.operands.get(i)?)
    }

    /// The operand at `i` as a name.
    pub fn name(&self, i: usize) -> Option<&[u8]> {
        self.operands.get(i)?.as_name().ok()
    }
}

/// Why a stream past the operation budget is refused.
pub const TOO_MANY: &str = "too many operations to walk";

/// The content stream could not be read: unbalanced strings or arrays, a stray delimiter, a
/// malformed number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub &'static str);

/// What happens to one operation when the stream is written again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Keep,
    Drop,
    Replace(Vec<u8>),
}

/// The stream written again: each operation kept as it was written, dropped, or replaced;
/// one line each.
pub fn assemble(data: &[u8], ops: &[Op], pieces: &[Piece]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 64);
    for (op, piece) in ops.iter().zip(pieces) {
        let bytes: &[u8] = match piece {
            Piece::Keep => data.get(op.span.clone()).unwrap_or_default(),
            Piece::Drop => continue,
            Piece::Replace(bytes) => bytes,
        };
        if bytes.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(b'\n');
        }
        out.extend_from_slice(bytes);
    }
    out
}

/// Bytes of an operand as a content stream writes it.
pub fn write_object(object: &Object) -> Vec<u8> {
    let mut out = Vec::new();
    objects::write(&mut out, object);
    out
}

/// A string operand as hexadecimal, which needs no escaping.
pub fn hex_string(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2 + 2);
    out.push('<');
    for byte in bytes {
        out.push_str(&format!("{byte:02X}"));
    }
    out.push('>');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_operations_keep_their_bytes() {
        let data = b"q 1 0 0 1 10.123456789 20 cm % a secret comment\nBT /F1 12 Tf (a\\)b) Tj ET Q";
        let ops = parse(data).expect("parses");
        let names: Vec<&str> = ops.iter().map(|op| op.operator.as_str()).collect();
        assert_eq!(names, ["q", "cm", "BT", "Tf", "Tj", "ET", "Q"]);
        let mut pieces = vec![Piece::Keep; ops.len()];
        pieces[4] = Piece::Replace(b"[<61>] TJ".to_vec());
        pieces[0] = Piece::Drop;
        let out = assemble(data, &ops, &pieces);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "1 0 0 1 10.123456789 20 cm\nBT\n/F1 12 Tf\n[<61>] TJ\nET\nQ"
        );
    }
}
