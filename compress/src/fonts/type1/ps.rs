//! A small PostScript tokenizer and the reader of a Type 1 font's dictionaries: font and
//! FontInfo entries, built-in encoding, Private entries, Subrs and CharStrings.

use std::collections::HashMap;

/// A dictionary value the converter may carry over; numbers keep their source text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Num(Vec<u8>),
    Arr(Vec<Vec<u8>>),
    Str(Vec<u8>),
    Name(Vec<u8>),
    Bool(bool),
}

/// Everything read from the font program.
#[derive(Debug, Default)]
pub(crate) struct FontDict {
    /// Font dict and FontInfo entries (flattened).
    pub top: HashMap<Vec<u8>, Value>,
    pub private: HashMap<Vec<u8>, Value>,
    /// `None`: StandardEncoding.
    pub encoding: Option<Vec<Option<Vec<u8>>>>,
    /// Subroutines, still charstring-encrypted.
    pub subrs: Vec<Vec<u8>>,
    /// (glyph name, encrypted charstring) in font order.
    pub charstrings: Vec<(Vec<u8>, Vec<u8>)>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok<'a> {
    Num(&'a [u8]),
    Lit(&'a [u8]),
    Name(&'a [u8]),
    Str(Vec<u8>),
    Open(u8),
    Close(u8),
    Bin(&'a [u8]),
}

struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
    last_int: Option<usize>,
    rd: Vec<Vec<u8>>,
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | 0)
}

fn is_delim(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_number(t: &[u8]) -> bool {
    std::str::from_utf8(t)
        .is_ok_and(|s| s.parse::<f64>().is_ok() && !s.contains(['n', 'N', 'i', 'I']))
}

impl<'a> Lexer<'a> {
    fn new(data: &'a [u8]) -> Self {
        Lexer {
            data,
            pos: 0,
            last_int: None,
            rd: vec![b"RD".to_vec(), b"-|".to_vec()],
        }
    }

    fn next(&mut self) -> Option<Tok<'a>> {
        let d = self.data;
        loop {
            while self.pos < d.len() && is_ws(d[self.pos]) {
                self.pos += 1;
            }
            if self.pos < d.len() && d[self.pos] == b'%' {
                while self.pos < d.len() && d[self.pos] != b'\n' && d[self.pos] != b'\r' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
        let c = *d.get(self.pos)?;
        let start = self.pos;
        self.pos += 1;
        let last_int = self.last_int.take();
        let tok = match c {
            b'[' | b'{' => Tok::Open(c),
            b']' | b'}' => Tok::Close(c),
            b'(' => {
                let mut depth = 1;
                let mut s = Vec::new();
                while self.pos < d.len() {
                    let ch = d[self.pos];
                    self.pos += 1;
                    match ch {
                        b'\\' => {
                            let Some(&e) = d.get(self.pos) else { break };
                            self.pos += 1;
                            match e {
                                b'0'..=b'7' => {
                                    // Octal escape: up to three digits.
                                    let mut v = u32::from(e - b'0');
                                    for _ in 0..2 {
                                        match d.get(self.pos) {
                                            Some(&o @ b'0'..=b'7') => {
                                                v = v * 8 + u32::from(o - b'0');
                                                self.pos += 1;
                                            }
                                            _ => break,
                                        }
                                    }
                                    s.push(v as u8);
                                }
                                // Line continuation.
                                b'\r' => {
                                    if d.get(self.pos) == Some(&b'\n') {
                                        self.pos += 1;
                                    }
                                }
                                b'\n' => {}
                                b'n' => s.push(b'\n'),
                                b'r' => s.push(b'\r'),
                                b't' => s.push(b'\t'),
                                b'b' => s.push(8),
                                b'f' => s.push(12),
                                _ => s.push(e),
                            }
                        }
                        b'(' => {
                            depth += 1;
                            s.push(ch);
                        }
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                            s.push(ch);
                        }
                        _ => s.push(ch),
                    }
                }
                Tok::Str(s)
            }
            b'<' | b'>' | b')' => {
                // Hex strings / dict delimiters are not needed: skip to the closing bracket.
                if c == b'<' && d.get(self.pos) != Some(&b'<') {
                    while self.pos < d.len() && d[self.pos] != b'>' {
                        self.pos += 1;
                    }
                    self.pos += 1;
                } else if d.get(self.pos) == Some(&c) {
                    self.pos += 1;
                }
                Tok::Name(b"")
            }
            _ => {
                let lit = c == b'/';
                while self.pos < d.len() && !is_ws(d[self.pos]) && !is_delim(d[self.pos]) {
                    self.pos += 1;
                }
                if lit {
                    Tok::Lit(&d[start + 1..self.pos])
                } else {
                    let t = &d[start..self.pos];
                    if is_number(t) {
                        if t.iter().all(u8::is_ascii_digit) {
                            self.last_int =
                                std::str::from_utf8(t).ok().and_then(|s| s.parse().ok());
                        }
                        Tok::Num(t)
                    } else if let Some(n) = last_int.filter(|_| self.rd.iter().any(|r| r == t)) {
                        // `n RD <n binary bytes>` after one separating space.
                        let s = (self.pos + 1).min(d.len());
                        let e = s.saturating_add(n).min(d.len());
                        self.pos = e;
                        Tok::Bin(&d[s..e])
                    } else {
                        Tok::Name(t)
                    }
                }
            }
        };
        Some(tok)
    }
}

/// Reads a value after a key; `None` for anything not carried over.
fn read_value<'a>(lx: &mut Lexer<'a>, key: &[u8]) -> Option<Value> {
    match lx.next()? {
        Tok::Num(t) => Some(Value::Num(t.to_vec())),
        Tok::Str(s) => Some(Value::Str(s)),
        Tok::Lit(n) => Some(Value::Name(n.to_vec())),
        Tok::Name(b"true") => Some(Value::Bool(true)),
        Tok::Name(b"false") => Some(Value::Bool(false)),
        Tok::Open(_) => {
            let mut depth = 1;
            let mut nums = Vec::new();
            let mut numeric = true;
            let mut names: Vec<&[u8]> = Vec::new();
            while depth > 0 {
                match lx.next()? {
                    Tok::Open(_) => {
                        depth += 1;
                        numeric = false;
                    }
                    Tok::Close(_) => depth -= 1,
                    Tok::Num(t) => nums.push(t.to_vec()),
                    Tok::Name(t) => {
                        numeric = false;
                        names.push(t);
                    }
                    _ => numeric = false,
                }
            }
            if names.contains(&&b"readstring"[..]) {
                lx.rd.push(key.to_vec());
            }
            numeric.then_some(Value::Arr(nums))
        }
        _ => None,
    }
}

fn read_encoding(lx: &mut Lexer<'_>) -> Option<Vec<Option<Vec<u8>>>> {
    let first = lx.next()?;
    if first == Tok::Name(b"StandardEncoding") {
        return None;
    }
    let mut enc = vec![None; 256];
    let mut prev: [Option<Tok<'_>>; 2] = [None, None];
    while let Some(t) = lx.next() {
        match &t {
            Tok::Name(b"def") | Tok::Name(b"readonly") => break,
            Tok::Name(b"put") => {
                if let [Some(Tok::Num(code)), Some(Tok::Lit(name))] = &prev {
                    let code = std::str::from_utf8(code)
                        .ok()
                        .and_then(|s| s.parse::<usize>().ok());
                    if let Some(c) = code.filter(|&c| c < 256) {
                        enc[c] = Some(name.to_vec());
                    }
                }
            }
            _ => {}
        }
        prev = [prev[1].take(), Some(t)];
    }
    Some(enc)
}

fn read_subrs(lx: &mut Lexer<'_>, subrs: &mut Vec<Vec<u8>>) {
    let mut nums: [Option<usize>; 2] = [None, None];
    let mut seen_array = false;
    while let Some(t) = lx.next() {
        match t {
            Tok::Num(n) => {
                let v = std::str::from_utf8(n)
                    .ok()
                    .and_then(|s| s.parse::<usize>().ok());
                nums = [nums[1], v];
            }
            Tok::Bin(b) => {
                if let Some(i) = nums[0].filter(|&i| i < 65536) {
                    if subrs.len() <= i {
                        subrs.resize(i + 1, Vec::new());
                    }
                    subrs[i] = b.to_vec();
                }
            }
            Tok::Name(b"array") => seen_array = true,
            Tok::Name(b"def") | Tok::Name(b"ND") | Tok::Name(b"|-") if seen_array => {
                return;
            }
            _ => {}
        }
    }
}

fn read_charstrings(lx: &mut Lexer<'_>, out: &mut Vec<(Vec<u8>, Vec<u8>)>) {
    let mut name: Option<&[u8]> = None;
    while let Some(t) = lx.next() {
        match t {
            Tok::Lit(n) => name = Some(n),
            Tok::Bin(b) => {
                if let Some(n) = name.take() {
                    out.push((n.to_vec(), b.to_vec()));
                }
            }
            Tok::Name(b"end") if !out.is_empty() => return,
            _ => {}
        }
    }
}

/// Reads the cleartext part and the decrypted private part.
pub(crate) fn read_font(clear: &[u8], private: &[u8]) -> FontDict {
    let mut font = FontDict::default();
    let mut lx = Lexer::new(clear);
    while let Some(t) = lx.next() {
        if let Tok::Lit(key) = t {
            if key == b"Encoding" {
                font.encoding = read_encoding(&mut lx);
            } else if let Some(v) = read_value(&mut lx, key) {
                font.top.entry(key.to_vec()).or_insert(v);
            }
        }
    }
    let mut lx = Lexer::new(private);
    while let Some(t) = lx.next() {
        if let Tok::Lit(key) = t {
            match key {
                b"Subrs" if font.subrs.is_empty() => read_subrs(&mut lx, &mut font.subrs),
                b"CharStrings" if font.charstrings.is_empty() => {
                    read_charstrings(&mut lx, &mut font.charstrings);
                }
                b"OtherSubrs" => {
                    let _ = read_value(&mut lx, key);
                }
                _ => {
                    if let Some(v) = read_value(&mut lx, key) {
                        font.private.entry(key.to_vec()).or_insert(v);
                    }
                }
            }
        }
    }
    font
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_dicts_encoding_subrs_charstrings() {
        let clear =
            b"%!\n/FontInfo 2 dict dup begin /FullName (A (b) c\\050\\51\\\n) readonly def end\n\
            /FontName /Foo def /FontMatrix [0.001 0 0 0.001 0 0] readonly def\n\
            /Encoding 256 array 0 1 255 {1 index exch /.notdef put} for\n\
            dup 65 /A put dup 66 /B put readonly def currentfile eexec";
        let private =
            b"dup /Private 5 dict dup begin /-| {string currentfile exch readstring pop} def\n\
            /BlueValues [-10 0 500 510] def /lenIV 4 def /ForceBold false def\n\
            /Subrs 2 array\ndup 0 3 -| \x01\x02) |\ndup 1 2 -| }{ |\nND\n\
            2 index /CharStrings 2 dict dup begin\n/A 3 -| abc |-\n/B 1 -| \n |-\nend end";
        let f = read_font(clear, private);
        assert_eq!(f.top[&b"FullName"[..]], Value::Str(b"A (b) c()".to_vec()));
        assert_eq!(f.top[&b"FontName"[..]], Value::Name(b"Foo".to_vec()));
        assert_eq!(
            f.top[&b"FontMatrix"[..]],
            Value::Arr(vec![
                b"0.001".to_vec(),
                b"0".to_vec(),
                b"0".to_vec(),
                b"0.001".to_vec(),
                b"0".to_vec(),
                b"0".to_vec()
            ])
        );
        let enc = f.encoding.expect("custom encoding");
        assert_eq!(enc[65].as_deref(), Some(&b"A"[..]));
        assert_eq!(enc[66].as_deref(), Some(&b"B"[..]));
        assert_eq!(enc[67], None);
        assert_eq!(f.private[&b"ForceBold"[..]], Value::Bool(false));
        assert_eq!(f.subrs, vec![b"\x01\x02)".to_vec(), b"}{".to_vec()]);
        assert_eq!(
            f.charstrings,
            vec![
                (b"A".to_vec(), b"abc".to_vec()),
                (b"B".to_vec(), b"\n".to_vec())
            ]
        );
    }
}
