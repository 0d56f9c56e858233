//! Content streams parsed into lopdf's operations by hand. lopdf's nom grammar was most of the
//! time spent reading what pages show (the survey was a fifth of the compressor's time on the
//! corpus, most of it in nom's combinators): this follows the same grammar, trying the same
//! alternatives in the same order, so that it gives lopdf's result without its overhead, down
//! to where lopdf stops reading (a stray token, a comment between operands: what follows is
//! ignored). What it leaves to lopdf: the content lopdf refuses outright (nesting at its depth
//! limit, an inline image with no end), so that lopdf's own error decides.

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Object, StringFormat};

/// lopdf's bounds on nested arrays and dictionaries, and on nested parentheses in strings.
const MAX_NESTING_DEPTH: usize = 100;
const MAX_BRACKET: usize = 100;

/// The operations of a content stream whose operator `keep` takes, as [`Content::decode`]
/// gives them. The walks read a dozen operators: the paths, colours and text positioning
/// between them are most of a page, and each operation kept costs two allocations.
pub fn parse(data: &[u8], keep: fn(&[u8]) -> bool) -> Option<Content> {
    match Parser::new(data, keep).content() {
        Ok(content) => Some(content),
        Err(_) => Content::decode(data).ok().map(|mut content| {
            content.operations.retain(|op| keep(op.operator.as_bytes()));
            content
        }),
    }
}

/// Why a piece of the grammar did not parse.
#[derive(Debug)]
enum Stop {
    /// It does not match here: the caller tries its next alternative (nom's `Err::Error`).
    Miss,
    /// lopdf fails the whole stream here (nom's `Err::Failure`): lopdf parses it instead.
    Defer,
}

type Step<T> = Result<T, Stop>;

struct Parser<'a> {
    data: &'a [u8],
    at: usize,
    keep: fn(&[u8]) -> bool,
    /// The operation's operands so far, and the items of the arrays being read, reused: each
    /// operation and array then gets a vector of its exact size.
    operands: Vec<Object>,
    items: Vec<Object>,
}

fn is_whitespace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0 | 0x0C)
}

fn is_delimiter(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(c: u8) -> bool {
    !is_whitespace(c) && !is_delimiter(c)
}

fn is_operator_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'*' | b'\'' | b'"')
}

fn hex_value(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|value| value as u8)
}

impl<'a> Parser<'a> {
    fn new(data: &'a [u8], keep: fn(&[u8]) -> bool) -> Self {
        Parser {
            data,
            at: 0,
            keep,
            operands: Vec::new(),
            items: Vec::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.at).copied()
    }

    fn rest(&self) -> &[u8] {
        self.data.get(self.at..).unwrap_or_default()
    }

    fn eat(&mut self, tag: &[u8]) -> bool {
        let found = self.rest().starts_with(tag);
        if found {
            self.at += tag.len();
        }
        found
    }

    /// Runs `step`, putting the position back where it was when it misses.
    fn attempt<T>(&mut self, step: impl FnOnce(&mut Self) -> Step<T>) -> Step<T> {
        let start = self.at;
        let result = step(self);
        if result.is_err() {
            self.at = start;
        }
        result
    }

    /// The operations up to the end, or up to the first one lopdf cannot read: it ignores
    /// the rest.
    fn content(&mut self) -> Step<Content> {
        self.content_space();
        let mut operations = Vec::new();
        loop {
            match self.attempt(Self::operation) {
                Ok(operation) => operations.extend(operation),
                Err(Stop::Miss) => return Ok(Content { operations }),
                Err(Stop::Defer) => return Err(Stop::Defer),
            }
        }
    }

    /// White space only: what lopdf skips after an operand or operator.
    fn content_space(&mut self) {
        while self.peek().is_some_and(is_whitespace) {
            self.at += 1;
        }
    }

    /// Comments, each with the white space after it.
    fn comments(&mut self) {
        while self.peek() == Some(b'%') && self.attempt(Self::comment).is_ok() {
            self.content_space();
        }
    }

    /// `%` to the end of the line, which it needs: a comment the stream ends in is no comment.
    fn comment(&mut self) -> Step<()> {
        if !self.eat(b"%") {
            return Err(Stop::Miss);
        }
        while self.peek().is_some_and(|c| c != b'\r' && c != b'\n') {
            self.at += 1;
        }
        if self.eol() { Ok(()) } else { Err(Stop::Miss) }
    }

    fn eol(&mut self) -> bool {
        self.eat(b"\r\n") || self.eat(b"\n") || self.eat(b"\r")
    }

    /// White space and comments, as many as there are: lopdf's `space`, inside arrays and
    /// dictionaries.
    fn space(&mut self) {
        loop {
            self.content_space();
            if self.peek() != Some(b'%') || self.attempt(Self::comment).is_err() {
                return;
            }
        }
    }

    /// One operation, `None` when its operator is not kept.
    fn operation(&mut self) -> Step<Option<Operation>> {
        self.comments();
        if self.eat(b"BI") {
            self.content_space();
            return self.inline_image();
        }
        self.operands.clear();
        loop {
            match self.attempt(Self::operand) {
                Ok(operand) => self.operands.push(operand),
                Err(Stop::Miss) => break,
                Err(Stop::Defer) => return Err(Stop::Defer),
            }
        }
        let start = self.at;
        while self.peek().is_some_and(is_operator_char) {
            self.at += 1;
        }
        let operator = &self.data[start..self.at];
        if operator.first().is_none_or(u8::is_ascii_digit) {
            return Err(Stop::Miss);
        }
        if !(self.keep)(operator) {
            self.content_space();
            return Ok(None);
        }
        // Letters, digits and `*'"` only: always UTF-8.
        let operator = String::from_utf8(operator.to_vec()).unwrap_or_default();
        self.content_space();
        Ok(Some(Operation {
            operator,
            operands: self.operands.drain(..).collect(),
        }))
    }

