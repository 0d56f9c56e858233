//! The font a mark's text is drawn in: Helvetica when WinAnsi has every character (nothing
//! embedded), else the configured TrueType font, embedded as a CID font (Type0, Identity-H)
//! with a /ToUnicode map so that the text copies and searches.
//!
//! The font program is cut by `subsetter` to the glyphs used, which keeps their numbers, so /W
//! and the identity CID-to-glyph map stay; should it refuse the font, the whole program goes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};

use super::helvetica;
use super::ttf::TrueType;
use crate::ToolError;

pub enum Font {
    Helvetica,
    Embedded(Box<Embedded>),
}

pub struct Embedded {
    font: TrueType,
    name: String,
    /// Every character the text needs, with its glyph.
    glyphs: BTreeMap<char, u16>,
}

impl Font {
    /// The font for drawing `text` (every string the mark will show, concatenated): Helvetica
    /// when it can, else the TrueType font at `path`.
    pub fn for_text(text: &str, path: Option<&Path>) -> Result<Font, ToolError> {
        if let Some(c) = text.chars().find(|c| c.is_control()) {
            return Err(ToolError::BadOptions(format!(
                "the text has a control character ({}): write it on one line",
                codepoint(c)
            )));
        }
        let Some(outside) = text.chars().find(|&c| helvetica::code(c).is_none()) else {
            return Ok(Font::Helvetica);
        };
        let Some(path) = path else {
            return Err(ToolError::BadOptions(format!(
                "the text has \"{outside}\" ({}), which the standard font cannot show and no \
                 font is set up for other scripts: use Latin characters only",
                codepoint(outside)
            )));
        };
        let data = std::fs::read(path)
            .map_err(|e| ToolError::Io(format!("cannot read the font {}: {e}", path.display())))?;
        let font = TrueType::parse(data)
            .ok_or_else(|| ToolError::Io(format!("{} is not a TrueType font", path.display())))?;
        let name: String = path
            .file_stem()
            .map(|stem| stem.to_string_lossy())
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        let mut glyphs = BTreeMap::new();
        for c in text.chars() {
            let glyph = font.glyph(c).ok_or_else(|| {
                ToolError::BadOptions(format!(
                    "the font {name} has no glyph for \"{c}\" ({}): remove it from the text",
                    codepoint(c)
                ))
            })?;
            glyphs.insert(c, glyph);
        }
        // A subset font's name starts with a six-letter tag (ISO 32000-1, 9.6.4).
        let name = format!("QUIRES+{}", if name.is_empty() { "Font" } else { &name });
        Ok(Font::Embedded(Box::new(Embedded { font, name, glyphs })))
    }

    /// The width of `text` at size 1.
    pub fn width(&self, text: &str) -> f64 {
        let thousandths: f64 = match self {
            Font::Helvetica => text
                .chars()
                .filter_map(helvetica::code)
                .map(helvetica::width)
                .sum(),
            Font::Embedded(embedded) => text
                .chars()
                .filter_map(|c| embedded.glyphs.get(&c))
                .map(|&glyph| embedded.font.advance(glyph))
                .sum(),
        };
        thousandths / 1000.0
    }

    /// The ascent and (negative) descent at size 1.
    pub fn vertical(&self) -> (f64, f64) {
        match self {
            Font::Helvetica => (helvetica::ASCENT / 1000.0, helvetica::DESCENT / 1000.0),
            Font::Embedded(embedded) => {
                let font = &embedded.font;
                (
                    font.scale(font.ascender.into()) / 1000.0,
                    font.scale(font.descender.into()) / 1000.0,
                )
            }
        }
    }

    /// `text` as a hex string operand for Tj: WinAnsi codes, or glyph numbers.
    pub fn show(&self, text: &str) -> String {
        let mut hex = String::from("<");
        for c in text.chars() {
            let _ = match self {
                Font::Helvetica => write!(hex, "{:02X}", helvetica::code(c).unwrap_or(b' ')),
                Font::Embedded(embedded) => {
                    write!(hex, "{:04X}", embedded.glyphs.get(&c).copied().unwrap_or(0))
                }
            };
        }
        hex.push('>');
        hex
    }

