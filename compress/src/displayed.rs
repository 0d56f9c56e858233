//! The largest size, in points, at which each image XObject is drawn: read from the page
//! content streams (and the form XObjects they draw), following the current transformation
//! matrix through q/Q/cm. An image drawn nowhere on a page gets no entry and is left alone.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId, content::Content};

use crate::streams::MAX_DECODED;

/// Form XObjects nested deeper than this are not followed.
const MAX_DEPTH: usize = 12;

/// Width and height in points, the largest seen for each image.
pub type DisplayedSizes = HashMap<ObjectId, (f32, f32)>;

type Matrix = [f32; 6];
const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

pub fn displayed_sizes(doc: &Document) -> DisplayedSizes {
    let mut sizes = DisplayedSizes::new();
    for page_id in doc.get_pages().into_values() {
        let Ok(content) = doc.get_page_content_with_limit(page_id, MAX_DECODED) else {
            continue;
        };
        let resources = page_resources(doc, page_id);
        walk(doc, &content, &resources, IDENTITY, 0, &mut sizes);
    }
    sizes
}

/// The page's resource dictionaries, nearest first.
fn page_resources(doc: &Document, page_id: ObjectId) -> Vec<Dictionary> {
    let Ok((direct, ids)) = doc.get_page_resources(page_id) else {
        return Vec::new();
    };
    direct
        .cloned()
        .into_iter()
        .chain(
            ids.into_iter()
                .filter_map(|id| doc.get_dictionary(id).ok().cloned()),
        )
        .collect()
}

fn walk(
    doc: &Document,
    content: &[u8],
    resources: &[Dictionary],
    base: Matrix,
    depth: usize,
    sizes: &mut DisplayedSizes,
) {
    let Ok(content) = Content::decode(content) else {
        return;
    };
    let mut ctm = base;
    let mut stack = Vec::new();
    for op in content.operations {
        match op.operator.as_str() {
            "q" => stack.push(ctm),
            "Q" => ctm = stack.pop().unwrap_or(base),
            "cm" => {
                if let Some(m) = matrix(&op.operands) {
                    ctm = multiply(m, ctm);
                }
            }
            "Do" => {
                let Some(name) = op.operands.first().and_then(|o| o.as_name().ok()) else {
                    continue;
                };
                let Some(id) = xobject(doc, resources, name) else {
                    continue;
                };
                let Ok(Object::Stream(stream)) = doc.get_object(id) else {
                    continue;
                };
                match stream.dict.get(b"Subtype").and_then(Object::as_name) {
                    Ok(b"Image") => {
                        let width = ctm[0].hypot(ctm[1]);
                        let height = ctm[2].hypot(ctm[3]);
                        let entry = sizes.entry(id).or_insert((0.0, 0.0));
                        entry.0 = entry.0.max(width);
                        entry.1 = entry.1.max(height);
                    }
                    Ok(b"Form") if depth < MAX_DEPTH => {
                        let form_matrix = stream
                            .dict
                            .get(b"Matrix")
                            .and_then(Object::as_array)
                            .ok()
                            .and_then(|a| matrix(a))
                            .unwrap_or(IDENTITY);
                        let form_resources: Vec<Dictionary> = match stream.dict.get(b"Resources") {
                            Ok(object) => doc
                                .dereference(object)
                                .ok()
                                .and_then(|(_, o)| o.as_dict().ok().cloned())
                                .into_iter()
                                .collect(),
                            Err(_) => resources.to_vec(),
                        };
                        let Ok(form_content) = stream.decompressed_content_with_limit(MAX_DECODED)
                        else {
                            continue;
                        };
                        walk(
                            doc,
                            &form_content,
                            &form_resources,
                            multiply(form_matrix, ctm),
                            depth + 1,
                            sizes,
                        );
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

fn xobject(doc: &Document, resources: &[Dictionary], name: &[u8]) -> Option<ObjectId> {
    resources.iter().find_map(|dict| {
        let (_, xobjects) = doc.dereference(dict.get(b"XObject").ok()?).ok()?;
        xobjects.as_dict().ok()?.get(name).ok()?.as_reference().ok()
    })
}

fn matrix(operands: &[Object]) -> Option<Matrix> {
    if operands.len() != 6 {
        return None;
    }
    let mut m = [0.0; 6];
    for (slot, operand) in m.iter_mut().zip(operands) {
        *slot = operand.as_float().ok()?;
    }
    Some(m)
}

/// `m` then `ctm`: the matrix `cm m` leaves in force.
fn multiply(m: Matrix, ctm: Matrix) -> Matrix {
    let [a, b, c, d, e, f] = m;
    let [aa, bb, cc, dd, ee, ff] = ctm;
    [
        a * aa + b * cc,
        a * bb + b * dd,
        c * aa + d * cc,
        c * bb + d * dd,
        e * aa + f * cc + ee,
        e * bb + f * dd + ff,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_and_rotations_give_the_drawn_size() {
        let scaled = multiply([200.0, 0.0, 0.0, 100.0, 10.0, 10.0], IDENTITY);
        assert_eq!(
            (scaled[0].hypot(scaled[1]), scaled[2].hypot(scaled[3])),
            (200.0, 100.0)
        );
        // Rotated 90 degrees then scaled by 2: the image is still 200 x 100 on the page.
        let rotated = multiply(
            [0.0, 100.0, -50.0, 0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        );
        assert_eq!(rotated[0].hypot(rotated[1]), 200.0);
        assert_eq!(rotated[2].hypot(rotated[3]), 100.0);
    }
}
