//! Content streams read token by token, each operation with its byte span, so that a few
//! operations can be rewritten in place and the rest of the stream kept byte for byte
//! (lopdf's own content parser drops inline images it cannot decode, which a rewrite would
//! then lose), and so that the checks can follow what each operator does.

/// A dictionary's entries, in order.
pub type Entries = Vec<(Vec<u8>, Operand)>;

/// An operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Int(i64),
    Real(f64),
    Bool(bool),
    Null,
    Name(Vec<u8>),
    Str(Vec<u8>),
    Array(Vec<Operand>),
    Dict(Entries),
}

impl Operand {
    pub fn number(&self) -> Option<f64> {
        match self {
            Operand::Int(i) => Some(*i as f64),
            Operand::Real(r) => Some(*r),
            _ => None,
        }
    }

    pub fn name(&self) -> Option<&[u8]> {
        match self {
            Operand::Name(n) => Some(n),
            _ => None,
        }
    }
}

/// One operation: its operator, operands and where it lies in the stream (from its first
/// operand to the end of the operator).
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    pub operator: Vec<u8>,
    pub operands: Vec<Operand>,
    pub span: (usize, usize),
    /// For `BI`: the inline image's data.
    pub image_data: Option<(usize, usize)>,
}

/// Deeper than arrays and dictionaries nest in content.
const MAX_NESTING: usize = 64;

fn is_white(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_white(b) && !is_delimiter(b)
}

struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
}

enum Token {
    Operand(Operand),
    ArrayEnd,
    DictEnd,
    Operator(Vec<u8>),
}

