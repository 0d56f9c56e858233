//! PDF text strings (outline titles, field names): decoded for file names, encoded for the
//! titles the merge writes.

use lopdf::{Object, StringFormat};

/// PDFDocEncoding where it differs from Latin-1 (ISO 32000-1, Annex D.2): 0x18-0x1F and
/// 0x80-0xA0. 0x9F has no character.
const LOW: [char; 8] = [
    '\u{2D8}', '\u{2C7}', '\u{2C6}', '\u{2D9}', '\u{2DD}', '\u{2DB}', '\u{2DA}', '\u{2DC}',
];
const HIGH: [char; 33] = [
    '\u{2022}', '\u{2020}', '\u{2021}', '\u{2026}', '\u{2014}', '\u{2013}', '\u{192}', '\u{2044}',
    '\u{2039}', '\u{203A}', '\u{2212}', '\u{2030}', '\u{201E}', '\u{201C}', '\u{201D}', '\u{2018}',
    '\u{2019}', '\u{201A}', '\u{2122}', '\u{FB01}', '\u{FB02}', '\u{141}', '\u{152}', '\u{160}',
    '\u{178}', '\u{17D}', '\u{131}', '\u{142}', '\u{153}', '\u{161}', '\u{17E}', '\u{FFFD}',
    '\u{20AC}',
];

/// A text string's characters: UTF-16BE or UTF-8 after their byte order marks, PDFDocEncoding
/// otherwise. Undecodable units become U+FFFD.
pub fn decode(bytes: &[u8]) -> String {
    if let Some(utf16) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units = utf16
            .chunks(2)
            .map(|pair| u16::from_be_bytes([pair[0], pair.get(1).copied().unwrap_or(0)]));
        return char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
    }
    if let Some(utf8) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(utf8).into_owned();
    }
    bytes
        .iter()
        .map(|&b| match b {
            0x18..=0x1F => LOW[usize::from(b - 0x18)],
            0x80..=0xA0 => HIGH[usize::from(b - 0x80)],
            _ => char::from(b),
        })
        .collect()
}

/// A text string holding `text`: plain bytes when it is printable ASCII, UTF-16BE otherwise.
pub fn encode(text: &str) -> Object {
    if text.bytes().all(|b| (0x20..0x7F).contains(&b)) {
        return Object::String(text.as_bytes().to_vec(), StringFormat::Literal);
    }
    let mut bytes = vec![0xFE, 0xFF];
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&unit.to_be_bytes());
    }
    Object::String(bytes, StringFormat::Hexadecimal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_each_encoding() {
        assert_eq!(decode(b"Chapter 1"), "Chapter 1");
        assert_eq!(
            decode(&[0xFE, 0xFF, 0x04, 0x1F, 0x04, 0x40, 0xD8, 0x3D, 0xDE, 0x00]),
            "Пр😀"
        );
        assert_eq!(decode(&[0xEF, 0xBB, 0xBF, 0xC3, 0xA9]), "é");
        assert_eq!(decode(&[0x8D, 0x41, 0x8E, 0xE9, 0xA0]), "“A”é€");
        // An odd trailing byte or a lone surrogate does not fail the title.
        assert_eq!(decode(&[0xFE, 0xFF, 0x00, 0x41, 0xD8]), "A\u{FFFD}");
    }

    #[test]
    fn encodes_ascii_plainly_and_the_rest_as_utf16() {
        assert_eq!(
            encode("report"),
            Object::String(b"report".to_vec(), StringFormat::Literal)
        );
        let Object::String(bytes, _) = encode("été") else {
            panic!("a string")
        };
        assert_eq!(decode(&bytes), "été");
    }
}
