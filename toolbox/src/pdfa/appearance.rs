//! Normal appearances for annotations that have none (ISO 19005-2 6.3.3 requires one), drawn
//! from what the annotation says of itself as a viewer would: the shape kinds from their
//! geometry and colours, text markup over its quadrilaterals, a note as a small note icon.
//! Kinds whose look depends on the viewer (stamps, carets) get an empty appearance, which
//! draws nothing, as a viewer that cannot draw them shows nothing.
//!
//! The form's /BBox is the annotation's /Rect in page space and its matrix the identity, so
//! the drawing uses the page coordinates the annotation's geometry is given in.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use super::Level;
use super::annots::number;
use crate::ToolError;

/// Bézier control point distance for a quarter circle of radius 1.
const KAPPA: f64 = 0.552_284_8;

/// A new Form XObject drawing `annot`'s normal appearance within `rect`.
pub fn make(
    doc: &mut Document,
    annot: &Dictionary,
    rect: [f64; 4],
    level: Level,
) -> Result<ObjectId, ToolError> {
    let subtype = annot
        .get(b"Subtype")
        .and_then(Object::as_name)
        .unwrap_or(b"");
    let stroke = colour(doc, annot.get(b"C").ok(), false);
    let fill = colour(doc, annot.get(b"IC").ok(), true);
    let width = border_width(doc, annot);
    let mut ops = String::new();
    let mut resources = Dictionary::new();
    match subtype {
        b"Square" | b"Circle" => {
            let inset = width / 2.0;
            let [x0, y0, x1, y1] = [
                rect[0] + inset,
                rect[1] + inset,
                rect[2] - inset,
                rect[3] - inset,
            ];
            if x1 > x0 && y1 > y0 {
                paint_setup(&mut ops, &stroke, &fill, width);
                if subtype == b"Square" {
                    ops.push_str(&format!(
                        "{} {} {} {} re\n",
                        f(x0),
                        f(y0),
                        f(x1 - x0),
                        f(y1 - y0)
                    ));
                } else {
                    ellipse(&mut ops, x0, y0, x1, y1);
                }
                ops.push_str(paint_op(&stroke, &fill, true));
            }
        }
        b"Line" | b"Polygon" | b"PolyLine" | b"Ink" => {
            let closed = subtype == b"Polygon";
            paint_setup(&mut ops, &stroke, &fill, width);
            for path in paths(doc, annot, subtype) {
                let mut points = path.chunks_exact(2);
                if let Some(first) = points.next() {
                    ops.push_str(&format!("{} {} m\n", f(first[0]), f(first[1])));
                    for p in points {
                        ops.push_str(&format!("{} {} l\n", f(p[0]), f(p[1])));
                    }
                    if closed {
                        ops.push_str("h\n");
                    }
                }
            }
            ops.push_str(paint_op(&stroke, &fill, closed));
        }
        b"Highlight" | b"Underline" | b"StrikeOut" | b"Squiggly" => {
            markup(
                &mut ops,
                &mut resources,
                doc,
                annot,
                subtype,
                &stroke,
                level,
            );
        }
        b"Text" => note_icon(&mut ops, rect, &stroke),
        _ => {}
    }
    let mut dict = dictionary! {
        "Type" => "XObject",
        "Subtype" => "Form",
        "BBox" => rect.iter().map(|&v| Object::Real(v as f32)).collect::<Vec<_>>(),
        "Resources" => resources,
    };
    dict.set("FormType", 1);
    let id = crate::io::new_id(doc)?;
    doc.objects
        .insert(id, Object::Stream(Stream::new(dict, ops.into_bytes())));
    Ok(id)
}

/// A colour operand list from an annotation colour array: none (transparent), gray, RGB or
/// CMYK. `fill` colours default to none.
fn colour(doc: &Document, value: Option<&Object>, fill: bool) -> Vec<f64> {
    let parts: Vec<f64> = value
        .and_then(|v| doc.dereference(v).ok())
        .and_then(|(_, v)| v.as_array().ok())
        .map(|a| {
            a.iter()
                .filter_map(number)
                .map(|v| v.clamp(0.0, 1.0))
                .collect()
        })
        .unwrap_or_default();
    match parts.len() {
        1 | 3 | 4 => parts,
        _ if fill => Vec::new(),
        _ => Vec::new(),
    }
}

fn colour_op(parts: &[f64], stroke: bool) -> String {
    let values: Vec<String> = parts.iter().map(|&v| f(v)).collect();
    let op = match (parts.len(), stroke) {
        (1, true) => "G",
        (1, false) => "g",
        (3, true) => "RG",
        (3, false) => "rg",
        (4, true) => "K",
        (4, false) => "k",
        _ => return String::new(),
    };
    format!("{} {op}\n", values.join(" "))
}

