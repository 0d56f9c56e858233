//! Where destinations lead: an outline entry's or a link's /Dest or GoTo action resolved to a
//! page of the document, through named destinations when it names one.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::names;
use crate::pages::PageRef;

/// Where an outline entry, a link or an open action leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A page of this document (its index in document order).
    Page(usize),
    /// Nowhere in this document: no destination, or an action that is not a GoTo (a web
    /// link, another file, a script).
    NotAPage,
    /// A destination that leads to no page: a missing name, an object that is not a page.
    Unresolved,
}

/// Resolves destinations against one document's pages and named destinations.
pub struct Resolver<'a> {
    doc: &'a Document,
    index: HashMap<ObjectId, usize>,
    names: HashMap<Vec<u8>, Target>,
}

impl<'a> Resolver<'a> {
    pub fn new(doc: &'a Document, pages: &[PageRef]) -> Self {
        let index = pages
            .iter()
            .enumerate()
            .map(|(i, page)| (page.id, i))
            .collect();
        let mut resolver = Resolver {
            doc,
            index,
            names: HashMap::new(),
        };
        // Names in the tree and in the old /Dests dictionary share one map: a /Dest written
        // as a name and one written as a string are looked up the same way by viewers.
        let entries = names::tree_entries(doc)
            .into_iter()
            .chain(names::dict_entries(doc));
        let mut named = HashMap::new();
        for (name, value) in entries {
            named
                .entry(name)
                .or_insert_with(|| resolver.named_value(&value));
        }
        resolver.names = named;
        resolver
    }

    /// Where a named destination's value (a destination array, or a dictionary whose /D is
    /// one) leads.
    pub fn named_value(&self, value: &Object) -> Target {
        match self.deref(value) {
            Some(Object::Array(array)) => self.explicit(array),
            Some(Object::Dictionary(dict)) => match dict.get(b"D").ok().and_then(|d| self.deref(d))
            {
                Some(Object::Array(array)) => self.explicit(array),
                _ => Target::Unresolved,
            },
            _ => Target::Unresolved,
        }
    }

    /// Where an outline entry or annotation leads: its /Dest, else its GoTo action.
    pub fn target(&self, holder: &Dictionary) -> Target {
        if let Ok(dest) = holder.get(b"Dest") {
            return self.dest(dest);
        }
        match holder.get(b"A") {
            Ok(action) => self.action(action),
            Err(_) => Target::NotAPage,
        }
    }

    /// Where a catalog's /OpenAction leads: a destination or an action.
    pub fn open_action(&self, value: &Object) -> Target {
        match self.deref(value) {
            Some(Object::Dictionary(_)) => self.action(value),
            Some(_) => self.dest(value),
            None => Target::NotAPage,
        }
    }

    fn action(&self, action: &Object) -> Target {
        let Some(Object::Dictionary(action)) = self.deref(action) else {
            return Target::NotAPage;
        };
        match action.get(b"S").and_then(Object::as_name) {
            Ok(b"GoTo") => action
                .get(b"D")
                .map_or(Target::Unresolved, |d| self.dest(d)),
            _ => Target::NotAPage,
        }
    }

    /// A destination: an explicit array, or a name to look up.
    pub fn dest(&self, dest: &Object) -> Target {
        match self.deref(dest) {
            Some(Object::Array(array)) => self.explicit(array),
            Some(Object::Name(name) | Object::String(name, _)) => {
                self.names.get(name).copied().unwrap_or(Target::Unresolved)
            }
            // A named destination's value written in place of the destination.
            Some(Object::Dictionary(_)) => self.named_value(dest),
            _ => Target::Unresolved,
        }
    }

    /// An explicit destination: its first element is the page, as a reference, or (as some
    /// producers write it, wrongly outside remote GoTo actions) as a 0-based page number.
    fn explicit(&self, array: &[Object]) -> Target {
        match array.first() {
            Some(Object::Reference(id)) => self
                .index
                .get(id)
                .map_or(Target::Unresolved, |&i| Target::Page(i)),
            Some(Object::Integer(n)) => usize::try_from(*n)
                .ok()
                .filter(|&i| i < self.index.len())
                .map_or(Target::Unresolved, Target::Page),
            _ => Target::Unresolved,
        }
    }

    fn deref<'o>(&'o self, object: &'o Object) -> Option<&'o Object> {
        self.doc.dereference(object).ok().map(|(_, object)| object)
    }
}

/// Rewrites the destinations of the pages' annotations that give their page as a number into
/// references, so that they follow the page when pages are renumbered. Only destinations
/// written in the annotation itself are touched (a shared action object is rare and left).
pub fn number_dests_to_refs(doc: &mut Document, pages: &[PageRef]) {
    let ids: Vec<ObjectId> = pages.iter().map(|page| page.id).collect();
    let mut fix = |annot: &mut Dictionary| {
        if let Ok(dest) = annot.get_mut(b"Dest") {
            number_to_ref(dest, &ids);
        }
        if let Ok(Object::Dictionary(action)) = annot.get_mut(b"A")
            && let Ok(dest) = action.get_mut(b"D")
        {
            number_to_ref(dest, &ids);
        }
    };
    let mut seen = std::collections::HashSet::new();
    for page in pages {
        crate::source::for_each_annot_mut(doc, page.id, &mut seen, &mut fix);
    }
}

pub fn number_to_ref(dest: &mut Object, pages: &[ObjectId]) {
    if let Object::Array(array) = dest
        && let Some(first) = array.first_mut()
        && let Object::Integer(n) = *first
        && let Some(&page) = usize::try_from(n).ok().and_then(|i| pages.get(i))
    {
        *first = Object::Reference(page);
    }
}
