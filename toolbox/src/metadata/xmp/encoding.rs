//! A packet's character encoding.

/// A packet's bytes as text: UTF-8, or UTF-16 when a byte order mark or the zero bytes of
/// ASCII characters say so; and whether it was UTF-8 (the only encoding edited in place).
pub fn decode(bytes: &[u8]) -> (String, bool) {
    let utf16 = |big: bool, body: &[u8]| -> String {
        let units = body.chunks_exact(2).map(|pair| {
            if big {
                u16::from_be_bytes([pair[0], pair[1]])
            } else {
                u16::from_le_bytes([pair[0], pair[1]])
            }
        });
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect()
    };
    match bytes {
        [0xFE, 0xFF, body @ ..] => (utf16(true, body), false),
        [0xFF, 0xFE, body @ ..] => (utf16(false, body), false),
        [0, b, ..] if *b != 0 => (utf16(true, bytes), false),
        [b, 0, ..] if *b != 0 => (utf16(false, bytes), false),
        _ => {
            let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
            (String::from_utf8_lossy(body).into_owned(), true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_packets_decode() {
        let text = "<a>é</a>";
        let mut bytes = vec![0xFE, 0xFF];
        for unit in text.encode_utf16() {
            bytes.extend_from_slice(&unit.to_be_bytes());
        }
        assert_eq!(decode(&bytes), (text.to_string(), false));
        assert_eq!(decode(text.as_bytes()), (text.to_string(), true));
    }
}
