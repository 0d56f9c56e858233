//! A cheap look at the input's bytes: %%EOF, startxref and whether the cross-reference table points at its objects.

use super::*;

/// What the bytes of the file say, without parsing it.
#[derive(Debug, Default)]
pub(super) struct Look {
    /// `%%EOF` markers in the file.
    pub(super) eof_markers: usize,
    /// The first-page trailer of a linearized file ends with a `%%EOF` of its own.
    pub(super) linearized: bool,
    /// Bytes after the last `%%EOF` other than white space.
    pub(super) trailing: usize,
    /// The bytes after the last `%%EOF` look like an unfinished update (objects, a table).
    pub(super) trailing_objects: bool,
    /// `startxref` near the end, and whether its offset points at a cross-reference table
    /// or stream.
    pub(super) startxref: Option<bool>,
    /// When `startxref` points at a classic table: whether every entry in use in it points
    /// at its object.
    pub(super) table: Option<bool>,
}

impl Look {
    pub(super) fn at(bytes: &[u8]) -> Self {
        let eofs: Vec<usize> = find_all(bytes, b"%%EOF").collect();
        let head = &bytes[..bytes.len().min(1024)];
        let linearized = find_all(head, b"/Linearized").next().is_some();
        let (trailing, trailing_objects) = match eofs.last() {
            Some(&at) => {
                let rest = &bytes[at + b"%%EOF".len()..];
                let trailing = rest.iter().filter(|b| !is_space(**b)).count();
                let objects = find_all(rest, b" obj").next().is_some()
                    || find_all(rest, b"xref").next().is_some();
                (trailing, objects)
            }
            None => (0, false),
        };
        // The last `startxref` before the last `%%EOF` (stray data may follow that).
        let end = eofs.last().map_or(bytes.len(), |&at| at);
        let from = end.saturating_sub(TAIL);
        let offset = rfind(&bytes[from..end], b"startxref")
            .map(|at| parse_offset(&bytes[from + at + b"startxref".len()..]));
        Self {
            eof_markers: eofs.len(),
            linearized,
            trailing,
            trailing_objects,
            startxref: offset.map(|offset| offset.is_some_and(|at| points_at_xref(bytes, at))),
            table: offset
                .flatten()
                .and_then(|at| table_entries_hold(bytes, at)),
        }
    }

    /// Incremental updates in the file: one per `%%EOF` after the first, the linearized
    /// first-page section aside.
    pub(super) fn updates(&self) -> usize {
        self.eof_markers
            .saturating_sub(1 + usize::from(self.linearized && self.eof_markers > 1))
    }

    pub(super) fn cut_short(&self) -> bool {
        self.eof_markers == 0 || self.trailing_objects
    }
}

/// Every start of `needle` in `hay`.
pub(super) fn find_all<'a>(hay: &'a [u8], needle: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let first = needle[0];
    let mut at = 0;
    std::iter::from_fn(move || {
        while at + needle.len() <= hay.len() {
            let found = hay[at..].iter().position(|&b| b == first)? + at;
            if found + needle.len() > hay.len() {
                return None;
            }
            at = found + 1;
            if &hay[found..found + needle.len()] == needle {
                return Some(found);
            }
        }
        None
    })
}

pub(super) fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// The decimal number after white space at the start of `bytes`.
pub(super) fn parse_offset(bytes: &[u8]) -> Option<usize> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let digits = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 15 {
        return None;
    }
    std::str::from_utf8(&bytes[start..start + digits])
        .ok()?
        .parse()
        .ok()
}

/// Whether `offset` starts a classic table (`xref`) or a cross-reference stream
/// (`12 0 obj << /Type /XRef ...`).
pub(super) fn points_at_xref(bytes: &[u8], offset: usize) -> bool {
    let Some(rest) = bytes.get(offset..) else {
        return false;
    };
    let start = rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let rest = &rest[start..];
    if rest.starts_with(b"xref") {
        return true;
    }
    // `N G obj`, then the stream's dictionary up to `stream`.
    let mut words = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    let number = words
        .next()
        .is_some_and(|w| w.iter().all(u8::is_ascii_digit));
    let generation = words
        .next()
        .is_some_and(|w| w.iter().all(u8::is_ascii_digit));
    let obj = words.next().is_some_and(|w| w.starts_with(b"obj"));
    if !(number && generation && obj) {
        return false;
    }
    let window = &rest[..rest.len().min(TAIL)];
    let dict_end = find_all(window, b"stream").next().unwrap_or(window.len());
    find_all(&window[..dict_end], b"/XRef").next().is_some()
}

/// Most entries of a table looked at: enough for any real file, bounded for a hostile one.
pub(super) const MAX_ENTRIES: usize = 1 << 22;

/// Reads the classic table at `offset` (None when there is none) and tells whether every
/// entry in use points at the start of its object (`12 0 obj`); a table that does not parse
/// does not hold.
pub(super) fn table_entries_hold(bytes: &[u8], offset: usize) -> Option<bool> {
    let mut tokens = Tokens { bytes, at: offset };
    if tokens.next()? != b"xref" {
        return None;
    }
    let mut checked = 0;
    loop {
        let Some(word) = tokens.next() else {
            return Some(false);
        };
        if word.starts_with(b"trailer") {
            return Some(true);
        }
        let (Some(first), Some(count)) = (number(word), tokens.next().and_then(number)) else {
            return Some(false);
        };
        for object in first..first.saturating_add(count) {
            let (Some(at), Some(generation), Some(kind)) = (
                tokens.next().and_then(number),
                tokens.next().and_then(number),
                tokens.next(),
            ) else {
                return Some(false);
            };
            checked += 1;
            if checked > MAX_ENTRIES {
                return Some(true);
            }
            match kind {
                b"n" if !object_at(bytes, at, object, generation) => return Some(false),
                b"n" | b"f" => {}
                _ => return Some(false),
            }
        }
    }
}

/// White-space separated words from `at` on.
pub(super) struct Tokens<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..)?;
        let start = rest.iter().position(|b| !is_space(*b))?;
        let len = rest[start..]
            .iter()
            .position(|b| is_space(*b))
            .unwrap_or(rest.len() - start);
        self.at += start + len;
        Some(&rest[start..start + len])
    }
}

pub(super) fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | 0)
}

pub(super) fn number(word: &[u8]) -> Option<usize> {
    if word.is_empty() || word.len() > 15 || !word.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(word).ok()?.parse().ok()
}

/// Whether `12 0 obj` starts at `at` (white space before it allowed).
pub(super) fn object_at(bytes: &[u8], at: usize, object: usize, generation: usize) -> bool {
    let mut tokens = Tokens { bytes, at };
    if bytes
        .get(at)
        .is_none_or(|b| b.is_ascii_digit() && at > 0 && bytes[at - 1].is_ascii_digit())
    {
        return false;
    }
    tokens.next().and_then(number) == Some(object)
        && tokens.next().and_then(number) == Some(generation)
        && tokens.next().is_some_and(|word| word.starts_with(b"obj"))
}
