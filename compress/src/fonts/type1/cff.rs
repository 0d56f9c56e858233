//! CFF (Compact Font Format) writer for one SID-keyed font: INDEXes, DICT operands,
//! strings, charset, encoding and the final layout.

use std::collections::HashMap;

use super::names::STANDARD_STRINGS;

/// Writes an INDEX of `items`.
pub(crate) fn index<T: AsRef<[u8]>>(items: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend((items.len() as u16).to_be_bytes());
    if items.is_empty() {
        return out;
    }
    let total: usize = items.iter().map(|i| i.as_ref().len()).sum::<usize>() + 1;
    let off_size: usize = match total {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xff_ffff => 3,
        _ => 4,
    };
    out.push(off_size as u8);
    let mut off = 1usize;
    let put = |out: &mut Vec<u8>, v: usize| out.extend(&(v as u32).to_be_bytes()[4 - off_size..]);
    put(&mut out, off);
    for i in items {
        off += i.as_ref().len();
        put(&mut out, off);
    }
    for i in items {
        out.extend_from_slice(i.as_ref());
    }
    out
}

/// DICT integer operand.
pub(crate) fn dict_int(out: &mut Vec<u8>, v: i32) {
    match v {
        -107..=107 => out.push((v + 139) as u8),
        108..=1131 => out.extend([((v - 108) / 256 + 247) as u8, ((v - 108) % 256) as u8]),
        -1131..=-108 => out.extend([((-v - 108) / 256 + 251) as u8, ((-v - 108) % 256) as u8]),
        -32768..=32767 => {
            out.push(28);
            out.extend((v as i16).to_be_bytes());
        }
        _ => {
            out.push(29);
            out.extend(v.to_be_bytes());
        }
    }
}

/// DICT operand from a PostScript number's text (kept exact: reals are written digit by
/// digit). Returns false when the text is not a number.
pub(crate) fn dict_num_text(out: &mut Vec<u8>, text: &[u8]) -> bool {
    let Some(s) = std::str::from_utf8(text).ok().map(str::trim) else {
        return false;
    };
    let Ok(v) = s.parse::<f64>() else {
        return false;
    };
    if !v.is_finite() {
        return false;
    }
    if v.fract() == 0.0 && v.abs() < 2_147_483_647.0 {
        dict_int(out, v as i32);
        return true;
    }
    let s = s.strip_prefix('+').unwrap_or(s).to_ascii_lowercase();
    let mut nibbles = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '0'..='9' => nibbles.push(c as u8 - b'0'),
            '.' => nibbles.push(0xa),
            '-' => nibbles.push(0xe),
            'e' => match chars.peek() {
                Some('-') => {
                    chars.next();
                    nibbles.push(0xc);
                }
                Some('+') => {
                    chars.next();
                    nibbles.push(0xb);
                }
                _ => nibbles.push(0xb),
            },
            _ => return false,
        }
    }
    // Drop a leading zero before the point: "0.5" -> ".5", "-0.5" -> "-.5".
    let lead = usize::from(nibbles.first() == Some(&0xe));
    if nibbles.get(lead) == Some(&0) && nibbles.get(lead + 1) == Some(&0xa) {
        nibbles.remove(lead);
    }
    nibbles.push(0xf);
    if nibbles.len() % 2 == 1 {
        nibbles.push(0xf);
    }
    out.push(30);
    out.extend(nibbles.chunks(2).map(|p| p[0] << 4 | p[1]));
    true
}

/// DICT operand for a computed value.
pub(crate) fn dict_f64(out: &mut Vec<u8>, v: f64) {
    let text = format!("{v}");
    if !dict_num_text(out, text.as_bytes()) {
        dict_int(out, 0);
    }
}

/// DICT operator (1 byte, or 12 x for escapes given as 1200 + x).
pub(crate) fn dict_op(out: &mut Vec<u8>, op: u16) {
    if op >= 1200 {
        out.extend([12, (op - 1200) as u8]);
    } else {
        out.push(op as u8);
    }
}

/// SID allocation: standard strings first, then the font's own.
pub(crate) struct Strings {
    standard: HashMap<&'static [u8], u16>,
    custom: Vec<Vec<u8>>,
    custom_ids: HashMap<Vec<u8>, u16>,
}

impl Strings {
    pub(crate) fn new() -> Self {
        let standard = STANDARD_STRINGS
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_bytes(), i as u16))
            .collect();
        Strings {
            standard,
            custom: Vec::new(),
            custom_ids: HashMap::new(),
        }
    }

    pub(crate) fn sid(&mut self, s: &[u8]) -> u16 {
        if let Some(&i) = self.standard.get(s) {
            return i;
        }
        if let Some(&i) = self.custom_ids.get(s) {
            return i;
        }
        let i = (STANDARD_STRINGS.len() + self.custom.len()) as u16;
        self.custom.push(s.to_vec());
        self.custom_ids.insert(s.to_vec(), i);
        i
    }
}

/// charset for glyphs 1.. (SIDs in glyph order): the smallest of formats 0, 1 and 2.
pub(crate) fn charset(sids: &[u16]) -> Vec<u8> {
    let mut f0 = vec![0u8];
    sids.iter().for_each(|s| f0.extend(s.to_be_bytes()));
    let mut ranges: Vec<(u16, u16)> = Vec::new();
    for &s in sids {
        match ranges.last_mut() {
            Some((first, left)) if u32::from(*first) + u32::from(*left) + 1 == u32::from(s) => {
                *left += 1
            }
            _ => ranges.push((s, 0)),
        }
    }
    let mut f1 = vec![1u8];
    let mut f2 = vec![2u8];
    for &(first, left) in &ranges {
        f2.extend(first.to_be_bytes());
        f2.extend(left.to_be_bytes());
    }
    for &(first, mut left) in &ranges {
        let mut first = first;
        loop {
            let n = left.min(255);
            f1.extend(first.to_be_bytes());
            f1.push(n as u8);
            if left == n {
                break;
            }
            first += n + 1;
            left -= n + 1;
        }
    }
    [f0, f1, f2]
        .into_iter()
        .min_by_key(Vec::len)
        .unwrap_or_default()
}