impl Lexer<'_> {
    fn skip_white(&mut self) {
        while let Some(&b) = self.data.get(self.pos) {
            if is_white(b) {
                self.pos += 1;
            } else if b == b'%' {
                while let Some(&c) = self.data.get(self.pos) {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn token(&mut self, depth: usize) -> Result<Option<Token>, String> {
        self.skip_white();
        let Some(&b) = self.data.get(self.pos) else {
            return Ok(None);
        };
        if depth > MAX_NESTING {
            return Err("arrays or dictionaries nested too deep".into());
        }
        let token = match b {
            b'/' => {
                self.pos += 1;
                let start = self.pos;
                while self.data.get(self.pos).is_some_and(|&c| is_regular(c)) {
                    self.pos += 1;
                }
                Token::Operand(Operand::Name(unescape_name(&self.data[start..self.pos])))
            }
            b'(' => Token::Operand(Operand::Str(self.literal()?)),
            b'<' if self.data.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                let mut entries = Vec::new();
                loop {
                    match self.token(depth + 1)? {
                        Some(Token::DictEnd) => break,
                        Some(Token::Operand(Operand::Name(key))) => match self.token(depth + 1)? {
                            Some(Token::Operand(value)) => entries.push((key, value)),
                            _ => return Err("a dictionary key has no value".into()),
                        },
                        _ => return Err("a dictionary key is not a name".into()),
                    }
                }
                Token::Operand(Operand::Dict(entries))
            }
            b'<' => Token::Operand(Operand::Str(self.hex()?)),
            b'>' if self.data.get(self.pos + 1) == Some(&b'>') => {
                self.pos += 2;
                Token::DictEnd
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    match self.token(depth + 1)? {
                        Some(Token::ArrayEnd) => break,
                        Some(Token::Operand(item)) => items.push(item),
                        Some(Token::Operator(op)) => {
                            // Viewers read `true`, `false` and `null` here; anything else is
                            // not an operand.
                            return Err(format!(
                                "operator {} inside an array",
                                String::from_utf8_lossy(&op)
                            ));
                        }
                        _ => return Err("unterminated array".into()),
                    }
                }
                Token::Operand(Operand::Array(items))
            }
            b']' => {
                self.pos += 1;
                Token::ArrayEnd
            }
            b')' | b'>' | b'{' | b'}' => {
                return Err(format!("unexpected {:?}", char::from(b)));
            }
            _ => {
                let start = self.pos;
                while self.data.get(self.pos).is_some_and(|&c| is_regular(c)) {
                    self.pos += 1;
                }
                let word = &self.data[start..self.pos];
                match word {
                    b"true" => Token::Operand(Operand::Bool(true)),
                    b"false" => Token::Operand(Operand::Bool(false)),
                    b"null" => Token::Operand(Operand::Null),
                    _ => match number(word) {
                        Some(n) => Token::Operand(n),
                        None => Token::Operator(word.to_vec()),
                    },
                }
            }
        };
        Ok(Some(token))
    }

    fn literal(&mut self) -> Result<Vec<u8>, String> {
        self.pos += 1;
        let mut out = Vec::new();
        let mut depth = 1usize;
        loop {
            let Some(&b) = self.data.get(self.pos) else {
                return Err("unterminated string".into());
            };
            self.pos += 1;
            match b {
                b'\\' => {
                    let Some(&e) = self.data.get(self.pos) else {
                        return Err("unterminated string".into());
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'0'..=b'7' => {
                            let mut value = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.data.get(self.pos) {
                                    Some(&d @ b'0'..=b'7') => {
                                        value = value * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push((value & 0xFF) as u8);
                        }
                        b'\r' => {
                            if self.data.get(self.pos) == Some(&b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(out);
                    }
                    out.push(b);
                }
                _ => out.push(b),
            }
        }
    }

    fn hex(&mut self) -> Result<Vec<u8>, String> {
        self.pos += 1;
        let mut digits = Vec::new();
        loop {
            let Some(&b) = self.data.get(self.pos) else {
                return Err("unterminated hex string".into());
            };
            self.pos += 1;
            match b {
                b'>' => break,
                b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F' => digits.push(b),
                _ if is_white(b) => {}
                _ => return Err("a hex string holds a character that is not a digit".into()),
            }
        }
        if digits.len() % 2 == 1 {
            digits.push(b'0');
        }
        Ok(digits
            .chunks(2)
            .map(|pair| (hex_value(pair[0]) << 4) | hex_value(pair[1]))
            .collect())
    }
}

fn hex_value(d: u8) -> u8 {
    match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        _ => d - b'A' + 10,
    }
}

fn unescape_name(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'#'
            && raw.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && raw.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            out.push((hex_value(raw[i + 1]) << 4) | hex_value(raw[i + 2]));
            i += 3;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    out
}

fn number(word: &[u8]) -> Option<Operand> {
    let text = std::str::from_utf8(word).ok()?;
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    if body.bytes().filter(|&b| b == b'.').count() > 1 || body == "." {
        return None;
    }
    if body.contains('.') {
        text.parse::<f64>().ok().map(Operand::Real)
    } else {
        match text.parse::<i64>() {
            Ok(i) => Some(Operand::Int(i)),
            Err(_) => text.parse::<f64>().ok().map(Operand::Real),
        }
    }
}

/// The operations of a content stream; an error names the first thing that does not parse.
pub fn parse(data: &[u8]) -> Result<Vec<Op>, String> {
    let mut lexer = Lexer { data, pos: 0 };
    let mut ops = Vec::new();
    let mut operands = Vec::new();
    let mut start = None;
    loop {
        lexer.skip_white();
        let here = lexer.pos;
        let Some(token) = lexer.token(0)? else {
            break;
        };
        match token {
            Token::Operand(operand) => {
                start.get_or_insert(here);
                operands.push(operand);
            }
            Token::Operator(operator) => {
                let begin = start.take().unwrap_or(here);
                if operator == b"BI" {
                    let (dict, data_span) = inline_image(&mut lexer)?;
                    ops.push(Op {
                        operator,
                        operands: vec![Operand::Dict(dict)],
                        span: (begin, lexer.pos),
                        image_data: Some(data_span),
                    });
                    operands.clear();
                    continue;
                }
                ops.push(Op {
                    operator,
                    operands: std::mem::take(&mut operands),
                    span: (begin, lexer.pos),
                    image_data: None,
                });
            }
            Token::ArrayEnd | Token::DictEnd => return Err("unbalanced ] or >>".into()),
        }
    }
    if !operands.is_empty() {
        return Err("operands with no operator at the end".into());
    }
    Ok(ops)
}

/// An inline image after `BI`: its dictionary up to `ID`, then its data up to the `EI` that
/// stands alone between white space.
fn inline_image(lexer: &mut Lexer<'_>) -> Result<(Entries, (usize, usize)), String> {
    let mut dict = Vec::new();
    loop {
        match lexer.token(0)? {
            Some(Token::Operator(op)) if op == b"ID" => break,
            Some(Token::Operand(Operand::Name(key))) => match lexer.token(0)? {
                Some(Token::Operand(value)) => dict.push((key, value)),
                _ => return Err("an inline image key has no value".into()),
            },
            _ => return Err("an inline image has no ID".into()),
        }
    }
    // One white-space character separates ID from the data.
    let start = lexer.pos + 1;
    let data = lexer.data;
    let mut i = start;
    while i + 2 <= data.len() {
        if data[i] == b'E'
            && data.get(i + 1) == Some(&b'I')
            && i > start
            && is_white(data[i - 1])
            && data
                .get(i + 2)
                .is_none_or(|&c| is_white(c) || is_delimiter(c))
        {
            lexer.pos = i + 2;
            return Ok((dict, (start.min(i - 1), i - 1)));
        }
        i += 1;
    }
    Err("an inline image has no EI".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_with_their_spans() {
        let data = b"q 1 0 0 1 10 20 cm /F1 12 Tf (a\\)b) Tj [(x) -5 <4142>] TJ Q";
        let ops = parse(data).expect("parses");
        let names: Vec<&[u8]> = ops.iter().map(|o| o.operator.as_slice()).collect();
        assert_eq!(names, [&b"q"[..], b"cm", b"Tf", b"Tj", b"TJ", b"Q"]);
        assert_eq!(ops[3].operands, [Operand::Str(b"a)b".to_vec())]);
        assert_eq!(&data[ops[2].span.0..ops[2].span.1], b"/F1 12 Tf");
        let Operand::Array(items) = &ops[4].operands[0] else {
            panic!("array");
        };
        assert_eq!(items[2], Operand::Str(b"AB".to_vec()));
    }

    #[test]
    fn inline_images_and_marked_content() {
        let data = b"/OC /oc1 BDC BI /W 2 /H 1 /CS /G /BPC 8 ID \x00EI\xff EI Q EMC";
        let ops = parse(data).expect("parses");
        assert_eq!(ops[0].operator, b"BDC");
        assert_eq!(ops[1].operator, b"BI");
        let (a, b) = ops[1].image_data.expect("data");
        assert_eq!(&data[a..b], b"\x00EI\xff");
        assert_eq!(ops[2].operator, b"Q");
        assert!(parse(b"(unterminated").is_err());
        assert!(parse(b"1 2").is_err());
    }
}
