//! The default appearance string (/DA, §12.7.3.3): the font resource name, the size (0:
//! auto-fit) and the colour variable text is drawn in; and the quadding (/Q).

use lopdf::{Dictionary, Document, Object};

use super::tree::Terminal;
use crate::forms::acroform;

/// What a field's /DA says.
#[derive(Debug, Clone, PartialEq)]
pub struct Appearance {
    /// The font's name in the resources (/Helv).
    pub font: Vec<u8>,
    /// 0 for auto-fit.
    pub size: f64,
    /// The operators setting the fill colour ("0 g", "1 0 0 rg"), or black.
    pub colour: String,
}

/// The /DA a widget uses: its own, its field's (maybe inherited), the form's, else Helvetica
/// auto-sized in black.
pub fn of(doc: &Document, field: &Terminal, widget: &Dictionary) -> Appearance {
    let text = [widget.get(b"DA").ok(), field.inherited.get(b"DA").ok()]
        .into_iter()
        .flatten()
        .chain(acroform(doc).and_then(|form| form.get(b"DA").ok()))
        .find_map(|da| match doc.dereference(da).ok()?.1 {
            Object::String(bytes, _) => Some(String::from_utf8_lossy(bytes).into_owned()),
            _ => None,
        })
        .unwrap_or_default();
    parse(&text)
}

/// Reads the Tf and colour operators of a /DA string; anything else is ignored.
pub fn parse(text: &str) -> Appearance {
    let mut appearance = Appearance {
        font: b"Helv".to_vec(),
        size: 0.0,
        colour: "0 g".into(),
    };
    let mut operands: Vec<&str> = Vec::new();
    for token in text.split_ascii_whitespace() {
        match token {
            "Tf" => {
                if let [.., font, size] = operands.as_slice()
                    && let Some(font) = font.strip_prefix('/')
                {
                    appearance.font = font.as_bytes().to_vec();
                    appearance.size = size
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s >= 0.0)
                        .unwrap_or(0.0);
                }
                operands.clear();
            }
            "g" | "rg" | "k" => {
                let wanted = match token {
                    "g" => 1,
                    "rg" => 3,
                    _ => 4,
                };
                if operands.len() >= wanted {
                    let values = &operands[operands.len() - wanted..];
                    if values.iter().all(|v| v.parse::<f64>().is_ok()) {
                        appearance.colour = format!("{} {token}", values.join(" "));
                    }
                }
                operands.clear();
            }
            _ if token
                .chars()
                .all(|c| c.is_ascii_alphabetic() || c == '*' || c == '\'' || c == '"') =>
            {
                operands.clear();
            }
            _ => operands.push(token),
        }
    }
    appearance
}

/// The widget's quadding: 0 left, 1 centred, 2 right (its own /Q, its field's, the form's).
pub fn quadding(doc: &Document, field: &Terminal, widget: &Dictionary) -> u8 {
    [widget.get(b"Q").ok(), field.inherited.get(b"Q").ok()]
        .into_iter()
        .flatten()
        .chain(acroform(doc).and_then(|form| form.get(b"Q").ok()))
        .find_map(|q| doc.dereference(q).ok()?.1.as_i64().ok())
        .and_then(|q| u8::try_from(q).ok())
        .filter(|q| *q <= 2)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_font_size_and_colour() {
        let da = parse("0 0 1 rg /TiRo 10.5 Tf");
        assert_eq!(da.font, b"TiRo");
        assert_eq!(da.size, 10.5);
        assert_eq!(da.colour, "0 0 1 rg");
        let da = parse("/Helv 0 Tf 0.25 g");
        assert_eq!((da.size, da.colour.as_str()), (0.0, "0.25 g"));
        assert_eq!(parse("").font, b"Helv");
    }
}