    /// Adds the font dictionary (and for an embedded font its descendant, descriptor, font
    /// file and /ToUnicode) to `doc`.
    pub fn add_to(&self, doc: &mut Document) -> ObjectId {
        match self {
            Font::Helvetica => doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
                "Encoding" => "WinAnsiEncoding",
            }),
            Font::Embedded(embedded) => embedded.add_to(doc),
        }
    }
}

fn codepoint(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

impl Embedded {
    /// The font program with only the glyphs drawn (and .notdef), or whole if the subsetter
    /// refuses it (it panics on some malformed fonts: caught, as the compressor does).
    fn subset(&self) -> Vec<u8> {
        let mut keep: Vec<u16> = self.glyphs.values().copied().collect();
        keep.insert(0, 0);
        keep.sort_unstable();
        keep.dedup();
        let data = &self.font.data;
        std::panic::catch_unwind(|| subsetter::subset(data, 0, subsetter::Profile::pdf(&keep)))
            .ok()
            .and_then(Result::ok)
            .unwrap_or_else(|| data.clone())
    }

    fn add_to(&self, doc: &mut Document) -> ObjectId {
        let font = &self.font;
        let thousandths = |units: i16| Object::Real(font.scale(units.into()) as f32);
        let program = self.subset();
        let mut file = Object::Stream(Stream::new(
            dictionary! { "Length1" => program.len() as i64 },
            program,
        ));
        crate::streams::compress(&mut file);
        let file = doc.add_object(file);
        let descriptor = doc.add_object(dictionary! {
            "Type" => "FontDescriptor", "FontName" => self.name.as_str(), "Flags" => 4,
            "FontBBox" => font.bbox.iter().map(|&v| thousandths(v)).collect::<Vec<_>>(),
            "ItalicAngle" => 0, "Ascent" => thousandths(font.ascender),
            "Descent" => thousandths(font.descender), "CapHeight" => thousandths(font.cap_height),
            "StemV" => 80, "FontFile2" => file,
        });
        let mut widths: BTreeMap<u16, f64> = BTreeMap::new();
        for &glyph in self.glyphs.values() {
            widths.insert(glyph, font.advance(glyph));
        }
        let w: Vec<Object> = widths
            .iter()
            .flat_map(|(&glyph, &width)| {
                [
                    Object::Integer(glyph.into()),
                    Object::Array(vec![Object::Real(width.round() as f32)]),
                ]
            })
            .collect();
        let system = dictionary! {
            "Registry" => Object::String(b"Adobe".to_vec(), StringFormat::Literal),
            "Ordering" => Object::String(b"Identity".to_vec(), StringFormat::Literal),
            "Supplement" => 0,
        };
        let descendant = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "CIDFontType2", "BaseFont" => self.name.as_str(),
            "CIDSystemInfo" => system, "FontDescriptor" => descriptor, "DW" => 1000, "W" => w,
            "CIDToGIDMap" => "Identity",
        });
        let to_unicode = doc.add_object(Stream::new(Dictionary::new(), self.to_unicode()));
        doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "BaseFont" => self.name.as_str(),
            "Encoding" => "Identity-H", "DescendantFonts" => vec![descendant.into()],
            "ToUnicode" => to_unicode,
        })
    }

    /// The CMap from glyph numbers back to the characters they draw (the first character
    /// when several share a glyph).
    fn to_unicode(&self) -> Vec<u8> {
        let mut chars: BTreeMap<u16, char> = BTreeMap::new();
        for (&c, &glyph) in &self.glyphs {
            chars.entry(glyph).or_insert(c);
        }
        let mut cmap = String::from(
            "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
             /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
             /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
             1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
        );
        let pairs: Vec<(u16, char)> = chars.into_iter().collect();
        // At most 100 entries per block.
        for block in pairs.chunks(100) {
            let _ = writeln!(cmap, "{} beginbfchar", block.len());
            for &(glyph, c) in block {
                let _ = write!(cmap, "<{glyph:04X}> <");
                for unit in c.encode_utf16(&mut [0; 2]) {
                    let _ = write!(cmap, "{unit:04X}");
                }
                cmap.push_str(">\n");
            }
            cmap.push_str("endbfchar\n");
        }
        cmap.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
        cmap.into_bytes()
    }
}
