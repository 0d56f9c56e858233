//! Actions: only those that stay inside the reader and cannot run code are kept (ISO 19005-1
//! 6.6.1, ISO 19005-2 6.5.1): go to a destination here or in another file, open a URI, and
//! the four page-turning named actions. Everything else goes where it is referenced, with the
//! additional-action dictionaries (/AA, which PDF/A forbids on the catalog, pages, annotations
//! and fields), the document-level JavaScript and the action run on opening.
//!
//! The sanitize tool removes scripts by what they are wherever they hang; this is the same
//! sweep with PDF/A's list instead of the user's choices: an allowlist, so that action types
//! added in later PDF versions go too.

use std::collections::{BTreeMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::changes::Changes;

/// Action types PDF/A keeps (the validators accept these and reject the rest).
const ALLOWED: [&[u8]; 4] = [b"GoTo", b"GoToR", b"URI", b"Named"];
/// Named actions ISO 19005 permits.
const NAMED: [&[u8]; 4] = [b"NextPage", b"PrevPage", b"FirstPage", b"LastPage"];

/// What was removed, by action type ("JavaScript", "Launch", ...).
#[derive(Default)]
struct Removed {
    kinds: BTreeMap<String, HashSet<Option<ObjectId>>>,
    direct: BTreeMap<String, u32>,
}

impl Removed {
    fn note(&mut self, kind: String, id: Option<ObjectId>) {
        match id {
            Some(_) => {
                self.kinds.entry(kind).or_default().insert(id);
            }
            None => *self.direct.entry(kind).or_default() += 1,
        }
    }

    fn count(&self, kind: &str) -> u32 {
        let ids = self.kinds.get(kind).map_or(0, HashSet::len);
        u32::try_from(ids).unwrap_or(u32::MAX) + self.direct.get(kind).copied().unwrap_or(0)
    }
}

/// Removes every action PDF/A forbids, every /AA and the catalog's /OpenAction and
/// /Names /JavaScript; tells what went.
pub fn remove(doc: &mut Document, changes: &mut Changes) {
    let mut removed = Removed::default();
    let forbidden: HashSet<ObjectId> = doc
        .objects
        .iter()
        .filter_map(|(id, object)| match object {
            Object::Dictionary(dict) if verdict(dict).is_some() => Some(*id),
            _ => None,
        })
        .collect();
    let kinds: BTreeMap<ObjectId, String> = forbidden
        .iter()
        .filter_map(|id| Some((*id, verdict(doc.get_dictionary(*id).ok()?)?)))
        .collect();
    // What stands in an action slot by reference is judged strictly.
    let slots: BTreeMap<ObjectId, String> = doc
        .objects
        .iter()
        .filter_map(|(id, object)| Some((*id, forbidden_in_action_slot(object.as_dict().ok()?)?)))
        .collect();
    document_scripts(doc, &kinds, &mut removed);
    let opening = doc
        .catalog_mut()
        .ok()
        .and_then(|catalog| catalog.remove(b"OpenAction"));
    let mut opening_note = false;
    if let Some(action) = opening {
        match describe(doc, &action, &kinds) {
            Some((kind, id)) => removed.note(kind, id),
            None => opening_note = true,
        }
    }
    let mut sweep = Sweep {
        kinds: &kinds,
        slots: &slots,
        removed: &mut removed,
        aa: 0,
    };
    for (id, object) in doc.objects.iter_mut() {
        if kinds.contains_key(id) {
            continue;
        }
        match object {
            Object::Dictionary(dict) => sweep.dict(dict),
            Object::Stream(stream) => sweep.dict(&mut stream.dict),
            Object::Array(items) => sweep.items(items),
            _ => {}
        }
    }
    let aa = sweep.aa;
    let scripts = removed.count("JavaScript");
    if scripts > 0 {
        changes.count("removed JavaScript:", scripts, "script", "scripts");
    }
    let others: Vec<&String> = removed
        .kinds
        .keys()
        .chain(removed.direct.keys())
        .filter(|k| *k != "JavaScript")
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let other_count: u32 = others.iter().map(|k| removed.count(k)).sum();
    if other_count > 0 {
        let names: Vec<&str> = others.iter().map(|k| k.as_str()).collect();
        changes.note(format!(
            "removed {other_count} action{} PDF/A forbids ({})",
            if other_count == 1 { "" } else { "s" },
            names.join(", ")
        ));
    }
    if aa > 0 {
        changes.count(
            "removed the additional actions (/AA) of",
            aa,
            "object",
            "objects",
        );
    }
    if opening_note {
        changes.note("removed the view set to open with the document (/OpenAction)");
    }
}

/// Every action type of ISO 32000-1 and -2 (Table 198 and its successors): a dictionary is
/// taken for an action by its /S only when /S names one, since soft masks, borders, page
/// labels and structure elements have an /S too.
const ACTION_TYPES: [&[u8]; 21] = [
    b"GoTo",
    b"GoToR",
    b"GoToE",
    b"GoToDp",
    b"Launch",
    b"Thread",
    b"URI",
    b"Sound",
    b"Movie",
    b"Hide",
    b"Named",
    b"SubmitForm",
    b"ResetForm",
    b"ImportData",
    b"JavaScript",
    b"SetOCGState",
    b"Rendition",
    b"Trans",
    b"GoTo3DView",
    b"RichMediaExecute",
    b"ECMAScript",
];

/// The type of a forbidden action, `None` for an allowed action or anything else (the
/// validation asks the same question of the written file).
pub fn forbidden_action(dict: &Dictionary) -> Option<String> {
    verdict(dict)
}

/// The verdict on a dictionary that stands where an action goes (/A, /PA, /Next): one
/// without a type PDF/A allows is forbidden whatever its type (structure attributes, which
/// an element's /A holds too, have an owner /O instead).
pub fn forbidden_in_action_slot(dict: &Dictionary) -> Option<String> {
    if dict.has(b"O") && !dict.has(b"S") {
        return None;
    }
    if let Some(kind) = verdict(dict) {
        return Some(kind);
    }
    match dict.get(b"S").and_then(Object::as_name) {
        Ok(kind) if ALLOWED.contains(&kind) => None,
        Ok(kind) => Some(String::from_utf8_lossy(kind).into_owned()),
        Err(_) => Some("untyped".into()),
    }
}

/// The type of a forbidden action, `None` for an allowed action or anything else.
fn verdict(dict: &Dictionary) -> Option<String> {
    if dict.has(b"JS") {
        return Some("JavaScript".into());
    }
    let kind = dict.get(b"S").and_then(Object::as_name).ok()?;
    if !ACTION_TYPES.contains(&kind) && !dict.has_type(b"Action") {
        return None;
    }
    if kind == b"Named" {
        let name = dict.get(b"N").and_then(Object::as_name).ok()?;
        return (!NAMED.contains(&name)).then(|| "Named".into());
    }
    (!ALLOWED.contains(&kind)).then(|| String::from_utf8_lossy(kind).into_owned())
}

/// The forbidden action `value` is (a reference to one, or one written inline).
fn describe(
    doc: &Document,
    value: &Object,
    kinds: &BTreeMap<ObjectId, String>,
) -> Option<(String, Option<ObjectId>)> {
    match value {
        Object::Reference(id) => {
            if let Some(kind) = kinds.get(id) {
                return Some((kind.clone(), Some(*id)));
            }
            let _ = doc;
            None
        }
        Object::Dictionary(dict) => verdict(dict).map(|kind| (kind, None)),
        _ => None,
    }
}

/// The document-level scripts: the /Names /JavaScript tree goes whole.
fn document_scripts(doc: &mut Document, kinds: &BTreeMap<ObjectId, String>, removed: &mut Removed) {
    let tree = crate::names::names_dict_mut(doc).and_then(|names| names.remove(b"JavaScript"));
    let Some(tree) = tree else {
        return;
    };
    let mut values = Vec::new();
    tree_values(doc, &tree, &mut values, 0);
    if values.is_empty() {
        removed.note("JavaScript".into(), None);
    }
    for value in values {
        match describe(doc, &value, kinds) {
            Some((kind, id)) => removed.note(kind, id),
            None => removed.note("JavaScript".into(), None),
        }
    }
}

/// The values of a name tree, depth-bounded (a cycle ends there).
fn tree_values(doc: &Document, node: &Object, out: &mut Vec<Object>, depth: usize) {
    if depth > 32 {
        return;
    }
    let Some(node) = doc
        .dereference(node)
        .ok()
        .and_then(|(_, node)| node.as_dict().ok())
    else {
        return;
    };
    let array = |key: &[u8]| {
        node.get(key)
            .ok()
            .and_then(|value| doc.dereference(value).ok())
            .and_then(|(_, value)| value.as_array().ok())
    };
    if let Some(pairs) = array(b"Names") {
        out.extend(pairs.chunks_exact(2).map(|pair| pair[1].clone()));
    }
    if let Some(kids) = array(b"Kids") {
        for kid in kids {
            tree_values(doc, kid, out, depth + 1);
        }
    }
}

struct Sweep<'a> {
    kinds: &'a BTreeMap<ObjectId, String>,
    slots: &'a BTreeMap<ObjectId, String>,
    removed: &'a mut Removed,
    /// Dictionaries whose /AA went.
    aa: u32,
}

