//! The TIFF structure, read just far enough for what the conversion needs from it: the chain
//! of image file directories of a TIFF file (its pages), and the resolution and orientation
//! tags of a directory, which EXIF (a TIFF structure inside a JPEG's APP1) uses too.
//!
//! Pages are decoded by `image`, whose TIFF decoder reads the first directory only: each page
//! is decoded from the file with its header pointed at that page's directory.

use std::collections::HashSet;

use super::place::Dpi;

const ORIENTATION: u16 = 0x0112;
const X_RESOLUTION: u16 = 0x011A;
const Y_RESOLUTION: u16 = 0x011B;
const RESOLUTION_UNIT: u16 = 0x0128;
const NEW_SUBFILE_TYPE: u16 = 0x00FE;

/// A TIFF structure (a whole TIFF file, or an EXIF block), classic or BigTIFF.
pub struct Tiff<'a> {
    bytes: &'a [u8],
    little: bool,
    big: bool,
}

/// One entry of a directory: its type, count and the bytes of its value.
struct Entry<'a> {
    kind: u16,
    count: u64,
    value: &'a [u8],
}

impl<'a> Tiff<'a> {
    pub fn parse(bytes: &'a [u8]) -> Option<Tiff<'a>> {
        let little = match bytes.get(..2)? {
            b"II" => true,
            b"MM" => false,
            _ => return None,
        };
        let mut tiff = Tiff {
            bytes,
            little,
            big: false,
        };
        match tiff.uint(2, 2)? {
            42 => {}
            43 if tiff.uint(4, 2)? == 8 => tiff.big = true,
            _ => return None,
        }
        Some(tiff)
    }

    /// An unsigned integer of `size` bytes (1 to 8) at `at`, in the structure's byte order.
    fn uint(&self, at: u64, size: usize) -> Option<u64> {
        let at = usize::try_from(at).ok()?;
        let bytes = self.bytes.get(at..at.checked_add(size)?)?;
        let fold = |value: u64, &byte: &u8| (value << 8) | u64::from(byte);
        Some(if self.little {
            bytes.iter().rev().fold(0, fold)
        } else {
            bytes.iter().fold(0, fold)
        })
    }

    /// Where the header says the first directory is, and where that pointer is stored.
    fn header_pointer(&self) -> (u64, usize) {
        if self.big { (8, 8) } else { (4, 4) }
    }

    pub fn first_directory(&self) -> Option<u64> {
        let (at, size) = self.header_pointer();
        self.uint(at, size).filter(|&offset| offset != 0)
    }

    /// The number of entries of the directory at `offset`, where they start, and the offset of
    /// the next directory (0 for none).
    fn directory(&self, offset: u64) -> Option<(u64, u64, u64)> {
        let (count_size, entry_size, next_size) = if self.big { (8, 20, 8) } else { (2, 12, 4) };
        let count = self.uint(offset, count_size)?;
        let start = offset.checked_add(count_size as u64)?;
        let end = start.checked_add(count.checked_mul(entry_size)?)?;
        let next = self.uint(end, next_size)?;
        Some((count, start, next))
    }

    fn entry(&self, directory: u64, tag: u16) -> Option<Entry<'a>> {
        let (count, start, _) = self.directory(directory)?;
        let (entry_size, count_size, inline) = if self.big { (20, 8, 8) } else { (12, 4, 4) };
        (0..count).find_map(|index| {
            let at = start + index * entry_size;
            if self.uint(at, 2)? != u64::from(tag) {
                return None;
            }
            let kind = u16::try_from(self.uint(at + 2, 2)?).ok()?;
            let values = self.uint(at + 4, count_size)?;
            let width = match kind {
                1 | 2 | 6 | 7 => 1,
                3 | 8 => 2,
                4 | 9 | 11 => 4,
                _ => 8,
            };
            let length = values.checked_mul(width)?;
            let value_at = at + 4 + count_size as u64;
            let value_at = if length <= inline {
                value_at
            } else {
                self.uint(value_at, inline as usize)?
            };
            let from = usize::try_from(value_at).ok()?;
            let to = from.checked_add(usize::try_from(length).ok()?)?;
            Some(Entry {
                kind,
                count: values,
                value: self.bytes.get(from..to)?,
            })
        })
    }

    /// The first value of an integer entry (BYTE, SHORT, LONG or LONG8).
    fn integer(&self, directory: u64, tag: u16) -> Option<u64> {
        let entry = self.entry(directory, tag)?;
        let size = match entry.kind {
            1 => 1,
            3 => 2,
            4 => 4,
            16 => 8,
            _ => return None,
        };
        (entry.count > 0).then_some(())?;
        Tiff {
            bytes: entry.value,
            ..*self
        }
        .uint(0, size)
    }

    /// The first value of a RATIONAL entry.
    fn rational(&self, directory: u64, tag: u16) -> Option<f64> {
        let entry = self.entry(directory, tag)?;
        (entry.kind == 5 && entry.count > 0).then_some(())?;
        let value = Tiff {
            bytes: entry.value,
            ..*self
        };
        let (numerator, denominator) = (value.uint(0, 4)?, value.uint(4, 4)?);
        (denominator != 0).then(|| numerator as f64 / denominator as f64)
    }

    /// The EXIF orientation (1 to 8) of a directory, if it has a valid one.
    pub fn orientation(&self, directory: u64) -> Option<u8> {
        let value = self.integer(directory, ORIENTATION)?;
        u8::try_from(value).ok().filter(|v| (1..=8).contains(v))
    }

    /// The resolution a directory records, in dots per inch; none when the unit is "none".
    pub fn resolution(&self, directory: u64) -> Option<Dpi> {
        let per_inch = match self.integer(directory, RESOLUTION_UNIT).unwrap_or(2) {
            2 => 1.0,
            3 => 2.54,
            _ => return None,
        };
        let x = self.rational(directory, X_RESOLUTION)?;
        let y = self.rational(directory, Y_RESOLUTION).unwrap_or(x);
        Dpi::new(x * per_inch, y * per_inch)
    }

    /// The directories of the file's pages, in order. A directory marked as a reduced-size
    /// copy of another (a thumbnail) is not a page, unless every directory is one. A chain that
    /// loops, or leaves the file, ends there.
    pub fn pages(&self) -> Vec<u64> {
        let mut seen = HashSet::new();
        let mut all = Vec::new();
        let mut next = self.first_directory();
        while let Some(offset) = next.filter(|&offset| offset != 0 && seen.insert(offset)) {
            let Some((_, _, following)) = self.directory(offset) else {
                break;
            };
            all.push(offset);
            next = Some(following);
        }
        let pages: Vec<u64> = all
            .iter()
            .copied()
            .filter(|&offset| self.integer(offset, NEW_SUBFILE_TYPE).unwrap_or(0) & 1 == 0)
            .collect();
        if pages.is_empty() { all } else { pages }
    }
}

/// Points the header of the TIFF file `bytes` at the directory at `offset`, so that a decoder
/// reading the first directory reads that one.
pub fn point_at(bytes: &mut [u8], offset: u64) -> Option<()> {
    let tiff = Tiff::parse(bytes)?;
    let (at, size) = tiff.header_pointer();
    let little = tiff.little;
    let at = usize::try_from(at).ok()?;
    let field = bytes.get_mut(at..at + size)?;
    let value = offset.to_le_bytes();
    let value = value.get(..size)?;
    for (index, byte) in field.iter_mut().enumerate() {
        let from = if little { index } else { size - 1 - index };
        *byte = *value.get(from)?;
    }
    Some(())
}
