//! The font a widget's text is drawn in: the /DA font found in the default resources when it
//! can show the text (a simple font whose encoding has every character and whose program is
//! not a subset that may lack them), else the fallback (Helvetica, or DejaVu Sans embedded).

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId, dictionary};

use super::tree::Terminal;
use crate::forms::acroform;
use crate::stamp::font::Font;
use crate::stamp::helvetica;

/// The name the fallback font takes in the appearance's resources.
pub const FALLBACK_NAME: &[u8] = b"QuireFont";

/// The standard 14 fonts by the names Acrobat gives them in /DR (§12.7.3.3 examples).
const STANDARD: [(&[u8], &str); 10] = [
    (b"Helv", "Helvetica"),
    (b"HeBo", "Helvetica-Bold"),
    (b"HeOb", "Helvetica-Oblique"),
    (b"HeBO", "Helvetica-BoldOblique"),
    (b"Cour", "Courier"),
    (b"CoBo", "Courier-Bold"),
    (b"TiRo", "Times-Roman"),
    (b"TiBo", "Times-Bold"),
    (b"TiIt", "Times-Italic"),
    (b"TiBI", "Times-BoldItalic"),
];

/// The fallback font, added to the document once.
pub struct Fallback {
    pub font: Font,
    pub id: ObjectId,
}

pub enum Face<'a> {
    Form(Box<FormFont>),
    Own(&'a Fallback),
}

/// A font of the form's resources.
pub struct FormFont {
    name: Vec<u8>,
    object: Object,
    /// A simple font whose glyphs can be trusted to be there.
    usable: bool,
    encoding: Encoding,
    /// /FirstChar and /Widths (thousandths).
    widths: Option<(i64, Vec<f64>)>,
    monospace: bool,
    ascent: f64,
    descent: f64,
}

enum Encoding {
    WinAnsi,
    /// The printable ASCII codes, the same in StandardEncoding (but for the two quotes) and
    /// MacRomanEncoding.
    Ascii {
        standard: bool,
    },
    Differences {
        base: Box<Encoding>,
        changed: HashMap<u8, Vec<u8>>,
    },
}

impl Encoding {
    fn code(&self, c: char) -> Option<u8> {
        match self {
            Encoding::WinAnsi => helvetica::code(c),
            Encoding::Ascii { standard } => {
                let quote = *standard && matches!(c, '\'' | '`');
                (c.is_ascii_graphic() || c == ' ')
                    .then_some(c as u8)
                    .filter(|_| !quote)
            }
            Encoding::Differences { base, changed } => {
                let code = base.code(c)?;
                match changed.get(&code) {
                    None => Some(code),
                    Some(glyph) => {
                        (glyph_name(c).as_deref() == Some(glyph.as_slice())).then_some(code)
                    }
                }
            }
        }
    }
}

/// The glyph name of the characters whose name is easy to know: letters, digits, space.
fn glyph_name(c: char) -> Option<Vec<u8>> {
    const DIGITS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    match c {
        'a'..='z' | 'A'..='Z' => Some(vec![c as u8]),
        '0'..='9' => Some(DIGITS[(c as u8 - b'0') as usize].as_bytes().to_vec()),
        ' ' => Some(b"space".to_vec()),
        _ => None,
    }
}

impl Face<'_> {
    /// The advance of `text` at size 1.
    pub fn width(&self, text: &str) -> f64 {
        match self {
            Face::Own(fallback) => fallback.font.width(text),
            Face::Form(font) => text
                .chars()
                .filter_map(|c| font.encoding.code(c))
                .map(|code| font.width(code))
                .sum(),
        }
    }

    /// Ascent and (negative) descent at size 1.
    pub fn vertical(&self) -> (f64, f64) {
        match self {
            Face::Own(fallback) => fallback.font.vertical(),
            Face::Form(font) => (font.ascent, font.descent),
        }
    }

    /// `text` as a hex string operand of Tj.
    pub fn show(&self, text: &str) -> String {
        match self {
            Face::Own(fallback) => fallback.font.show(text),
            Face::Form(font) => {
                let mut hex = String::from("<");
                for code in text.chars().filter_map(|c| font.encoding.code(c)) {
                    hex.push_str(&format!("{code:02X}"));
                }
                hex.push('>');
                hex
            }
        }
    }

    /// The font's name and object for the appearance's /Resources /Font.
    pub fn resource(&self) -> (Vec<u8>, Object) {
        match self {
            Face::Own(fallback) => (FALLBACK_NAME.to_vec(), Object::Reference(fallback.id)),
            Face::Form(font) => (font.name.clone(), font.object.clone()),
        }
    }
}

impl FormFont {
    /// Whether every character of `text` (but line breaks) can be drawn in this font.
    pub fn covers(&self, text: &str) -> bool {
        self.usable
            && text.chars().filter(|c| !c.is_control()).all(|c| {
                self.encoding
                    .code(c)
                    .is_some_and(|code| self.known_width(code) != Some(0.0))
            })
    }

    /// The width /Widths gives a code, if it gives one.
    fn known_width(&self, code: u8) -> Option<f64> {
        let (first, widths) = self.widths.as_ref()?;
        let index = usize::try_from(i64::from(code) - first).ok()?;
        Some(widths.get(index).copied().unwrap_or(0.0))
    }

    fn width(&self, code: u8) -> f64 {
        let thousandths = match self.known_width(code) {
            Some(width) => width,
            None if self.monospace => 600.0,
            None => helvetica::width(code),
        };
        thousandths / 1000.0
    }
}

