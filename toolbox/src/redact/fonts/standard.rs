//! The standard 14 fonts (and the usual names standing for them: Arial, Times New Roman,
//! Courier New), measured from their metrics when a simple font gives no /Widths.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::standard_data as data;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Helvetica,
    HelveticaBold,
    TimesRoman,
    TimesBold,
    TimesItalic,
    TimesBoldItalic,
    Courier,
    Symbol,
    ZapfDingbats,
}

/// The standard font a /BaseFont names (a subset tag and the style's spelling aside), if any.
pub fn family(base_font: &[u8]) -> Option<Family> {
    let name = String::from_utf8_lossy(base_font).to_ascii_lowercase();
    let name = match name.split_once('+') {
        Some((tag, rest)) if tag.len() == 6 => rest.to_string(),
        _ => name,
    };
    let bold = name.contains("bold");
    let italic = name.contains("italic") || name.contains("oblique");
    if name.contains("courier") {
        Some(Family::Courier)
    } else if name.contains("dingbats") {
        Some(Family::ZapfDingbats)
    } else if name.starts_with("symbol") {
        Some(Family::Symbol)
    } else if name.contains("times") {
        Some(match (bold, italic) {
            (false, false) => Family::TimesRoman,
            (true, false) => Family::TimesBold,
            (false, true) => Family::TimesItalic,
            (true, true) => Family::TimesBoldItalic,
        })
    } else if name.contains("helvetica") || name.contains("arial") {
        Some(if bold {
            Family::HelveticaBold
        } else {
            Family::Helvetica
        })
    } else {
        None
    }
}

impl Family {
    /// Whether its built-in encoding is its own (Symbol, ZapfDingbats) rather than the
    /// standard encoding.
    pub fn symbolic(self) -> bool {
        matches!(self, Family::Symbol | Family::ZapfDingbats)
    }

    /// Descender and ascender, in thousandths (Adobe's AFM files).
    pub fn extent(self) -> (f64, f64) {
        match self {
            Family::Helvetica | Family::HelveticaBold => (-207.0, 718.0),
            Family::TimesRoman => (-217.0, 683.0),
            Family::TimesBold => (-205.0, 676.0),
            Family::TimesItalic | Family::TimesBoldItalic => (-205.0, 683.0),
            Family::Courier => (-157.0, 629.0),
            Family::Symbol => (-293.0, 1010.0),
            Family::ZapfDingbats => (-143.0, 820.0),
        }
    }

    /// The advance of the glyph named `name`, in thousandths.
    pub fn width_of_name(self, name: &[u8]) -> Option<f64> {
        if self == Family::Courier {
            return Some(600.0);
        }
        let table = self.names()?;
        std::str::from_utf8(name)
            .ok()
            .and_then(|n| table.get(n))
            .copied()
    }

    /// The advance of a code of the built-in encoding of Symbol or ZapfDingbats.
    pub fn width_of_code(self, code: u8) -> Option<f64> {
        static SYMBOL: OnceLock<HashMap<u8, f64>> = OnceLock::new();
        static DINGBATS: OnceLock<HashMap<u8, f64>> = OnceLock::new();
        let table = match self {
            Family::Symbol => SYMBOL.get_or_init(|| codes(data::SYMBOL)),
            Family::ZapfDingbats => DINGBATS.get_or_init(|| codes(data::ZAPF_DINGBATS)),
            _ => return None,
        };
        table.get(&code).copied()
    }

    fn names(self) -> Option<&'static HashMap<&'static str, f64>> {
        static TABLES: [OnceLock<HashMap<&'static str, f64>>; 6] = [const { OnceLock::new() }; 6];
        let (index, source) = match self {
            Family::Helvetica => (0, data::HELVETICA),
            Family::HelveticaBold => (1, data::HELVETICA_BOLD),
            Family::TimesRoman => (2, data::TIMES_ROMAN),
            Family::TimesBold => (3, data::TIMES_BOLD),
            Family::TimesItalic => (4, data::TIMES_ITALIC),
            Family::TimesBoldItalic => (5, data::TIMES_BOLD_ITALIC),
            _ => return None,
        };
        Some(TABLES[index].get_or_init(|| pairs(source).collect()))
    }
}

fn pairs(source: &'static str) -> impl Iterator<Item = (&'static str, f64)> {
    let mut words = source.split_ascii_whitespace();
    std::iter::from_fn(move || {
        let key = words.next()?;
        let width = words.next()?.parse().ok()?;
        Some((key, width))
    })
}

fn codes(source: &'static str) -> HashMap<u8, f64> {
    pairs(source)
        .filter_map(|(code, width)| Some((code.parse().ok()?, width)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_metrics() {
        assert_eq!(family(b"ABCDEF+Arial-BoldMT"), Some(Family::HelveticaBold));
        assert_eq!(
            family(b"TimesNewRomanPS-ItalicMT"),
            Some(Family::TimesItalic)
        );
        assert_eq!(family(b"Helvetica-Oblique"), Some(Family::Helvetica));
        assert_eq!(family(b"CourierNewPSMT"), Some(Family::Courier));
        assert_eq!(family(b"DejaVuSans"), None);
        assert_eq!(Family::Helvetica.width_of_name(b"W"), Some(944.0));
        assert_eq!(Family::Helvetica.width_of_name(b"space"), Some(278.0));
        assert_eq!(Family::TimesRoman.width_of_name(b"a"), Some(444.0));
        assert_eq!(Family::TimesBold.width_of_name(b"a"), Some(500.0));
        assert_eq!(Family::Courier.width_of_name(b"anything"), Some(600.0));
        assert_eq!(Family::Symbol.width_of_code(b'a'), Some(631.0));
        assert_eq!(Family::ZapfDingbats.width_of_code(b' '), Some(278.0));
    }
}
