//! Merging: every input's objects renumbered after the previous ones' and moved into the
//! first input's document, which keeps its catalog and info.
//!
//! Page objects stay the objects they were, so every explicit destination and GoTo action
//! still leads to its page without being touched; only named destinations need work, as two
//! inputs may use the same name.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::dests::Target;
use crate::outline::{self, Item};
use crate::pages::{self, PageRef};
use crate::source::for_each_annot_mut;
use crate::{ToolError, Written, forms, io, names, refs, text};

/// What the merge takes from each input besides its objects.
#[derive(Default)]
struct Merged {
    pages: Vec<PageRef>,
    /// Per input: its title, its first page and its outline.
    groups: Vec<(String, ObjectId, Vec<Item>)>,
    tree_dests: Vec<(Vec<u8>, Object)>,
    dict_dests: Vec<(Vec<u8>, Object)>,
    names_taken: HashSet<Vec<u8>>,
    fields_taken: HashSet<String>,
    forms: Vec<Dictionary>,
    /// The first input's page tree root, reused as the merged tree's.
    root: Option<ObjectId>,
}

pub fn merge(inputs: &[&Path], titles: &[&str], output: &Path) -> Result<Written, ToolError> {
    if inputs.len() < 2 {
        return Err(ToolError::BadOptions(
            "merging needs at least two PDFs".into(),
        ));
    }
    if titles.len() != inputs.len() {
        return Err(ToolError::BadOptions(format!(
            "merging {} PDFs needs {} titles, not {}",
            inputs.len(),
            inputs.len(),
            titles.len()
        )));
    }
    let mut merged = Merged::default();
    let mut out: Option<Document> = None;
    for (k, path) in inputs.iter().enumerate() {
        let offset = out.as_ref().map_or(0, io::max_number);
        let doc = add(&mut merged, path, offset, k, titles[k]).map_err(|e| which(k, e))?;
        match &mut out {
            None => out = Some(doc),
            Some(out) => {
                out.version = out.version.clone().max(doc.version);
                out.objects.extend(doc.objects);
            }
        }
    }
    let Some(mut out) = out else {
        return Err(ToolError::BadOptions(
            "merging needs at least two PDFs".into(),
        ));
    };
    out.max_id = io::max_number(&out);
    let pages = finish(&mut out, merged)?;
    io::save(&mut out, output)?;
    Ok(Written {
        pages: crate::count(pages),
    })
}

/// Names the input an error is about, counting from 1, when there are several.
fn which(k: usize, err: ToolError) -> ToolError {
    match err {
        ToolError::InvalidFile(message) => {
            ToolError::InvalidFile(format!("file {}: {message}", k + 1))
        }
        other => other,
    }
}

/// Loads input `k`, renumbers it after `offset`, and takes what the merged document needs
/// from it; returns it for its objects.
fn add(
    merged: &mut Merged,
    path: &Path,
    offset: u32,
    k: usize,
    title: &str,
) -> Result<Document, ToolError> {
    let mut doc = io::open(path)?;
    refs::shift(&mut doc, offset)?;
    let tree = pages::walk(&doc)?;
    crate::dests::number_dests_to_refs(&mut doc, &tree.pages);
    let mut outline = outline::read(&doc, &|_| Target::NotAPage);
    let mut tree_dests = names::tree_entries(&doc);
    let mut dict_dests = names::dict_entries(&doc);
    let renames = renames(&tree_dests, &dict_dests, &mut merged.names_taken, k);
    if !renames.is_empty() {
        let mut actions = Vec::new();
        rename_in_outline(&mut outline, &renames, &mut actions);
        let mut seen = HashSet::new();
        for page in &tree.pages {
            for_each_annot_mut(&mut doc, page.id, &mut seen, &mut |annot| {
                rename_in(annot, &renames, &mut actions);
            });
        }
        actions.sort_unstable();
        actions.dedup();
        for id in actions {
            if let Some(Object::Dictionary(action)) = doc.objects.get_mut(&id) {
                rename_in_action(action, &renames);
            }
        }
        for (name, _) in tree_dests.iter_mut().chain(dict_dests.iter_mut()) {
            if let Some(new) = renames.get(name) {
                name.clone_from(new);
            }
        }
    }
    if let Some(form) = forms::acroform(&doc).cloned() {
        forms::rename_fields(&mut doc, &form, &mut merged.fields_taken, k + 1);
        merged.forms.push(form);
    }
    let title = if title.trim().is_empty() {
        format!("Document {}", k + 1)
    } else {
        title.to_string()
    };
    merged.groups.push((title, tree.pages[0].id, outline));
    if k == 0 {
        merged.root = tree.root.filter(|root| tree.nodes.contains(root));
    }
    merged.pages.extend(tree.pages);
    merged.tree_dests.extend(tree_dests);
    merged.dict_dests.extend(dict_dests);
    Ok(doc)
}