/// Encoding for glyphs 1..=codes.len() (each with its first code), plus supplements
/// (extra code, glyph SID): the smaller of formats 0 and 1.
pub(crate) fn encoding(codes: &[u8], supplements: &[(u8, u16)]) -> Vec<u8> {
    let mut f0 = vec![0u8, codes.len() as u8];
    f0.extend_from_slice(codes);
    let mut ranges: Vec<(u8, u8)> = Vec::new();
    for &c in codes {
        match ranges.last_mut() {
            Some((first, left)) if u16::from(*first) + u16::from(*left) + 1 == u16::from(c) => {
                *left += 1
            }
            _ => ranges.push((c, 0)),
        }
    }
    let mut f1 = vec![1u8, ranges.len() as u8];
    ranges.iter().for_each(|&(f, l)| f1.extend([f, l]));
    let mut out = if f1.len() < f0.len() { f1 } else { f0 };
    if !supplements.is_empty() {
        out[0] |= 0x80;
        out.push(supplements.len() as u8);
        for &(c, sid) in supplements {
            out.push(c);
            out.extend(sid.to_be_bytes());
        }
    }
    out
}

/// Parts of the font, ready to be laid out.
pub(crate) struct Parts {
    pub name: Vec<u8>,
    /// Top DICT entries except charset, Encoding, CharStrings and Private.
    pub top: Vec<u8>,
    pub strings: Strings,
    pub charset: Vec<u8>,
    /// `None`: StandardEncoding (offset 0, omitted).
    pub encoding: Option<Vec<u8>>,
    pub charstrings: Vec<Vec<u8>>,
    pub private: Vec<u8>,
}

/// DICT operand for an offset or size, always 5 bytes, so that a DICT's size is known before
/// the layout that sets its offsets.
pub(crate) fn dict_offset(out: &mut Vec<u8>, v: usize) {
    out.push(29);
    out.extend((v as u32).to_be_bytes());
}

/// Lays the font out: header, Name, Top DICT, String and Global Subr INDEXes, charset,
/// Encoding, CharStrings, Private DICT.
pub(crate) fn assemble(p: &Parts) -> Vec<u8> {
    let header = [1u8, 0, 4, 4];
    let name_index = index(&[&p.name]);
    let string_index = index(&p.strings.custom);
    let gsubrs = index::<&[u8]>(&[]);
    let charstrings = index(&p.charstrings);
    // Offsets are written as 5-byte integers, so the Top DICT size is known up front.
    let top_len = p.top.len() + 5 + 1 + if p.encoding.is_some() { 6 } else { 0 } + 6 + 5 + 5 + 1;
    let top_index_len = index(&[vec![0u8; top_len]]).len();
    let mut off =
        header.len() + name_index.len() + top_index_len + string_index.len() + gsubrs.len();
    let charset_off = off;
    off += p.charset.len();
    let encoding_off = off;
    off += p.encoding.as_ref().map_or(0, Vec::len);
    let charstrings_off = off;
    off += charstrings.len();
    let private_off = off;
    let mut top = p.top.clone();
    dict_offset(&mut top, charset_off);
    dict_op(&mut top, 15);
    if p.encoding.is_some() {
        dict_offset(&mut top, encoding_off);
        dict_op(&mut top, 16);
    }
    dict_offset(&mut top, charstrings_off);
    dict_op(&mut top, 17);
    dict_offset(&mut top, p.private.len());
    dict_offset(&mut top, private_off);
    dict_op(&mut top, 18);
    debug_assert_eq!(top.len(), top_len);
    let mut out = Vec::with_capacity(private_off + p.private.len());
    out.extend_from_slice(&header);
    out.extend(name_index);
    out.extend(index(&[top]));
    out.extend(string_index);
    out.extend(gsubrs);
    out.extend_from_slice(&p.charset);
    if let Some(e) = &p.encoding {
        out.extend_from_slice(e);
    }
    out.extend(charstrings);
    out.extend_from_slice(&p.private);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_tables() {
        let mut o = Vec::new();
        assert!(dict_num_text(&mut o, b"0.039625"));
        assert_eq!(o, [30, 0xa0, 0x39, 0x62, 0x5f]);
        o.clear();
        assert!(dict_num_text(&mut o, b"-1e-3"));
        assert_eq!(o, [30, 0xe1, 0xc3, 0xff]);
        o.clear();
        assert!(dict_num_text(&mut o, b"1000"));
        assert_eq!(o, [250, 124]);
        assert_eq!(
            index(&[b"ab".as_slice(), b"c"]),
            [0, 2, 1, 1, 3, 4, b'a', b'b', b'c']
        );
        assert_eq!(charset(&[5, 6, 7, 9]), [1, 0, 5, 2, 0, 9, 0]);
        assert_eq!(encoding(&[65, 66, 67, 68, 70], &[]), [1, 2, 65, 3, 70, 0]);
        let mut s = Strings::new();
        assert_eq!(s.sid(b"A"), 34);
        assert_eq!(s.sid(b"Foo"), 391);
        assert_eq!(s.sid(b"Foo"), 391);
    }
}
