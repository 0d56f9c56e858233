//! The names a content stream may look up in its resources, read from its bytes without
//! parsing them: every `/` starts a name candidate. A real name token is always one of these
//! (a `/` is a delimiter, so a name starts at one and runs to the next non-regular byte),
//! whatever the content's syntax errors, so a name a viewer looks up is never missed. The
//! slashes inside strings, comments and inline image data add names nothing looks up, which
//! only keeps a resource that could have gone.

use std::collections::HashSet;

use lopdf::Stream;

use crate::streams::MAX_DECODED;

pub type Names = HashSet<Vec<u8>>;

fn is_regular(c: u8) -> bool {
    !matches!(
        c,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | 0
            | 0x0C
            | b'('
            | b')'
            | b'<'
            | b'>'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'/'
            | b'%'
    )
}

fn hex_value(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|value| value as u8)
}

/// Every name the bytes may hold. A `#` not followed by two hexadecimal digits is read the
/// ways readers differ on: ending the name (lopdf) and standing for itself; the raw bytes are
/// added too, for a resource key written with the escape undone.
pub fn scan(data: &[u8], names: &mut Names) {
    for at in memchr::memchr_iter(b'/', data) {
        let rest = &data[at + 1..];
        let raw = &rest[..rest
            .iter()
            .position(|&c| !is_regular(c))
            .unwrap_or(rest.len())];
        if raw.contains(&b'#') {
            let (cut, literal) = unescape(raw);
            names.insert(cut);
            names.insert(literal);
        }
        if !names.contains(raw) {
            names.insert(raw.to_vec());
        }
    }
}

/// The name with its `#xx` escapes decoded: cut at the first bad escape, and with a bad
/// escape's `#` kept as it is.
fn unescape(raw: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut cut: Option<Vec<u8>> = None;
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        let escaped = match raw.get(i + 1..i + 3) {
            Some(&[high, low]) if c == b'#' => hex_value(high)
                .zip(hex_value(low))
                .map(|(h, l)| (h << 4) | l),
            _ => None,
        };
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                if c == b'#' && cut.is_none() {
                    cut = Some(out.clone());
                }
                out.push(c);
                i += 1;
            }
        }
    }
    (cut.unwrap_or_else(|| out.clone()), out)
}

/// The names of one content stream, added to `names`; `false` when the stream cannot be
/// decoded for certain (then what it uses is unknown).
pub fn of_stream(stream: &Stream, names: &mut Names) -> bool {
    match crate::plain::decode(stream, MAX_DECODED) {
        Ok(data) => {
            scan(&data, names);
            true
        }
        // Damaged data keeps the dictionaries whole: a name past a corrupt spot that a more
        // lenient viewer still reads would be taken for unused.
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(data: &[u8]) -> Names {
        let mut names = Names::new();
        scan(data, &mut names);
        names
    }

    #[test]
    fn every_slash_starts_a_name_escapes_read_both_ways() {
        let found = names(b"BT/F1 12 Tf(a/b)Tj ET/Im#31 Do /A#zzB gs<</MCID 0>>BDC");
        for name in [&b"F1"[..], b"b", b"Im1", b"Im#31", b"A", b"A#zzB", b"MCID"] {
            assert!(found.contains(name), "{}", String::from_utf8_lossy(name));
        }
        assert!(!found.contains(&b"Tf"[..]));
    }
}
