//! Annotations (ISO 19005-1 6.5, ISO 19005-2 6.3): kinds PDF/A allows, printed and never
//! hidden, one normal appearance stream and nothing else, opaque in PDF/A-1.

use lopdf::{Document, Object};

use super::super::annots::number;
use super::Findings;
use super::objects::label;

const ANNOTS_1: [&[u8]; 16] = [
    b"Text",
    b"Link",
    b"FreeText",
    b"Line",
    b"Square",
    b"Circle",
    b"Highlight",
    b"Underline",
    b"Squiggly",
    b"StrikeOut",
    b"Stamp",
    b"Ink",
    b"Popup",
    b"Widget",
    b"PrinterMark",
    b"TrapNet",
];

const ANNOTS_2: [&[u8]; 22] = [
    b"Text",
    b"Link",
    b"FreeText",
    b"Line",
    b"Square",
    b"Circle",
    b"Polygon",
    b"PolyLine",
    b"Highlight",
    b"Underline",
    b"Squiggly",
    b"StrikeOut",
    b"Stamp",
    b"Caret",
    b"Ink",
    b"Popup",
    b"FileAttachment",
    b"Widget",
    b"PrinterMark",
    b"TrapNet",
    b"Watermark",
    b"Redact",
];

/// The annotations of every page.
pub fn annotations(doc: &Document, intent: Option<[u8; 4]>, f: &mut Findings) {
    let level = f.level;
    let Ok(tree) = crate::pages::walk(doc) else {
        return;
    };
    for page in &tree.pages {
        let Some(annots) = doc
            .get_dictionary(page.id)
            .ok()
            .and_then(|p| p.get(b"Annots").ok())
            .and_then(|a| doc.dereference(a).ok())
            .and_then(|(_, a)| a.as_array().ok())
        else {
            continue;
        };
        for entry in annots {
            let Ok((_, Object::Dictionary(annot))) = doc.dereference(entry) else {
                continue;
            };
            let what = match entry {
                Object::Reference(id) => format!("the annotation {}", label(*id)),
                _ => "an annotation".into(),
            };
            let subtype = annot
                .get(b"Subtype")
                .and_then(Object::as_name)
                .unwrap_or(b"");
            let rect_ok = annot
                .get(b"Rect")
                .ok()
                .and_then(|r| doc.dereference(r).ok())
                .and_then(|(_, r)| r.as_array().ok())
                .is_some_and(|r| r.len() == 4 && r.iter().all(|v| number(v).is_some()));
            if !rect_ok {
                f.syntax(format!("{what} has no rectangle"));
            }
            let allowed: &[&[u8]] = if level.part1() { &ANNOTS_1 } else { &ANNOTS_2 };
            if !allowed.contains(&subtype) {
                f.add(
                    "6.5.2-1",
                    "6.3.1-1",
                    format!(
                        "{what} is of a kind PDF/A does not allow ({})",
                        String::from_utf8_lossy(subtype)
                    ),
                );
            }
            let flags = annot
                .get(b"F")
                .ok()
                .and_then(|v| doc.dereference(v).ok())
                .and_then(|(_, v)| v.as_i64().ok());
            match flags {
                None if level.part1() || subtype != b"Popup" => {
                    f.add("6.5.3-2", "6.3.2-1", format!("{what} has no flags (/F)"));
                }
                Some(flags) => {
                    let mut forbidden = 1 | 2 | 32;
                    if !level.part1() {
                        forbidden |= 256;
                    }
                    if flags & 4 == 0 || flags & forbidden != 0 {
                        f.add(
                            "6.5.3-2",
                            "6.3.2-2",
                            format!("{what} is not printed or is hidden (flags {flags})"),
                        );
                    }
                }
                None => {}
            }
            let ap = annot
                .get(b"AP")
                .ok()
                .and_then(|a| doc.dereference(a).ok())
                .map(|(_, a)| a);
            match ap {
                Some(Object::Dictionary(ap)) => {
                    if ap.len() != 1 || !ap.has(b"N") {
                        f.add(
                            "6.5.3-4",
                            "6.3.3-2",
                            format!("{what}'s appearance dictionary holds more than /N"),
                        );
                    }
                    let stream = ap
                        .get(b"N")
                        .ok()
                        .and_then(|n| n.as_reference().ok())
                        .and_then(|n| doc.get_object(n).ok())
                        .is_some_and(|n| n.as_stream().is_ok());
                    if !stream {
                        f.add(
                            "6.5.3-6",
                            "6.3.3-4",
                            format!("{what}'s normal appearance is not a stream"),
                        );
                    }
                }
                Some(_) => f.add(
                    "6.5.3-4",
                    "6.3.3-2",
                    format!("{what}'s appearance is not a dictionary"),
                ),
                None => {
                    let rect: Vec<f64> = annot
                        .get(b"Rect")
                        .and_then(Object::as_array)
                        .map(|r| r.iter().filter_map(number).collect())
                        .unwrap_or_default();
                    let area = rect.len() != 4 || rect[0] != rect[2] || rect[1] != rect[3];
                    if !level.part1() && subtype != b"Popup" && subtype != b"Link" && area {
                        f.add("", "6.3.3-1", format!("{what} has no appearance"));
                    }
                }
            }
            if level.part1() {
                if annot
                    .get(b"CA")
                    .ok()
                    .and_then(number)
                    .is_some_and(|ca| ca != 1.0)
                {
                    f.add("6.5.3-1", "6.5.3-1", format!("{what} is translucent (/CA)"));
                }
                if (annot.has(b"C") || annot.has(b"IC")) && intent != Some(*b"RGB ") {
                    f.add(
                        "6.5.3-3",
                        "6.5.3-3",
                        format!("{what} has colours but the output intent is not RGB"),
                    );
                }
            }
        }
    }
}
