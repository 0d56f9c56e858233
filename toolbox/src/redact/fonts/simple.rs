//! Simple fonts: one byte per code, widths from /Widths (Type 3 ones through their
//! FontMatrix), or from the standard 14 fonts' metrics by each code's glyph name.

use lopdf::{Dictionary, Document, Object};
use quire_compress::font_programs::{STANDARD, named as encoding_table};

use super::standard::{self, Family};
use super::{Codes, DEFAULT_EXTENT, Font, Widths, descriptor_extent, dict, name, number, numbers};

/// Glyph space to text space for every font but Type 3.
const THOUSANDTHS: [f64; 6] = [0.001, 0.0, 0.0, 0.001, 0.0, 0.0];

pub fn load(doc: &Document, font: &Dictionary) -> Result<Font, &'static str> {
    let type3 = name(doc, font, b"Subtype") == Some(b"Type3");
    let matrix = if type3 {
        font_matrix(doc, font).ok_or("a Type 3 font without a usable FontMatrix")?
    } else {
        THOUSANDTHS
    };
    let descriptor = dict(doc, font, b"FontDescriptor");
    let family = name(doc, font, b"BaseFont").and_then(standard::family);
    let missing = descriptor
        .and_then(|d| number(doc, d, b"MissingWidth"))
        .unwrap_or(0.0);
    let mut widths = Box::new([missing; 256]);
    let mut exact = true;
    match font.get(b"Widths").ok().and_then(|w| numbers(doc, w)) {
        Some(given) => {
            let first = number(doc, font, b"FirstChar").unwrap_or(0.0).max(0.0) as usize;
            for (code, width) in (first..256).zip(given) {
                widths[code] = width;
            }
        }
        None if type3 => return Err("a Type 3 font without widths"),
        None => match family {
            Some(family) => standard_widths(doc, font, family, &mut widths),
            // Neither given nor known: the page's text cannot be placed for sure.
            None => exact = false,
        },
    }
    for width in widths.iter_mut() {
        // Divided rather than multiplied by 0.001: 700 stays 0.7.
        *width = if type3 {
            *width * matrix[0]
        } else {
            *width / 1000.0
        };
    }
    let (descent, ascent) = if type3 {
        type3_extent(doc, font, matrix)
    } else {
        let (descent, ascent) = descriptor
            .and_then(|d| descriptor_extent(doc, d))
            .or_else(|| family.map(Family::extent))
            .unwrap_or(DEFAULT_EXTENT);
        (descent / 1000.0, ascent / 1000.0)
    };
    Ok(Font {
        codes: Codes::OneByte,
        widths: Widths::Simple(widths),
        descent,
        ascent,
        exact,
    })
}

fn font_matrix(doc: &Document, font: &Dictionary) -> Option<[f64; 6]> {
    let values = numbers(doc, font.get(b"FontMatrix").ok()?)?;
    let matrix: [f64; 6] = values.try_into().ok()?;
    (matrix[0] != 0.0 && matrix[3] != 0.0).then_some(matrix)
}

/// A Type 3 glyph's height: its FontBBox through the FontMatrix, or a Latin font's usual one
/// when the box is all zeros (which says nothing).
fn type3_extent(doc: &Document, font: &Dictionary, matrix: [f64; 6]) -> (f64, f64) {
    let bbox = font
        .get(b"FontBBox")
        .ok()
        .and_then(|b| numbers(doc, b))
        .filter(|b| b.len() == 4 && b[3] != b[1]);
    match bbox {
        Some(b) => {
            let (y0, y1) = (b[1] * matrix[3] + matrix[5], b[3] * matrix[3] + matrix[5]);
            (y0.min(y1).min(0.0), y0.max(y1))
        }
        None => (DEFAULT_EXTENT.0 / 1000.0, DEFAULT_EXTENT.1 / 1000.0),
    }
}

/// Each code's width by its glyph name (/Differences over the base encoding), or for Symbol
/// and ZapfDingbats by code in their own encoding.
fn standard_widths(doc: &Document, font: &Dictionary, family: Family, widths: &mut [f64; 256]) {
    let encoding = font
        .get(b"Encoding")
        .ok()
        .and_then(|e| doc.dereference(e).ok())
        .map(|(_, e)| e);
    let (base, differences) = match encoding {
        Some(Object::Name(name)) => (encoding_table(name), None),
        Some(Object::Dictionary(dict)) => (
            dict.get(b"BaseEncoding")
                .ok()
                .and_then(|b| b.as_name().ok())
                .and_then(encoding_table),
            dict.get(b"Differences")
                .ok()
                .and_then(|d| doc.dereference(d).ok())
                .and_then(|(_, d)| d.as_array().ok()),
        ),
        _ => (None, None),
    };
    let mut names: Vec<Option<Vec<u8>>> = (0..256)
        .map(|code| {
            let table = base.or((!family.symbolic()).then_some(&STANDARD))?;
            let name = table[code];
            (!name.is_empty()).then(|| name.to_vec())
        })
        .collect();
    let mut next = 0i64;
    for item in differences.into_iter().flatten() {
        match item {
            Object::Integer(code) => next = *code,
            Object::Name(name) => {
                if let Some(slot) = usize::try_from(next).ok().and_then(|c| names.get_mut(c)) {
                    *slot = Some(name.clone());
                }
                next += 1;
            }
            _ => {}
        }
    }
    for (code, slot) in widths.iter_mut().enumerate() {
        let by_name = names[code]
            .as_deref()
            .and_then(|name| family.width_of_name(name));
        let by_code = u8::try_from(code)
            .ok()
            .and_then(|code| family.width_of_code(code));
        if let Some(width) = by_name.or(by_code) {
            *slot = width;
        }
    }
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn widths_from_the_file_or_the_standard_metrics() {
        let doc = Document::with_version("1.7");
        let given = dictionary! {
            "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Whatever",
            "FirstChar" => 65, "Widths" => vec![600.into(), 700.into()],
        };
        let font = Font::load(&doc, &given).expect("loads");
        let glyphs = font.glyphs(b"AB ").expect("splits");
        assert_eq!(
            glyphs.iter().map(|g| g.width).collect::<Vec<_>>(),
            [0.6, 0.7, 0.0]
        );
        assert!(glyphs[2].space && font.exact);

        let helvetica = dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
            "Encoding" => dictionary! { "Differences" => vec![65.into(), "W".into()] },
        };
        let font = Font::load(&doc, &helvetica).expect("loads");
        let glyphs = font.glyphs(b"Aa").expect("splits");
        assert_eq!(glyphs[0].width, 0.944);
        assert_eq!(glyphs[1].width, 0.556);
        assert!((font.ascent - 0.718).abs() < 1e-9);

        let unknown = dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Foo" };
        assert!(!Font::load(&doc, &unknown).expect("loads").exact);

        let type3 = dictionary! {
            "Type" => "Font", "Subtype" => "Type3", "FirstChar" => 97,
            "Widths" => vec![500.into()], "FontBBox" => vec![0.into(), (-100).into(), 500.into(), 700.into()],
            "FontMatrix" => vec![0.01.into(), 0.into(), 0.into(), 0.01.into(), 0.into(), 0.into()],
        };
        let font = Font::load(&doc, &type3).expect("loads");
        let glyph = font.glyphs(b"a").expect("splits")[0];
        assert!((glyph.width - 5.0).abs() < 1e-6);
        assert!((font.ascent - 7.0).abs() < 1e-6 && (font.descent + 1.0).abs() < 1e-6);
    }
}
