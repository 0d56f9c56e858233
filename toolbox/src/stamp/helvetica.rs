//! Helvetica, one of the standard fonts every reader has: WinAnsiEncoding and the advance
//! widths of its AFM, so that text in it can be measured without a font file.

/// Helvetica's ascender and descender (AFM), in thousandths of the font size.
pub const ASCENT: f64 = 718.0;
pub const DESCENT: f64 = -207.0;

/// Advance widths of the WinAnsi codes 0x20..=0xFF, in thousandths of the font size (Adobe's
/// Helvetica AFM; URW's Nimbus Sans has the same metrics). 0 for the codes WinAnsi leaves
/// undefined.
#[rustfmt::skip]
const WIDTHS: [u16; 224] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // 0x20
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0x30
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // 0x40
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // 0x50
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // 0x60
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0, // 0x70
    556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0, // 0x80
    0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667, // 0x90
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333, // 0xA0
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611, // 0xB0
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, // 0xC0
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611, // 0xD0
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278, // 0xE0
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500, // 0xF0
];

/// The WinAnsi code of `c`, or `None` when WinAnsiEncoding has no such character. Control
/// characters have none: nothing would be drawn for them.
pub fn code(c: char) -> Option<u8> {
    let code = match c {
        ' '..='~' | '\u{A0}'..='\u{FF}' => c as u32,
        '\u{20AC}' => 0x80,
        '\u{201A}' => 0x82,
        '\u{0192}' => 0x83,
        '\u{201E}' => 0x84,
        '\u{2026}' => 0x85,
        '\u{2020}' => 0x86,
        '\u{2021}' => 0x87,
        '\u{02C6}' => 0x88,
        '\u{2030}' => 0x89,
        '\u{0160}' => 0x8A,
        '\u{2039}' => 0x8B,
        '\u{0152}' => 0x8C,
        '\u{017D}' => 0x8E,
        '\u{2018}' => 0x91,
        '\u{2019}' => 0x92,
        '\u{201C}' => 0x93,
        '\u{201D}' => 0x94,
        '\u{2022}' => 0x95,
        '\u{2013}' => 0x96,
        '\u{2014}' => 0x97,
        '\u{02DC}' => 0x98,
        '\u{2122}' => 0x99,
        '\u{0161}' => 0x9A,
        '\u{203A}' => 0x9B,
        '\u{0153}' => 0x9C,
        '\u{017E}' => 0x9E,
        '\u{0178}' => 0x9F,
        _ => return None,
    };
    u8::try_from(code).ok()
}

/// The advance width of a WinAnsi code, in thousandths of the font size.
pub fn width(code: u8) -> f64 {
    code.checked_sub(0x20)
        .and_then(|index| WIDTHS.get(usize::from(index)))
        .map_or(0.0, |&width| f64::from(width))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_widths() {
        assert_eq!(code('A'), Some(0x41));
        assert_eq!(code('é'), Some(0xE9));
        assert_eq!(code('€'), Some(0x80));
        assert_eq!(code('’'), Some(0x92));
        assert_eq!(code('—'), Some(0x97));
        assert_eq!(code('Ч'), None);
        assert_eq!(code('\n'), None);
        assert_eq!(code('\u{7F}'), None);
        assert_eq!(width(b' '), 278.0);
        assert_eq!(width(b'@'), 1015.0);
        assert_eq!(width(b'W'), 944.0);
        assert_eq!(width(0x80), 556.0);
        assert_eq!(width(0xFF), 500.0);
        assert_eq!(width(0x0A), 0.0);
    }
}
