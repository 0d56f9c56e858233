//! The largest size, in points, at which each image XObject is drawn: read from the page
//! content streams, the form XObjects and tiling patterns they draw, the soft-mask groups
//! their graphics states set, and the annotations' appearance streams, following the current
//! transformation matrix through q/Q/cm. An image drawn nowhere this walk looks gets no entry
//! and is left alone.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, content::Content};

use crate::pages::{Forms, PageContent, appearance_streams};

mod matrix;

use matrix::{IDENTITY, Matrix, fit, matrix, multiply, unit_size};

/// Form XObjects and patterns nested deeper than this are not followed.
const MAX_DEPTH: usize = 12;
/// Forms and patterns walked in all. A form drawn at very many scales (or a file built to
/// make the walk explode) stops the walk: then no size is known and no image is resampled,
/// rather than one resampled for a smaller use than its largest.
const MAX_VISITS: usize = 20_000;

/// Width and height in points, the largest seen for each image.
pub type DisplayedSizes = HashMap<ObjectId, (f32, f32)>;

impl<'a> Walker<'a> {
    pub fn new(doc: &'a Document, forms: &'a Forms) -> Self {
        Walker {
            doc,
            forms,
            sizes: DisplayedSizes::new(),
            seen: HashSet::new(),
        }
    }

    /// One page: its content and its annotations' appearances.
    pub fn page(&mut self, page: &PageContent<'a>) {
        if let Some(content) = &page.content {
            self.walk(content, &page.resources, IDENTITY, 0);
        }
        self.annotations(page.id);
    }

    pub fn finish(self) -> DisplayedSizes {
        if self.seen.len() > MAX_VISITS {
            tracing::debug!("image size walk over its budget: no image resampled");
            return DisplayedSizes::new();
        }
        self.sizes
    }
}

pub struct Walker<'a> {
    doc: &'a Document,
    forms: &'a Forms,
    sizes: DisplayedSizes,
    /// (stream, its base matrix's scale and skew) already walked: the sizes a stream gives
    /// depend only on those, so a form drawn a thousand times at one size is read once.
    seen: HashSet<(ObjectId, [i32; 4])>,
}

