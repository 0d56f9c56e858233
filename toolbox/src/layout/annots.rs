//! Annotations moved with their page: their rectangle and the points they are drawn through
//! mapped by the page's matrix, and their appearance turned when the page's /Rotate is folded
//! into that matrix (a reader fits an appearance into /Rect by scaling alone).

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::geometry::{self, Matrix};

/// The /F flag that keeps an annotation upright whatever the page's rotation.
const NO_ROTATE: i64 = 16;

/// Moves every annotation of `page` by `m` (which folds in a turn of `rotate` degrees).
/// Annotation objects in `seen` were moved already (listed on an earlier page too).
pub fn move_all(
    doc: &mut Document,
    page: ObjectId,
    m: Matrix,
    rotate: i64,
    seen: &mut HashSet<ObjectId>,
    turned: &mut HashSet<ObjectId>,
) {
    let mut appearances = Vec::new();
    crate::source::for_each_annot_mut(doc, page, seen, &mut |annot| {
        appearances.extend(move_one(annot, m, rotate));
    });
    turn_appearances(doc, &appearances, m, turned);
}

/// The link annotations of `page`, moved by `m` onto `sheet`, as the sheet's /Annots lists
/// them; the page's other annotations are left behind.
pub fn take_links(
    doc: &mut Document,
    page: ObjectId,
    m: Matrix,
    rotate: i64,
    sheet: ObjectId,
    seen: &mut HashSet<ObjectId>,
    turned: &mut HashSet<ObjectId>,
) -> Vec<Object> {
    let entries = doc
        .get_dictionary(page)
        .ok()
        .and_then(|page| page.get(b"Annots").ok())
        .and_then(|annots| doc.dereference(annots).ok())
        .and_then(|(_, annots)| annots.as_array().ok())
        .cloned()
        .unwrap_or_default();
    let mut links = Vec::new();
    let mut appearances = Vec::new();
    for entry in entries {
        match entry {
            Object::Reference(id) => {
                let Some(Object::Dictionary(annot)) = doc.objects.get_mut(&id) else {
                    continue;
                };
                if !is_link(annot) {
                    continue;
                }
                if seen.insert(id) {
                    appearances.extend(move_one(annot, m, rotate));
                    annot.set("P", sheet);
                    links.push(Object::Reference(id));
                }
            }
            Object::Dictionary(mut annot) if is_link(&annot) => {
                appearances.extend(move_one(&mut annot, m, rotate));
                annot.set("P", sheet);
                links.push(Object::Dictionary(annot));
            }
            _ => {}
        }
    }
    turn_appearances(doc, &appearances, m, turned);
    links
}

fn is_link(annot: &Dictionary) -> bool {
    annot.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Link")
}

/// Maps the annotation's geometry by `m`; returns the appearance streams to turn.
fn move_one(annot: &mut Dictionary, m: Matrix, rotate: i64) -> Vec<ObjectId> {
    if let Ok(rect) = annot.get(b"Rect")
        && let Some(rect) = plain_rect(rect)
    {
        annot.set(
            "Rect",
            geometry::rect_object(geometry::transform_rect(m, rect)),
        );
    }
    for key in [b"QuadPoints".as_slice(), b"Vertices", b"L", b"CL"] {
        if let Ok(Object::Array(points)) = annot.get_mut(key) {
            move_points(points, m);
        }
    }
    if let Ok(Object::Array(paths)) = annot.get_mut(b"InkList") {
        for path in paths {
            if let Object::Array(points) = path {
                move_points(points, m);
            }
        }
    }
    let flags = annot.get(b"F").and_then(Object::as_i64).unwrap_or(0);
    if rotate == 0 || flags & NO_ROTATE != 0 {
        return Vec::new();
    }
    let Ok(Object::Dictionary(ap)) = annot.get(b"AP") else {
        return Vec::new();
    };
    let mut streams = Vec::new();
    for (_, value) in ap.iter() {
        match value {
            Object::Reference(id) => streams.push(*id),
            Object::Dictionary(states) => {
                streams.extend(states.iter().filter_map(|(_, s)| s.as_reference().ok()));
            }
            _ => {}
        }
    }
    streams
}

/// A rectangle written in place (indirect numbers are left alone: nothing writes them).
fn plain_rect(object: &Object) -> Option<geometry::Rect> {
    let values = object.as_array().ok()?;
    let numbers: Vec<f64> = values
        .iter()
        .map(geometry::number_of)
        .collect::<Option<_>>()?;
    let [a, b, c, d] = numbers[..] else {
        return None;
    };
    Some([a.min(c), b.min(d), a.max(c), b.max(d)])
}

/// Maps an array of x, y pairs by `m`; an array holding anything but numbers is left.
fn move_points(points: &mut [Object], m: Matrix) {
    let Some(numbers) = points
        .iter()
        .map(geometry::number_of)
        .collect::<Option<Vec<f64>>>()
    else {
        return;
    };
    for (pair, values) in points.chunks_mut(2).zip(numbers.chunks(2)) {
        if let ([x, y], [u, v]) = (pair, values) {
            let (u, v) = geometry::apply(m, (*u, *v));
            (*x, *y) = (geometry::real(u), geometry::real(v));
        }
    }
}

/// Turns each appearance stream by the rotation in `m` (its linear part, scale removed),
/// once: a stream in `turned` was turned for an earlier annotation.
fn turn_appearances(
    doc: &mut Document,
    streams: &[ObjectId],
    m: Matrix,
    turned: &mut HashSet<ObjectId>,
) {
    let scale = (m[0] * m[3] - m[1] * m[2]).abs().sqrt();
    if scale == 0.0 || !scale.is_finite() {
        return;
    }
    let rotation = [
        m[0] / scale,
        m[1] / scale,
        m[2] / scale,
        m[3] / scale,
        0.0,
        0.0,
    ];
    for &id in streams {
        if !turned.insert(id) {
            continue;
        }
        let Some(Object::Stream(stream)) = doc.objects.get_mut(&id) else {
            continue;
        };
        let current = stream
            .dict
            .get(b"Matrix")
            .ok()
            .and_then(|matrix| matrix.as_array().ok())
            .and_then(|values| {
                let numbers: Vec<f64> = values
                    .iter()
                    .map(geometry::number_of)
                    .collect::<Option<_>>()?;
                <[f64; 6]>::try_from(numbers).ok()
            })
            .unwrap_or(geometry::IDENTITY);
        let matrix = geometry::multiply(current, rotation);
        stream.dict.set(
            "Matrix",
            Object::Array(matrix.iter().map(|&v| geometry::real(v)).collect()),
        );
    }
}
