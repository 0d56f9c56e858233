//! Just enough PDF syntax for the guard: tokens, and values kept only as deep and as long as
//! the guard reads them (stream dictionaries, their filters, object stream headers). Everything
//! else is walked for its nesting and skipped, so a huge array costs a pass, not memory.

use super::{MAX_NESTING, Refusal};

/// What the guard keeps of a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Name(Vec<u8>),
    Ref(u32),
    Bool(bool),
    /// A string no longer than [`KEEP_STRING`] bytes, escapes decoded: the encryption
    /// dictionary's hashes and the file identifier are the only strings the guard reads.
    Str(Vec<u8>),
    Array(Vec<Value>),
    Dict(Vec<(Vec<u8>, Value)>),
    /// Anything else, or a container too deep or too long to be worth keeping.
    Other,
}

impl Value {
    pub fn get(&self, key: &[u8]) -> Option<&Value> {
        match self {
            Value::Dict(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Containers kept this deep (an object's dictionary and its `/Filter` array); deeper ones are
/// only walked.
const KEEP_DEPTH: usize = 2;
/// Arrays and dictionaries longer than this are walked, not kept: filter chains are short.
const KEEP_LEN: usize = 64;
/// Strings longer than this are walked, not kept (`/O`, `/U` and `/ID` take at most 48 bytes).
const KEEP_STRING: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Token<'a> {
    Int(i64),
    /// A real, `null`, a stray delimiter: a value the guard does not read.
    Plain,
    /// A literal string, between its parentheses, escapes not decoded.
    Str(&'a [u8]),
    /// A hexadecimal string, between its angle brackets.
    Hex(&'a [u8]),
    Name(&'a [u8]),
    Keyword(&'a [u8]),
    ArrayOpen,
    ArrayClose,
    DictOpen,
    DictClose,
    End,
}

pub struct Lexer<'a> {
    pub data: &'a [u8],
    pub pos: usize,
    /// Containers are kept this deep; the encryption dictionary is read deeper than
    /// [`KEEP_DEPTH`], for its crypt filters.
    pub keep_depth: usize,
}

fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t' | b'\x0c' | b'\0')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// Keywords that end an object: a container still open there was never closed.
fn is_structure(keyword: &[u8]) -> bool {
    matches!(
        keyword,
        b"obj" | b"endobj" | b"stream" | b"endstream" | b"xref" | b"trailer" | b"startxref"
    )
}

fn is_regular(b: u8) -> bool {
    !is_white(b) && !is_delimiter(b)
}

impl<'a> Lexer<'a> {
    pub fn new(data: &'a [u8], pos: usize) -> Self {
        Lexer {
            data,
            pos,
            keep_depth: KEEP_DEPTH,
        }
    }

    fn skip_white(&mut self) {
        while let Some(&b) = self.data.get(self.pos) {
            if is_white(b) {
                self.pos += 1;
            } else if b == b'%' {
                while self
                    .data
                    .get(self.pos)
                    .is_some_and(|&b| b != b'\n' && b != b'\r')
                {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn regular_run(&mut self) -> &'a [u8] {
        let start = self.pos;
        while self.data.get(self.pos).is_some_and(|&b| is_regular(b)) {
            self.pos += 1;
        }
        &self.data[start..self.pos]
    }

    pub fn next(&mut self) -> Token<'a> {
        self.skip_white();
        let Some(&b) = self.data.get(self.pos) else {
            return Token::End;
        };
        match b {
            b'[' => {
                self.pos += 1;
                Token::ArrayOpen
            }
            b']' => {
                self.pos += 1;
                Token::ArrayClose
            }
            b'<' if self.data.get(self.pos + 1) == Some(&b'<') => {
                self.pos += 2;
                Token::DictOpen
            }
            b'>' if self.data.get(self.pos + 1) == Some(&b'>') => {
                self.pos += 2;
                Token::DictClose
            }
            b'<' => {
                let start = self.pos + 1;
                let end = self.data[start..].iter().position(|&b| b == b'>');
                self.pos = end.map_or(self.data.len(), |end| start + end + 1);
                Token::Hex(&self.data[start..end.map_or(self.data.len(), |end| start + end)])
            }
            b'(' => {
                let start = self.pos + 1;
                self.skip_string();
                let end = self.pos.saturating_sub(1).clamp(start, self.data.len());
                Token::Str(&self.data[start..end])
            }
            b'/' => {
                self.pos += 1;
                Token::Name(self.regular_run())
            }
            b')' | b'>' | b'{' | b'}' => {
                self.pos += 1;
                Token::Plain
            }
            _ => {
                let run = self.regular_run();
                let number = run
                    .iter()
                    .all(|&b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.'));
                if !number || run.iter().all(|&b| !b.is_ascii_digit()) {
                    return Token::Keyword(run);
                }
                match std::str::from_utf8(run).ok().and_then(|s| s.parse().ok()) {
                    Some(n) => Token::Int(n),
                    None => Token::Plain,
                }
            }
        }
    }

    /// A literal string: balanced parentheses, backslash escapes.
    fn skip_string(&mut self) {
        let mut depth = 0usize;
        while let Some(&b) = self.data.get(self.pos) {
            self.pos += 1;
            match b {
                b'\\' => self.pos += 1,
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// The value at the cursor; `first` is its first token, already read. `int int R` is a
    /// reference.
    pub fn value(&mut self, first: Token<'a>, depth: usize) -> Result<Value, Refusal> {
        Ok(match first {
            Token::Int(n) => {
                let save = self.pos;
                if let Token::Int(_) = self.next()
                    && self.next() == Token::Keyword(b"R")
                {
                    u32::try_from(n).map_or(Value::Other, Value::Ref)
                } else {
                    self.pos = save;
                    Value::Int(n)
                }
            }
            Token::Name(name) => Value::Name(name.to_vec()),
            Token::Keyword(b"true") => Value::Bool(true),
            Token::Keyword(b"false") => Value::Bool(false),
            Token::Str(raw) if raw.len() <= 4 * KEEP_STRING => {
                short(literal(raw)).map_or(Value::Other, Value::Str)
            }
            Token::Hex(raw) if raw.len() <= 4 * KEEP_STRING => {
                short(hex(raw)).map_or(Value::Other, Value::Str)
            }
            Token::ArrayOpen => self.array(depth + 1)?,
            Token::DictOpen => self.dict(depth + 1)?,
            _ => Value::Other,
        })
    }

    fn deeper(depth: usize) -> Result<(), Refusal> {
        if depth > MAX_NESTING {
            return Err(Refusal::TooDeep);
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Value, Refusal> {
        Self::deeper(depth)?;
        let keep = depth <= self.keep_depth;
        let mut items = Vec::new();
        let mut len = 0usize;
        loop {
            let token = self.next();
            match token {
                Token::ArrayClose | Token::End | Token::DictClose => break,
                // An unclosed array: the keyword goes back to the caller.
                Token::Keyword(k) if is_structure(k) => {
                    self.pos -= k.len();
                    break;
                }
                _ => {}
            }
            let value = self.value(token, depth)?;
            len += 1;
            if keep && len <= KEEP_LEN {
                items.push(value);
            }
        }
        Ok(if keep && len <= KEEP_LEN {
            Value::Array(items)
        } else {
            Value::Other
        })
    }

    fn dict(&mut self, depth: usize) -> Result<Value, Refusal> {
        Self::deeper(depth)?;
        let keep = depth <= self.keep_depth;
        let mut entries = Vec::new();
        loop {
            let key = match self.next() {
                Token::Name(key) => key,
                Token::DictClose | Token::End => break,
                Token::Keyword(k) if is_structure(k) => {
                    // An unclosed dictionary: give the keyword back to the caller.
                    self.pos -= k.len();
                    break;
                }
                // A stray token where a key belongs: skipped, as lenient readers do.
                other => {
                    self.value(other, depth)?;
                    continue;
                }
            };
            let token = self.next();
            if token == Token::DictClose {
                break;
            }
            let value = self.value(token, depth)?;
            if keep && entries.len() < KEEP_LEN {
                entries.push((key.to_vec(), value));
            }
        }
        Ok(if keep {
            Value::Dict(entries)
        } else {
            Value::Other
        })
    }
}

fn short(bytes: Vec<u8>) -> Option<Vec<u8>> {
    (bytes.len() <= KEEP_STRING).then_some(bytes)
}

/// A literal string's bytes: backslash escapes, octal codes and line continuations decoded.
fn literal(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        i += 1;
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let Some(&e) = raw.get(i) else { break };
        i += 1;
        match e {
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'0'..=b'7' => {
                let mut code = u32::from(e - b'0');
                for _ in 0..2 {
                    match raw.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            code = code * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push(code as u8);
            }
            b'\r' => {
                if raw.get(i) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' => {}
            other => out.push(other),
        }
    }
    out
}

/// A hexadecimal string's bytes: white space skipped, an odd last digit followed by 0.
fn hex(raw: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = raw
        .iter()
        .filter_map(|&b| (b as char).to_digit(16).map(|d| d as u8))
        .collect();
    digits
        .chunks(2)
        .map(|pair| pair[0] << 4 | pair.get(1).copied().unwrap_or(0))
        .collect()
}

#[cfg(test)]
#[path = "syntax_tests.rs"]
mod tests;
