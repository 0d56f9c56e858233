//! CID-keyed CFF programs without the glyph slots nothing draws. The subsetter keeps every
//! glyph ID and blanks the outlines it drops: right for TrueType and name-keyed CFF, whose
//! glyph IDs the PDF may address, but a CID-keyed CFF is addressed by CID only, through its
//! charset. A full CJK font keeps tens of thousands of empty slots that way, each with its
//! charstring offset, charset and FDSelect entries. Here the font is laid out again with the
//! kept glyphs alone, each under its CID and with its font DICT: the content's CIDs, the
//! widths and the CMaps of the PDF stay as they are.
//!
//! Everything but the glyph tables is copied byte for byte (names, strings, global and local
//! subroutines, font and private DICTs but their offsets). The result is checked with
//! ttf-parser: each kept glyph has its CID and draws the same outline.

mod cid_set;
mod read;
#[cfg(test)]
mod tests;

use ttf_parser::GlyphId;

use super::type1::cff::{dict_offset, dict_op, index};
pub use cid_set::refresh as refresh_cid_sets;
use read::{Entry, dict, integer};

const CHARSET: u16 = 15;
const ENCODING: u16 = 16;
const CHAR_STRINGS: u16 = 17;
const PRIVATE: u16 = 18;
const SUBRS: u16 = 19;
const ROS: u16 = 1230;
const FD_ARRAY: u16 = 1236;
const FD_SELECT: u16 = 1237;
/// A gap between a private DICT and its local subroutines larger than this is not copied.
const MAX_GAP: usize = 1 << 16;

/// The compacted font and the CIDs it keeps; `None` when `cff` is not CID-keyed, cannot be
/// read, or would not come out smaller and the same.
pub fn compact(cff: &[u8], keep: &[u16]) -> Option<(Vec<u8>, Vec<u16>)> {
    let font = Font::read(cff)?;
    let mut glyphs: Vec<usize> = keep
        .iter()
        .map(|&g| usize::from(g))
        .filter(|&g| g < font.cids.len())
        .collect();
    glyphs.push(0);
    glyphs.sort_unstable();
    glyphs.dedup();
    if glyphs.len() == font.cids.len() {
        return None;
    }
    let out = font.write(cff, &glyphs)?;
    if out.len() >= cff.len() || !same(cff, &out, &glyphs, &font.fds) {
        return None;
    }
    Some((out, glyphs.iter().map(|&g| font.cids[g]).collect()))
}

/// What the compaction reads of a CID-keyed CFF.
struct Font<'a> {
    header: usize,
    name: read::Index,
    top: Vec<Entry<'a>>,
    strings: read::Index,
    global_subrs: read::Index,
    char_strings: read::Index,
    cids: Vec<u16>,
    fds: Vec<u8>,
    fd_array: read::Index,
}

impl<'a> Font<'a> {
    fn read(cff: &'a [u8]) -> Option<Self> {
        let header = usize::from(*cff.get(2)?);
        let name = read::index(cff, header)?;
        let tops = read::index(cff, name.end)?;
        let [top] = tops.items.as_slice() else {
            return None;
        };
        let top = dict(cff.get(top.clone())?)?;
        let has = |op: u16| top.iter().any(|e| e.operator == op);
        if !has(ROS) || has(ENCODING) || has(PRIVATE) {
            return None;
        }
        let strings = read::index(cff, tops.end)?;
        let global_subrs = read::index(cff, strings.end)?;
        let char_strings = read::index(cff, integer(&top, CHAR_STRINGS, 0)?)?;
        let glyphs = char_strings.items.len();
        let charset = integer(&top, CHARSET, 0)?;
        // 0 to 2 name predefined charsets, which a CID-keyed font does not use.
        let cids = (charset > 2).then(|| read::charset(cff, charset, glyphs))??;
        let fds = read::fd_select(cff, integer(&top, FD_SELECT, 0)?, glyphs)?;
        let fd_array = read::index(cff, integer(&top, FD_ARRAY, 0)?)?;
        if fds
            .iter()
            .any(|&fd| usize::from(fd) >= fd_array.items.len())
        {
            return None;
        }
        Some(Font {
            header,
            name,
            top,
            strings,
            global_subrs,
            char_strings,
            cids,
            fds,
            fd_array,
        })
    }

    /// The font with only `glyphs` (sorted, glyph 0 first).
    fn write(&self, cff: &[u8], glyphs: &[usize]) -> Option<Vec<u8>> {
        let kept_cids: Vec<u16> = glyphs.iter().skip(1).map(|&g| self.cids[g]).collect();
        let charset = super::type1::cff::charset(&kept_cids);
        let fd_select = fd_select(&glyphs.iter().map(|&g| self.fds[g]).collect::<Vec<_>>());
        let char_strings: Vec<&[u8]> = glyphs
            .iter()
            .map(|&g| cff.get(self.char_strings.items[g].clone()))
            .collect::<Option<_>>()?;
        let char_strings = index(&char_strings);
        let privates: Vec<Private> = self
            .fd_array
            .items
            .iter()
            .map(|range| Private::read(cff, cff.get(range.clone())?))
            .collect::<Option<_>>()?;

        // Offsets are written as 5-byte integers: every DICT's size is known before the
        // layout, which sets their values.
        let top_len = top_dict(&self.top, [0; 4]).len();
        let fd_lens: Vec<usize> = privates.iter().map(|p| p.font_dict(0).len()).collect();
        let fd_array_len = index(&fd_lens.iter().map(|&n| vec![0; n]).collect::<Vec<_>>()).len();
        let mut at = self.header
            + (self.name.end - self.name.start)
            + index(&[vec![0; top_len]]).len()
            + (self.strings.end - self.strings.start)
            + (self.global_subrs.end - self.global_subrs.start);
        let charset_at = at;
        at += charset.len();
        let fd_select_at = at;
        at += fd_select.len();
        let char_strings_at = at;
        at += char_strings.len();
        let fd_array_at = at;
        at += fd_array_len;
        let mut font_dicts = Vec::with_capacity(privates.len());
        let mut private_parts = Vec::new();
        for private in &privates {
            font_dicts.push(private.font_dict(at));
            let part = private.bytes(cff)?;
            at += part.len();
            private_parts.push(part);
        }

        let mut out = Vec::with_capacity(at);
        out.extend_from_slice(cff.get(..self.header)?);
        out.extend_from_slice(cff.get(self.name.start..self.name.end)?);
        out.extend(index(&[top_dict(
            &self.top,
            [charset_at, fd_select_at, char_strings_at, fd_array_at],
        )]));
        out.extend_from_slice(cff.get(self.strings.start..self.strings.end)?);
        out.extend_from_slice(cff.get(self.global_subrs.start..self.global_subrs.end)?);
        out.extend(charset);
        out.extend(fd_select);
        out.extend(char_strings);
        out.extend(index(&font_dicts));
        out.extend(private_parts.concat());
        (out.len() == at).then_some(out)
    }
}

