//! A document opened for taking pages out of it (split, organize): its pages, and everything
//! that points at pages resolved once, so that each part only has to filter.

use std::collections::HashSet;
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::ToolError;
use crate::dests::{Resolver, Target};
use crate::outline::{self, Item};
use crate::pages::{self, PageRef};
use crate::{io, names};

/// One entry of a page's /Annots.
#[derive(Debug, Clone)]
pub struct Annot {
    /// As the array holds it: a reference, or the dictionary itself.
    pub entry: Object,
    pub target: Target,
    pub link: bool,
    pub widget: bool,
}

pub struct Source {
    pub doc: Document,
    pub pages: Vec<PageRef>,
    pub root: Option<ObjectId>,
    /// Intermediate page tree nodes, the root included.
    pub nodes: Vec<ObjectId>,
    pub outline: Vec<Item>,
    /// Each page's annotations.
    pub annots: Vec<Vec<Annot>>,
    /// Every annotation object on a page: a form field that is one of them is a widget.
    pub annot_ids: HashSet<ObjectId>,
    /// Named destinations of the name tree and of the /Dests dictionary, with where they lead.
    pub tree_dests: Vec<(Vec<u8>, Object, Target)>,
    pub dict_dests: Vec<(Vec<u8>, Object, Target)>,
    pub open_action: Target,
    /// The highest object number: objects made for an output are numbered after it.
    pub max_number: u32,
}

impl Source {
    pub fn open(path: &Path) -> Result<Source, ToolError> {
        let mut doc = io::open(path)?;
        let tree = pages::walk(&doc)?;
        crate::dests::number_dests_to_refs(&mut doc, &tree.pages);
        let resolver = Resolver::new(&doc, &tree.pages);
        let outline = outline::read(&doc, &|dict| resolver.target(dict));
        let mut annot_ids = HashSet::new();
        let annots = tree
            .pages
            .iter()
            .map(|page| page_annots(&doc, page.id, &resolver, &mut annot_ids))
            .collect();
        let resolve = |entries: Vec<(Vec<u8>, Object)>| {
            entries
                .into_iter()
                .map(|(name, value)| {
                    let target = resolver.named_value(&value);
                    (name, value, target)
                })
                .collect()
        };
        let tree_dests = resolve(names::tree_entries(&doc));
        let dict_dests = resolve(names::dict_entries(&doc));
        let open_action = doc
            .catalog()
            .ok()
            .and_then(|catalog| catalog.get(b"OpenAction").ok())
            .map_or(Target::NotAPage, |action| resolver.open_action(action));
        let max_number = io::max_number(&doc);
        Ok(Source {
            doc,
            pages: tree.pages,
            root: tree.root,
            nodes: tree.nodes,
            outline,
            annots,
            annot_ids,
            tree_dests,
            dict_dests,
            open_action,
            max_number,
        })
    }
}

/// The entries of a page's /Annots with where each leads; entries that are neither a
/// dictionary nor a reference to one are left out.
fn page_annots(
    doc: &Document,
    page: ObjectId,
    resolver: &Resolver,
    ids: &mut HashSet<ObjectId>,
) -> Vec<Annot> {
    let Some(entries) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|page| page.get(b"Annots").ok())
        .and_then(|annots| doc.dereference(annots).ok())
        .and_then(|(_, annots)| annots.as_array().ok())
    else {
        return Vec::new();
    };
    let mut annots = Vec::with_capacity(entries.len());
    for entry in entries {
        let dict = match entry {
            Object::Reference(id) => match doc.get_dictionary(*id) {
                Ok(dict) => {
                    ids.insert(*id);
                    dict
                }
                Err(_) => continue,
            },
            Object::Dictionary(dict) => dict,
            _ => continue,
        };
        let subtype = dict.get(b"Subtype").and_then(Object::as_name).ok();
        annots.push(Annot {
            entry: entry.clone(),
            target: resolver.target(dict),
            link: subtype == Some(b"Link"),
            widget: subtype == Some(b"Widget"),
        });
    }
    annots
}

/// Calls `f` on each annotation dictionary of a page, wherever it is stored: its own object,
/// written in the /Annots array, and that array in the page or an object of its own. An
/// annotation object in `seen` is skipped, and added there once done, so that one listed on
/// two pages is changed once.
pub fn for_each_annot_mut(
    doc: &mut Document,
    page: ObjectId,
    seen: &mut HashSet<ObjectId>,
    f: &mut impl FnMut(&mut Dictionary),
) {
    let annots = match doc
        .get_dictionary(page)
        .ok()
        .and_then(|page| page.get(b"Annots").ok())
    {
        Some(Object::Reference(id)) => Some(*id),
        Some(Object::Array(_)) => None,
        _ => return,
    };
    let mut referenced = Vec::new();
    let array = match annots {
        Some(id) => doc
            .objects
            .get_mut(&id)
            .and_then(|array| array.as_array_mut().ok()),
        None => doc
            .objects
            .get_mut(&page)
            .and_then(|page| page.as_dict_mut().ok())
            .and_then(|page| page.get_mut(b"Annots").ok())
            .and_then(|annots| annots.as_array_mut().ok()),
    };
    for entry in array.into_iter().flatten() {
        match entry {
            Object::Dictionary(dict) => f(dict),
            Object::Reference(id) => referenced.push(*id),
            _ => {}
        }
    }
    for id in referenced {
        if !seen.insert(id) {
            continue;
        }
        if let Some(Object::Dictionary(dict)) = doc.objects.get_mut(&id) {
            f(dict);
        }
    }
}