    /// One operand and the white space after it: lopdf's alternatives, of which the first
    /// byte allows at most one (or a real, then an integer).
    fn operand(&mut self) -> Step<Object> {
        let object = match self.peek() {
            Some(b'n') => self.null()?,
            Some(b't' | b'f') => self.boolean()?,
            Some(b'0'..=b'9' | b'+' | b'-' | b'.') => self.number()?,
            Some(b'/') => Object::Name(self.name()?),
            Some(b'(') => Object::String(self.literal_string()?, StringFormat::Literal),
            Some(b'<') => match self.attempt(Self::hexadecimal_string) {
                Ok(object) => object,
                Err(Stop::Miss) => Object::Dictionary(self.dictionary(MAX_NESTING_DEPTH)?),
                Err(defer) => return Err(defer),
            },
            Some(b'[') => Object::Array(self.array(MAX_NESTING_DEPTH)?),
            _ => return Err(Stop::Miss),
        };
        self.content_space();
        Ok(object)
    }

    /// lopdf's `_direct_object`: an array element or dictionary value, then white space and
    /// comments.
    fn direct_object(&mut self, depth: usize) -> Step<Object> {
        if depth == 0 {
            return Err(Stop::Defer);
        }
        let depth = depth - 1;
        let object = match self.peek() {
            Some(b'n') => self.null()?,
            Some(b't' | b'f') => self.boolean()?,
            Some(b'0'..=b'9') => match self.attempt(Self::reference) {
                Ok(object) => object,
                Err(_) => self.number()?,
            },
            Some(b'+' | b'-' | b'.') => self.number()?,
            Some(b'/') => Object::Name(self.name()?),
            Some(b'(') => Object::String(self.literal_string()?, StringFormat::Literal),
            Some(b'<') => match self.attempt(Self::hexadecimal_string) {
                Ok(object) => object,
                Err(Stop::Miss) => Object::Dictionary(self.dictionary(depth)?),
                Err(defer) => return Err(defer),
            },
            Some(b'[') => Object::Array(self.array(depth)?),
            _ => return Err(Stop::Miss),
        };
        self.space();
        Ok(object)
    }

    fn null(&mut self) -> Step<Object> {
        if self.eat(b"null") {
            Ok(Object::Null)
        } else {
            Err(Stop::Miss)
        }
    }

    fn boolean(&mut self) -> Step<Object> {
        if self.eat(b"true") {
            Ok(Object::Boolean(true))
        } else if self.eat(b"false") {
            Ok(Object::Boolean(false))
        } else {
            Err(Stop::Miss)
        }
    }

    /// `number generation R`, white space and comments allowed between.
    fn reference(&mut self) -> Step<Object> {
        let number: u32 = self.unsigned()?;
        self.space();
        let generation: u16 = self.unsigned()?;
        self.space();
        if self.eat(b"R") {
            Ok(Object::Reference((number, generation)))
        } else {
            Err(Stop::Miss)
        }
    }

    /// `/` and regular characters, `#` and two hexadecimal digits standing for one byte; any
    /// other `#` ends the name.
    fn name(&mut self) -> Step<Vec<u8>> {
        if !self.eat(b"/") {
            return Err(Stop::Miss);
        }
        let mut bytes: Vec<u8> = Vec::new();
        loop {
            let start = self.at;
            while self.peek().is_some_and(|c| c != b'#' && is_regular(c)) {
                self.at += 1;
            }
            if bytes.is_empty() && self.peek() != Some(b'#') {
                // No escape, as in nearly every name: one allocation of the right size.
                return Ok(self.data[start..self.at].to_vec());
            }
            bytes.extend_from_slice(&self.data[start..self.at]);
            if self.peek() != Some(b'#') {
                return Ok(bytes);
            }
            let escape = self.data.get(self.at + 1..self.at + 3);
            match escape.and_then(|h| Some((hex_value(h[0])? << 4) | hex_value(h[1])?)) {
                Some(byte) => {
                    bytes.push(byte);
                    self.at += 3;
                }
                None => return Ok(bytes),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Step<Vec<Object>> {
        if !self.eat(b"[") {
            return Err(Stop::Miss);
        }
        self.space();
        // The items go on the shared stack, above those of the arrays this one is in, and
        // leave it as one vector of their exact number.
        let base = self.items.len();
        loop {
            match self.attempt(|p| p.direct_object(depth)) {
                Ok(item) => self.items.push(item),
                Err(Stop::Miss) => break,
                Err(defer) => return Err(defer),
            }
        }
        if self.eat(b"]") {
            Ok(self.items.drain(base..).collect())
        } else {
            self.items.truncate(base);
            Err(Stop::Miss)
        }
    }

    fn dictionary(&mut self, depth: usize) -> Step<Dictionary> {
        if !self.eat(b"<<") {
            return Err(Stop::Miss);
        }
        self.space();
        let dict = self.entries(depth)?;
        if self.eat(b">>") {
            Ok(dict)
        } else {
            Err(Stop::Miss)
        }
    }

    /// Keys and values, as many as there are; a later value of a key replaces the earlier.
    fn entries(&mut self, depth: usize) -> Step<Dictionary> {
        let mut dict = Dictionary::new();
        loop {
            let entry = self.attempt(|p| {
                let key = p.name()?;
                p.space();
                Ok((key, p.direct_object(depth)?))
            });
            match entry {
                Ok((key, value)) => dict.set(key, value),
                Err(Stop::Miss) => return Ok(dict),
                Err(defer) => return Err(defer),
            }
        }
    }
}

mod inline;
pub mod minify;
mod numbers;
mod strings;
#[cfg(test)]
mod tests;
