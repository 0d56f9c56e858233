//! Actions whose target holds a term go: a link's web address (`mailto:jane@example.com`), a
//! launched or remote file's name, a form's submit address, a script. Wherever the action is
//! used (a link's or bookmark's /A, an /AA trigger, the catalog's /OpenAction, another
//! action's /Next), that use is removed; the link or bookmark stays, leading nowhere, and the
//! save that follows drops the action itself. The document-level scripts (/Names /JavaScript)
//! go whole when one of them holds a term. Local GoTo actions are left to the destinations'
//! renaming, which runs first and keeps them working.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Terms;

/// Nested direct objects deeper than this are not searched (no producer nests so deep).
const MAX_DEPTH: usize = 32;
/// References followed from an action to what it names (a file specification, a script
/// stream, a launch's parameters), at most this many deep.
const MAX_FOLLOW: usize = 8;
/// The largest script stream searched; a larger one is taken to hold a term.
const MAX_SCRIPT: usize = 16 << 20;
/// Keys whose value is an action (or, for /Next, one or an array of them).
const ACTION_KEYS: [&[u8]; 4] = [b"A", b"OpenAction", b"PA", b"Next"];
/// Keys through which an action names what it acts on: followed when they are references.
const TARGET_KEYS: [&[u8]; 8] = [b"F", b"UF", b"JS", b"Win", b"Mac", b"Unix", b"URI", b"P"];

/// Returns how many uses of an action were removed (a script tree counts one).
pub fn remove(doc: &mut Document, terms: &Terms) -> u32 {
    let triggers = trigger_dicts(doc);
    let ids: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, object)| matches!(object, Object::Dictionary(_) | Object::Array(_)))
        .map(|(id, _)| *id)
        .collect();
    let mut removed = 0;
    for id in ids {
        // Taken out while it changes, so the rest of the document can be read meanwhile.
        let Some(mut object) = doc.objects.remove(&id) else {
            continue;
        };
        removed += scrub(&mut object, doc, terms, triggers.contains(&id), 0);
        doc.objects.insert(id, object);
    }
    removed + scripts(doc, terms)
}

/// The dictionaries that are an /AA value held by reference: their every entry is an action.
fn trigger_dicts(doc: &Document) -> HashSet<ObjectId> {
    fn visit(object: &Object, depth: usize, found: &mut HashSet<ObjectId>) {
        if depth > MAX_DEPTH {
            return;
        }
        match object {
            Object::Dictionary(dict) => {
                for (key, value) in dict.iter() {
                    match value {
                        Object::Reference(id) if key == b"AA" => {
                            found.insert(*id);
                        }
                        _ => visit(value, depth + 1, found),
                    }
                }
            }
            Object::Array(items) => items.iter().for_each(|i| visit(i, depth + 1, found)),
            _ => {}
        }
    }
    let mut found = HashSet::new();
    for object in doc.objects.values() {
        visit(object, 0, &mut found);
    }
    found
}

/// Removes from `object` every use of an action that holds a term; `triggers` when each of
/// its entries is an action (an /AA dictionary).
fn scrub(object: &mut Object, doc: &Document, terms: &Terms, triggers: bool, depth: usize) -> u32 {
    if depth > MAX_DEPTH {
        return 0;
    }
    match object {
        Object::Dictionary(dict) => scrub_dict(dict, doc, terms, triggers, depth),
        Object::Array(items) => items
            .iter_mut()
            .map(|item| scrub(item, doc, terms, false, depth + 1))
            .sum(),
        _ => 0,
    }
}

fn scrub_dict(
    dict: &mut Dictionary,
    doc: &Document,
    terms: &Terms,
    triggers: bool,
    depth: usize,
) -> u32 {
    let mut removed = 0;
    let mut gone = Vec::new();
    for (key, value) in dict.iter_mut() {
        let holds_actions = triggers || ACTION_KEYS.contains(&key.as_slice());
        if holds_actions && tainted(value, doc, terms) {
            gone.push(key.clone());
            continue;
        }
        match value {
            // /Next may list several actions: only those that hold a term go.
            Object::Array(items) if key == b"Next" => {
                let before = items.len();
                items.retain(|item| !tainted(item, doc, terms));
                removed += (before - items.len()) as u32;
            }
            Object::Dictionary(_) | Object::Array(_) => {
                removed += scrub(value, doc, terms, key == b"AA", depth + 1);
            }
            _ => {}
        }
    }
    for key in gone {
        dict.remove(&key);
        removed += 1;
    }
    removed
}

