//! Strings in content streams: literal strings with their escapes and nested parentheses,
//! and hexadecimal strings.

use lopdf::{Object, StringFormat};

use super::{MAX_BRACKET, Parser, Step, Stop, hex_value};

impl Parser<'_> {
    pub(super) fn literal_string(&mut self) -> Step<Vec<u8>> {
        if !self.eat(b"(") {
            return Err(Stop::Miss);
        }
        let start = self.at;
        let plain = self
            .rest()
            .iter()
            .position(|c| matches!(c, b'(' | b')' | b'\\' | b'\r' | b'\n'));
        if let Some(end) = plain
            && self.data[start + end] == b')'
        {
            // No escape, line end or nested parenthesis, as in most strings shown: one
            // allocation of the right size.
            self.at = start + end + 1;
            return Ok(self.data[start..start + end].to_vec());
        }
        let mut out = Vec::new();
        self.inner_literal(MAX_BRACKET, &mut out);
        if self.eat(b")") {
            Ok(out)
        } else {
            Err(Stop::Miss)
        }
    }

    /// A literal string's bytes up to its closing parenthesis (not taken): plain runs,
    /// escapes, line ends (each one `\n`) and balanced parentheses `depth` deep at most.
    pub(super) fn inner_literal(&mut self, depth: usize, out: &mut Vec<u8>) {
        loop {
            let start = self.at;
            while self
                .peek()
                .is_some_and(|c| !matches!(c, b'(' | b')' | b'\\' | b'\r' | b'\n'))
            {
                self.at += 1;
            }
            if self.at > start {
                out.extend_from_slice(&self.data[start..self.at]);
                continue;
            }
            match self.peek() {
                Some(b'\\') => {
                    if !self.escape(out) {
                        return;
                    }
                }
                Some(b'\r' | b'\n') => {
                    self.eol();
                    out.push(b'\n');
                }
                Some(b'(') if depth > 0 => {
                    let start = self.at;
                    let mark = out.len();
                    self.at += 1;
                    out.push(b'(');
                    self.inner_literal(depth - 1, out);
                    if self.eat(b")") {
                        out.push(b')');
                    } else {
                        self.at = start;
                        out.truncate(mark);
                        return;
                    }
                }
                _ => return,
            }
        }
    }

    /// A backslash escape: up to three octal digits (overflow ignored), a line end (nothing),
    /// a letter of `nrtbf`, or any other byte for itself. False at the end of the data.
    pub(super) fn escape(&mut self, out: &mut Vec<u8>) -> bool {
        let Some(&next) = self.data.get(self.at + 1) else {
            return false;
        };
        self.at += 1;
        if (b'0'..=b'7').contains(&next) {
            let mut value = 0u16;
            for _ in 0..3 {
                match self.peek() {
                    Some(c @ b'0'..=b'7') => {
                        value = value * 8 + u16::from(c - b'0');
                        self.at += 1;
                    }
                    _ => break,
                }
            }
            out.push(value as u8);
            return true;
        }
        if self.eol() {
            return true;
        }
        self.at += 1;
        out.push(match next {
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'b' => 0x08,
            b'f' => 0x0C,
            other => other,
        });
        true
    }

    /// `<` hexadecimal digits, white space between them, `>`; an odd last digit is its high
    /// half.
    pub(super) fn hexadecimal_string(&mut self) -> Step<Object> {
        if !self.eat(b"<") {
            return Err(Stop::Miss);
        }
        let mut bytes = Vec::new();
        let mut high = true;
        loop {
            self.content_space();
            let Some(value) = self.peek().and_then(hex_value) else {
                break;
            };
            self.at += 1;
            if high {
                bytes.push(value << 4);
            } else if let Some(last) = bytes.last_mut() {
                *last |= value;
            }
            high = !high;
        }
        if self.eat(b">") {
            Ok(Object::String(bytes, StringFormat::Hexadecimal))
        } else {
            Err(Stop::Miss)
        }
    }
}
