//! Type 0 fonts: codes by the CMap's codespace, CIDs measured by the descendant's /W and /DW,
//! and in vertical writing (WMode 1) by /W2 and /DW2.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object};
use quire_compress::redaction::Cmap;

use super::{
    Codes, DEFAULT_EXTENT, Font, Glyph, Widths, descriptor_extent, dict, number, numbers, resolve,
};
use crate::geometry::number_of;

/// More width entries than any font has (a CID font has at most 65536 glyphs): past it a /W
/// array is hostile.
const MAX_ENTRIES: usize = 1 << 17;

/// The largest embedded CMap read.
const MAX_CMAP: usize = 4 << 20;

/// Vertical writing metrics: the default (vy, w1), and each CID's (w1, vx, vy).
type VerticalMetrics = ((f64, f64), HashMap<u32, (f64, f64, f64)>);

/// A CID font's metrics, in text space at size 1.
pub struct CidWidths {
    default: f64,
    widths: HashMap<u32, f64>,
    /// Vertical writing.
    vertical: Option<VerticalMetrics>,
}

impl CidWidths {
    pub fn vertical(&self) -> bool {
        self.vertical.is_some()
    }

    pub fn glyph(&self, cid: u32, len: usize, space: bool) -> Glyph {
        let width = self.widths.get(&cid).copied().unwrap_or(self.default);
        let vertical = self
            .vertical
            .as_ref()
            .map(|((vy, w1), own)| own.get(&cid).copied().unwrap_or((*w1, width / 2.0, *vy)));
        Glyph {
            len,
            width,
            space,
            vertical,
        }
    }
}

pub fn load(doc: &Document, font: &Dictionary) -> Result<Font, &'static str> {
    let descendant = font
        .get(b"DescendantFonts")
        .ok()
        .and_then(|d| resolve(doc, d))
        .and_then(|d| d.as_array().ok())
        .and_then(|d| d.first())
        .and_then(|d| resolve(doc, d))
        .and_then(|d| d.as_dict().ok())
        .ok_or("a Type 0 font without its descendant font")?;
    let (codes, vertical) = match font.get(b"Encoding").ok().and_then(|e| resolve(doc, e)) {
        Some(Object::Name(name)) if name == b"Identity-H" => (Codes::TwoBytes, false),
        Some(Object::Name(name)) if name == b"Identity-V" => (Codes::TwoBytes, true),
        Some(Object::Stream(stream)) => {
            let program = stream
                .decompressed_content_with_limit(MAX_CMAP)
                .or_else(|_| Ok::<_, lopdf::Error>(stream.content.clone()))
                .unwrap_or_default();
            let cmap = Cmap::parse(&program).ok_or("an embedded CMap that cannot be read")?;
            let wmode = stream.dict.get(b"WMode").and_then(Object::as_i64).ok() == Some(1)
                || contains(&program, b"/WMode 1");
            (Codes::Cmap(cmap), wmode)
        }
        _ => return Err("a predefined CMap other than Identity"),
    };
    let default = number(doc, descendant, b"DW").unwrap_or(1000.0) / 1000.0;
    let widths = match descendant.get(b"W") {
        Ok(w) => horizontal(doc, w).ok_or("a /W array that cannot be read")?,
        Err(_) => HashMap::new(),
    };
    let vertical = if vertical {
        let dw2 = descendant
            .get(b"DW2")
            .ok()
            .and_then(|d| numbers(doc, d))
            .filter(|d| d.len() == 2)
            .map_or((0.88, -1.0), |d| (d[0] / 1000.0, d[1] / 1000.0));
        let own = match descendant.get(b"W2") {
            Ok(w2) => vertical_metrics(doc, w2).ok_or("a /W2 array that cannot be read")?,
            Err(_) => HashMap::new(),
        };
        Some((dw2, own))
    } else {
        None
    };
    let (descent, ascent) = dict(doc, descendant, b"FontDescriptor")
        .and_then(|d| descriptor_extent(doc, d))
        .unwrap_or(DEFAULT_EXTENT);
    Ok(Font {
        codes,
        widths: Widths::Cid(CidWidths {
            default,
            widths,
            vertical,
        }),
        descent: descent / 1000.0,
        ascent: ascent / 1000.0,
        exact: true,
    })
}

fn contains(data: &[u8], needle: &[u8]) -> bool {
    data.windows(needle.len()).any(|w| w == needle)
}

/// The items of an array object, each resolved.
fn items<'a>(doc: &'a Document, object: &'a Object) -> Option<Vec<&'a Object>> {
    resolve(doc, object)?
        .as_array()
        .ok()
        .map(|items| items.iter().filter_map(|item| resolve(doc, item)).collect())
}

/// /W: `c [w1 w2 ...]` and `c_first c_last w` entries; a later entry overrides an earlier one.
fn horizontal(doc: &Document, w: &Object) -> Option<HashMap<u32, f64>> {
    let items = items(doc, w)?;
    let mut out = HashMap::new();
    let mut i = 0;
    while i < items.len() {
        let first = cid(items[i])?;
        match items.get(i + 1)? {
            Object::Array(list) => {
                for (k, width) in list.iter().enumerate() {
                    let width = number_of(resolve(doc, width)?)?;
                    out.insert(first.checked_add(u32::try_from(k).ok()?)?, width / 1000.0);
                }
                i += 2;
            }
            last => {
                let last = cid(last)?;
                let width = number_of(items.get(i + 2)?)? / 1000.0;
                if last >= first && (last - first) as usize > MAX_ENTRIES {
                    return None;
                }
                for c in first..=last {
                    out.insert(c, width);
                }
                i += 3;
            }
        }
        if out.len() > MAX_ENTRIES {
            return None;
        }
    }
    Some(out)
}