/// Whether `value` is an action (held directly or by reference) that holds a term.
fn tainted(value: &Object, doc: &Document, terms: &Terms) -> bool {
    let action = match value {
        Object::Reference(id) => match doc.objects.get(id) {
            Some(Object::Dictionary(dict)) => dict,
            _ => return false,
        },
        Object::Dictionary(dict) => dict,
        _ => return false,
    };
    action.get(b"S").and_then(Object::as_name).is_ok() && action_holds(action, doc, terms, 0)
}

/// Whether an action's own entries, or what it names through [`TARGET_KEYS`], hold a term.
/// The next actions are judged on their own, and a destination array (pages) is not read.
fn action_holds(action: &Dictionary, doc: &Document, terms: &Terms, follow: usize) -> bool {
    let mut seen = HashSet::new();
    action.iter().any(|(key, value)| {
        key != b"Next"
            && !(key == b"D" && matches!(value, Object::Array(_)))
            && holds(key, value, doc, terms, follow, 0, &mut seen)
    })
}

fn holds(
    key: &[u8],
    value: &Object,
    doc: &Document,
    terms: &Terms,
    follow: usize,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match value {
        Object::String(bytes, _) | Object::Name(bytes) => {
            terms.found_in_bytes(bytes) || terms.found_in(&crate::text::decode(bytes))
        }
        Object::Array(items) => items
            .iter()
            .any(|item| holds(key, item, doc, terms, follow, depth + 1, seen)),
        // An embedded file is the attachments' cleaning's to judge, not read here.
        Object::Dictionary(dict) => dict
            .iter()
            .filter(|(k, _)| k.as_slice() != b"EF")
            .any(|(k, v)| holds(k, v, doc, terms, follow, depth + 1, seen)),
        Object::Stream(stream) => stream
            .decompressed_content_with_limit(MAX_SCRIPT)
            .map_or(true, |bytes| terms.found_in_bytes(&bytes)),
        Object::Reference(id) if follow < MAX_FOLLOW && TARGET_KEYS.contains(&key) => {
            seen.insert(*id)
                && doc
                    .objects
                    .get(id)
                    .is_some_and(|target| holds(key, target, doc, terms, follow + 1, 0, seen))
        }
        _ => false,
    }
}

