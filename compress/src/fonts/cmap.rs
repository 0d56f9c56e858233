//! A Type 0 font's /Encoding: strings split into codes and codes mapped to CIDs, for
//! Identity-H/V and embedded CMap streams (codespace ranges, cidrange, cidchar,
//! notdefrange). Anything else (predefined CJK CMaps, usecmap) is not mapped, and the
//! caller keeps the program whole.

use std::collections::BTreeSet;

pub enum CodeMap {
    /// Identity-H / Identity-V: two-byte codes, each its own CID.
    Identity,
    Embedded(Cmap),
}

#[derive(Default)]
pub struct Cmap {
    /// Codespace ranges: low and high bytes, of the same length.
    codespace: Vec<(Vec<u8>, Vec<u8>)>,
    /// Code ranges of one byte length mapped to CIDs from `cid` on.
    ranges: Vec<Range>,
}

struct Range {
    len: usize,
    low: u32,
    high: u32,
    cid: u32,
}

impl CodeMap {
    /// The CIDs the strings select, `None` when a string does not split into codes.
    pub fn cids<'s>(&self, strings: impl Iterator<Item = &'s [u8]>) -> Option<BTreeSet<u32>> {
        let mut cids = BTreeSet::new();
        for s in strings {
            match self {
                CodeMap::Identity => {
                    if !s.len().is_multiple_of(2) {
                        return None;
                    }
                    cids.extend(
                        s.chunks_exact(2)
                            .map(|c| u32::from(c[0]) << 8 | u32::from(c[1])),
                    );
                }
                CodeMap::Embedded(cmap) => cmap.cids(s, &mut cids)?,
            }
        }
        Some(cids)
    }
}

impl Cmap {
    /// Parses an embedded CMap program; `None` when it is not understood.
    pub fn parse(data: &[u8]) -> Option<Cmap> {
        let tokens = tokenize(data)?;
        let mut cmap = Cmap::default();
        let mut i = 0;
        while let Some(token) = tokens.get(i) {
            i += 1;
            match token {
                Token::Word(w) if w == b"begincodespacerange" => {
                    while let (Some(Token::Hex(low)), Some(Token::Hex(high))) =
                        (tokens.get(i), tokens.get(i + 1))
                    {
                        if low.len() != high.len() || low.is_empty() || low.len() > 4 {
                            return None;
                        }
                        cmap.codespace.push((low.clone(), high.clone()));
                        i += 2;
                    }
                }
                Token::Word(w) if w == b"begincidrange" || w == b"beginnotdefrange" => {
                    while let (
                        Some(Token::Hex(low)),
                        Some(Token::Hex(high)),
                        Some(Token::Int(cid)),
                    ) = (tokens.get(i), tokens.get(i + 1), tokens.get(i + 2))
                    {
                        if low.len() != high.len() || low.is_empty() || low.len() > 4 {
                            return None;
                        }
                        cmap.ranges.push(Range {
                            len: low.len(),
                            low: be(low),
                            high: be(high),
                            cid: *cid,
                        });
                        i += 3;
                    }
                }
                Token::Word(w) if w == b"begincidchar" => {
                    while let (Some(Token::Hex(code)), Some(Token::Int(cid))) =
                        (tokens.get(i), tokens.get(i + 1))
                    {
                        if code.is_empty() || code.len() > 4 {
                            return None;
                        }
                        let value = be(code);
                        cmap.ranges.push(Range {
                            len: code.len(),
                            low: value,
                            high: value,
                            cid: *cid,
                        });
                        i += 2;
                    }
                }
                // Another CMap underneath, or a ToUnicode CMap given as an encoding.
                Token::Word(w) if w == b"usecmap" || w.starts_with(b"beginbf") => return None,
                _ => {}
            }
        }
        if cmap.codespace.is_empty() {
            return None;
        }
        Some(cmap)
    }

    fn cids(&self, s: &[u8], out: &mut BTreeSet<u32>) -> Option<()> {
        out.extend(self.codes(s)?.into_iter().map(|(_, cid)| cid));
        Some(())
    }