impl<'a> Walker<'a> {
    /// One content stream drawn with `base` in force.
    fn walk(
        &mut self,
        content: &Content,
        resources: &[&'a Dictionary],
        base: Matrix,
        depth: usize,
    ) {
        let mut ctm = base;
        let mut stack = Vec::new();
        for op in &content.operations {
            match op.operator.as_str() {
                "q" => stack.push(ctm),
                "Q" => ctm = stack.pop().unwrap_or(base),
                "cm" => {
                    if let Some(m) = matrix(&op.operands) {
                        ctm = multiply(m, ctm);
                    }
                }
                "Do" => {
                    if let Some(name) = op.operands.first().and_then(|o| o.as_name().ok()) {
                        self.draw(resources, name, ctm, depth);
                    }
                }
                // A soft mask's group is laid out in the space in force when `gs` sets it
                // (ISO 32000 11.6.5.2), whatever the matrix when it is later used.
                "gs" => {
                    if let Some(name) = op.operands.first().and_then(|o| o.as_name().ok())
                        && let Some(id) = soft_mask_group(self.doc, resources, name)
                        && let Ok(Object::Stream(stream)) = self.doc.get_object(id)
                    {
                        let base = multiply(own_matrix(stream), ctm);
                        self.nested(id, stream, resources, base, depth);
                    }
                }
                // A tiling pattern is laid out in the space the stream started in.
                "scn" | "SCN" => {
                    if let Some(name) = op.operands.last().and_then(|o| o.as_name().ok())
                        && let Some(id) = named(self.doc, resources, b"Pattern", name)
                    {
                        self.pattern(id, resources, base, depth);
                    }
                }
                _ => {}
            }
        }
    }

    fn draw(&mut self, resources: &[&'a Dictionary], name: &[u8], ctm: Matrix, depth: usize) {
        let Some(id) = named(self.doc, resources, b"XObject", name) else {
            return;
        };
        let Ok(Object::Stream(stream)) = self.doc.get_object(id) else {
            return;
        };
        match stream.dict.get(b"Subtype").and_then(Object::as_name) {
            Ok(b"Image") => {
                let (width, height) = unit_size(ctm);
                let entry = self.sizes.entry(id).or_insert((0.0, 0.0));
                entry.0 = entry.0.max(width);
                entry.1 = entry.1.max(height);
            }
            Ok(b"Form") => {
                let base = multiply(own_matrix(stream), ctm);
                self.nested(id, stream, resources, base, depth);
            }
            _ => {}
        }
    }

    fn pattern(&mut self, id: ObjectId, resources: &[&'a Dictionary], base: Matrix, depth: usize) {
        if let Ok(Object::Stream(stream)) = self.doc.get_object(id)
            && stream
                .dict
                .get(b"PatternType")
                .and_then(Object::as_i64)
                .ok()
                == Some(1)
        {
            let base = multiply(own_matrix(stream), base);
            self.nested(id, stream, resources, base, depth);
        }
    }

    /// A form or pattern: with its own resources, or its caller's when it has none.
    fn nested(
        &mut self,
        id: ObjectId,
        stream: &'a Stream,
        resources: &[&'a Dictionary],
        base: Matrix,
        depth: usize,
    ) {
        let scale = [base[0], base[1], base[2], base[3]].map(|v| (v * 1024.0).round() as i32);
        if depth >= MAX_DEPTH || self.seen.len() > MAX_VISITS || !self.seen.insert((id, scale)) {
            return;
        }
        let own: Vec<&'a Dictionary> = match stream.dict.get(b"Resources") {
            Ok(object) => self
                .doc
                .dereference(object)
                .ok()
                .and_then(|(_, o)| o.as_dict().ok())
                .into_iter()
                .collect(),
            Err(_) => resources.to_vec(),
        };
        if let Some(content) = self.forms.content(id, stream).as_ref() {
            self.walk(content, &own, base, depth + 1);
        }
    }

    /// Appearance streams, each fitted to its annotation's rectangle on the page.
    fn annotations(&mut self, page_id: ObjectId) {
        let Ok(annots) = self.doc.get_page_annotations(page_id) else {
            return;
        };
        for annot in annots {
            let Some(rect) = annot.get(b"Rect").ok().and_then(|o| four(self.doc, o)) else {
                continue;
            };
            for id in appearance_streams(self.doc, annot) {
                let Ok(Object::Stream(stream)) = self.doc.get_object(id) else {
                    continue;
                };
                let form = own_matrix(stream);
                let Some(bbox) = stream
                    .dict
                    .get(b"BBox")
                    .ok()
                    .and_then(|o| four(self.doc, o))
                else {
                    continue;
                };
                if let Some(placed) = fit(bbox, form, rect) {
                    self.nested(id, stream, &[], multiply(form, placed), 0);
                }
            }
        }
    }
}

/// A form's or pattern's /Matrix, identity when missing or unreadable.
fn own_matrix(stream: &Stream) -> Matrix {
    stream
        .dict
        .get(b"Matrix")
        .and_then(Object::as_array)
        .ok()
        .and_then(|a| matrix(a))
        .unwrap_or(IDENTITY)
}

/// The object a name stands for in the resources' `kind` dictionary, nearest first.
fn named(doc: &Document, resources: &[&Dictionary], kind: &[u8], name: &[u8]) -> Option<ObjectId> {
    resources.iter().find_map(|dict| {
        let (_, entries) = doc.dereference(dict.get(kind).ok()?).ok()?;
        entries.as_dict().ok()?.get(name).ok()?.as_reference().ok()
    })
}

/// The group form of the soft mask the named graphics state sets, if it sets one: the
/// nearest /ExtGState entry of that name, direct or a reference, and its /SMask's /G.
fn soft_mask_group(doc: &Document, resources: &[&Dictionary], name: &[u8]) -> Option<ObjectId> {
    let state = resources.iter().find_map(|dict| {
        let (_, states) = doc.dereference(dict.get(b"ExtGState").ok()?).ok()?;
        let (_, state) = doc
            .dereference(states.as_dict().ok()?.get(name).ok()?)
            .ok()?;
        state.as_dict().ok()
    })?;
    let (_, mask) = doc.dereference(state.get(b"SMask").ok()?).ok()?;
    mask.as_dict().ok()?.get(b"G").ok()?.as_reference().ok()
}

/// A rectangle's four numbers.
fn four(doc: &Document, object: &Object) -> Option<[f32; 4]> {
    let (_, object) = doc.dereference(object).ok()?;
    let items = object.as_array().ok()?;
    let numbers: Vec<f32> = items
        .iter()
        .map(|o| o.as_float().ok())
        .collect::<Option<_>>()?;
    numbers.try_into().ok()
}

#[cfg(test)]
mod tests {
    use lopdf::{Stream, dictionary};

    use super::*;
    use crate::test_pdf::one_page;

    fn image(doc: &mut Document) -> ObjectId {
        doc.add_object(Stream::new(
            dictionary! {"Subtype" => "Image", "Width" => 8, "Height" => 8},
            vec![0; 64],
        ))
    }

    /// An image drawn by the page through a form, one in an annotation's appearance and one
    /// in a tiling pattern: each gets the size it has on the page.
    #[test]
    fn forms_appearances_and_patterns_give_their_images_sizes() {
        let mut doc = Document::with_version("1.7");
        let (in_form, in_annot, in_pattern) = (image(&mut doc), image(&mut doc), image(&mut doc));
        let form = doc.add_object(Stream::new(
            dictionary! {
                "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 1.into(), 1.into()],
                "Matrix" => vec![3.into(), 0.into(), 0.into(), 3.into(), 0.into(), 0.into()],
                "Resources" => dictionary! {"XObject" => dictionary! {"Im" => in_form}},
            },
            b"10 0 0 10 0 0 cm /Im Do".to_vec(),
        ));
        let appearance = doc.add_object(Stream::new(
            dictionary! {
                "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 100.into(), 100.into()],
                "Resources" => dictionary! {"XObject" => dictionary! {"Im" => in_annot}},
            },
            b"100 0 0 100 0 0 cm /Im Do".to_vec(),
        ));
        let pattern = doc.add_object(Stream::new(
            dictionary! {
                "PatternType" => 1, "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()],
                "Matrix" => vec![2.into(), 0.into(), 0.into(), 2.into(), 0.into(), 0.into()],
                "Resources" => dictionary! {"XObject" => dictionary! {"Im" => in_pattern}},
            },
            b"10 0 0 10 0 0 cm /Im Do".to_vec(),
        ));
        let annot = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Stamp",
            "Rect" => vec![50.into(), 50.into(), 100.into(), 75.into()],
            "AP" => dictionary! {"N" => appearance},
        });
        // The form is drawn twice at one size and once larger; the pattern is set after a
        // cm, which does not move pattern space.
        let content = doc.add_object(Stream::new(
            dictionary! {},
            b"q 2 0 0 2 0 0 cm /F Do Q /F Do q 5 0 0 5 0 0 cm /F Do Q \
              4 0 0 4 0 0 cm /Pattern cs /P scn 0 0 1 1 re f"
                .to_vec(),
        ));
        one_page(
            &mut doc,
            dictionary! {
                "Contents" => content,
                "MediaBox" => vec![0.into(), 0.into(), 200.into(), 200.into()],
                "Annots" => vec![annot.into()],
                "Resources" => dictionary! {
                    "XObject" => dictionary! {"F" => form},
                    "Pattern" => dictionary! {"P" => pattern},
                },
            },
            dictionary! {},
        );
        let (_, sizes) = crate::survey(&doc);
        // 10 x form's 3 x the largest call's 5.
        assert_eq!(sizes.get(&in_form), Some(&(150.0, 150.0)));
        // A 100 x 100 box fitted into a 50 x 25 rectangle.
        assert_eq!(sizes.get(&in_annot), Some(&(50.0, 25.0)));
        assert_eq!(sizes.get(&in_pattern), Some(&(20.0, 20.0)));
    }

    /// An image drawn only in a soft mask's group gets the size it has where `gs` set the
    /// mask, not where the mask is later used; a graphics state with no soft mask adds none.
    #[test]
    fn soft_mask_groups_give_their_images_sizes() {
        let mut doc = Document::with_version("1.7");
        let in_mask = image(&mut doc);
        let group = doc.add_object(Stream::new(
            dictionary! {
                "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 1.into(), 1.into()],
                "Group" => dictionary! {"S" => "Transparency", "CS" => "DeviceGray"},
                "Matrix" => vec![3.into(), 0.into(), 0.into(), 3.into(), 0.into(), 0.into()],
                "Resources" => dictionary! {"XObject" => dictionary! {"Im" => in_mask}},
            },
            b"10 0 0 10 0 0 cm /Im Do".to_vec(),
        ));
        // A direct graphics state dictionary, as some writers store them.
        let states = dictionary! {
            "Masked" => dictionary! {
                "Type" => "ExtGState",
                "SMask" => dictionary! {"Type" => "Mask", "S" => "Luminosity", "G" => group},
            },
            "Plain" => dictionary! {"Type" => "ExtGState", "CA" => 0.5},
        };
        let content = doc.add_object(Stream::new(
            dictionary! {},
            b"q 2 0 0 2 0 0 cm /Plain gs /Masked gs 7 0 0 7 0 0 cm 0 0 1 1 re f Q".to_vec(),
        ));
        one_page(
            &mut doc,
            dictionary! {
                "Contents" => content,
                "MediaBox" => vec![0.into(), 0.into(), 200.into(), 200.into()],
                "Resources" => dictionary! {"ExtGState" => states},
            },
            dictionary! {},
        );
        let (_, sizes) = crate::survey(&doc);
        // 10 x the group's 3 x the 2 in force at `gs`; the later 7 does not count.
        assert_eq!(sizes.get(&in_mask), Some(&(60.0, 60.0)));
        assert_eq!(sizes.len(), 1);
    }
}
