//! Operands: numbers, names, strings, arrays and dictionaries as content streams write them,
//! read from a position and written back.

use lopdf::{Dictionary, Object, StringFormat};

use super::Malformed;

/// Arrays and dictionaries nested deeper than this are refused.
const MAX_NESTING: usize = 32;

pub fn is_whitespace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\0')
}

pub fn is_delimiter(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

pub fn is_regular(c: u8) -> bool {
    !is_whitespace(c) && !is_delimiter(c)
}

/// Skips white space and comments from `at`.
pub fn skip_space(data: &[u8], mut at: usize) -> usize {
    while let Some(&c) = data.get(at) {
        if is_whitespace(c) {
            at += 1;
        } else if c == b'%' {
            while data.get(at).is_some_and(|&c| c != b'\r' && c != b'\n') {
                at += 1;
            }
        } else {
            break;
        }
    }
    at
}

/// What starts at `at` (after white space): an operand, or a keyword (operator, `true`,
/// `false`, `null` already turned into operands).
pub enum Token {
    Operand(Object),
    Keyword(Vec<u8>),
}

/// Reads the token at `at` (white space already skipped); returns it and where it ends.
pub fn token(data: &[u8], at: usize, depth: usize) -> Result<(Token, usize), Malformed> {
    let Some(&c) = data.get(at) else {
        return Err(Malformed("unexpected end"));
    };
    let operand = |(object, end)| Ok((Token::Operand(object), end));
    match c {
        b'/' => operand(name(data, at + 1)),
        b'(' => operand(literal(data, at + 1)?),
        b'<' if data.get(at + 1) == Some(&b'<') => operand(dictionary(data, at + 2, depth)?),
        b'<' => operand(hex(data, at + 1)?),
        b'[' => operand(array(data, at + 1, depth)?),
        b'0'..=b'9' | b'+' | b'-' | b'.' => operand(number(data, at)?),
        _ if is_regular(c) => {
            let end = run(data, at);
            let word = &data[at..end];
            match word {
                b"true" => operand((Object::Boolean(true), end)),
                b"false" => operand((Object::Boolean(false), end)),
                b"null" => operand((Object::Null, end)),
                _ => Ok((Token::Keyword(word.to_vec()), end)),
            }
        }
        _ => Err(Malformed("a stray delimiter")),
    }
}

/// The end of a run of regular characters from `at`.
fn run(data: &[u8], mut at: usize) -> usize {
    while data.get(at).is_some_and(|&c| is_regular(c)) {
        at += 1;
    }
    at
}

fn number(data: &[u8], at: usize) -> Result<(Object, usize), Malformed> {
    let end = run(data, at);
    let text = std::str::from_utf8(&data[at..end]).map_err(|_| Malformed("a number"))?;
    if !text.contains(['.', 'e', 'E'])
        && let Ok(value) = text.parse::<i64>()
    {
        return Ok((Object::Integer(value), end));
    }
    // Exponents are not PDF syntax; a number that has one is read as a reader would not.
    if text.contains(['e', 'E']) {
        return Err(Malformed("a number"));
    }
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok((Object::Real(value as f32), end)),
        _ => Err(Malformed("a number")),
    }
}

fn name(data: &[u8], at: usize) -> (Object, usize) {
    let end = run(data, at);
    let raw = &data[at..end];
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let decoded = (raw[i] == b'#')
            .then(|| raw.get(i + 1..i + 3))
            .flatten()
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match decoded {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(raw[i]);
                i += 1;
            }
        }
    }
    (Object::Name(out), end)
}

fn literal(data: &[u8], mut at: usize) -> Result<(Object, usize), Malformed> {
    let mut out = Vec::new();
    let mut depth = 1usize;
    loop {
        let Some(&c) = data.get(at) else {
            return Err(Malformed("an unterminated string"));
        };
        at += 1;
        match c {
            b'(' => {
                depth += 1;
                out.push(c);
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
                out.push(c);
            }
            b'\\' => at = escape(data, at, &mut out),
            // An end of line in a string is one line feed, whatever the file wrote.
            b'\r' => {
                if data.get(at) == Some(&b'\n') {
                    at += 1;
                }
                out.push(b'\n');
            }
            _ => out.push(c),
        }
    }
    Ok((Object::String(out, StringFormat::Literal), at))
}

/// One escape after a backslash at `at - 1`; returns where the string goes on.
fn escape(data: &[u8], at: usize, out: &mut Vec<u8>) -> usize {
    let Some(&c) = data.get(at) else {
        return at;
    };
    let simple = match c {
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'b' => Some(b'\x08'),
        b'f' => Some(b'\x0c'),
        b'(' | b')' | b'\\' => Some(c),
        _ => None,
    };
    if let Some(byte) = simple {
        out.push(byte);
        return at + 1;
    }
    match c {
        b'0'..=b'7' => {
            let mut value = 0u32;
            let mut end = at;
            while end < at + 3 && data.get(end).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                value = value * 8 + u32::from(data[end] - b'0');
                end += 1;
            }
            // High-order overflow is ignored, as the standard says.
            out.push((value & 0xFF) as u8);
            end
        }
        // A backslash before an end of line continues the string on the next line.
        b'\r' if data.get(at + 1) == Some(&b'\n') => at + 2,
        b'\r' | b'\n' => at + 1,
        // An unknown escape: the backslash is ignored.
        _ => {
            out.push(c);
            at + 1
        }
    }
}

