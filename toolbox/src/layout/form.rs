//! A page's content as a Form XObject: its /BBox the page's visible box, its /Resources the
//! page's (by reference: the resources themselves are never copied), its /Group kept. A page
//! drawn by one content stream keeps that stream's bytes and filter as they are; several are
//! decoded and joined, since a form has one stream and a page may split a token between them.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use crate::ToolError;
use crate::geometry::{self, Frame};
use crate::pages::PageRef;

/// The most a page's joined content may decode to.
const CONTENT_LIMIT: usize = 256 << 20;

/// Forms made so far, and what they share.
#[derive(Default)]
pub struct Forms {
    /// Resource dictionaries pages inherit written in place on a /Pages node, made objects
    /// once so that every form refers to the same one.
    inherited: Vec<(Dictionary, ObjectId)>,
    /// Pages drawn by the same streams with the same resources and box share one form.
    made: HashMap<FormKey, ObjectId>,
}

#[derive(PartialEq, Eq, Hash)]
struct FormKey {
    contents: Vec<ObjectId>,
    bbox: [u64; 4],
    resources: ObjectId,
    group: Option<ObjectId>,
}

impl Forms {
    /// The form that draws `page` (a new one unless an identical page made one).
    pub fn make(
        &mut self,
        doc: &mut Document,
        page: &PageRef,
        frame: &Frame,
    ) -> Result<ObjectId, ToolError> {
        let own = doc.get_dictionary(page.id).ok();
        let group = own.and_then(|dict| dict.get(b"Group").ok()).cloned();
        let contents = own.map(|dict| content_ids(doc, dict)).unwrap_or_default();
        let resources = self.resources(doc, page);
        let key = match (&resources, &group) {
            (Object::Reference(resources), None | Some(Object::Reference(_))) => Some(FormKey {
                contents: contents.clone(),
                bbox: frame.visible.map(f64::to_bits),
                resources: *resources,
                group: group.as_ref().and_then(|g| g.as_reference().ok()),
            }),
            _ => None,
        };
        if let Some(form) = key.as_ref().and_then(|key| self.made.get(key)) {
            return Ok(*form);
        }
        let (mut dict, data) = content(doc, &contents, page)?;
        dict.set("Type", Object::Name(b"XObject".to_vec()));
        dict.set("Subtype", Object::Name(b"Form".to_vec()));
        dict.set("FormType", 1);
        dict.set("BBox", geometry::rect_object(frame.visible));
        dict.set("Resources", resources);
        if let Some(group) = group {
            dict.set("Group", group);
        }
        let form = doc.add_object(Stream::new(dict, data));
        if let Some(key) = key {
            self.made.insert(key, form);
        }
        Ok(form)
    }

    /// The page's resources as the form holds them: the page's object, or a dictionary the
    /// page holds in place; an inherited dictionary written in place becomes one object
    /// shared by all the pages that inherit it.
    fn resources(&mut self, doc: &mut Document, page: &PageRef) -> Object {
        let own = doc
            .get_dictionary(page.id)
            .ok()
            .and_then(|dict| dict.get(b"Resources").ok());
        let inherited = || {
            page.inherited
                .iter()
                .find(|(key, _)| *key == b"Resources")
                .map(|(_, value)| value)
        };
        match own
            .map(|value| (value, true))
            .or(inherited().map(|v| (v, false)))
        {
            Some((Object::Reference(id), _)) if doc.get_dictionary(*id).is_ok() => {
                Object::Reference(*id)
            }
            Some((Object::Dictionary(dict), true)) => Object::Dictionary(dict.clone()),
            Some((Object::Dictionary(dict), false)) => {
                if let Some((_, id)) = self.inherited.iter().find(|(d, _)| d == dict) {
                    return Object::Reference(*id);
                }
                let dict = dict.clone();
                let id = doc.add_object(dict.clone());
                self.inherited.push((dict, id));
                Object::Reference(id)
            }
            _ => Object::Dictionary(Dictionary::new()),
        }
    }
}

/// The page's content streams, in order: /Contents as one reference or an array of them
/// (maybe itself an indirect object).
fn content_ids(doc: &Document, page: &Dictionary) -> Vec<ObjectId> {
    let Ok(value) = page.get(b"Contents") else {
        return Vec::new();
    };
    let items = match value {
        Object::Reference(id) => match doc.get_object(*id) {
            Ok(Object::Array(items)) => items.as_slice(),
            _ => std::slice::from_ref(value),
        },
        Object::Array(items) => items.as_slice(),
        _ => &[],
    };
    items
        .iter()
        .filter_map(|item| item.as_reference().ok())
        .filter(|id| matches!(doc.get_object(*id), Ok(Object::Stream(_))))
        .collect()
}

/// The form's stream: one stream's filter and bytes as they are, or several decoded and
/// joined (a stream that cannot be decoded draws nothing, as in readers).
fn content(
    doc: &Document,
    ids: &[ObjectId],
    page: &PageRef,
) -> Result<(Dictionary, Vec<u8>), ToolError> {
    let streams: Vec<&Stream> = ids
        .iter()
        .filter_map(|id| doc.get_object(*id).ok()?.as_stream().ok())
        .collect();
    if let [stream] = streams[..] {
        let mut dict = Dictionary::new();
        for key in [b"Filter".as_slice(), b"DecodeParms"] {
            if let Ok(value) = stream.dict.get(key) {
                dict.set(key, value.clone());
            }
        }
        return Ok((dict, stream.content.clone()));
    }
    let mut data = Vec::new();
    for stream in streams {
        let left = CONTENT_LIMIT.saturating_sub(data.len());
        match stream.get_plain_content_with_limit(left) {
            Ok(decoded) => {
                data.extend_from_slice(&decoded);
                // Streams are joined as if one: keep the last token of one apart from the
                // first of the next.
                data.push(b'\n');
            }
            Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                ..
            })) => {
                return Err(ToolError::InvalidFile(format!(
                    "the content of page object {} decodes to more than {} MB",
                    page.id.0,
                    CONTENT_LIMIT >> 20
                )));
            }
            Err(err) => tracing::debug!(page = page.id.0, %err, "content stream skipped"),
        }
    }
    Ok((Dictionary::new(), data))
}
