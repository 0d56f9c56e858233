//! One page redacted: its content walked and rewritten into one new stream (the original
//! wrapped in `q ... Q`, the boxes after it), its resources made its own, its annotations in
//! the areas removed, its thumbnail dropped.

use std::collections::BTreeSet;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::boxes::{self, Label};
use super::geometry::Areas;
use super::walk::{Tally, Walker};
use super::{annots, options::Plan};
use crate::geometry::{Frame, Rect};
use crate::pages::{self, PageRef};
use crate::stamp::font::Font;

/// The largest content a page may decode to (its operations are held in memory, a few
/// times its size).
const MAX_CONTENT: usize = 64 << 20;

/// What happened on one page.
pub struct Outcome {
    pub tally: Tally,
    pub unsafe_reasons: BTreeSet<String>,
    pub touched_mcids: BTreeSet<i64>,
    pub annotations: annots::Removal,
}

/// The label font object, added to the document once.
pub struct LabelFont<'a> {
    pub text: &'a str,
    pub font: &'a Font,
    pub id: Option<ObjectId>,
}

pub fn redact(
    doc: &mut Document,
    page: &PageRef,
    rects: &[Rect],
    plan: &Plan,
    label: &mut Option<LabelFont<'_>>,
) -> Outcome {
    let areas = Areas::new(rects.to_vec());
    let resources = pages::effective(doc, page, b"Resources")
        .and_then(|r| r.as_dict().ok())
        .cloned()
        .unwrap_or_default();
    let content = joined_content(doc, page.id);
    let mut walker = Walker::new(doc, &areas, plan.fill);
    let walked = match &content {
        Some(data) => walker.page(data, &resources),
        None => {
            walker.mark_unsafe("the page's content cannot be decoded");
            None
        }
    };
    let tally = walker.tally;
    let unsafe_reasons = std::mem::take(&mut walker.unsafe_reasons);
    let touched_mcids = std::mem::take(&mut walker.touched_mcids);
    let annotations = annots::remove_in_areas(doc, page.id, &areas);
    let frame = Frame::of(doc, page);
    let (mut resources, body) = match walked {
        Some(output) => (output.resources, Some(output.content)),
        None => (resources, None),
    };
    let label_name = label.as_mut().map(|label| {
        let id = *label.id.get_or_insert_with(|| label.font.add_to(doc));
        add_font(doc, &mut resources, id)
    });
    let drawn_label = match (label.as_ref(), &label_name) {
        (Some(label), Some(name)) => Some(Label {
            text: label.text,
            font: label.font,
            resource: name,
        }),
        _ => None,
    };
    let marks = boxes::draw(rects, plan.fill, drawn_label.as_ref(), &frame);
    let contents = match body {
        Some(body) => {
            let mut bytes = Vec::with_capacity(body.len() + marks.len() + 8);
            bytes.extend_from_slice(b"q\n");
            bytes.extend_from_slice(&body);
            bytes.extend_from_slice(b"\nQ\n");
            bytes.extend_from_slice(marks.as_bytes());
            Object::Reference(doc.add_object(Stream::new(Dictionary::new(), bytes)))
        }
        // Content that cannot be read is kept as it is (the page is unsafe), the boxes over it.
        None => {
            let mut all = vec![Object::Reference(
                doc.add_object(Stream::new(Dictionary::new(), b"q\n".to_vec())),
            )];
            all.extend(content_refs(doc, page.id));
            all.push(Object::Reference(
                doc.add_object(Stream::new(Dictionary::new(), b"\nQ\n".to_vec())),
            ));
            all.push(Object::Reference(
                doc.add_object(Stream::new(Dictionary::new(), marks.into_bytes())),
            ));
            Object::Array(all)
        }
    };
    if let Ok(dict) = doc.get_dictionary_mut(page.id) {
        dict.set("Contents", contents);
        dict.set("Resources", Object::Dictionary(resources));
        // A thumbnail shows the page as it was.
        dict.remove(b"Thumb");
    }
    Outcome {
        tally,
        unsafe_reasons,
        touched_mcids,
        annotations,
    }
}

/// Adds the label font to `resources` under a free name; returns the name.
fn add_font(doc: &Document, resources: &mut Dictionary, id: ObjectId) -> Vec<u8> {
    let mut fonts = resources
        .get(b"Font")
        .ok()
        .and_then(|f| doc.dereference(f).ok())
        .and_then(|(_, f)| f.as_dict().ok())
        .cloned()
        .unwrap_or_default();
    let name = (0..)
        .map(|n: u32| format!("RdLabel{n}").into_bytes())
        .find(|name| !fonts.has(name))
        .unwrap_or_else(|| b"RdLabel".to_vec());
    fonts.set(name.clone(), Object::Reference(id));
    resources.set("Font", Object::Dictionary(fonts));
    name
}

/// The page's content streams, in order.
fn content_refs(doc: &Document, page: ObjectId) -> Vec<Object> {
    let Some(value) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|d| d.get(b"Contents").ok())
    else {
        return Vec::new();
    };
    match doc.dereference(value) {
        Ok((_, Object::Array(items))) => items.clone(),
        Ok((_, Object::Stream(_))) => vec![value.clone()],
        _ => Vec::new(),
    }
}

/// The page's content, its streams decoded and joined by line breaks; `None` when one cannot
/// be decoded.
fn joined_content(doc: &Document, page: ObjectId) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for item in content_refs(doc, page) {
        let Ok((_, Object::Stream(stream))) = doc.dereference(&item) else {
            continue;
        };
        let data = stream
            .decompressed_content_with_limit(MAX_CONTENT.saturating_sub(out.len()))
            .ok()?;
        out.extend_from_slice(&data);
        out.push(b'\n');
    }
    Some(out)
}
