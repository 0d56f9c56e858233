//! Content-stream tokens, each as its bytes in the stream.

use super::number::is_number;
use crate::content::{Parser, is_regular, is_whitespace};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Number,
    /// Operators, `true`, `false`, `null` and any other run of regular characters.
    Word,
    Name,
    /// `(…)`, `<…>`, `<<`, `>>`, `[`, `]`, `{`, `}`.
    Delimited,
    /// `BI` … `EI`, copied whole.
    InlineImage,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Token {
    pub(super) fn text<'a>(&self, data: &'a [u8]) -> &'a [u8] {
        &data[self.start..self.end]
    }

    pub(super) fn starts_regular(&self) -> bool {
        matches!(self.kind, Kind::Number | Kind::Word | Kind::InlineImage)
    }

    /// A name ends a token only at a delimiter or white space, even an empty one (`/`).
    pub(super) fn ends_regular(&self) -> bool {
        matches!(
            self.kind,
            Kind::Number | Kind::Word | Kind::InlineImage | Kind::Name
        )
    }
}

/// A stream the lexer cannot read whole.
struct Unread;

/// Every token of `data`, or `None` when it cannot be read whole.
pub(super) fn tokens(data: &[u8]) -> Option<Vec<Token>> {
    let mut lexer = Lexer { data, at: 0 };
    let mut tokens = Vec::new();
    while let Some(token) = lexer.token().ok()? {
        tokens.push(token);
    }
    Some(tokens)
}

struct Lexer<'a> {
    data: &'a [u8],
    at: usize,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.data.get(self.at + ahead).copied()
    }

    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.peek(0).is_some_and(&keep) {
            self.at += 1;
        }
    }

    /// The next token, `Ok(None)` at the end, `Err` where the stream cannot be read.
    fn token(&mut self) -> Result<Option<Token>, Unread> {
        loop {
            self.skip_while(is_whitespace);
            if self.peek(0) != Some(b'%') {
                break;
            }
            self.skip_while(|c| c != b'\r' && c != b'\n');
        }
        let start = self.at;
        let Some(first) = self.peek(0) else {
            return Ok(None);
        };
        let kind = match first {
            b'(' => {
                self.literal_string().ok_or(Unread)?;
                Kind::Delimited
            }
            b'<' if self.peek(1) == Some(b'<') => {
                self.at += 2;
                Kind::Delimited
            }
            b'>' if self.peek(1) == Some(b'>') => {
                self.at += 2;
                Kind::Delimited
            }
            b'<' => {
                self.at += 1;
                self.skip_while(|c| c.is_ascii_hexdigit() || is_whitespace(c));
                if self.peek(0) != Some(b'>') {
                    return Err(Unread);
                }
                self.at += 1;
                Kind::Delimited
            }
            b'[' | b']' | b'{' | b'}' => {
                self.at += 1;
                Kind::Delimited
            }
            b'/' => {
                self.at += 1;
                self.skip_while(is_regular);
                Kind::Name
            }
            b')' | b'>' => return Err(Unread),
            _ => {
                self.skip_while(is_regular);
                let text = &self.data[start..self.at];
                if text == b"BI" {
                    self.inline_image(start).ok_or(Unread)?;
                    Kind::InlineImage
                } else if is_number(text) {
                    Kind::Number
                } else {
                    Kind::Word
                }
            }
        };
        Ok(Some(Token {
            kind,
            start,
            end: self.at,
        }))
    }

    /// `(`, balanced parentheses with backslash escapes, `)`.
    fn literal_string(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek(0)? {
                b'\\' => self.at += 1,
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.at += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
            self.at += 1;
        }
    }

    /// The inline image whose `BI` starts at `start` and was read: its end where the
    /// compressor's reader (lopdf's grammar) puts it. Where the data is not sized from its
    /// dictionary that is the first `EI` between white space, which binary data may hold by
    /// chance: when another such `EI` follows before the next `BI`, the end is in doubt.
    fn inline_image(&mut self, start: usize) -> Option<()> {
        let mut parser = Parser::new(self.data, |_| false);
        parser.at = self.at;
        parser.content_space();
        parser.inline_image().ok()?;
        let mut end = parser.at;
        while end > start && self.data.get(end - 1).is_some_and(|&c| is_whitespace(c)) {
            end -= 1;
        }
        if !self.data[start..end].ends_with(b"EI") {
            return None;
        }
        self.at = end;
        let rest = &self.data[end..];
        let next_image = word_at(rest, b"BI").unwrap_or(rest.len());
        if word_at(&rest[..next_image], b"EI").is_some() {
            return None;
        }
        Some(())
    }
}

/// The position of `word` in `data` between white space (or at its ends).
fn word_at(data: &[u8], word: &[u8]) -> Option<usize> {
    data.windows(word.len()).enumerate().position(|(i, w)| {
        w == word
            && (i == 0 || data.get(i - 1).is_some_and(|&c| is_whitespace(c)))
            && data.get(i + word.len()).is_none_or(|&c| is_whitespace(c))
    })
}
