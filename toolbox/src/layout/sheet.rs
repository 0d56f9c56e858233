//! What fitting and n-up share: the document opened with its destinations made references,
//! the operators that draw a page's form, and the output's page tree, catalog and
//! destinations finished.

use std::collections::HashMap;
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::dests::{self, Placed};
use crate::geometry::{self, Matrix};
use crate::pages::{self, Tree};
use crate::{ToolError, Written, io};

/// The input, its pages, and the id the output's page tree root takes: the input's root node
/// (so that anything pointing at it finds the new tree), or a new one.
pub fn open(input: &Path) -> Result<(Document, Tree, ObjectId), ToolError> {
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    // A destination giving its page as a number would miss the rewrite to sheets.
    crate::dests::number_dests_to_refs(&mut doc, &tree.pages);
    let root = match tree.root {
        Some(root) if tree.nodes.contains(&root) => root,
        _ => io::new_id(&mut doc)?,
    };
    Ok((doc, tree, root))
}

/// A sheet's content: each form drawn by its name through its matrix.
pub fn contents(doc: &mut Document, forms: &[(String, Matrix)]) -> ObjectId {
    let mut text = String::new();
    for (name, m) in forms {
        text.push_str(&format!("q {} /{name} Do Q\n", geometry::cm(*m)));
    }
    doc.add_object(Stream::new(Dictionary::new(), text.into_bytes()))
}

/// A sheet's resources: the forms it draws.
pub fn resources(forms: &[(String, ObjectId)]) -> Dictionary {
    let mut xobjects = Dictionary::new();
    for (name, form) in forms {
        xobjects.set(name.as_bytes(), Object::Reference(*form));
    }
    let mut resources = Dictionary::new();
    resources.set("XObject", xobjects);
    resources
}

/// Writes the tree of `kids` at `root`, drops the catalog's `dropped` entries, points every
/// destination at the sheets and saves.
pub fn finish(
    doc: &mut Document,
    root: ObjectId,
    kids: Vec<ObjectId>,
    placed: &HashMap<ObjectId, Placed>,
    dropped: &[&[u8]],
    output: &Path,
) -> Result<Written, ToolError> {
    let count = crate::count(kids.len());
    doc.objects
        .insert(root, Object::Dictionary(pages::root_node(kids)));
    if let Ok(catalog) = doc.catalog_mut() {
        catalog.set("Pages", root);
        for key in dropped {
            catalog.remove(key);
        }
    }
    dests::rewrite(doc, placed);
    io::save(doc, output)?;
    Ok(Written { pages: count })
}
