//! The output's pages: a source page placed once or again, and blank pages.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::dests::Target;
use crate::forms::Placed;
use crate::source::{Annot, Source};
use crate::{ToolError, io, pages};

/// One occurrence of a source page in the output.
pub struct Placement<'a> {
    pub src: &'a Source,
    pub index: usize,
    pub root: ObjectId,
    pub kept: &'a [bool],
    /// The page's first occurrence keeps the page object (and so everything that points at
    /// it); later ones are new objects sharing its content and resources.
    pub first: bool,
}

impl Placement<'_> {
    pub fn place(&self, out: &mut Document, placed: &mut Placed) -> Result<ObjectId, ToolError> {
        let page = &self.src.pages[self.index];
        let id = if self.first {
            page.id
        } else {
            io::new_id(out)?
        };
        let empty = Dictionary::new();
        let own = self.src.doc.get_dictionary(page.id).unwrap_or(&empty);
        let mut dict = pages::standalone(own, &page.inherited, self.root);
        // Article beads belong to the /Threads no output keeps.
        dict.remove(b"B");
        let annots = if self.first {
            self.annots(placed)
        } else {
            self.annot_copies(id, out, placed)?
        };
        if annots.is_empty() {
            dict.remove(b"Annots");
        } else {
            dict.set("Annots", annots);
        }
        out.objects.insert(id, Object::Dictionary(dict));
        Ok(id)
    }

    /// Whether an annotation stays: all but links to pages left out.
    fn keeps(&self, annot: &Annot) -> bool {
        !(annot.link && matches!(annot.target, Target::Page(page) if !self.kept[page]))
    }

    fn annots(&self, placed: &mut Placed) -> Vec<Object> {
        let annots = self.src.annots[self.index]
            .iter()
            .filter(|annot| self.keeps(annot));
        annots
            .map(|annot| {
                if let Object::Reference(id) = annot.entry {
                    placed.kept.insert(id);
                }
                annot.entry.clone()
            })
            .collect()
    }

    /// A repeated page's annotations, as objects of its own (an annotation belongs to one
    /// page). A widget's copy is recorded in `placed`, to become another widget of its field.
    fn annot_copies(
        &self,
        page: ObjectId,
        out: &mut Document,
        placed: &mut Placed,
    ) -> Result<Vec<Object>, ToolError> {
        let annots: Vec<&Annot> = self.src.annots[self.index]
            .iter()
            .filter(|annot| self.keeps(annot))
            .collect();
        let mut renumbered = HashMap::new();
        for annot in &annots {
            if let Object::Reference(id) = annot.entry {
                renumbered.insert(id, io::new_id(out)?);
            }
        }
        let mut entries = Vec::with_capacity(annots.len());
        for annot in annots {
            let (original, dict) = match &annot.entry {
                Object::Reference(id) => (Some(*id), self.src.doc.get_dictionary(*id)),
                Object::Dictionary(dict) => (None, Ok(dict)),
                _ => continue,
            };
            let Ok(dict) = dict else { continue };
            let mut dict = dict.clone();
            dict.set("P", page);
            // A popup and its markup, or a reply and what it answers, are on the same page:
            // they follow to the copies; anything else they point at is not theirs. A
            // widget's parent is its field, which it keeps.
            let keys: &[&[u8]] = if annot.widget {
                &[b"Popup", b"IRT"]
            } else {
                &[b"Popup", b"Parent", b"IRT"]
            };
            for &key in keys {
                if let Ok(Object::Reference(to)) = dict.get(key) {
                    match renumbered.get(to) {
                        Some(copy) => dict.set(key, *copy),
                        None => {
                            dict.remove(key);
                        }
                    }
                }
            }
            match original.and_then(|id| Some((id, *renumbered.get(&id)?))) {
                Some((original, copy)) => {
                    if annot.widget {
                        placed.copies.entry(original).or_default().push(copy);
                    }
                    out.objects.insert(copy, Object::Dictionary(dict));
                    entries.push(Object::Reference(copy));
                }
                None => entries.push(Object::Dictionary(dict)),
            }
        }
        Ok(entries)
    }
}

/// A blank page the size (media box, crop box, rotation) of the source's page `like`.
pub fn blank(
    src: &Source,
    like: usize,
    root: ObjectId,
    out: &mut Document,
) -> Result<ObjectId, ToolError> {
    let page = &src.pages[like];
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"Page".to_vec()));
    dict.set("Parent", root);
    for key in [b"MediaBox".as_slice(), b"CropBox", b"Rotate"] {
        if let Some(value) = pages::effective(&src.doc, page, key) {
            dict.set(key, value.clone());
        }
    }
    if !dict.has(b"MediaBox") {
        // US Letter, which viewers assume for a page without one.
        dict.set("MediaBox", vec![0.into(), 0.into(), 612.into(), 792.into()]);
    }
    dict.set("Resources", Dictionary::new());
    let id = io::new_id(out)?;
    out.objects.insert(id, Object::Dictionary(dict));
    Ok(id)
}