fn hex(data: &[u8], mut at: usize) -> Result<(Object, usize), Malformed> {
    let mut digits = Vec::new();
    loop {
        let Some(&c) = data.get(at) else {
            return Err(Malformed("an unterminated hex string"));
        };
        at += 1;
        match c {
            b'>' => break,
            _ if is_whitespace(c) => {}
            _ => {
                let digit = (c as char)
                    .to_digit(16)
                    .ok_or(Malformed("a hex string with other characters"))?;
                digits.push(digit as u8);
            }
        }
    }
    // An odd last digit is followed by an implied 0.
    if digits.len() % 2 == 1 {
        digits.push(0);
    }
    let bytes = digits.chunks_exact(2).map(|p| p[0] << 4 | p[1]).collect();
    Ok((Object::String(bytes, StringFormat::Hexadecimal), at))
}

fn array(data: &[u8], mut at: usize, depth: usize) -> Result<(Object, usize), Malformed> {
    if depth >= MAX_NESTING {
        return Err(Malformed("arrays nested too deep"));
    }
    let mut items = Vec::new();
    loop {
        at = skip_space(data, at);
        match data.get(at) {
            None => return Err(Malformed("an unterminated array")),
            Some(b']') => return Ok((Object::Array(items), at + 1)),
            Some(_) => match token(data, at, depth + 1)? {
                (Token::Operand(object), end) => {
                    items.push(object);
                    at = end;
                }
                (Token::Keyword(_), _) => return Err(Malformed("an operator inside an array")),
            },
        }
    }
}

/// A dictionary after its `<<`.
fn dictionary(data: &[u8], at: usize, depth: usize) -> Result<(Object, usize), Malformed> {
    let (dict, end) = entries(data, at, depth, b">>")?;
    Ok((Object::Dictionary(dict), end))
}

/// Key and value pairs up to `end_word` (`>>` for a dictionary, `ID` for an inline image);
/// returns them and where `end_word` ends.
pub fn entries(
    data: &[u8],
    mut at: usize,
    depth: usize,
    end_word: &[u8],
) -> Result<(Dictionary, usize), Malformed> {
    if depth >= MAX_NESTING {
        return Err(Malformed("dictionaries nested too deep"));
    }
    let mut dict = Dictionary::new();
    loop {
        at = skip_space(data, at);
        let after = at + end_word.len();
        let word_ends =
            !end_word[0].is_ascii_alphabetic() || !data.get(after).is_some_and(|&c| is_regular(c));
        if data.get(at..after) == Some(end_word) && word_ends {
            return Ok((dict, after));
        }
        if data.get(at).is_none() {
            return Err(Malformed("an unterminated dictionary"));
        }
        let (Token::Operand(Object::Name(key)), after_key) = token(data, at, depth + 1)? else {
            return Err(Malformed("a dictionary key that is not a name"));
        };
        at = skip_space(data, after_key);
        let (Token::Operand(value), after_value) = token(data, at, depth + 1)? else {
            return Err(Malformed("a dictionary value that is an operator"));
        };
        dict.set(key, value);
        at = after_value;
    }
}

/// `object` as a content stream writes it.
pub fn write(out: &mut Vec<u8>, object: &Object) {
    // Writing into a vector cannot fail.
    let _ = lopdf::Writer::write_object(out, object);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn operand(text: &[u8]) -> Object {
        match token(text, 0, 0) {
            Ok((Token::Operand(object), _)) => object,
            _ => panic!("no operand in {}", String::from_utf8_lossy(text)),
        }
    }

    #[test]
    fn reads_every_operand_kind() {
        assert_eq!(operand(b"-.5"), Object::Real(-0.5));
        assert_eq!(operand(b"4."), Object::Real(4.0));
        assert_eq!(operand(b"+17"), Object::Integer(17));
        assert_eq!(operand(b"/A#20b"), Object::Name(b"A b".to_vec()));
        assert_eq!(
            operand(b"(a\\(b\\)\\101\\\r\nc\r\nd)"),
            Object::String(b"a(b)Ac\nd".to_vec(), StringFormat::Literal)
        );
        assert_eq!(
            operand(b"<48 65 6>"),
            Object::String(b"He`".to_vec(), StringFormat::Hexadecimal)
        );
        let Object::Array(items) = operand(b"[(a) -120 [1] <<>>]") else {
            panic!("an array");
        };
        assert_eq!(items.len(), 4);
        let Object::Dictionary(dict) = operand(b"<< /MCID 3 /ActualText (x) >>") else {
            panic!("a dictionary");
        };
        assert_eq!(dict.get(b"MCID").ok(), Some(&Object::Integer(3)));
        assert!(token(b"(open", 0, 0).is_err());
        assert!(token(b"<4G>", 0, 0).is_err());
        assert!(token(b"1.2.3", 0, 0).is_err());
        assert!(token(b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 0, 0).is_err());
    }
}