/// /W2: `c [w1y vx vy ...]` and `c_first c_last w1y vx vy` entries, in thousandths.
fn vertical_metrics(doc: &Document, w2: &Object) -> Option<HashMap<u32, (f64, f64, f64)>> {
    let items = items(doc, w2)?;
    let mut out = HashMap::new();
    let mut i = 0;
    while i < items.len() {
        let first = cid(items[i])?;
        match items.get(i + 1)? {
            Object::Array(list) => {
                let values: Vec<f64> = list
                    .iter()
                    .map(|v| number_of(resolve(doc, v)?))
                    .collect::<Option<_>>()?;
                for (k, triple) in values.chunks_exact(3).enumerate() {
                    let metrics = (triple[0] / 1000.0, triple[1] / 1000.0, triple[2] / 1000.0);
                    out.insert(first.checked_add(u32::try_from(k).ok()?)?, metrics);
                }
                i += 2;
            }
            last => {
                let last = cid(last)?;
                let value = |k: usize| number_of(items.get(i + k)?).map(|v| v / 1000.0);
                let metrics = (value(2)?, value(3)?, value(4)?);
                if last >= first && (last - first) as usize > MAX_ENTRIES {
                    return None;
                }
                for c in first..=last {
                    out.insert(c, metrics);
                }
                i += 5;
            }
        }
        if out.len() > MAX_ENTRIES {
            return None;
        }
    }
    Some(out)
}

fn cid(object: &Object) -> Option<u32> {
    u32::try_from(object.as_i64().ok()?).ok()
}

#[cfg(test)]
mod tests {
    use lopdf::{Stream, dictionary};

    use super::*;

    fn type0(doc: &mut Document, encoding: Object, w: Object) -> Dictionary {
        let descendant = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "CIDFontType2", "DW" => 500, "W" => w,
        });
        dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "Encoding" => encoding,
            "DescendantFonts" => vec![descendant.into()],
        }
    }

    #[test]
    fn identity_and_embedded_cmaps_split_and_measure() {
        let mut doc = Document::with_version("1.7");
        let w = Object::Array(vec![
            3.into(),
            vec![Object::from(600), 700.into()].into(),
            10.into(),
            12.into(),
            250.into(),
        ]);
        let font = type0(&mut doc, "Identity-H".into(), w);
        let font = Font::load(&doc, &font).expect("loads");
        let glyphs = font.glyphs(&[0, 3, 0, 4, 0, 11, 0, 20]).expect("splits");
        let widths: Vec<f64> = glyphs.iter().map(|g| g.width).collect();
        assert_eq!(widths, [0.6, 0.7, 0.25, 0.5]);
        assert!(glyphs.iter().all(|g| g.len == 2 && !g.space));
        assert!(font.glyphs(&[0, 3, 0]).is_none());

        let program = b"begincmap 2 begincodespacerange <00> <7F> <8000> <FFFF> \
            endcodespacerange 1 begincidrange <20> <7E> 1 endcidrange endcmap";
        let cmap = doc.add_object(Stream::new(dictionary! {}, program.to_vec()));
        let font = type0(
            &mut doc,
            cmap.into(),
            Object::Array(vec![1.into(), vec![Object::from(300)].into()]),
        );
        let font = Font::load(&doc, &font).expect("loads");
        let glyphs = font.glyphs(b" \x81\x40").expect("splits");
        assert_eq!(glyphs.len(), 2);
        assert!(glyphs[0].space && glyphs[0].width == 0.3);
        assert_eq!((glyphs[1].len, glyphs[1].width), (2, 0.5));

        let font = type0(&mut doc, "UniGB-UCS2-H".into(), Object::Array(vec![]));
        assert!(Font::load(&doc, &font).is_err());
    }

    #[test]
    fn vertical_writing_takes_w2() {
        let mut doc = Document::with_version("1.7");
        let mut font = type0(&mut doc, "Identity-V".into(), Object::Array(vec![]));
        let descendant = font
            .get(b"DescendantFonts")
            .and_then(Object::as_array)
            .expect("descendants")[0]
            .as_reference()
            .expect("a reference");
        if let Ok(d) = doc.get_dictionary_mut(descendant) {
            d.set(
                "W2",
                vec![
                    5.into(),
                    vec![Object::from(-900), 250.into(), 800.into()].into(),
                ],
            );
        }
        font.set("Encoding", "Identity-V");
        let font = Font::load(&doc, &font).expect("loads");
        let glyphs = font.glyphs(&[0, 5, 0, 6]).expect("splits");
        assert_eq!(glyphs[0].vertical, Some((-0.9, 0.25, 0.8)));
        assert_eq!(glyphs[1].vertical, Some((-1.0, 0.25, 0.88)));
    }
}
