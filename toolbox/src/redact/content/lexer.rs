//! A content stream split into operations, each with its span, inline images included (their
//! data found by their declared size, or by the `EI` that ends them as readers find it).

use lopdf::{Dictionary, Object};

use super::objects::{self, Token, is_regular, is_whitespace, skip_space};
use super::{Malformed, Op};

/// More operands than any operator takes, by far: past it the stream is not content.
const MAX_OPERANDS: usize = 4096;

/// The operations of `data`, in order. Operands left without an operator at the end are
/// dropped (they draw nothing).
pub fn parse(data: &[u8]) -> Result<Vec<Op>, Malformed> {
    parse_at_most(data, usize::MAX)
}

/// As [`parse`], refusing a stream of more than `max` operations before it costs more.
pub fn parse_at_most(data: &[u8], max: usize) -> Result<Vec<Op>, Malformed> {
    let mut ops = Vec::new();
    let mut operands = Vec::new();
    let mut start = 0;
    let mut at = 0;
    loop {
        at = skip_space(data, at);
        if at >= data.len() {
            break;
        }
        let begin = at;
        let (token, end) = objects::token(data, at, 0)?;
        if operands.is_empty() {
            start = begin;
        }
        match token {
            Token::Operand(object) => {
                if operands.len() >= MAX_OPERANDS {
                    return Err(Malformed("too many operands"));
                }
                operands.push(object);
                at = end;
            }
            _ if ops.len() >= max => return Err(Malformed(super::TOO_MANY)),
            Token::Keyword(word) if word == b"BI" => {
                let (op, after) = inline_image(data, start, end)?;
                operands.clear();
                ops.push(op);
                at = after;
            }
            Token::Keyword(word) => {
                ops.push(Op {
                    operator: String::from_utf8_lossy(&word).into_owned(),
                    operands: std::mem::take(&mut operands),
                    span: start..end,
                    image: None,
                });
                at = end;
            }
        }
    }
    Ok(ops)
}

/// The inline image whose `BI` (and any stray operands before it) starts at `start` and whose
/// dictionary starts at `at`; returns it and where its `EI` ends.
fn inline_image(data: &[u8], start: usize, at: usize) -> Result<(Op, usize), Malformed> {
    let (dict, after_id) = objects::entries(data, at, 0, b"ID")?;
    // One white-space character separates ID from the data (a CR LF pair counts as one).
    let begin = match data.get(after_id..after_id + 2) {
        Some(b"\r\n") => after_id + 2,
        _ if data.get(after_id).is_some_and(|&c| is_whitespace(c)) => after_id + 1,
        _ => after_id,
    };
    let (end, after) = declared_end(data, begin, &dict)
        .or_else(|| scanned_end(data, begin))
        .ok_or(Malformed("an inline image without EI"))?;
    let op = Op {
        operator: "BI".into(),
        operands: vec![Object::Dictionary(dict)],
        span: start..after,
        image: Some(begin..end),
    };
    Ok((op, after))
}

/// The data's end by the image's declared size, when it is unfiltered and its colour space
/// says how many components it has, and `EI` follows there.
fn declared_end(data: &[u8], begin: usize, dict: &Dictionary) -> Option<(usize, usize)> {
    let get = |short: &[u8], long: &[u8]| dict.get(short).or_else(|_| dict.get(long)).ok();
    if get(b"F", b"Filter").is_some() {
        return None;
    }
    let number = |short: &[u8], long: &[u8]| get(short, long)?.as_i64().ok();
    let width = usize::try_from(number(b"W", b"Width")?).ok()?;
    let height = usize::try_from(number(b"H", b"Height")?).ok()?;
    let stencil = matches!(get(b"IM", b"ImageMask"), Some(Object::Boolean(true)));
    let (components, bpc) = if stencil {
        (1, 1)
    } else {
        let components = match get(b"CS", b"ColorSpace")? {
            Object::Name(name) => match name.as_slice() {
                b"G" | b"DeviceGray" | b"CalGray" => 1,
                b"RGB" | b"DeviceRGB" | b"CalRGB" => 3,
                b"CMYK" | b"DeviceCMYK" => 4,
                _ => return None,
            },
            Object::Array(items) if matches!(items.first(), Some(Object::Name(n)) if n == b"I" || n == b"Indexed") => {
                1
            }
            _ => return None,
        };
        (
            components,
            usize::try_from(number(b"BPC", b"BitsPerComponent")?).ok()?,
        )
    };
    let row = width.checked_mul(components)?.checked_mul(bpc)?.div_ceil(8);
    let end = begin.checked_add(row.checked_mul(height)?)?;
    let ei = skip_space(data, end);
    ends_with_ei(data, ei).then_some((end, ei + 2))
}

/// Whether `EI` starts at `at` and is a word of its own.
fn ends_with_ei(data: &[u8], at: usize) -> bool {
    data.get(at..at + 2) == Some(b"EI") && !data.get(at + 2).is_some_and(|&c| is_regular(c))
}

/// The data's end found as readers find it: the first `EI` after white space that is a word
/// of its own.
fn scanned_end(data: &[u8], begin: usize) -> Option<(usize, usize)> {
    (begin..data.len().saturating_sub(2))
        .find(|&i| is_whitespace(data[i]) && ends_with_ei(data, i + 1))
        .map(|i| (i, i + 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_images_end_where_their_data_ends() {
        // The data holds " EI " by chance: the declared size skips it.
        let data = b"q BI /W 4 /H 1 /BPC 8 /CS /G ID  EI EI Q";
        let ops = parse(data).expect("parses");
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[1].operator, "BI");
        assert_eq!(ops[1].image.clone().map(|r| &data[r]), Some(&b" EI "[..]));
        assert_eq!(ops[2].operator, "Q");
        // Filtered: found by scanning.
        let data = b"BI /W 2 /H 2 /CS /RGB /BPC 8 /F /AHx ID 00ff00>\nEI 0 0 m";
        let ops = parse(data).expect("parses");
        assert_eq!(ops.len(), 2);
        assert_eq!(
            ops[0].image.clone().map(|r| &data[r]),
            Some(&b"00ff00>"[..])
        );
        assert!(parse(b"BI /W 2 ID xxxx").is_err());
    }

    #[test]
    fn keywords_and_operands() {
        let ops = parse(b"/P <</MCID 0>> BDC 0.5 g [(a) 10 (b)] TJ true null EMC").expect("ok");
        let names: Vec<&str> = ops.iter().map(|op| op.operator.as_str()).collect();
        assert_eq!(names, ["BDC", "g", "TJ", "EMC"]);
        assert_eq!(ops[3].operands, vec![Object::Boolean(true), Object::Null]);
        assert!(parse(b"(a) Tj )").is_err());
    }
}