/// New names for this input's named destinations that an earlier input took: "name-k" (k the
/// input's number from 1), then "name-k-2", ... whichever no input uses. Adds the input's
/// final names to `taken`.
fn renames(
    tree: &[(Vec<u8>, Object)],
    dict: &[(Vec<u8>, Object)],
    taken: &mut HashSet<Vec<u8>>,
    k: usize,
) -> HashMap<Vec<u8>, Vec<u8>> {
    let own: HashSet<&Vec<u8>> = tree.iter().chain(dict).map(|(name, _)| name).collect();
    let mut renames: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
    for (name, _) in tree.iter().chain(dict) {
        if !taken.contains(name) || renames.contains_key(name) {
            continue;
        }
        let mut n = 1;
        let fresh = loop {
            let mut fresh = name.clone();
            fresh.extend_from_slice(format!("-{}", k + 1).as_bytes());
            if n > 1 {
                fresh.extend_from_slice(format!("-{n}").as_bytes());
            }
            let used = taken.contains(&fresh)
                || own.contains(&fresh)
                || renames.values().any(|other| *other == fresh);
            if !used {
                break fresh;
            }
            n += 1;
        };
        renames.insert(name.clone(), fresh);
    }
    for name in own {
        taken.insert(renames.get(name).unwrap_or(name).clone());
    }
    renames
}

fn rename_in_outline(
    items: &mut [Item],
    renames: &HashMap<Vec<u8>, Vec<u8>>,
    actions: &mut Vec<ObjectId>,
) {
    for item in items {
        rename_in(&mut item.dict, renames, actions);
        rename_in_outline(&mut item.children, renames, actions);
    }
}

/// Renames the destination of an outline entry or annotation; an action that is an object of
/// its own is left in `actions` for the caller.
fn rename_in(
    holder: &mut Dictionary,
    renames: &HashMap<Vec<u8>, Vec<u8>>,
    actions: &mut Vec<ObjectId>,
) {
    if let Ok(dest) = holder.get_mut(b"Dest") {
        rename_name(dest, renames);
    }
    match holder.get_mut(b"A") {
        Ok(Object::Dictionary(action)) => rename_in_action(action, renames),
        Ok(Object::Reference(id)) => actions.push(*id),
        _ => {}
    }
}

fn rename_in_action(action: &mut Dictionary, renames: &HashMap<Vec<u8>, Vec<u8>>) {
    if action
        .get(b"S")
        .and_then(Object::as_name)
        .is_ok_and(|s| s == b"GoTo")
        && let Ok(dest) = action.get_mut(b"D")
    {
        rename_name(dest, renames);
    }
}

fn rename_name(dest: &mut Object, renames: &HashMap<Vec<u8>, Vec<u8>>) {
    if let Object::Name(name) | Object::String(name, _) = dest
        && let Some(new) = renames.get(name)
    {
        name.clone_from(new);
    }
}

/// Builds the merged page tree, outline, named destinations and form into the first input's
/// catalog; returns the page count.
fn finish(out: &mut Document, merged: Merged) -> Result<usize, ToolError> {
    let root = match merged.root {
        Some(root) => root,
        None => io::new_id(out)?,
    };
    let mut kids = Vec::with_capacity(merged.pages.len());
    for page in &merged.pages {
        let Ok(own) = out.get_dictionary(page.id) else {
            continue;
        };
        let dict = pages::standalone(own, &page.inherited, root);
        out.objects.insert(page.id, Object::Dictionary(dict));
        kids.push(page.id);
    }
    let count = kids.len();
    out.objects
        .insert(root, Object::Dictionary(pages::root_node(kids)));
    let items = merged
        .groups
        .into_iter()
        .map(|(title, first, children)| {
            let mut dict = Dictionary::new();
            dict.set("Title", text::encode(&title));
            dict.set(
                "Dest",
                vec![Object::Reference(first), Object::Name(b"Fit".to_vec())],
            );
            Item {
                dict,
                open: true,
                target: Target::NotAPage,
                children,
            }
        })
        .collect();
    let outlines = outline::write(out, items)?;
    let tree = if merged.tree_dests.is_empty() {
        None
    } else {
        Some(names::write_tree(out, merged.tree_dests)?)
    };
    let form = forms::merge(out, merged.forms);
    let mut names_dict = names::names_dict(out).cloned().unwrap_or_default();
    names_dict.remove(b"Dests");
    if let Some(tree) = tree {
        names_dict.set("Dests", tree);
    }
    let catalog_id = out
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|_| ToolError::InvalidFile("file 1: the PDF has no catalog".into()))?;
    let catalog = out
        .get_dictionary_mut(catalog_id)
        .map_err(|_| ToolError::InvalidFile("file 1: the PDF has no catalog".into()))?;
    // Page labels number the first input's pages only; the structure tree and its
    // /StructParents keys would clash with the other inputs' (qpdf keeps neither either).
    for key in [
        b"PageLabels".as_slice(),
        b"StructTreeRoot",
        b"MarkInfo",
        b"Perms",
        b"Legal",
    ] {
        catalog.remove(key);
    }
    catalog.set("Pages", root);
    let entries = [
        (b"Outlines".as_slice(), outlines.map(Object::Reference)),
        (
            b"Dests",
            (!merged.dict_dests.is_empty()).then(|| names::dests_dict(merged.dict_dests).into()),
        ),
        (
            b"Names",
            (!names_dict.is_empty()).then(|| names_dict.into()),
        ),
        (b"AcroForm", form.map(Object::Dictionary)),
    ];
    for (key, value) in entries {
        match value {
            Some(value) => catalog.set(key, value),
            None => {
                catalog.remove(key);
            }
        }
    }
    Ok(count)
}
