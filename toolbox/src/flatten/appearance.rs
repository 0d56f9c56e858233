//! An annotation's normal appearance and where it goes on the page (ISO 32000-1, §12.5.5).

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::annots::name;

/// The identity, a form's /Matrix when it has none.
const IDENTITY: [f64; 6] = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// An appearance to draw: the form XObject, the matrix that fits it onto the annotation's
/// rectangle (applied before the form's own /Matrix, as `cm`), and the annotation's optional
/// content (/OC), if any.
pub struct Drawing {
    pub stream: ObjectId,
    pub matrix: [f64; 6],
    pub optional_content: Option<Object>,
}

/// What drawing `annot` takes, or `None` when there is nothing to draw: no /AP /N, a state
/// dictionary without the state /AS names, a stream that is not a form (another /Subtype, no
/// usable /BBox), or a rectangle or transformed box without area.
pub fn drawing(doc: &Document, annot: &Dictionary) -> Option<Drawing> {
    let stream = normal_appearance(doc, annot)?;
    let dict = &doc.get_object(stream).ok()?.as_stream().ok()?.dict;
    if name(doc, dict, b"Subtype").is_some_and(|subtype| subtype != b"Form") {
        return None;
    }
    let bbox = numbers::<4>(doc, dict.get(b"BBox").ok()?)?;
    let form_matrix = match dict.get(b"Matrix") {
        Ok(matrix) => numbers::<6>(doc, matrix)?,
        Err(_) => IDENTITY,
    };
    let rect = numbers::<4>(doc, annot.get(b"Rect").ok()?)?;
    Some(Drawing {
        stream,
        matrix: fit(rect, bbox, form_matrix)?,
        optional_content: annot.get(b"OC").ok().cloned(),
    })
}

/// The /AP /N stream: /N itself, or for a dictionary of states the one /AS names.
fn normal_appearance(doc: &Document, annot: &Dictionary) -> Option<ObjectId> {
    let ap = doc
        .dereference(annot.get(b"AP").ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()?;
    let normal = ap.get(b"N").ok()?;
    let (id, object) = doc.dereference(normal).ok()?;
    match object {
        Object::Stream(_) => id,
        Object::Dictionary(states) => {
            let state = name(doc, annot, b"AS")?;
            let (id, object) = doc.dereference(states.get(state).ok()?).ok()?;
            matches!(object, Object::Stream(_)).then_some(id)?
        }
        _ => None,
    }
}

/// The matrix A of §12.5.5: it maps the form's bounding box, transformed by the form's
/// matrix, onto `rect` (lower-left corner on lower-left corner, scaled to the same size).
pub fn fit(rect: [f64; 4], bbox: [f64; 4], form_matrix: [f64; 6]) -> Option<[f64; 6]> {
    let [a, b, c, d, e, f] = form_matrix;
    let corners = [
        (bbox[0], bbox[1]),
        (bbox[2], bbox[1]),
        (bbox[0], bbox[3]),
        (bbox[2], bbox[3]),
    ]
    .map(|(x, y)| (a * x + c * y + e, b * x + d * y + f));
    let xs = corners.map(|(x, _)| x);
    let ys = corners.map(|(_, y)| y);
    let (box_x, box_y) = (min(&xs), min(&ys));
    let (box_w, box_h) = (max(&xs) - box_x, max(&ys) - box_y);
    let (rect_x, rect_y) = (rect[0].min(rect[2]), rect[1].min(rect[3]));
    let (rect_w, rect_h) = ((rect[2] - rect[0]).abs(), (rect[3] - rect[1]).abs());
    let usable = |v: f64| v.is_finite() && v > 1e-9;
    if ![box_w, box_h, rect_w, rect_h].into_iter().all(usable) {
        return None;
    }
    let (sx, sy) = (rect_w / box_w, rect_h / box_h);
    Some([sx, 0.0, 0.0, sy, rect_x - box_x * sx, rect_y - box_y * sy])
}

fn min(values: &[f64; 4]) -> f64 {
    values.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(values: &[f64; 4]) -> f64 {
    values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// An array of exactly N numbers (each maybe indirect).
fn numbers<const N: usize>(doc: &Document, value: &Object) -> Option<[f64; N]> {
    let items = doc.dereference(value).ok()?.1.as_array().ok()?;
    if items.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = match doc.dereference(item).ok()?.1 {
            Object::Integer(n) => *n as f64,
            Object::Real(n) => f64::from(*n),
            _ => return None,
        };
    }
    Some(out)
}

/// Makes the appearance stream `stream` a form XObject that can be drawn with `Do`: typed as
/// one, and for a widget (`form_resources` is then the AcroForm's /DR) given the default
/// resources it lacks, which viewers use for a widget's variable text (the font of /DA).
/// The stream is changed in place: as an appearance it means the same.
pub fn prepare(doc: &mut Document, stream: ObjectId, form_resources: Option<&Object>) {
    let lent = form_resources.and_then(|dr| lend(doc, stream, dr));
    let Ok(Object::Stream(stream)) = doc.get_object_mut(stream) else {
        return;
    };
    if !stream.dict.has(b"Type") {
        stream.dict.set("Type", Object::Name(b"XObject".to_vec()));
    }
    if !stream.dict.has(b"Subtype") {
        stream.dict.set("Subtype", Object::Name(b"Form".to_vec()));
    }
    if let Some(resources) = lent {
        stream.dict.set("Resources", resources);
    }
}

/// The stream's resources with what /DR has and they lack; `None` when nothing is missing.
fn lend(doc: &Document, stream: ObjectId, dr: &Object) -> Option<Object> {
    let dict = &doc.get_object(stream).ok()?.as_stream().ok()?.dict;
    let Some(own) = dict.get(b"Resources").ok() else {
        return Some(dr.clone());
    };
    let mut own = resolve_dict(doc, own)?.clone();
    let mut added = false;
    for (category, entries) in resolve_dict(doc, dr)?.iter() {
        let Some(entries) = resolve_dict(doc, entries) else {
            continue;
        };
        let mut mine = own
            .get(category)
            .ok()
            .and_then(|mine| resolve_dict(doc, mine))
            .cloned()
            .unwrap_or_default();
        let before = mine.len();
        for (key, value) in entries.iter() {
            if !mine.has(key) {
                mine.set(key.clone(), value.clone());
            }
        }
        if mine.len() != before {
            own.set(category.clone(), Object::Dictionary(mine));
            added = true;
        }
    }
    added.then_some(Object::Dictionary(own))
}

fn resolve_dict<'a>(doc: &'a Document, value: &'a Object) -> Option<&'a Dictionary> {
    doc.dereference(value).ok()?.1.as_dict().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turned_form_fits_an_upright_rectangle() {
        // A 200 x 30 box turned 90 degrees counter-clockwise covers x -30..0, y 0..200.
        let a = fit(
            [350.0, 100.0, 380.0, 300.0],
            [0.0, 0.0, 200.0, 30.0],
            [0.0, 1.0, -1.0, 0.0, 0.0, 0.0],
        );
        assert_eq!(a, Some([1.0, 0.0, 0.0, 1.0, 380.0, 100.0]));
    }

    #[test]
    fn an_offset_box_is_scaled_onto_a_reversed_rectangle() {
        let a = fit(
            [250.0, 400.0, 50.0, 300.0],
            [10.0, 10.0, 110.0, 60.0],
            IDENTITY,
        );
        assert_eq!(a, Some([2.0, 0.0, 0.0, 2.0, 30.0, 280.0]));
        assert_eq!(
            fit([0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0], IDENTITY),
            None
        );
    }
}
