//! What the walks that read what a page shows (image sizes, font usage) both start from: the
//! page's content parsed once, its resource dictionaries, and its annotations' appearance
//! streams (/AP's normal,
//! rollover and down entries, each a stream or a dictionary of states).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
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

/// Pages read this far ahead of the walks.
const AHEAD: usize = 2;

/// Every page to `walk`, in order, its content parsed once for all the walks that read it
/// (inflating and parsing each page twice was a third of the compressor's instructions on a
/// text-heavy manual). The pages are read on another thread, ahead of the walks, with the
/// forms and patterns their resources name that no page before did: reading was most of the
/// survey's time, and the walks wait for none of it. `forms` holds those of the page walked.
pub fn walk_pages<'a>(doc: &'a Document, forms: &Forms, mut walk: impl FnMut(&PageContent<'a>)) {
    let ids: Vec<ObjectId> = doc.get_pages().into_values().collect();
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel(AHEAD);
        let order = &ids;
        let reader = scope.spawn(move || {
            let mut named = HashSet::new();
            for &id in order {
                let page = read_page(doc, id);
                let drawn = first_named(doc, &page.resources, &mut named);
                if send.send((page, drawn)).is_err() {
                    return;
                }
            }
        });
        for &id in &ids {
            // A reader that stopped (a panic) leaves the pages it did not send to this thread.
            let (page, drawn) = receive
                .recv()
                .unwrap_or_else(|_| (read_page(doc, id), Vec::new()));
            forms.add(drawn);
            walk(&page);
            forms.clear();
        }
        let _ = reader.join();
    });
}

fn read_page(doc: &Document, id: ObjectId) -> PageContent<'_> {
    PageContent {
        id,
        resources: page_resources(doc, id),
        content: doc
            .get_page_content_with_limit(id, MAX_DECODED)
            .ok()
            .and_then(|bytes| content::parse(&bytes, read)),
    }
}

/// The forms and tiling patterns `resources` name that are not in `named` yet, parsed.
fn first_named(
    doc: &Document,
    resources: &[&Dictionary],
    named: &mut HashSet<ObjectId>,
) -> Vec<(ObjectId, Option<Content>)> {
    let mut out = Vec::new();
    for res in resources {
        for kind in [b"XObject".as_slice(), b"Pattern"] {
            let Some(dict) = res
                .get(kind)
                .ok()
                .and_then(|o| doc.dereference(o).ok())
                .and_then(|(_, o)| o.as_dict().ok())
            else {
                continue;
            };
            for (_, value) in dict.iter() {
                let Ok(id) = value.as_reference() else {
                    continue;
                };
                if let Ok(Object::Stream(stream)) = doc.get_object(id)
                    && draws(stream)
                    && named.insert(id)
                {
                    out.push((id, parse(stream)));
                }
            }
        }
    }
    out
}

/// Whether a stream is drawn as content: a form, or a tiling pattern.
fn draws(stream: &Stream) -> bool {
    let dict = &stream.dict;
    dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Form")
        || dict.get(b"PatternType").and_then(Object::as_i64).ok() == Some(1)
}

/// A content stream's operations that the walks read; `None` when it cannot be inflated or
/// parsed.
fn parse(stream: &Stream) -> Option<Content> {
    stream
        .decompressed_content_with_limit(MAX_DECODED)
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

    /// Streams parsed ahead, by the page reader.
    fn add(&self, parsed: Vec<(ObjectId, Option<Content>)>) {
        self.parsed.borrow_mut().extend(
            parsed
                .into_iter()
                .map(|(id, content)| (id, Rc::new(content))),
        );
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
