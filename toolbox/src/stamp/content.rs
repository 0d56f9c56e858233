//! Adding a mark to a page: its resources under names the page does not use, and its content
//! stream before or after the page's own, which is wrapped in `q ... Q` so that a graphics
//! state it leaves unbalanced cannot move the mark. The page's streams are never decoded.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use crate::pages::{self, PageRef, Tree};
use crate::{ToolError, io};

/// What every stamped page shares: the streams that wrap its content, and the resource
/// dictionaries already extended, by the dictionary they extend.
pub struct Stamper {
    save: Option<ObjectId>,
    restore: Option<ObjectId>,
    /// A shared /Resources object -> its extended copy and the names given in it.
    extended: HashMap<ObjectId, (ObjectId, Vec<Vec<u8>>)>,
}

/// A resource to add: its category (/Font, /XObject, /ExtGState), the name wanted and the
/// object.
pub struct Resource {
    pub category: &'static [u8],
    pub name: &'static str,
    pub object: ObjectId,
}

impl Stamper {
    pub fn new() -> Stamper {
        Stamper {
            save: None,
            restore: None,
            extended: HashMap::new(),
        }
    }

    /// Adds `resources` to the page and returns the names they got, in order. The page's
    /// resources are not changed in place (other pages or forms may share them): a page whose
    /// /Resources is a shared object gets one extended copy shared with the pages that share
    /// it; inline or inherited inline resources become the page's own extended dictionary.
    pub fn add_resources(
        &mut self,
        doc: &mut Document,
        page: &PageRef,
        resources: &[Resource],
    ) -> Vec<Vec<u8>> {
        let current = doc
            .get_dictionary(page.id)
            .ok()
            .and_then(|dict| dict.get(b"Resources").ok())
            .or_else(|| {
                page.inherited
                    .iter()
                    .find(|(key, _)| *key == b"Resources")
                    .map(|(_, value)| value)
            })
            .cloned();
        let shared = match current {
            Some(Object::Reference(id)) => Some(id),
            _ => None,
        };
        if let Some((copy, names)) = shared.and_then(|id| self.extended.get(&id)) {
            let (copy, names) = (*copy, names.clone());
            set(doc, page.id, b"Resources", Object::Reference(copy));
            return names;
        }
        let mut dict = pages::effective(doc, page, b"Resources")
            .and_then(|object| object.as_dict().ok())
            .cloned()
            .unwrap_or_default();
        let names = resources
            .iter()
            .map(|resource| extend(doc, &mut dict, resource))
            .collect::<Vec<_>>();
        let value = match shared {
            Some(id) => {
                let copy = doc.add_object(dict);
                self.extended.insert(id, (copy, names.clone()));
                Object::Reference(copy)
            }
            None => Object::Dictionary(dict),
        };
        set(doc, page.id, b"Resources", value);
        names
    }

    /// Puts `content` (a balanced `q ... Q` stream) under or over the page's content.
    pub fn add_content(
        &mut self,
        doc: &mut Document,
        page: ObjectId,
        content: String,
        behind: bool,
    ) {
        let mark = doc.add_object(Stream::new(Dictionary::new(), content.into_bytes()));
        let existing = contents(doc, page);
        let mut all = Vec::with_capacity(existing.len() + 3);
        if behind {
            all.push(Object::Reference(mark));
            all.extend(existing);
        } else if !existing.is_empty() {
            // The line breaks keep tokens apart in readers that join the streams as they are.
            let save = *self.save.get_or_insert_with(|| {
                doc.add_object(Stream::new(Dictionary::new(), b"q\n".to_vec()))
            });
            let restore = *self.restore.get_or_insert_with(|| {
                doc.add_object(Stream::new(Dictionary::new(), b"\nQ\n".to_vec()))
            });
            all.push(Object::Reference(save));
            all.extend(existing);
            all.push(Object::Reference(restore));
            all.push(Object::Reference(mark));
        } else {
            all.push(Object::Reference(mark));
        }
        set(doc, page, b"Contents", Object::Array(all));
    }
}

/// Rebuilds the page tree flat, as every tool writes it: each page under the root with what
/// it inherited written onto it, so that its resources and boxes are its own, and a tree that
/// readers choke on (a wrong /Count, a cycle) is replaced by a sound one. The root node keeps
/// its object number when it is one.
pub fn flatten(doc: &mut Document, tree: &mut Tree) -> Result<(), ToolError> {
    let root = match tree.root {
        Some(root) if tree.nodes.contains(&root) => root,
        _ => io::new_id(doc)?,
    };
    let mut kids = Vec::with_capacity(tree.pages.len());
    for page in &mut tree.pages {
        let Ok(own) = doc.get_dictionary(page.id) else {
            continue;
        };
        let dict = pages::standalone(own, &page.inherited, root);
        doc.objects.insert(page.id, Object::Dictionary(dict));
        page.inherited.clear();
        kids.push(page.id);
    }
    doc.objects
        .insert(root, Object::Dictionary(pages::root_node(kids)));
    tree.root = Some(root);
    tree.nodes = vec![root];
    if let Ok(catalog) = doc.catalog_mut() {
        catalog.set("Pages", root);
    }
    Ok(())
}

fn set(doc: &mut Document, page: ObjectId, key: &[u8], value: Object) {
    if let Ok(dict) = doc.get_dictionary_mut(page) {
        dict.set(key, value);
    }
}

/// Adds `resource` to its category of `resources` under a name the category does not use yet,
/// and returns the name. The category's dictionary, which may be shared, is copied first.
fn extend(doc: &Document, resources: &mut Dictionary, resource: &Resource) -> Vec<u8> {
    let mut category = resources
        .get(resource.category)
        .ok()
        .and_then(|object| doc.dereference(object).ok())
        .and_then(|(_, object)| object.as_dict().ok())
        .cloned()
        .unwrap_or_default();
    let base = resource.name.as_bytes().to_vec();
    let name = (1..)
        .map(|n: u32| match n {
            1 => base.clone(),
            n => [base.as_slice(), n.to_string().as_bytes()].concat(),
        })
        .find(|name| !category.has(name))
        .unwrap_or(base);
    category.set(name.clone(), Object::Reference(resource.object));
    resources.set(resource.category, Object::Dictionary(category));
    name
}

/// The page's content streams, in order: /Contents as one reference or an array (maybe
/// itself an indirect object); nothing for a page without content.
fn contents(doc: &Document, page: ObjectId) -> Vec<Object> {
    let Some(value) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|dict| dict.get(b"Contents").ok())
    else {
        return Vec::new();
    };
    match value {
        Object::Reference(id) => match doc.get_object(*id) {
            Ok(Object::Array(items)) => references(items),
            _ => vec![value.clone()],
        },
        Object::Array(items) => references(items),
        _ => Vec::new(),
    }
}

fn references(items: &[Object]) -> Vec<Object> {
    items
        .iter()
        .filter(|item| matches!(item, Object::Reference(_)))
        .cloned()
        .collect()
}

/// A name as an operand: the `/` and its characters, `#`-escaped where needed.
pub fn name(name: &[u8]) -> String {
    let mut out = String::from("/");
    for &byte in name {
        if byte.is_ascii_alphanumeric() {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("#{byte:02X}"));
        }
    }
    out
}