fn paint_setup(ops: &mut String, stroke: &[f64], fill: &[f64], width: f64) {
    ops.push_str(&colour_op(stroke, true));
    ops.push_str(&colour_op(fill, false));
    ops.push_str(&format!("{} w\n", f(width)));
}

/// The painting operator: stroke and/or fill as the colours are set.
fn paint_op(stroke: &[f64], fill: &[f64], can_fill: bool) -> &'static str {
    match (!stroke.is_empty(), !fill.is_empty() && can_fill) {
        (true, true) => "B\n",
        (true, false) => "S\n",
        (false, true) => "f\n",
        (false, false) => "n\n",
    }
}

/// The border width: /BS /W, else the third item of /Border, else 1.
fn border_width(doc: &Document, annot: &Dictionary) -> f64 {
    let bs = annot
        .get(b"BS")
        .ok()
        .and_then(|v| doc.dereference(v).ok())
        .and_then(|(_, v)| v.as_dict().ok())
        .and_then(|bs| bs.get(b"W").ok())
        .and_then(number);
    let border = annot
        .get(b"Border")
        .ok()
        .and_then(|v| v.as_array().ok())
        .and_then(|b| b.get(2))
        .and_then(number);
    bs.or(border).unwrap_or(1.0).max(0.0)
}

/// The point lists of a line, polygon, polyline or ink annotation.
fn paths(doc: &Document, annot: &Dictionary, subtype: &[u8]) -> Vec<Vec<f64>> {
    let numbers = |value: &Object| -> Vec<f64> {
        doc.dereference(value)
            .ok()
            .and_then(|(_, v)| v.as_array().ok())
            .map(|a| a.iter().filter_map(number).collect())
            .unwrap_or_default()
    };
    match subtype {
        b"Line" => annot
            .get(b"L")
            .map(|l| vec![numbers(l)])
            .unwrap_or_default(),
        b"Ink" => annot
            .get(b"InkList")
            .ok()
            .and_then(|v| doc.dereference(v).ok())
            .and_then(|(_, v)| v.as_array().ok())
            .map(|list| list.iter().map(numbers).collect())
            .unwrap_or_default(),
        _ => annot
            .get(b"Vertices")
            .map(|v| vec![numbers(v)])
            .unwrap_or_default(),
    }
}

fn ellipse(ops: &mut String, x0: f64, y0: f64, x1: f64, y1: f64) {
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (rx, ry) = ((x1 - x0) / 2.0, (y1 - y0) / 2.0);
    let (kx, ky) = (rx * KAPPA, ry * KAPPA);
    ops.push_str(&format!("{} {} m\n", f(cx + rx), f(cy)));
    for (p1, p2, p3) in [
        ((cx + rx, cy + ky), (cx + kx, cy + ry), (cx, cy + ry)),
        ((cx - kx, cy + ry), (cx - rx, cy + ky), (cx - rx, cy)),
        ((cx - rx, cy - ky), (cx - kx, cy - ry), (cx, cy - ry)),
        ((cx + kx, cy - ry), (cx + rx, cy - ky), (cx + rx, cy)),
    ] {
        ops.push_str(&format!(
            "{} {} {} {} {} {} c\n",
            f(p1.0),
            f(p1.1),
            f(p2.0),
            f(p2.1),
            f(p3.0),
            f(p3.1)
        ));
    }
    ops.push_str("h\n");
}

