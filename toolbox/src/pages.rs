//! The page tree: walked with what each page inherits from its ancestors, and rebuilt flat.
//!
//! lopdf's own page iterator takes any node without /Type for a page and knows nothing of
//! inherited attributes; a tree rebuilt without them leaves pages with no resources (blank
//! text) or no media box, so the walk here carries them down and the rebuild writes them onto
//! each page.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::ToolError;

/// What a page may inherit from its parent /Pages nodes (ISO 32000-1, 7.7.3.4).
pub const INHERITABLE: [&[u8]; 4] = [b"Resources", b"MediaBox", b"CropBox", b"Rotate"];

/// Deeper than any producer nests pages; beyond it a tree is hostile or broken.
const MAX_DEPTH: usize = 128;

/// Inheritable attributes and their values.
pub type Inherited = Vec<(&'static [u8], Object)>;

/// One page, in document order.
#[derive(Debug, Clone)]
pub struct PageRef {
    pub id: ObjectId,
    /// Values inherited from ancestors for the inheritable attributes the page lacks.
    pub inherited: Inherited,
}

/// The page tree as walked.
pub struct Tree {
    pub pages: Vec<PageRef>,
    /// The catalog's /Pages node.
    pub root: Option<ObjectId>,
    /// Every intermediate node, the root included.
    pub nodes: Vec<ObjectId>,
}

/// Walks the page tree in order. A node seen twice (a cycle, or a page listed twice) is
/// skipped, as is anything that is not a dictionary; a tree with no page is
/// [`ToolError::InvalidFile`].
pub fn walk(doc: &Document) -> Result<Tree, ToolError> {
    let root = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"Pages").ok())
        .and_then(|pages| pages.as_reference().ok());
    let mut tree = Tree {
        pages: Vec::new(),
        root,
        nodes: Vec::new(),
    };
    let mut seen = HashSet::new();
    // Each entry: a node, what it inherits, its depth. Kids are pushed in reverse so that
    // they pop in order.
    let mut stack: Vec<(ObjectId, Inherited, usize)> = Vec::new();
    if let Some(root) = root {
        stack.push((root, Vec::new(), 0));
    }
    while let Some((id, inherited, depth)) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Ok(node) = doc.get_dictionary(id) else {
            continue;
        };
        match kids(doc, node) {
            Some(kids) if depth < MAX_DEPTH => {
                tree.nodes.push(id);
                let passed = pass_down(node, inherited);
                for kid in kids.iter().rev() {
                    if let Ok(kid) = kid.as_reference() {
                        stack.push((kid, passed.clone(), depth + 1));
                    }
                }
            }
            Some(_) => {}
            None => {
                let inherited = inherited
                    .into_iter()
                    .filter(|(key, _)| !node.has(key))
                    .collect();
                tree.pages.push(PageRef { id, inherited });
            }
        }
    }
    if tree.pages.is_empty() {
        return Err(ToolError::InvalidFile("the PDF has no pages".into()));
    }
    Ok(tree)
}

/// The kids of an intermediate node, or `None` for a page. A node is a page when it says so,
/// or when it neither says it is a /Pages node nor has a /Kids array (a page missing its /Type).
fn kids<'a>(doc: &'a Document, node: &'a Dictionary) -> Option<&'a [Object]> {
    if node.has_type(b"Page") {
        return None;
    }
    let kids = node
        .get(b"Kids")
        .ok()
        .and_then(|kids| doc.dereference(kids).ok())
        .and_then(|(_, kids)| kids.as_array().ok());
    match kids {
        Some(kids) => Some(kids),
        None if node.has_type(b"Pages") => Some(&[]),
        None => None,
    }
}

/// What a node's children inherit: its own inheritable attributes over its ancestors'.
fn pass_down(node: &Dictionary, mut inherited: Inherited) -> Inherited {
    for key in INHERITABLE {
        if let Ok(value) = node.get(key) {
            inherited.retain(|(k, _)| *k != key);
            inherited.push((key, value.clone()));
        }
    }
    inherited
}

/// A page dictionary as the rebuilt tree holds it: typed, under `parent`, with its inherited
/// attributes written in.
pub fn standalone(
    page: &Dictionary,
    inherited: &[(&'static [u8], Object)],
    parent: ObjectId,
) -> Dictionary {
    let mut dict = page.clone();
    dict.set("Type", Object::Name(b"Page".to_vec()));
    dict.set("Parent", parent);
    for (key, value) in inherited {
        if !dict.has(key) {
            dict.set(*key, value.clone());
        }
    }
    dict
}

/// The /Pages node of a flat tree over `kids`.
pub fn root_node(kids: Vec<ObjectId>) -> Dictionary {
    let count = kids.len() as i64;
    let mut root = Dictionary::new();
    root.set("Type", Object::Name(b"Pages".to_vec()));
    root.set(
        "Kids",
        kids.into_iter().map(Object::Reference).collect::<Vec<_>>(),
    );
    root.set("Count", count);
    root
}

/// A page attribute as the page sees it: its own value, else the inherited one.
pub fn effective<'a>(doc: &'a Document, page: &'a PageRef, key: &[u8]) -> Option<&'a Object> {
    let own = doc
        .get_dictionary(page.id)
        .ok()
        .and_then(|dict| dict.get(key).ok());
    let value = own.or_else(|| {
        page.inherited
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, value)| value)
    })?;
    doc.dereference(value).ok().map(|(_, object)| object)
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn a_cycle_in_the_page_tree_ends_the_walk() {
        let mut doc = Document::new();
        let root = doc.new_object_id();
        let page = doc.add_object(dictionary! { "Type" => "Page", "Parent" => root });
        let inner = doc.new_object_id();
        // The inner node lists the root again, and the page twice.
        doc.objects.insert(
            inner,
            Object::Dictionary(dictionary! {
                "Type" => "Pages", "Kids" => vec![root.into(), page.into(), page.into()],
            }),
        );
        doc.objects.insert(
            root,
            Object::Dictionary(dictionary! {
                "Type" => "Pages", "Kids" => vec![inner.into()], "Rotate" => 90,
            }),
        );
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
        doc.trailer.set("Root", catalog);
        let tree = walk(&doc).expect("one page");
        assert_eq!(tree.pages.len(), 1);
        assert_eq!(
            tree.pages[0].inherited,
            vec![(b"Rotate".as_slice(), Object::Integer(90))]
        );
    }

    #[test]
    fn a_pages_node_without_kids_is_no_page() {
        let mut doc = Document::new();
        let empty = doc.add_object(dictionary! { "Type" => "Pages" });
        let page = doc.add_object(
            dictionary! { "MediaBox" => vec![0.into(), 0.into(), 10.into(), 10.into()] },
        );
        let root = doc.add_object(dictionary! {
            "Type" => "Pages", "Kids" => vec![empty.into(), page.into()],
        });
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
        doc.trailer.set("Root", catalog);
        let tree = walk(&doc).expect("one page");
        assert_eq!(tree.pages.iter().map(|p| p.id).collect::<Vec<_>>(), [page]);
        assert_eq!(tree.nodes, [root, empty]);
    }

    #[test]
    fn no_pages_is_an_invalid_file() {
        let mut doc = Document::new();
        let root = doc.add_object(dictionary! { "Type" => "Pages", "Kids" => vec![] });
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
        doc.trailer.set("Root", catalog);
        assert!(matches!(walk(&doc), Err(ToolError::InvalidFile(_))));
    }
}
