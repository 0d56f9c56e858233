//! The structure tree's descriptions of removed content: an element that owns a marked-content
//! sequence which lost something (by its MCID on its page) or a removed annotation (by its
//! OBJR), and every element above it, loses /ActualText, /Alt and /E, which readers and
//! accessibility tools read in place of the content.

use std::collections::{BTreeSet, HashMap, HashSet};

use lopdf::{Document, Object, ObjectId};

use super::walk::DESCRIPTIONS;

/// Deeper than any real structure tree.
const MAX_DEPTH: usize = 128;

/// What lost content, page by page: some MCIDs, or (`None`) all of the page's.
pub type Touched = HashMap<ObjectId, Option<BTreeSet<i64>>>;

/// Strips the descriptions of the elements owning `touched` content or one of the `removed`
/// annotations (by their OBJR); returns how many elements lost some.
pub fn strip(doc: &mut Document, touched: &Touched, removed: &HashSet<ObjectId>) -> usize {
    if touched.is_empty() && removed.is_empty() {
        return 0;
    }
    let Some(root) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"StructTreeRoot").ok())
        .and_then(|r| r.as_reference().ok())
    else {
        return 0;
    };
    let mut marked = HashSet::new();
    let mut seen = HashSet::new();
    let owned = Owned { touched, removed };
    let mut ancestors = Vec::new();
    visit(
        doc,
        root,
        None,
        &mut ancestors,
        &owned,
        &mut marked,
        &mut seen,
        0,
    );
    let mut stripped = 0;
    for id in marked {
        if let Ok(dict) = doc.get_dictionary_mut(id) {
            let before = dict.len();
            for key in DESCRIPTIONS {
                dict.remove(key);
            }
            stripped += usize::from(dict.len() != before);
        }
    }
    stripped
}

/// What went: content by page, annotations by id.
struct Owned<'a> {
    touched: &'a Touched,
    removed: &'a HashSet<ObjectId>,
}

impl Owned<'_> {
    /// Whether a kid of an element (an MCID, a marked-content or object reference) went.
    fn went(&self, kid: &lopdf::Dictionary, page: Option<ObjectId>) -> bool {
        if kid.get(b"Type").and_then(Object::as_name).ok() == Some(b"OBJR") {
            return kid
                .get(b"Obj")
                .and_then(Object::as_reference)
                .is_ok_and(|id| self.removed.contains(&id));
        }
        mcr(kid, page, self.touched)
    }
}

#[allow(clippy::too_many_arguments)]
fn visit(
    doc: &Document,
    id: ObjectId,
    page: Option<ObjectId>,
    ancestors: &mut Vec<ObjectId>,
    owned: &Owned<'_>,
    marked: &mut HashSet<ObjectId>,
    seen: &mut HashSet<ObjectId>,
    depth: usize,
) {
    if depth > MAX_DEPTH || !seen.insert(id) {
        return;
    }
    let Ok(element) = doc.get_dictionary(id) else {
        return;
    };
    let page = element
        .get(b"Pg")
        .and_then(Object::as_reference)
        .ok()
        .or(page);
    ancestors.push(id);
    let kids = match element.get(b"K") {
        Ok(Object::Array(items)) => items.clone(),
        Ok(other) => vec![other.clone()],
        Err(_) => Vec::new(),
    };
    for kid in kids {
        let hit = match &kid {
            Object::Integer(mcid) => owns(owned.touched, page, *mcid),
            Object::Dictionary(dict) => owned.went(dict, page),
            Object::Reference(kid_id) => match doc.get_object(*kid_id) {
                Ok(Object::Dictionary(dict)) if dict.has(b"S") => {
                    let next = depth + 1;
                    visit(doc, *kid_id, page, ancestors, owned, marked, seen, next);
                    false
                }
                Ok(Object::Dictionary(dict)) => owned.went(dict, page),
                _ => false,
            },
            _ => false,
        };
        if hit {
            marked.extend(ancestors.iter().copied());
        }
    }
    ancestors.pop();
}

/// A marked-content reference dictionary that names touched content.
fn mcr(dict: &lopdf::Dictionary, page: Option<ObjectId>, touched: &Touched) -> bool {
    let page = dict.get(b"Pg").and_then(Object::as_reference).ok().or(page);
    dict.get(b"MCID")
        .and_then(Object::as_i64)
        .is_ok_and(|mcid| owns(touched, page, mcid))
}

fn owns(touched: &Touched, page: Option<ObjectId>, mcid: i64) -> bool {
    match page.and_then(|p| touched.get(&p)) {
        Some(None) => true,
        Some(Some(mcids)) => mcids.contains(&mcid),
        None => false,
    }
}