    /// The codes of `s` in order, each as its length in bytes and its CID; `None` when `s`
    /// does not split into codes of the codespace.
    pub fn codes(&self, s: &[u8]) -> Option<Vec<(usize, u32)>> {
        let mut codes = Vec::new();
        let mut rest = s;
        while !rest.is_empty() {
            let len = (1..=4).find(|&n| {
                rest.get(..n).is_some_and(|code| {
                    self.codespace.iter().any(|(low, high)| {
                        low.len() == n
                            && code
                                .iter()
                                .zip(low.iter().zip(high))
                                .all(|(b, (l, h))| (l..=h).contains(&b))
                    })
                })
            })?;
            let (code, tail) = rest.split_at(len);
            let value = be(code);
            // The last mapping that covers a code wins, as a later definition overrides.
            let cid = self
                .ranges
                .iter()
                .rev()
                .find(|r| r.len == len && (r.low..=r.high).contains(&value))
                .map_or(0, |r| r.cid.saturating_add(value - r.low));
            codes.push((len, cid));
            rest = tail;
        }
        Some(codes)
    }
}

fn be(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0, |acc, &b| acc << 8 | u32::from(b))
}

pub(super) enum Token {
    Hex(Vec<u8>),
    Int(u32),
    Word(Vec<u8>),
    Other,
}

/// PostScript tokens, as much as a CMap needs; `None` on a malformed hex string.
pub(super) fn tokenize(data: &[u8]) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&c) = data.get(i) {
        match c {
            b'%' => {
                while data.get(i).is_some_and(|&c| c != b'\n' && c != b'\r') {
                    i += 1;
                }
            }
            b'<' if data.get(i + 1) == Some(&b'<') => {
                tokens.push(Token::Other);
                i += 2;
            }
            b'<' => {
                let end = i + data.get(i..)?.iter().position(|&c| c == b'>')?;
                let digits: Vec<u8> = data
                    .get(i + 1..end)?
                    .iter()
                    .copied()
                    .filter(|c| !c.is_ascii_whitespace())
                    .collect();
                if !digits.len().is_multiple_of(2) || !digits.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                let bytes = digits
                    .chunks_exact(2)
                    .map(|pair| {
                        let text = std::str::from_utf8(pair).ok()?;
                        u8::from_str_radix(text, 16).ok()
                    })
                    .collect::<Option<Vec<u8>>>()?;
                tokens.push(Token::Hex(bytes));
                i = end + 1;
            }
            b'(' => {
                // Literal strings (registry names) are skipped, nested parentheses counted.
                let mut depth = 0usize;
                while let Some(&c) = data.get(i) {
                    i += 1;
                    match c {
                        b'\\' => i += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                tokens.push(Token::Other);
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while data
                    .get(i)
                    .is_some_and(|&c| !c.is_ascii_whitespace() && !b"<>()[]{}/%".contains(&c))
                {
                    i += 1;
                }
                if i == start {
                    i += 1;
                    tokens.push(Token::Other);
                    continue;
                }
                let word = data.get(start..i)?;
                match std::str::from_utf8(word).ok().and_then(|w| w.parse().ok()) {
                    Some(n) => tokens.push(Token::Int(n)),
                    None => tokens.push(Token::Word(word.to_vec())),
                }
            }
        }
    }
    Some(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_cmap_maps_mixed_lengths() {
        let program = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def
            2 begincodespacerange <00> <7F> <8000> <FFFF> endcodespacerange
            1 begincidrange <20> <7E> 1 endcidrange
            1 begincidchar <8140> 633 endcidchar
            endcmap CMapName currentdict /CMap defineresource pop end end";
        let map = CodeMap::Embedded(Cmap::parse(program).expect("parses"));
        let cids = map
            .cids([b"A\x81\x40".as_slice()].into_iter())
            .expect("splits");
        assert_eq!(cids.into_iter().collect::<Vec<_>>(), vec![34, 633]);
        let identity = CodeMap::Identity.cids([b"\x00\x05\x01\x00".as_slice()].into_iter());
        assert_eq!(
            identity.map(|c| c.into_iter().collect::<Vec<_>>()),
            Some(vec![5, 256])
        );
        assert!(
            CodeMap::Identity
                .cids([b"\x00".as_slice()].into_iter())
                .is_none()
        );
    }
}
