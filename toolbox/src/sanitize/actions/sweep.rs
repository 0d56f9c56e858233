//! The sweep: every dictionary and array of the document drops its references to what was
//! condemned, and the keys and names of what goes.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Object, ObjectId};

use super::classify::verdict;
use super::{Kind, Options};

/// Keys that name what goes, in whatever dictionary they are left.
fn forbidden_key(options: Options, key: &[u8]) -> bool {
    (options.javascript && matches!(key, b"JS" | b"JavaScript" | b"XFA"))
        || (options.embedded_files
            && matches!(
                key,
                b"EF" | b"RF" | b"AF" | b"EmbeddedFiles" | b"EmbeddedFile"
            ))
        || (options.links && matches!(key, b"URI" | b"Launch"))
}

/// Name values that name what goes (an action type, a stream type).
fn forbidden_name(options: Options, object: &Object) -> bool {
    let Object::Name(name) = object else {
        return false;
    };
    (options.javascript && name == b"JavaScript")
        || (options.embedded_files && matches!(name.as_slice(), b"EmbeddedFile" | b"EmbeddedFiles"))
        || (options.links && matches!(name.as_slice(), b"URI" | b"Launch"))
}

pub(super) struct Walker<'a> {
    pub(super) options: Options,
    pub(super) condemned: &'a HashMap<ObjectId, Kind>,
    /// Indirect objects whose references were removed, by kind.
    pub(super) removed: HashMap<Kind, HashSet<ObjectId>>,
    /// Direct dictionaries removed, by kind.
    pub(super) direct: HashMap<Kind, u32>,
    pub(super) attachments: HashSet<ObjectId>,
    pub(super) direct_attachments: u32,
}

impl Walker<'_> {
    /// The verdict on a value: a reference to a condemned object, or a direct dictionary that
    /// would be condemned.
    fn verdict(&self, value: &Object) -> Option<Kind> {
        match value {
            Object::Reference(id) => self.condemned.get(id).copied(),
            Object::Dictionary(dict) => verdict(dict, false, self.condemned, self.options),
            _ => None,
        }
    }

    pub(super) fn note(&mut self, kind: Kind, value: &Object) {
        let attachment = match value {
            Object::Dictionary(dict) => {
                dict.get(b"Subtype").ok() == Some(&Object::Name(b"FileAttachment".to_vec()))
            }
            _ => false,
        };
        match value {
            Object::Reference(id) => {
                self.removed.entry(kind).or_default().insert(*id);
                if kind == Kind::Embedded {
                    self.attachments.insert(*id);
                }
            }
            _ => {
                *self.direct.entry(kind).or_default() += 1;
                if attachment {
                    self.direct_attachments += 1;
                }
            }
        }
    }

    pub(super) fn dict(&mut self, dict: &mut Dictionary) {
        let keys: Vec<Vec<u8>> = dict.iter().map(|(key, _)| key.clone()).collect();
        for key in keys {
            if forbidden_key(self.options, &key) {
                dict.remove(&key);
                continue;
            }
            let Ok(value) = dict.get_mut(&key) else {
                continue;
            };
            if forbidden_name(self.options, value) {
                dict.remove(&key);
                continue;
            }
            if let Some(kind) = self.verdict(value) {
                let value = value.clone();
                self.note(kind, &value);
                dict.remove(&key);
                continue;
            }
            self.value(value, &key);
            let emptied = match value {
                Object::Dictionary(inner) => {
                    (key == b"AA" && inner.is_empty()) || lost_object(inner)
                }
                Object::Array(items) => key == b"Next" && items.is_empty(),
                _ => false,
            };
            if emptied {
                dict.remove(&key);
            }
        }
    }

    fn value(&mut self, value: &mut Object, key: &[u8]) {
        match value {
            Object::Dictionary(dict) => self.dict(dict),
            Object::Stream(stream) => self.dict(&mut stream.dict),
            Object::Array(items) => self.array(items, key),
            _ => {}
        }
    }

    /// Drops the condemned items of an array; in a name or number tree's /Names or /Nums (or
    /// an indirect array of key and value pairs), the key before a condemned value goes with
    /// it.
    pub(super) fn array(&mut self, items: &mut Vec<Object>, key: &[u8]) {
        let paired = items.len().is_multiple_of(2)
            && match key {
                b"Names" | b"Nums" => true,
                b"" => {
                    !items.is_empty()
                        && items
                            .iter()
                            .step_by(2)
                            .all(|key| matches!(key, Object::String(..) | Object::Integer(_)))
                }
                _ => false,
            };
        let step = if paired { 2 } else { 1 };
        let old = std::mem::take(items);
        let mut chunks = old.chunks_exact(step);
        for chunk in chunks.by_ref() {
            let last = &chunk[step - 1];
            if let Some(kind) = self.verdict(last) {
                self.note(kind, last);
                continue;
            }
            if !paired && forbidden_name(self.options, last) {
                continue;
            }
            let mut chunk = chunk.to_vec();
            if let Some(last) = chunk.last_mut() {
                self.value(last, key);
                if let Object::Dictionary(dict) = last
                    && lost_object(dict)
                {
                    continue;
                }
            }
            items.extend(chunk);
        }
        items.extend_from_slice(chunks.remainder());
    }
}

/// A structure tree's object reference whose object was removed.
fn lost_object(dict: &Dictionary) -> bool {
    dict.has_type(b"OBJR") && !dict.has(b"Obj")
}

#[cfg(test)]
mod tests {
    use lopdf::{Document, dictionary};

    use super::super::classify::condemn;
    use super::*;

    const ALL: Options = Options {
        javascript: true,
        embedded_files: true,
        links: true,
    };

    #[test]
    fn next_chains_and_tree_pairs_lose_only_what_goes() {
        let mut doc = Document::with_version("1.7");
        let js = doc
            .add_object(dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("x") });
        let mut action = Object::Dictionary(dictionary! {
            "S" => "GoTo", "D" => vec![Object::Integer(0)],
            "Next" => vec![js.into(), dictionary! { "S" => "URI", "URI" => Object::string_literal("u") }.into()],
        });
        let mut tree = Object::Dictionary(dictionary! {
            "Names" => vec![Object::string_literal("a"), js.into(), Object::string_literal("b"), Object::Integer(1)],
        });
        let condemned = condemn(&doc, ALL);
        let mut walker = Walker {
            options: ALL,
            condemned: &condemned,
            removed: HashMap::new(),
            direct: HashMap::new(),
            attachments: HashSet::new(),
            direct_attachments: 0,
        };
        walker.value(&mut action, b"A");
        walker.value(&mut tree, b"Dests");
        let action = action.as_dict().expect("dict");
        assert!(!action.has(b"Next"));
        assert_eq!(action.get(b"S").ok(), Some(&Object::Name(b"GoTo".to_vec())));
        assert_eq!(
            tree.as_dict().and_then(|t| t.get(b"Names")).ok(),
            Some(&Object::Array(vec![
                Object::string_literal("b"),
                Object::Integer(1)
            ]))
        );
        assert_eq!(walker.removed.get(&Kind::Script).map(HashSet::len), Some(1));
        assert_eq!(walker.direct.get(&Kind::Link), Some(&1));
    }
}