impl Sweep<'_> {
    fn forbidden(&self, value: &Object) -> Option<(String, Option<ObjectId>)> {
        match value {
            Object::Reference(id) => self.kinds.get(id).map(|kind| (kind.clone(), Some(*id))),
            Object::Dictionary(dict) => verdict(dict).map(|kind| (kind, None)),
            _ => None,
        }
    }

    /// The verdict on what stands in an action slot.
    fn forbidden_slot(&self, value: &Object) -> Option<(String, Option<ObjectId>)> {
        match value {
            Object::Reference(id) => self.slots.get(id).map(|kind| (kind.clone(), Some(*id))),
            Object::Dictionary(dict) => forbidden_in_action_slot(dict).map(|kind| (kind, None)),
            _ => None,
        }
    }

    fn dict(&mut self, dict: &mut Dictionary) {
        if let Some(aa) = dict.remove(b"AA") {
            self.aa += 1;
            if let Object::Dictionary(aa) = &aa {
                for (_, action) in aa.iter() {
                    if let Some((kind, id)) = self.forbidden(action) {
                        self.removed.note(kind, id);
                    }
                }
            }
        }
        for key in [b"A".as_slice(), b"PA", b"Next"] {
            let Ok(value) = dict.get(key) else {
                continue;
            };
            if let Some((kind, id)) = self.forbidden_slot(value) {
                self.removed.note(kind, id);
                dict.remove(key);
            }
        }
        for (key, value) in dict.iter_mut() {
            match value {
                Object::Dictionary(inner) => self.dict(inner),
                Object::Array(items) if key == b"Next" => self.array(items),
                Object::Array(items) => self.items(items),
                _ => {}
            }
        }
        if matches!(dict.get(b"Next"), Ok(Object::Array(items)) if items.is_empty()) {
            dict.remove(b"Next");
        }
    }

    /// A /Next array of actions: the forbidden ones drop out.
    fn array(&mut self, items: &mut Vec<Object>) {
        let mut kept = Vec::with_capacity(items.len());
        for mut item in std::mem::take(items) {
            if let Some((kind, id)) = self.forbidden_slot(&item) {
                self.removed.note(kind, id);
                continue;
            }
            if let Object::Dictionary(inner) = &mut item {
                self.dict(inner);
            }
            kept.push(item);
        }
        *items = kept;
    }

    /// Any other array: only the dictionaries in it are looked into.
    fn items(&mut self, items: &mut [Object]) {
        for item in items {
            match item {
                Object::Dictionary(inner) => self.dict(inner),
                Object::Array(inner) => self.items(inner),
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn scripts_launches_and_aa_go_links_stay() {
        let mut doc = Document::with_version("1.7");
        let js = doc.add_object(
            dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("app.alert(1)") },
        );
        let launch = doc
            .add_object(dictionary! { "S" => "Launch", "F" => Object::string_literal("calc.exe") });
        let uri = doc.add_object(dictionary! { "S" => "URI", "URI" => Object::string_literal("https://example.com"), "Next" => vec![js.into()] });
        let link =
            doc.add_object(dictionary! { "Type" => "Annot", "Subtype" => "Link", "A" => uri });
        let bad_link =
            doc.add_object(dictionary! { "Type" => "Annot", "Subtype" => "Link", "A" => launch });
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Annots" => vec![link.into(), bad_link.into()],
            "AA" => dictionary! { "O" => js },
        });
        let catalog = doc.add_object(dictionary! {
            "Type" => "Catalog", "OpenAction" => js,
            "Names" => dictionary! { "JavaScript" => dictionary! { "Names" => vec![Object::string_literal("a"), js.into()] } },
        });
        doc.trailer.set("Root", catalog);
        let mut changes = Changes::default();
        remove(&mut doc, &mut changes);
        let page = doc.get_dictionary(page).expect("page");
        assert!(!page.has(b"AA"));
        assert!(doc.get_dictionary(link).expect("link").has(b"A"));
        assert!(!doc.get_dictionary(uri).expect("uri").has(b"Next"));
        assert!(!doc.get_dictionary(bad_link).expect("link").has(b"A"));
        let catalog = doc.catalog().expect("catalog");
        assert!(!catalog.has(b"OpenAction"));
        let names = catalog
            .get(b"Names")
            .and_then(Object::as_dict)
            .expect("names");
        assert!(!names.has(b"JavaScript"));
        let said = changes.into_sentences();
        assert_eq!(said[0], "removed JavaScript: 1 script");
        assert!(
            said.iter()
                .any(|s| s == "removed 1 action PDF/A forbids (Launch)"),
            "{said:?}"
        );
    }
}
