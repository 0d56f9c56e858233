//! What the walks that read what a page shows (image sizes, font usage) both start from: the
//! page's content parsed once, its resource dictionaries, and its annotations' appearance
//! streams (/AP's normal,
//! rollover and down entries, each a stream or a dictionary of states).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, content::Content};

use crate::content;
use crate::streams::MAX_DECODED;

/// A page as the walks read it.
pub struct PageContent<'a> {
    pub id: ObjectId,
    pub resources: Vec<&'a Dictionary>,
    /// Its content streams inflated, joined and parsed; `None` when they cannot be read.
    pub content: Option<Content>,
}

/// Every page, its content parsed once for all the walks that read it: inflating and parsing
/// each page twice (font usage, then image sizes) was a third of the compressor's instructions
/// on a text-heavy manual.
pub fn page_contents(doc: &Document) -> impl Iterator<Item = PageContent<'_>> {
    doc.get_pages().into_values().map(|id| PageContent {
        id,
        resources: page_resources(doc, id),
        content: page_bytes(doc, id).and_then(|bytes| content::parse(&bytes, read)),
    })
}

/// A page's content streams decoded and joined (each ends a token: PDF 32000-1 7.8.2 lets an
/// operator's operands span two streams, but not a token); `None` when one is damaged.
fn page_bytes(doc: &Document, id: ObjectId) -> Option<Vec<u8>> {
    let page = doc.get_dictionary(id).ok()?;
    let mut bytes = Vec::new();
    for id in content_ids(doc, page)? {
        let stream = doc.get_object(id).ok()?.as_stream().ok()?;
        bytes.extend(crate::plain::decode(stream, MAX_DECODED.saturating_sub(bytes.len())).ok()?);
        bytes.push(b'\n');
    }
    Some(bytes)
}

/// The streams of a page's `/Contents`: one, or an array of them (directly or through a
/// reference); none without it; `None` when it is something else or an item is no reference.
pub fn content_ids(doc: &Document, page: &Dictionary) -> Option<Vec<ObjectId>> {
    let items = match page.get(b"Contents") {
        Err(_) => return Some(Vec::new()),
        Ok(Object::Reference(id)) => match doc.get_object(*id).ok()? {
            Object::Array(items) => items,
            _ => return Some(vec![*id]),
        },
        Ok(Object::Array(items)) => items,
        Ok(_) => return None,
    };
    items.iter().map(|item| item.as_reference().ok()).collect()
}

/// A content stream's operations that the walks read; `None` when it cannot be inflated or
/// parsed.
fn parse(stream: &Stream) -> Option<Content> {
    crate::plain::decode(stream, MAX_DECODED)
        .ok()
        .and_then(|bytes| content::parse(&bytes, read))
}

/// The forms, patterns and appearance streams one page draws, parsed once for both walks:
/// each read them on its own, and parsing them twice was a third of the survey on a manual
/// whose figures are forms. Kept for one page at a time ([`Forms::clear`]), so that a file's
/// figures are not all held parsed at once; a form drawn on another page is parsed again only
/// when a walk reads it again there.
#[derive(Default)]
pub struct Forms {
    parsed: RefCell<HashMap<ObjectId, Rc<Option<Content>>>>,
}

impl Forms {
    /// The stream's operations, or `None` when it cannot be inflated or parsed.
    pub fn content(&self, id: ObjectId, stream: &Stream) -> Rc<Option<Content>> {
        if let Some(parsed) = self.parsed.borrow().get(&id) {
            return Rc::clone(parsed);
        }
        let parsed = Rc::new(parse(stream));
        self.parsed.borrow_mut().insert(id, Rc::clone(&parsed));
        parsed
    }

    pub fn clear(&self) {
        self.parsed.borrow_mut().clear();
    }
}

/// The operators the walks read ([`displayed`](crate::displayed): q, Q, cm, Do, scn, SCN;
/// [`fonts`](crate::fonts)' usage: q, Q, Tf, gs, Do and the text-showing ones): the only
/// operations kept of a content stream. A walk that reads another must add it here.
pub fn read(operator: &[u8]) -> bool {
    matches!(
        operator,
        b"q" | b"Q"
            | b"cm"
            | b"Do"
            | b"scn"
            | b"SCN"
            | b"Tf"
            | b"gs"
            | b"Tj"
            | b"TJ"
            | b"'"
            | b"\""
    )
}

/// The page's resource dictionaries, nearest first.
pub fn page_resources(doc: &Document, page_id: ObjectId) -> Vec<&Dictionary> {
    let Ok((direct, ids)) = doc.get_page_resources(page_id) else {
        return Vec::new();
    };
    direct
        .into_iter()
        .chain(ids.into_iter().filter_map(|id| doc.get_dictionary(id).ok()))
        .collect()
}

/// Every appearance stream of `annot`, all states of all three entries.
pub fn appearance_streams(doc: &Document, annot: &Dictionary) -> Vec<ObjectId> {
    let Some(ap) = annot
        .get(b"AP")
        .ok()
        .and_then(|o| doc.dereference(o).ok())
        .and_then(|(_, o)| o.as_dict().ok())
    else {
        return Vec::new();
    };
    let mut ids = Vec::new();
    for key in [b"N".as_slice(), b"R", b"D"] {
        let Ok(entry) = ap.get(key) else { continue };
        let states = match entry {
            Object::Reference(id) => match doc.get_object(*id) {
                Ok(Object::Stream(_)) => {
                    ids.push(*id);
                    continue;
                }
                Ok(Object::Dictionary(states)) => states,
                _ => continue,
            },
            Object::Dictionary(states) => states,
            _ => continue,
        };
        ids.extend(states.iter().filter_map(|(_, v)| v.as_reference().ok()));
    }
    ids
}