/// The Top DICT with the offsets of the charset, FDSelect, CharStrings and FDArray.
fn top_dict(
    entries: &[Entry],
    [charset, fd_select, char_strings, fd_array]: [usize; 4],
) -> Vec<u8> {
    let mut out = Vec::new();
    for entry in entries {
        let offset = match entry.operator {
            CHARSET => charset,
            FD_SELECT => fd_select,
            CHAR_STRINGS => char_strings,
            FD_ARRAY => fd_array,
            _ => {
                out.extend_from_slice(entry.operands);
                dict_op(&mut out, entry.operator);
                continue;
            }
        };
        dict_offset(&mut out, offset);
        dict_op(&mut out, entry.operator);
    }
    out
}

/// One font DICT of the FDArray and the private DICT it points at.
struct Private<'a> {
    font_dict: Vec<Entry<'a>>,
    /// Where the private DICT is and how long.
    at: usize,
    size: usize,
    /// Its local subroutines, relative to it, and where they end.
    subrs: Option<(usize, usize)>,
}

impl<'a> Private<'a> {
    fn read(cff: &'a [u8], font_dict: &'a [u8]) -> Option<Self> {
        let font_dict = dict(font_dict)?;
        let size = integer(&font_dict, PRIVATE, 0)?;
        let at = integer(&font_dict, PRIVATE, 1)?;
        let private = dict(cff.get(at..at.checked_add(size)?)?)?;
        let subrs = match integer(&private, SUBRS, 0) {
            Some(relative) if relative >= size && relative - size <= MAX_GAP => {
                let subrs = read::index(cff, at + relative)?;
                Some((relative, subrs.end - at))
            }
            Some(_) => return None,
            None if private.iter().any(|e| e.operator == SUBRS) => return None,
            None => None,
        };
        Some(Private {
            font_dict,
            at,
            size,
            subrs,
        })
    }

    /// The font DICT, its private DICT written at `at`.
    fn font_dict(&self, at: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for entry in &self.font_dict {
            if entry.operator == PRIVATE {
                // The size covers the DICT alone, as the original's did.
                dict_offset(&mut out, self.size);
                dict_offset(&mut out, at);
            } else {
                out.extend_from_slice(entry.operands);
            }
            dict_op(&mut out, entry.operator);
        }
        out
    }

    /// The private DICT as it is and its subroutines where it says they are (relative to it).
    fn bytes(&self, cff: &[u8]) -> Option<Vec<u8>> {
        let end = self.subrs.map_or(self.size, |(_, end)| end);
        Some(cff.get(self.at..self.at + end)?.to_vec())
    }
}

/// FDSelect for the glyphs' font DICTs: format 3 (ranges) or 0, the smaller.
fn fd_select(fds: &[u8]) -> Vec<u8> {
    let mut ranges: Vec<(u16, u8)> = Vec::new();
    for (glyph, &fd) in fds.iter().enumerate() {
        if ranges.last().is_none_or(|&(_, last)| last != fd) {
            ranges.push((glyph as u16, fd));
        }
    }
    let mut three = vec![3];
    three.extend((ranges.len() as u16).to_be_bytes());
    for (first, fd) in ranges {
        three.extend(first.to_be_bytes());
        three.push(fd);
    }
    three.extend((fds.len() as u16).to_be_bytes());
    let mut zero = vec![0];
    zero.extend_from_slice(fds);
    if zero.len() <= three.len() {
        zero
    } else {
        three
    }
}

/// Whether the compacted font gives each kept glyph its CID, font DICT and outline.
fn same(before: &[u8], after: &[u8], glyphs: &[usize], fds: &[u8]) -> bool {
    let (Some(old), Some(new), Some(font)) = (
        ttf_parser::cff::Table::parse(before),
        ttf_parser::cff::Table::parse(after),
        Font::read(after),
    ) else {
        return false;
    };
    usize::from(new.number_of_glyphs()) == glyphs.len()
        && glyphs.iter().enumerate().all(|(n, &g)| {
            let (Ok(n), Ok(g)) = (u16::try_from(n), u16::try_from(g)) else {
                return false;
            };
            let (old_id, new_id) = (GlyphId(g), GlyphId(n));
            old.glyph_cid(old_id) == new.glyph_cid(new_id)
                && fds.get(usize::from(g)) == font.fds.get(usize::from(n))
                && super::program::outline(|b| old.outline(old_id, b).ok())
                    == super::program::outline(|b| new.outline(new_id, b).ok())
        })
}
