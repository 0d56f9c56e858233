//! What pointed at a page points at the sheet now drawing it: every explicit destination in
//! the document (outline, links, GoTo actions, named destinations, the open action) is
//! rewritten to the sheet with its coordinates mapped by the page's matrix, and any other
//! reference to the page (an annotation's /P, a structure element's /Pg) names the sheet.

use std::collections::HashMap;

use lopdf::{Document, Object, ObjectId};

use crate::geometry::{self, Frame, Matrix};

/// Where a page went.
#[derive(Debug, Clone, Copy)]
pub struct Placed {
    pub sheet: ObjectId,
    /// From the page's user space to the sheet's.
    pub matrix: Matrix,
    pub frame: Frame,
}

/// Rewrites every object and the trailer; `placed` is keyed by the pages' object ids.
pub fn rewrite(doc: &mut Document, placed: &HashMap<ObjectId, Placed>) {
    if placed.is_empty() {
        return;
    }
    for object in doc.objects.values_mut() {
        visit(object, placed);
    }
    for (_, value) in doc.trailer.iter_mut() {
        visit(value, placed);
    }
}

fn visit(object: &mut Object, placed: &HashMap<ObjectId, Placed>) {
    match object {
        Object::Reference(id) => {
            if let Some(place) = placed.get(id) {
                *id = place.sheet;
            }
        }
        Object::Array(items) => {
            if let Some(place) = destination_page(items).and_then(|id| placed.get(&id)) {
                *items = destination(items, place);
                return;
            }
            for item in items {
                visit(item, placed);
            }
        }
        Object::Dictionary(dict) => {
            for (_, value) in dict.iter_mut() {
                visit(value, placed);
            }
        }
        Object::Stream(stream) => {
            for (_, value) in stream.dict.iter_mut() {
                visit(value, placed);
            }
        }
        _ => {}
    }
}

/// The page of an explicit destination: `[page /Type ...]`.
fn destination_page(items: &[Object]) -> Option<ObjectId> {
    match items {
        [Object::Reference(page), Object::Name(_), ..] => Some(*page),
        _ => None,
    }
}

/// The destination `items` on the sheet: a position mapped to where the page is drawn (a
/// side the destination leaves open taken from the page's displayed upper-left corner), a
/// /FitR rectangle mapped, /Fit and /FitB kept.
fn destination(items: &[Object], place: &Placed) -> Vec<Object> {
    let sheet = Object::Reference(place.sheet);
    let kind = items[1].as_name().unwrap_or(b"Fit");
    let at = |i: usize| items.get(i).and_then(geometry::number_of);
    let (left, top) = place.frame.top_left();
    let point = |x: Option<f64>, y: Option<f64>| {
        geometry::apply(place.matrix, (x.unwrap_or(left), y.unwrap_or(top)))
    };
    let xyz = |(x, y): (f64, f64), zoom: Object| {
        vec![
            sheet.clone(),
            Object::Name(b"XYZ".to_vec()),
            geometry::real(x),
            geometry::real(y),
            zoom,
        ]
    };
    match kind {
        b"XYZ" => {
            let zoom = items.get(4).cloned().unwrap_or(Object::Null);
            xyz(point(at(2), at(3)), zoom)
        }
        b"FitH" | b"FitBH" => xyz(point(None, at(2)), Object::Null),
        b"FitV" | b"FitBV" => xyz(point(at(2), None), Object::Null),
        b"FitR" => match (at(2), at(3), at(4), at(5)) {
            (Some(x0), Some(y0), Some(x1), Some(y1)) => {
                let rect = [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)];
                let [x0, y0, x1, y1] = geometry::transform_rect(place.matrix, rect);
                [sheet, Object::Name(b"FitR".to_vec())]
                    .into_iter()
                    .chain([x0, y0, x1, y1].map(geometry::real))
                    .collect()
            }
            _ => xyz(point(None, None), Object::Null),
        },
        _ => {
            let mut out = items.to_vec();
            out[0] = sheet;
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_follow_the_page_onto_its_sheet() {
        let frame = Frame::new([0.0, 0.0, 100.0, 200.0], [0.0, 0.0, 100.0, 200.0], 0);
        let place = Placed {
            sheet: (9, 0),
            matrix: [0.5, 0.0, 0.0, 0.5, 10.0, 20.0],
            frame,
        };
        let placed = HashMap::from([((3, 0), place)]);
        let mut object = Object::Array(vec![
            Object::Array(vec![
                Object::Reference((3, 0)),
                "XYZ".into(),
                Object::Null,
                100.into(),
                2.into(),
            ]),
            Object::Array(vec![Object::Reference((3, 0)), "Fit".into()]),
            Object::Reference((3, 0)),
            Object::Array(vec![Object::Reference((4, 0)), "Fit".into()]),
        ]);
        visit(&mut object, &placed);
        let want = Object::Array(vec![
            Object::Array(vec![
                Object::Reference((9, 0)),
                "XYZ".into(),
                10.into(),
                70.into(),
                2.into(),
            ]),
            Object::Array(vec![Object::Reference((9, 0)), "Fit".into()]),
            Object::Reference((9, 0)),
            Object::Array(vec![Object::Reference((4, 0)), "Fit".into()]),
        ]);
        assert_eq!(object, want);
    }
}