/// Drops the document-level scripts when one of them holds a term: a script's source cannot
/// be cut safely, and a document's scripts are not what a reader of it needs.
fn scripts(doc: &mut Document, terms: &Terms) -> u32 {
    let Some(tree) = crate::names::names_dict(doc).and_then(|n| n.get(b"JavaScript").ok()) else {
        return 0;
    };
    let mut seen = HashSet::new();
    let mut stack = vec![(tree.clone(), 0)];
    let mut hit = false;
    while let Some((node, depth)) = stack.pop() {
        let node = match node {
            Object::Reference(id) if seen.insert(id) => match doc.objects.get(&id) {
                Some(Object::Dictionary(dict)) => dict.clone(),
                _ => continue,
            },
            Object::Dictionary(dict) => dict,
            _ => continue,
        };
        if let Ok(Object::Array(kids)) = node.get(b"Kids")
            && depth < MAX_DEPTH
        {
            stack.extend(kids.iter().map(|kid| (kid.clone(), depth + 1)));
        }
        if let Ok(Object::Array(pairs)) = node.get(b"Names") {
            hit |= pairs.iter().skip(1).step_by(2).any(|value| match value {
                Object::Reference(id) => match doc.objects.get(id) {
                    Some(Object::Dictionary(action)) => action_holds(action, doc, terms, 0),
                    _ => false,
                },
                Object::Dictionary(action) => action_holds(action, doc, terms, 0),
                _ => false,
            });
        }
        if hit {
            break;
        }
    }
    if !hit {
        return 0;
    }
    crate::names::names_dict_mut(doc)
        .map_or(0, |names| u32::from(names.remove(b"JavaScript").is_some()))
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    fn js(doc: &mut Document, source: &str) -> ObjectId {
        doc.add_object(dictionary! {
            "S" => "JavaScript", "JS" => Object::string_literal(source),
        })
    }

    #[test]
    fn actions_holding_a_term_lose_their_uses_and_the_rest_stay() {
        let mut doc = Document::new();
        let page = doc.add_object(dictionary! { "Type" => "Page" });
        let mailto = doc.add_object(dictionary! {
            "S" => "URI", "URI" => Object::string_literal("mailto:Jane.Doe@example.com"),
        });
        let spec = doc.add_object(dictionary! {
            "Type" => "Filespec", "F" => Object::string_literal("Jane Doe CV.pdf"),
        });
        let kept_uri = doc.add_object(dictionary! {
            "S" => "URI", "URI" => Object::string_literal("https://example.com/"),
        });
        let script = js(&mut doc, "app.alert('hello')");
        let chain = doc.add_object(dictionary! {
            "S" => "GoTo", "D" => vec![page.into(), "Fit".into()],
            "Next" => vec![script.into(), mailto.into()],
        });
        let link = doc.add_object(dictionary! { "Subtype" => "Link", "A" => mailto });
        let inline = dictionary! {
            "Subtype" => "Link",
            "A" => dictionary! { "S" => "GoToR", "F" => spec, "D" => vec![0.into(), "Fit".into()] },
        };
        let annots = doc.add_object(vec![link.into(), inline.into(), kept_uri.into()]);
        let triggers = doc.add_object(dictionary! { "O" => mailto, "C" => script });
        let widget = doc.add_object(dictionary! {
            "Subtype" => "Widget", "AA" => triggers, "A" => chain,
        });
        let init = js(&mut doc, "var who = 'JANE DOE';");
        let catalog = doc.add_object(dictionary! {
            "Type" => "Catalog",
            "OpenAction" => dictionary! { "S" => "Launch", "Win" => dictionary! {
                "F" => Object::string_literal("notepad.exe"), "P" => Object::string_literal("jane doe.txt"),
            } },
            "Names" => dictionary! { "JavaScript" => dictionary! {
                "Names" => vec![Object::string_literal("init"), init.into()],
            } },
        });
        doc.trailer.set("Root", catalog);
        let terms = Terms::new(&["jane doe".into(), "jane.doe".into()]);
        // The link's /A, the inline link's /A, one trigger, one /Next, the open action and
        // the script tree.
        assert_eq!(remove(&mut doc, &terms), 6);
        let dict = |id: ObjectId| doc.get_dictionary(id).expect("dict").clone();
        assert!(!dict(link).has(b"A"));
        let Ok(Object::Array(items)) = doc.get_object(annots) else {
            panic!("annots")
        };
        assert!(!items[1].as_dict().expect("inline").has(b"A"));
        assert_eq!(dict(triggers).len(), 1);
        assert_eq!(
            dict(chain).get(b"Next").expect("next"),
            &Object::Array(vec![script.into()])
        );
        assert_eq!(
            dict(widget).get(b"A").expect("a"),
            &Object::Reference(chain)
        );
        let catalog = dict(catalog);
        assert!(!catalog.has(b"OpenAction"));
        assert!(
            !catalog
                .get(b"Names")
                .expect("names")
                .as_dict()
                .expect("dict")
                .has(b"JavaScript")
        );
        assert!(doc.get_object(kept_uri).is_ok());
    }

    #[test]
    fn a_document_without_the_term_is_left_alone() {
        let mut doc = Document::new();
        let uri = doc.add_object(dictionary! {
            "S" => "URI", "URI" => Object::string_literal("https://example.com/"),
        });
        let link = doc.add_object(dictionary! { "Subtype" => "Link", "A" => uri });
        assert_eq!(remove(&mut doc, &Terms::new(&["secret".into()])), 0);
        assert!(doc.get_dictionary(link).expect("link").has(b"A"));
    }
}
