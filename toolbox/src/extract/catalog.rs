//! The output's catalog.

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::dests::Target;
use crate::forms::Placed;
use crate::source::Source;
use crate::{ToolError, forms, names, outline};

/// Catalog entries no output keeps: page labels number the source's pages, the structure tree
/// and article threads hold every page, /Perms and /Legal vouch for the file as it was.
const DROPPED: [&[u8]; 9] = [
    b"Outlines",
    b"Dests",
    b"PageLabels",
    b"Threads",
    b"StructTreeRoot",
    b"MarkInfo",
    b"Perms",
    b"Legal",
    b"AcroForm",
];

/// The output's catalog: the source's, with the new page tree and outline, the named
/// destinations and form fields that still lead to its pages, and without what no output keeps.
pub fn catalog(
    src: &Source,
    root: ObjectId,
    kept: &[bool],
    placed: &Placed,
    out: &mut Document,
) -> Result<Dictionary, ToolError> {
    let leads_in = |target: Target| matches!(target, Target::Page(page) if kept[page]);
    let mut catalog = src.doc.catalog().cloned().unwrap_or_default();
    catalog.set("Type", Object::Name(b"Catalog".to_vec()));
    for key in DROPPED {
        catalog.remove(key);
    }
    catalog.set("Pages", root);
    let items = outline::retain(&src.outline, &|page| kept[page]);
    if let Some(outlines) = outline::write(out, items)? {
        catalog.set("Outlines", outlines);
    }
    let named = |entries: &[(Vec<u8>, Object, Target)]| -> Vec<(Vec<u8>, Object)> {
        entries
            .iter()
            .filter(|(_, _, target)| leads_in(*target))
            .map(|(name, value, _)| (name.clone(), value.clone()))
            .collect()
    };
    let dests = named(&src.dict_dests);
    if !dests.is_empty() {
        catalog.set("Dests", names::dests_dict(dests));
    }
    let mut names_dict = names::names_dict(&src.doc).cloned().unwrap_or_default();
    names_dict.remove(b"Dests");
    let tree = named(&src.tree_dests);
    if !tree.is_empty() {
        names_dict.set("Dests", names::write_tree(out, tree)?);
    }
    if names_dict.is_empty() {
        catalog.remove(b"Names");
    } else {
        catalog.set("Names", names_dict);
    }
    if let Some(form) = forms::retain(&src.doc, out, &src.annot_ids, placed)? {
        catalog.set("AcroForm", form);
    }
    if !matches!(src.open_action, Target::NotAPage) && !leads_in(src.open_action) {
        catalog.remove(b"OpenAction");
    }
    Ok(catalog)
}