/// Text markup over each quadrilateral of /QuadPoints: a highlight multiplies its colour
/// over the text (PDF/A-1 has no blend modes: there it is not drawn), the others draw a line
/// under, through or as a wave under the text.
fn markup(
    ops: &mut String,
    resources: &mut Dictionary,
    doc: &Document,
    annot: &Dictionary,
    subtype: &[u8],
    colour: &[f64],
    level: Level,
) {
    let quads: Vec<f64> = annot
        .get(b"QuadPoints")
        .ok()
        .and_then(|v| doc.dereference(v).ok())
        .and_then(|(_, v)| v.as_array().ok())
        .map(|a| a.iter().filter_map(number).collect())
        .unwrap_or_default();
    let colour: Vec<f64> = if colour.is_empty() {
        vec![1.0, 1.0, 0.0]
    } else {
        colour.to_vec()
    };
    if subtype == b"Highlight" {
        if level.part1() {
            return;
        }
        resources.set(
            "ExtGState",
            dictionary! { "M0" => dictionary! { "Type" => "ExtGState", "BM" => "Multiply" } },
        );
        ops.push_str("/M0 gs\n");
        ops.push_str(&colour_op(&colour, false));
        for q in quads.chunks_exact(8) {
            ops.push_str(&format!(
                "{} {} m {} {} l {} {} l {} {} l h f\n",
                f(q[0]),
                f(q[1]),
                f(q[2]),
                f(q[3]),
                f(q[6]),
                f(q[7]),
                f(q[4]),
                f(q[5])
            ));
        }
        return;
    }
    ops.push_str(&colour_op(&colour, true));
    for q in quads.chunks_exact(8) {
        // Points: upper left, upper right, lower left, lower right.
        let height = ((q[1] - q[5]).powi(2) + (q[0] - q[4]).powi(2)).sqrt();
        let width = (height / 14.0).max(0.5);
        let t = match subtype {
            b"StrikeOut" => 0.5,
            _ => 0.1,
        };
        let (x0, y0) = (q[4] + (q[0] - q[4]) * t, q[5] + (q[1] - q[5]) * t);
        let (x1, y1) = (q[6] + (q[2] - q[6]) * t, q[7] + (q[3] - q[7]) * t);
        ops.push_str(&format!("{} w\n", f(width)));
        if subtype == b"Squiggly" {
            let steps = (((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt() / (width * 4.0)).ceil();
            let steps = steps.clamp(1.0, 2000.0) as usize;
            ops.push_str(&format!("{} {} m\n", f(x0), f(y0)));
            for i in 1..=steps {
                let s = i as f64 / steps as f64;
                let wave = if i % 2 == 1 { width * 1.5 } else { 0.0 };
                ops.push_str(&format!(
                    "{} {} l\n",
                    f(x0 + (x1 - x0) * s),
                    f(y0 + (y1 - y0) * s + wave)
                ));
            }
            ops.push_str("S\n");
        } else {
            ops.push_str(&format!("{} {} m {} {} l S\n", f(x0), f(y0), f(x1), f(y1)));
        }
    }
}

/// A sticky note: a folded sheet with three lines of text, in the annotation's colour
/// (yellow when it has none), at the top left of the rectangle.
fn note_icon(ops: &mut String, rect: [f64; 4], colour: &[f64]) {
    let size = (rect[2] - rect[0]).min(rect[3] - rect[1]).min(20.0);
    if size <= 2.0 {
        return;
    }
    let (x, y) = (rect[0], rect[3] - size);
    let colour: Vec<f64> = if colour.is_empty() {
        vec![1.0, 0.9, 0.2]
    } else {
        colour.to_vec()
    };
    ops.push_str(&colour_op(&colour, false));
    ops.push_str("0 G 0.6 w\n");
    ops.push_str(&format!(
        "{} {} {} {} re B\n",
        f(x + 0.5),
        f(y + 0.5),
        f(size - 1.0),
        f(size - 1.0)
    ));
    for i in 1..=3 {
        let ly = y + size * (1.0 - 0.25 * f64::from(i));
        ops.push_str(&format!(
            "{} {} m {} {} l S\n",
            f(x + size * 0.2),
            f(ly),
            f(x + size * 0.8),
            f(ly)
        ));
    }
}

/// A number as content streams write it: at most 3 decimals, no exponent.
fn f(v: f64) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let text = format!("{v:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(f(1.0), "1");
        assert_eq!(f(0.25), "0.25");
        assert_eq!(f(-0.0001), "0");
        assert_eq!(f(12.3456), "12.346");
    }

    #[test]
    fn a_square_strokes_and_fills_its_inset_rectangle() {
        let mut doc = Document::with_version("1.7");
        let annot = dictionary! {
            "Subtype" => "Square",
            "C" => vec![1.into(), 0.into(), 0.into()],
            "IC" => vec![0.into(), 0.into(), 1.into()],
            "BS" => dictionary! { "W" => 2 },
        };
        let id = make(&mut doc, &annot, [10.0, 10.0, 110.0, 60.0], Level::A2b).expect("made");
        let stream = doc
            .get_object(id)
            .and_then(Object::as_stream)
            .expect("stream");
        let text = String::from_utf8_lossy(&stream.content);
        assert!(text.contains("1 0 0 RG"), "{text}");
        assert!(text.contains("0 0 1 rg"), "{text}");
        assert!(text.contains("11 11 98 48 re"), "{text}");
        assert!(text.ends_with("B\n"), "{text}");
    }
}
