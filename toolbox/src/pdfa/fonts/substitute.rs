//! Which free font stands in for a font the document names but does not embed: the URW
//! base 35 fonts (Debian's fonts-urw-base35), drawn to the metrics of Adobe's standard fonts,
//! so text set in Helvetica, Arial, Times, Courier, Symbol or ZapfDingbats keeps its
//! positions. Other families get the closest of them by what the font descriptor says
//! (fixed pitch, serif) and their glyphs the widths the document was laid out with.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::ToolError;

/// Where the URW Type 1 fonts are (their .t1 programs and .afm metrics).
const URW_DIR: &str = "/usr/share/fonts/type1/urw-base35";

/// Descriptor flags (ISO 32000-1 Table 123).
pub const FIXED_PITCH: i64 = 1;
pub const SERIF: i64 = 1 << 1;
pub const SYMBOLIC: i64 = 1 << 2;
pub const ITALIC: i64 = 1 << 6;
pub const NONSYMBOLIC: i64 = 1 << 5;
pub const FORCE_BOLD: i64 = 1 << 18;

/// What the document says of the font.
pub struct Wanted<'a> {
    pub base_font: &'a str,
    pub flags: Option<i64>,
    pub weight: Option<f64>,
    pub italic_angle: Option<f64>,
}

/// The URW font (file stem) for a font the document names.
pub fn choose(wanted: &Wanted<'_>) -> &'static str {
    let name = wanted
        .base_font
        .split_once('+')
        .filter(|(tag, _)| tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()))
        .map_or(wanted.base_font, |(_, rest)| rest);
    let lower: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let flags = wanted.flags.unwrap_or(0);
    if lower.contains("zapfdingbats") || lower.contains("dingbats") {
        return "D050000L";
    }
    if lower == "symbol" || lower.starts_with("symbolmt") || lower == "standardsymbolsps" {
        return "StandardSymbolsPS";
    }
    let bold = lower.contains("bold")
        || lower.contains("black")
        || lower.contains("heavy")
        || lower.contains("semibold")
        || lower.contains("demi")
        || flags & FORCE_BOLD != 0
        || wanted.weight.is_some_and(|w| w >= 600.0);
    let italic = lower.contains("italic")
        || lower.contains("oblique")
        || lower.ends_with("it")
        || lower.contains("slanted")
        || flags & ITALIC != 0
        || wanted.italic_angle.is_some_and(|a| a != 0.0);
    let mono = lower.contains("courier")
        || lower.contains("mono")
        || lower.contains("consol")
        || lower.contains("typewriter")
        || flags & FIXED_PITCH != 0;
    let serif = lower.contains("times")
        || lower.contains("roman")
        || lower.contains("serif") && !lower.contains("sansserif")
        || lower.contains("georgia")
        || lower.contains("garamond")
        || lower.contains("cambria")
        || lower.contains("book")
        || lower.contains("palatino")
        || lower.contains("minion")
        || (flags & SERIF != 0
            && !lower.contains("sans")
            && !lower.contains("arial")
            && !lower.contains("helvetica"));
    let narrow = lower.contains("narrow") || lower.contains("condensed");
    let (family, styles): (&str, [&'static str; 4]) = if mono {
        (
            "mono",
            [
                "NimbusMonoPS-Regular",
                "NimbusMonoPS-Bold",
                "NimbusMonoPS-Italic",
                "NimbusMonoPS-BoldItalic",
            ],
        )
    } else if serif {
        (
            "serif",
            [
                "NimbusRoman-Regular",
                "NimbusRoman-Bold",
                "NimbusRoman-Italic",
                "NimbusRoman-BoldItalic",
            ],
        )
    } else if narrow {
        (
            "narrow",
            [
                "NimbusSansNarrow-Regular",
                "NimbusSansNarrow-Bold",
                "NimbusSansNarrow-Oblique",
                "NimbusSansNarrow-BoldOblique",
            ],
        )
    } else {
        (
            "sans",
            [
                "NimbusSans-Regular",
                "NimbusSans-Bold",
                "NimbusSans-Italic",
                "NimbusSans-BoldItalic",
            ],
        )
    };
    let _ = family;
    styles[usize::from(bold) + 2 * usize::from(italic)]
}

/// The folder the fonts are read from: `QUIRE_URW_DIR` overrides the Debian one.
fn dir() -> PathBuf {
    std::env::var_os("QUIRE_URW_DIR").map_or_else(|| PathBuf::from(URW_DIR), PathBuf::from)
}

/// A URW font: its Type 1 program and what its AFM says.
pub struct Urw {
    pub name: &'static str,
    pub program: Vec<u8>,
    pub metrics: Afm,
}

/// Reads the program and metrics of `name`.
pub fn load(name: &'static str) -> Result<Urw, ToolError> {
    let dir = dir();
    let read = |ext: &str| {
        let path = dir.join(format!("{name}.{ext}"));
        std::fs::read(&path).map_err(|e| {
            ToolError::Io(format!(
                "cannot read the font {} (Debian package fonts-urw-base35): {e}",
                path.display()
            ))
        })
    };
    let program = read("t1")?;
    let metrics = Afm::parse(&String::from_utf8_lossy(&read("afm")?));
    Ok(Urw {
        name,
        program,
        metrics,
    })
}

/// The parts of an AFM file the font descriptor and widths need.
#[derive(Debug, Default)]
pub struct Afm {
    pub widths: HashMap<String, f64>,
    pub bbox: [f64; 4],
    pub italic_angle: f64,
    pub cap_height: f64,
    pub x_height: f64,
    pub ascender: f64,
    pub descender: f64,
    pub stem_v: f64,
    pub fixed_pitch: bool,
}

impl Afm {
    pub fn parse(text: &str) -> Afm {
        let mut afm = Afm {
            stem_v: 80.0,
            ..Afm::default()
        };
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let Some(key) = words.next() else {
                continue;
            };
            let num = |w: Option<&str>| w.and_then(|w| w.parse::<f64>().ok()).unwrap_or(0.0);
            match key {
                "C" => {
                    let mut width = None;
                    let mut name = None;
                    for part in line.split(';') {
                        let mut p = part.split_whitespace();
                        match p.next() {
                            Some("WX") => width = p.next().and_then(|w| w.parse::<f64>().ok()),
                            Some("N") => name = p.next(),
                            _ => {}
                        }
                    }
                    if let (Some(w), Some(n)) = (width, name) {
                        afm.widths.insert(n.to_string(), w);
                    }
                }
                "FontBBox" => {
                    let v: Vec<f64> = words.filter_map(|w| w.parse().ok()).collect();
                    if let [a, b, c, d] = v.as_slice() {
                        afm.bbox = [*a, *b, *c, *d];
                    }
                }
                "ItalicAngle" => afm.italic_angle = num(words.next()),
                "CapHeight" => afm.cap_height = num(words.next()),
                "XHeight" => afm.x_height = num(words.next()),
                "Ascender" => afm.ascender = num(words.next()),
                "Descender" => afm.descender = num(words.next()),
                "StdVW" => afm.stem_v = num(words.next()),
                "IsFixedPitch" => afm.fixed_pitch = words.next() == Some("true"),
                _ => {}
            }
        }
        afm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(name: &str, flags: Option<i64>) -> &'static str {
        choose(&Wanted {
            base_font: name,
            flags,
            weight: None,
            italic_angle: None,
        })
    }

    #[test]
    fn standard_names_and_families_pick_their_metric_twins() {
        assert_eq!(pick("Helvetica", None), "NimbusSans-Regular");
        assert_eq!(pick("Helvetica-BoldOblique", None), "NimbusSans-BoldItalic");
        assert_eq!(pick("Arial,Bold", None), "NimbusSans-Bold");
        assert_eq!(pick("ABCDEF+ArialMT", None), "NimbusSans-Regular");
        assert_eq!(pick("Times-Roman", None), "NimbusRoman-Regular");
        assert_eq!(
            pick("TimesNewRomanPS-BoldItalicMT", None),
            "NimbusRoman-BoldItalic"
        );
        assert_eq!(pick("Courier-Oblique", None), "NimbusMonoPS-Italic");
        assert_eq!(pick("Symbol", None), "StandardSymbolsPS");
        assert_eq!(pick("ZapfDingbats", None), "D050000L");
        assert_eq!(pick("Calibri", Some(NONSYMBOLIC)), "NimbusSans-Regular");
        assert_eq!(
            pick("Cambria", Some(NONSYMBOLIC | SERIF)),
            "NimbusRoman-Regular"
        );
        assert_eq!(pick("Consolas", Some(FIXED_PITCH)), "NimbusMonoPS-Regular");
    }

    #[test]
    fn afm_metrics_are_read() {
        let afm = Afm::parse(
            "FontBBox -210 -299 1032 1075\nCapHeight 729\nC 32 ; WX 278 ; N space ; B 0 0 0 0 ;\nC -1 ; WX 556 ; N Euro ; B 0 0 1 1 ;\n",
        );
        assert_eq!(afm.bbox, [-210.0, -299.0, 1032.0, 1075.0]);
        assert_eq!(afm.widths.get("space"), Some(&278.0));
        assert_eq!(afm.widths.get("Euro"), Some(&556.0));
    }
}
