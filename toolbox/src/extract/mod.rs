//! A new document from some of a source's pages, in any order, repeated or with blanks in
//! between: what split writes for each part and organize for its one output.
//!
//! The output is built from what it uses rather than by deleting from a copy: the new page
//! tree, catalog, outline and name tree first, then every object they reach, pulled from the
//! source. References to pages left out become null on the way, so nothing (a stray /P, a
//! destination, a bead) can drag a dropped page and its images and fonts into the output.
//! Objects keep their numbers, so nothing pulled needs rewriting; new objects are numbered
//! after the source's.

mod catalog;
mod page;

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

use crate::forms::Placed;
use crate::source::Source;
use crate::{ToolError, io, pages, refs, streams};

/// One page of the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The source's page at this index.
    Page(usize),
    /// A blank page the size of the source's page at this index.
    Blank(usize),
}

/// Builds the document of `slots`. With `take`, objects are moved out of the source rather
/// than copied (for a single output: the source is spent after).
pub fn extract(src: &mut Source, slots: &[Slot], take: bool) -> Result<Document, ToolError> {
    let mut out = Document::new();
    out.version = src.doc.version.clone();
    out.max_id = src.max_number;
    let mut kept = vec![false; src.pages.len()];
    for slot in slots {
        if let Slot::Page(i) = *slot {
            kept[i] = true;
        }
    }
    // The source's root node becomes the new one, so that anything else pointing at it
    // finds the new tree; unless the "tree" is a lone page.
    let root = match src.root {
        Some(root) if src.nodes.contains(&root) => root,
        _ => io::new_id(&mut out)?,
    };
    let mut placed = Placed::default();
    let mut occurred = vec![false; src.pages.len()];
    let mut kids = Vec::with_capacity(slots.len());
    for slot in slots {
        let id = match *slot {
            Slot::Page(i) => {
                let first = !occurred[i];
                occurred[i] = true;
                let copy = page::Placement {
                    src,
                    index: i,
                    root,
                    kept: &kept,
                    first,
                };
                copy.place(&mut out, &mut placed)?
            }
            Slot::Blank(i) => page::blank(src, i, root, &mut out)?,
        };
        kids.push(id);
    }
    out.objects
        .insert(root, Object::Dictionary(pages::root_node(kids)));
    let catalog = catalog::catalog(src, root, &kept, &placed, &mut out)?;
    let catalog_id = src
        .doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|_| ToolError::InvalidFile("the PDF has no catalog".into()))?;
    out.objects.insert(catalog_id, Object::Dictionary(catalog));
    out.trailer.set("Root", catalog_id);
    for key in [b"Info".as_slice(), b"ID"] {
        if let Ok(value) = src.doc.trailer.get(key) {
            out.trailer.set(key, value.clone());
        }
    }
    // Pages left out, and the source's intermediate nodes (which list them), become null.
    let mut nulled: HashSet<ObjectId> =
        src.nodes.iter().copied().filter(|&id| id != root).collect();
    nulled.extend(
        src.pages
            .iter()
            .zip(&kept)
            .filter(|(_, kept)| !**kept)
            .map(|(page, _)| page.id),
    );
    pull(&mut out, &mut src.doc, &nulled, take);
    out.max_id = out.max_id.max(io::max_number(&out));
    Ok(out)
}

/// Adds to `out` every source object its objects reach, transitively: copied, or moved with
/// `take`. References to objects in `nulled`, or to objects the source lacks, become null.
fn pull(out: &mut Document, src: &mut Document, nulled: &HashSet<ObjectId>, take: bool) {
    let mut known: HashSet<ObjectId> = out.objects.keys().copied().collect();
    let mut queue: Vec<ObjectId> = known.iter().copied().collect();
    let mut found = Vec::new();
    let visit = |object: &mut Object,
                 src: &Document,
                 known: &mut HashSet<ObjectId>,
                 found: &mut Vec<ObjectId>| {
        let Object::Reference(id) = object else {
            return;
        };
        if nulled.contains(id) || !(known.contains(id) || src.objects.contains_key(id)) {
            *object = Object::Null;
        } else if known.insert(*id) {
            found.push(*id);
        }
    };
    refs::for_each_ref_in(&mut out.trailer, &mut |object| {
        visit(object, src, &mut known, &mut found)
    });
    loop {
        for id in found.drain(..) {
            // Plain streams are compressed in the source, once for all the parts that share
            // them (a font every page uses).
            let object = if take {
                src.objects.remove(&id).map(|mut object| {
                    streams::compress(&mut object);
                    object
                })
            } else {
                src.objects.get_mut(&id).map(|object| {
                    streams::compress(object);
                    object.clone()
                })
            };
            if let Some(object) = object {
                out.objects.insert(id, object);
                queue.push(id);
            }
        }
        let Some(id) = queue.pop() else { break };
        let Some(object) = out.objects.get_mut(&id) else {
            continue;
        };
        refs::for_each_ref(object, &mut |object| {
            visit(object, src, &mut known, &mut found)
        });
    }
}
