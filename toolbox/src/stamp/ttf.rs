//! The few tables of a TrueType font that drawing text with it needs: the character map
//! (cmap formats 4 and 12), the advance widths (hhea, hmtx) and the global metrics (head,
//! OS/2). Every read is bounds-checked: a damaged font is an error, never a panic.

/// A TrueType font file, parsed enough to map characters to glyphs and measure them.
pub struct TrueType {
    pub data: Vec<u8>,
    pub units_per_em: u16,
    /// xMin, yMin, xMax, yMax of all glyphs, in font units.
    pub bbox: [i16; 4],
    pub ascender: i16,
    pub descender: i16,
    pub cap_height: i16,
    /// The advance widths of hmtx; glyphs past the last one take the last width.
    advances: Vec<u16>,
    num_glyphs: u16,
    /// Offset of the Unicode cmap subtable used, and its format (4 or 12).
    cmap: (usize, u16),
}

fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    let bytes = data.get(at..at.checked_add(2)?)?;
    Some(u16::from_be_bytes([bytes[0], bytes[1]]))
}

fn i16_at(data: &[u8], at: usize) -> Option<i16> {
    u16_at(data, at).map(|value| value as i16)
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    let bytes = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

impl TrueType {
    /// Parses `data`; `None` when it is not a TrueType font with a Unicode character map (a
    /// collection, or an OpenType font with CFF outlines, which FontFile2 cannot carry).
    pub fn parse(data: Vec<u8>) -> Option<TrueType> {
        if !matches!(u32_at(&data, 0)?, 0x0001_0000 | 0x7472_7565) {
            return None;
        }
        let head = table(&data, b"head")?;
        let hhea = table(&data, b"hhea")?;
        let maxp = table(&data, b"maxp")?;
        let hmtx = table(&data, b"hmtx")?;
        let cmap = table(&data, b"cmap")?;
        let units_per_em = u16_at(&data, head + 18).filter(|&units| units >= 16)?;
        let bbox = [
            i16_at(&data, head + 36)?,
            i16_at(&data, head + 38)?,
            i16_at(&data, head + 40)?,
            i16_at(&data, head + 42)?,
        ];
        let ascender = i16_at(&data, hhea + 4)?;
        let descender = i16_at(&data, hhea + 6)?;
        let metrics = usize::from(u16_at(&data, hhea + 34).filter(|&n| n > 0)?);
        let num_glyphs = u16_at(&data, maxp + 4)?;
        let advances = (0..metrics)
            .map(|i| u16_at(&data, hmtx + 4 * i))
            .collect::<Option<Vec<u16>>>()?;
        // OS/2 version 2 and later give the height of capitals; before, the ascender stands in.
        let cap_height = table(&data, b"OS/2")
            .filter(|&os2| u16_at(&data, os2).is_some_and(|version| version >= 2))
            .and_then(|os2| i16_at(&data, os2 + 88))
            .unwrap_or(ascender);
        let cmap = unicode_subtable(&data, cmap)?;
        Some(TrueType {
            data,
            units_per_em,
            bbox,
            ascender,
            descender,
            cap_height,
            advances,
            num_glyphs,
            cmap,
        })
    }

    /// The glyph drawing `c`, or `None` when the font has none (glyph 0 is .notdef).
    pub fn glyph(&self, c: char) -> Option<u16> {
        let (at, format) = self.cmap;
        let glyph = match format {
            4 => format4(&self.data, at, u32::from(c))?,
            _ => format12(&self.data, at, u32::from(c))?,
        };
        (glyph != 0 && glyph < self.num_glyphs).then_some(glyph)
    }

    /// The advance width of `glyph`, in thousandths of the font size.
    pub fn advance(&self, glyph: u16) -> f64 {
        let units = self
            .advances
            .get(usize::from(glyph))
            .or(self.advances.last())
            .copied()
            .unwrap_or(0);
        self.scale(units.into())
    }

    /// Font units in thousandths of the font size.
    pub fn scale(&self, units: f64) -> f64 {
        units * 1000.0 / f64::from(self.units_per_em)
    }
}

/// The offset of a table, checked to lie inside the file.
fn table(data: &[u8], tag: &[u8; 4]) -> Option<usize> {
    let count = usize::from(u16_at(data, 4)?);
    (0..count).find_map(|i| {
        let record = 12 + 16 * i;
        if data.get(record..record + 4)? != tag {
            return None;
        }
        let offset = usize::try_from(u32_at(data, record + 8)?).ok()?;
        let length = usize::try_from(u32_at(data, record + 12)?).ok()?;
        (offset.checked_add(length)? <= data.len()).then_some(offset)
    })
}

/// The best Unicode subtable of the cmap at `cmap`: a full-range one (format 12) first, else
/// one for the Basic Multilingual Plane (format 4).
fn unicode_subtable(data: &[u8], cmap: usize) -> Option<(usize, u16)> {
    let count = usize::from(u16_at(data, cmap + 2)?);
    let mut best: Option<(usize, u16)> = None;
    for i in 0..count {
        let record = cmap + 4 + 8 * i;
        let platform = u16_at(data, record)?;
        let encoding = u16_at(data, record + 2)?;
        let unicode = platform == 0 || (platform == 3 && matches!(encoding, 1 | 10));
        let at = cmap + usize::try_from(u32_at(data, record + 4)?).ok()?;
        match u16_at(data, at) {
            Some(12) if unicode => return Some((at, 12)),
            Some(4) if unicode && best.is_none() => best = Some((at, 4)),
            _ => {}
        }
    }
    best
}

/// Segment mapping to delta values (the BMP).
fn format4(data: &[u8], at: usize, c: u32) -> Option<u16> {
    let c = u16::try_from(c).ok()?;
    let seg_x2 = usize::from(u16_at(data, at + 6)?);
    let ends = at + 14;
    let starts = ends + seg_x2 + 2;
    let deltas = starts + seg_x2;
    let range_offsets = deltas + seg_x2;
    for segment in (0..seg_x2).step_by(2) {
        if u16_at(data, ends + segment)? < c {
            continue;
        }
        if u16_at(data, starts + segment)? > c {
            return None;
        }
        let start = u16_at(data, starts + segment)?;
        let delta = u16_at(data, deltas + segment)?;
        let range_offset = usize::from(u16_at(data, range_offsets + segment)?);
        if range_offset == 0 {
            return Some(c.wrapping_add(delta));
        }
        let glyph_at = range_offsets + segment + range_offset + 2 * usize::from(c - start);
        let glyph = u16_at(data, glyph_at)?;
        return (glyph != 0).then(|| glyph.wrapping_add(delta));
    }
    None
}

/// Segmented coverage (every plane).
fn format12(data: &[u8], at: usize, c: u32) -> Option<u16> {
    let groups = usize::try_from(u32_at(data, at + 12)?).ok()?;
    for group in 0..groups {
        let record = at + 16 + 12 * group;
        let start = u32_at(data, record)?;
        let end = u32_at(data, record + 4)?;
        if (start..=end).contains(&c) {
            let glyph = u32_at(data, record + 8)?.checked_add(c - start)?;
            return u16::try_from(glyph).ok();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

    #[test]
    fn garbage_is_no_font() {
        assert!(TrueType::parse(Vec::new()).is_none());
        assert!(TrueType::parse(b"\x00\x01\x00\x00\x00\x09".to_vec()).is_none());
        let mut lying = vec![0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
        lying.extend_from_slice(b"head\0\0\0\0\xff\xff\xff\xf0\0\0\0\x40");
        assert!(TrueType::parse(lying).is_none());
    }

    #[test]
    fn maps_and_measures_dejavu() {
        let Ok(data) = std::fs::read(DEJAVU) else {
            eprintln!("{DEJAVU} absent: skipped");
            return;
        };
        // Every prefix of the file is refused or read, never a panic.
        for cut in (0..data.len()).step_by(data.len() / 97) {
            let _ = TrueType::parse(data[..cut].to_vec());
        }
        let font = TrueType::parse(data).expect("DejaVu Sans parses");
        assert_eq!(font.units_per_em, 2048);
        let a = font.glyph('A').expect("A");
        let che = font.glyph('Ч').expect("Ч");
        assert_ne!(a, che);
        assert!(font.glyph('草').is_none());
        assert!((font.advance(a) - 684.0).abs() < 1.0, "{}", font.advance(a));
        assert!(font.ascender > 0 && font.descender < 0);
    }
}
