//! The parts of a CFF font the compaction reads, every offset checked: INDEXes, DICT
//! entries with their operands' bytes, charsets and FDSelects.

/// One INDEX: where it is, where it ends, and each item's byte range in the font.
pub struct Index {
    pub start: usize,
    pub end: usize,
    pub items: Vec<std::ops::Range<usize>>,
}

pub fn index(data: &[u8], at: usize) -> Option<Index> {
    let count = usize::from(u16_at(data, at)?);
    if count == 0 {
        return Some(Index {
            start: at,
            end: at + 2,
            items: Vec::new(),
        });
    }
    let size = usize::from(*data.get(at + 2)?);
    if !(1..=4).contains(&size) {
        return None;
    }
    let offsets_at = at + 3;
    let offset = |i: usize| -> Option<usize> {
        let bytes = data.get(offsets_at + i * size..offsets_at + (i + 1) * size)?;
        Some(bytes.iter().fold(0usize, |v, &b| (v << 8) | usize::from(b)))
    };
    let base = (offsets_at + (count + 1) * size).checked_sub(1)?;
    let mut items = Vec::with_capacity(count);
    let mut previous = offset(0)?;
    for i in 1..=count {
        let next = offset(i)?;
        if next < previous {
            return None;
        }
        items.push(base + previous..base + next);
        previous = next;
    }
    let end = base + previous;
    (end <= data.len()).then_some(Index {
        start: at,
        end,
        items,
    })
}

/// A DICT entry: its operator (`12 x` as `1200 + x`), its operands' bytes, and the
/// operands read as integers where they are (offsets and sizes always are).
pub struct Entry<'a> {
    pub operator: u16,
    pub operands: &'a [u8],
    pub integers: Vec<Option<i64>>,
}

pub fn dict(data: &[u8]) -> Option<Vec<Entry<'_>>> {
    let mut entries = Vec::new();
    let mut at = 0;
    let mut start = 0;
    let mut integers = Vec::new();
    while at < data.len() {
        let b0 = data[at];
        match b0 {
            0..=21 => {
                let operator = if b0 == 12 {
                    at += 1;
                    1200 + u16::from(*data.get(at)?)
                } else {
                    u16::from(b0)
                };
                let end = if b0 == 12 { at - 1 } else { at };
                entries.push(Entry {
                    operator,
                    operands: &data[start..end],
                    integers: std::mem::take(&mut integers),
                });
                at += 1;
                start = at;
            }
            28 => {
                let v = i16::from_be_bytes(data.get(at + 1..at + 3)?.try_into().ok()?);
                integers.push(Some(i64::from(v)));
                at += 3;
            }
            29 => {
                let v = i32::from_be_bytes(data.get(at + 1..at + 5)?.try_into().ok()?);
                integers.push(Some(i64::from(v)));
                at += 5;
            }
            30 => {
                // A real: nibbles up to one of 0xf.
                at += 1;
                loop {
                    let b = *data.get(at)?;
                    at += 1;
                    if b & 0x0f == 0x0f || b >> 4 == 0x0f {
                        break;
                    }
                }
                integers.push(None);
            }
            32..=246 => {
                integers.push(Some(i64::from(b0) - 139));
                at += 1;
            }
            247..=250 => {
                let b1 = i64::from(*data.get(at + 1)?);
                integers.push(Some((i64::from(b0) - 247) * 256 + b1 + 108));
                at += 2;
            }
            251..=254 => {
                let b1 = i64::from(*data.get(at + 1)?);
                integers.push(Some(-(i64::from(b0) - 251) * 256 - b1 - 108));
                at += 2;
            }
            _ => return None,
        }
    }
    // Operands with no operator after them: a damaged DICT.
    integers.is_empty().then_some(entries)
}

/// The operand `i` of the entry with `operator`, as an offset or size.
pub fn integer(entries: &[Entry], operator: u16, i: usize) -> Option<usize> {
    let entry = entries.iter().find(|e| e.operator == operator)?;
    usize::try_from((*entry.integers.get(i)?)?).ok()
}

/// The CID of each glyph (`glyphs` of them, glyph 0 being CID 0).
pub fn charset(data: &[u8], at: usize, glyphs: usize) -> Option<Vec<u16>> {
    let mut cids = Vec::with_capacity(glyphs);
    cids.push(0);
    let format = *data.get(at)?;
    let mut p = at + 1;
    while cids.len() < glyphs {
        match format {
            0 => {
                cids.push(u16_at(data, p)?);
                p += 2;
            }
            1 | 2 => {
                let first = u16_at(data, p)?;
                let left = if format == 1 {
                    u16::from(*data.get(p + 2)?)
                } else {
                    u16_at(data, p + 2)?
                };
                p += if format == 1 { 3 } else { 4 };
                for i in 0..=left {
                    cids.push(first.checked_add(i)?);
                }
            }
            _ => return None,
        }
    }
    cids.truncate(glyphs);
    Some(cids)
}

/// The font DICT of each glyph.
pub fn fd_select(data: &[u8], at: usize, glyphs: usize) -> Option<Vec<u8>> {
    match *data.get(at)? {
        0 => Some(data.get(at + 1..at + 1 + glyphs)?.to_vec()),
        3 => {
            let ranges = usize::from(u16_at(data, at + 1)?);
            let mut fds = Vec::with_capacity(glyphs);
            for r in 0..ranges {
                let p = at + 3 + r * 3;
                let first = usize::from(u16_at(data, p)?);
                let fd = *data.get(p + 2)?;
                let next = usize::from(u16_at(data, p + 3)?);
                if first != fds.len() || next < first {
                    return None;
                }
                fds.resize(next.min(glyphs), fd);
            }
            (fds.len() == glyphs).then_some(fds)
        }
        _ => None,
    }
}

pub fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}