/// The /DA font `name` of a widget: in the field's /DR (some producers put one there), else
/// the form's; a standard font name (/Helv, /TiRo, ...) missing from both is added as the
/// standard font it names (once: `added` keeps them). `None` when the name is unknown.
pub fn form_font(
    doc: &mut Document,
    field: &Terminal,
    name: &[u8],
    added: &mut HashMap<Vec<u8>, ObjectId>,
) -> Option<FormFont> {
    let found = [
        field.inherited.get(b"DR").ok(),
        acroform(doc).and_then(|form| form.get(b"DR").ok()),
    ]
    .into_iter()
    .flatten()
    .find_map(|dr| {
        let dr = doc.dereference(dr).ok()?.1.as_dict().ok()?;
        let fonts = doc
            .dereference(dr.get(b"Font").ok()?)
            .ok()?
            .1
            .as_dict()
            .ok()?;
        fonts.get(name).ok().cloned()
    });
    let object = match found {
        Some(object) => object,
        None => {
            let (_, base) = STANDARD.iter().find(|(short, _)| *short == name)?;
            let id = *added.entry(name.to_vec()).or_insert_with(|| {
                doc.add_object(dictionary! {
                    "Type" => "Font", "Subtype" => "Type1", "BaseFont" => *base,
                    "Encoding" => "WinAnsiEncoding",
                })
            });
            Object::Reference(id)
        }
    };
    let dict = doc.dereference(&object).ok()?.1.as_dict().ok()?;
    Some(describe(doc, name, object.clone(), dict))
}

fn describe(doc: &Document, name: &[u8], object: Object, dict: &Dictionary) -> FormFont {
    let get = |dict: &Dictionary, key: &[u8]| -> Option<Object> {
        Some(doc.dereference(dict.get(key).ok()?).ok()?.1.clone())
    };
    let subtype = get(dict, b"Subtype");
    let simple = matches!(
        subtype.as_ref().and_then(|s| s.as_name().ok()),
        Some(b"Type1" | b"TrueType" | b"MMType1")
    );
    let base = get(dict, b"BaseFont")
        .and_then(|b| b.as_name().ok().map(<[u8]>::to_vec))
        .unwrap_or_default();
    let subset = base.len() > 7 && base[6] == b'+' && base[..6].iter().all(u8::is_ascii_uppercase);
    let symbolic = [b"Symbol".as_slice(), b"ZapfDingbats", b"Wingdings"]
        .iter()
        .any(|s| base.windows(s.len()).any(|w| w == *s));
    let descriptor = get(dict, b"FontDescriptor").and_then(|d| d.as_dict().ok().cloned());
    let embedded = descriptor
        .as_ref()
        .is_some_and(|d| d.has(b"FontFile") || d.has(b"FontFile2") || d.has(b"FontFile3"));
    let metric = |key: &[u8]| {
        descriptor
            .as_ref()
            .and_then(|d| get(d, key))
            .and_then(|v| crate::geometry::number_of(&v))
    };
    let (ascent, descent) = match (metric(b"Ascent"), metric(b"Descent")) {
        (Some(a), Some(d)) if a > 0.0 && d <= 0.0 && a - d > 100.0 => (a / 1000.0, d / 1000.0),
        _ => (helvetica::ASCENT / 1000.0, helvetica::DESCENT / 1000.0),
    };
    let widths = match (get(dict, b"FirstChar"), get(dict, b"Widths")) {
        (Some(Object::Integer(first)), Some(Object::Array(widths))) => Some((
            first,
            widths
                .iter()
                .map(|w| {
                    doc.dereference(w)
                        .ok()
                        .and_then(|(_, w)| crate::geometry::number_of(w))
                        .unwrap_or(0.0)
                })
                .collect(),
        )),
        _ => None,
    };
    FormFont {
        name: name.to_vec(),
        object,
        usable: simple && !symbolic && !(embedded && subset),
        encoding: encoding(doc, get(dict, b"Encoding")),
        widths,
        monospace: base.windows(7).any(|w| w == b"Courier"),
        ascent,
        descent,
    }
}

fn encoding(doc: &Document, value: Option<Object>) -> Encoding {
    let named = |name: &[u8]| match name {
        b"WinAnsiEncoding" => Encoding::WinAnsi,
        b"MacRomanEncoding" => Encoding::Ascii { standard: false },
        _ => Encoding::Ascii { standard: true },
    };
    match value {
        Some(Object::Name(name)) => named(&name),
        Some(Object::Dictionary(dict)) => {
            let base = match dict.get(b"BaseEncoding").and_then(Object::as_name) {
                Ok(name) => named(name),
                Err(_) => Encoding::Ascii { standard: true },
            };
            let mut changed = HashMap::new();
            let differences = dict
                .get(b"Differences")
                .ok()
                .and_then(|d| doc.dereference(d).ok())
                .and_then(|(_, d)| d.as_array().ok().cloned())
                .unwrap_or_default();
            let mut code: i64 = 0;
            for item in differences {
                match item {
                    Object::Integer(n) => code = n,
                    Object::Name(glyph) => {
                        if let Ok(byte) = u8::try_from(code) {
                            changed.insert(byte, glyph);
                        }
                        code += 1;
                    }
                    _ => {}
                }
            }
            Encoding::Differences {
                base: Box::new(base),
                changed,
            }
        }
        _ => Encoding::Ascii { standard: true },
    }
}
