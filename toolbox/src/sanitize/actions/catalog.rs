//! The catalog's entries that go by name rather than by what they are.

use std::collections::HashSet;

use lopdf::{Document, Object};

use super::Kind;
use super::sweep::Walker;

/// Deeper than a name tree is ever built.
const MAX_TREE_DEPTH: usize = 32;

impl Walker<'_> {
    /// The catalog's entries that go by name: the JavaScript and embedded files name trees
    /// (their entries counted), the XFA forms and the rendering they need, the portfolio and
    /// the base URI of relative links.
    pub(super) fn catalog_entries(&mut self, doc: &mut Document) {
        let options = self.options;
        let names = doc
            .catalog()
            .ok()
            .and_then(|catalog| catalog.get(b"Names").ok())
            .cloned();
        if options.javascript
            && let Some(tree) = names
                .as_ref()
                .and_then(|names| doc.dereference(names).ok())
                .and_then(|(_, names)| names.as_dict().ok())
                .and_then(|names| names.get(b"JavaScript").ok())
        {
            for value in tree_values(doc, tree) {
                self.note(Kind::Script, &value);
            }
        }
        let mut drop_from_names = Vec::new();
        if options.javascript {
            drop_from_names.push(b"JavaScript".as_slice());
        }
        if options.embedded_files {
            drop_from_names.push(b"EmbeddedFiles");
        }
        match names {
            Some(Object::Reference(id)) => {
                if let Ok(names) = doc.get_dictionary_mut(id) {
                    drop_from_names.iter().for_each(|key| {
                        names.remove(key);
                    });
                }
            }
            Some(Object::Dictionary(_)) => {
                if let Ok(Object::Dictionary(names)) = doc
                    .catalog_mut()
                    .and_then(|catalog| catalog.get_mut(b"Names"))
                {
                    drop_from_names.iter().for_each(|key| {
                        names.remove(key);
                    });
                }
            }
            _ => {}
        }
        if options.javascript {
            let form = doc
                .catalog()
                .ok()
                .and_then(|catalog| catalog.get(b"AcroForm").ok())
                .cloned();
            let had_xfa = match form {
                Some(Object::Reference(id)) => doc
                    .get_dictionary_mut(id)
                    .ok()
                    .and_then(|form| form.remove(b"XFA")),
                Some(Object::Dictionary(_)) => doc
                    .catalog_mut()
                    .ok()
                    .and_then(|catalog| catalog.get_mut(b"AcroForm").ok())
                    .and_then(|form| form.as_dict_mut().ok())
                    .and_then(|form| form.remove(b"XFA")),
                _ => None,
            };
            if had_xfa.is_some() {
                *self.direct.entry(Kind::Script).or_default() += 1;
            }
        }
        if let Ok(catalog) = doc.catalog_mut() {
            if options.javascript {
                catalog.remove(b"NeedsRendering");
            }
            if options.embedded_files {
                catalog.remove(b"Collection");
            }
            if options.links {
                catalog.remove(b"URI");
            }
        }
    }
}

/// The values of a name tree, cycle-guarded.
fn tree_values(doc: &Document, root: &Object) -> Vec<Object> {
    let mut values = Vec::new();
    let mut seen = HashSet::new();
    let mut todo = vec![(root.clone(), 0)];
    while let Some((node, depth)) = todo.pop() {
        if let Object::Reference(id) = node
            && !seen.insert(id)
        {
            continue;
        }
        let Some(node) = doc
            .dereference(&node)
            .ok()
            .and_then(|(_, node)| node.as_dict().ok())
        else {
            continue;
        };
        let array = |key: &[u8]| {
            node.get(key)
                .ok()
                .and_then(|value| doc.dereference(value).ok())
                .and_then(|(_, value)| value.as_array().ok())
        };
        if let Some(pairs) = array(b"Names") {
            values.extend(pairs.chunks_exact(2).map(|pair| pair[1].clone()));
        }
        if depth < MAX_TREE_DEPTH
            && let Some(kids) = array(b"Kids")
        {
            todo.extend(kids.iter().map(|kid| (kid.clone(), depth + 1)));
        }
    }
    values
}
