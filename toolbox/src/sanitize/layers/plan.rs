//! The changes decided, and making them: new page content, filtered forms, hidden
//! annotations out of /Annots, and the resource entries only hidden content used.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

/// Where a dictionary or array lives: an object, then keys through direct dictionaries.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Target {
    pub(super) id: ObjectId,
    pub(super) path: Vec<Vec<u8>>,
}

impl Target {
    pub(super) fn child(&self, key: &[u8]) -> Target {
        let mut path = self.path.clone();
        path.push(key.to_vec());
        Target { id: self.id, path }
    }
}

#[derive(Default)]
pub(super) struct Plan {
    pub(super) page_contents: Vec<(ObjectId, Vec<u8>)>,
    pub(super) form_contents: Vec<(ObjectId, Vec<u8>)>,
    /// Page /Annots arrays that hold hidden annotations.
    pub(super) annots: Vec<Target>,
    pub(super) hidden_annots: HashSet<ObjectId>,
    /// Per /XObject dictionary of content that was filtered: names drawn outside hidden
    /// content.
    pub(super) xobjects_shown: HashMap<Target, HashSet<Vec<u8>>>,
    /// XObjects drawn in hidden content somewhere, or hidden themselves: their entries go
    /// from the /XObject dictionaries above where no content draws them visibly.
    pub(super) xobjects_gone: HashSet<ObjectId>,
    /// Per /Properties dictionary: names of hidden groups.
    pub(super) properties_hidden: HashMap<Target, HashSet<Vec<u8>>>,
    pub(super) unparsed: u32,
    /// A form without resources of its own draws with its parent's names: then no resource
    /// entry is dropped, as the form's use of them is not followed.
    pub(super) borrowed_resources: bool,
}

impl Plan {
    /// Makes the changes; returns whether anything changed.
    pub(super) fn apply(self, doc: &mut Document) -> bool {
        let mut changed = false;
        for (page, content) in self.page_contents {
            let Ok(id) = crate::io::new_id(doc) else {
                continue;
            };
            doc.objects
                .insert(id, Object::Stream(Stream::new(Dictionary::new(), content)));
            if let Ok(page) = doc.get_dictionary_mut(page) {
                page.set("Contents", id);
                changed = true;
            }
        }
        for (form, content) in self.form_contents {
            if let Ok(Object::Stream(stream)) = doc.get_object_mut(form) {
                stream.set_plain_content(content);
                changed = true;
            }
        }
        for target in &self.annots {
            if let Some(Object::Array(annots)) = target_mut(doc, target) {
                let before = annots.len();
                annots.retain(|annot| {
                    !annot
                        .as_reference()
                        .is_ok_and(|id| self.hidden_annots.contains(&id))
                });
                changed |= annots.len() != before;
            }
        }
        if self.unparsed > 0 || self.borrowed_resources {
            return changed;
        }
        for (target, shown) in &self.xobjects_shown {
            let Some(Object::Dictionary(xobjects)) = target_mut(doc, target) else {
                continue;
            };
            let before = xobjects.len();
            let names: Vec<Vec<u8>> = xobjects
                .iter()
                .filter(|(name, value)| {
                    !shown.contains(*name)
                        && value
                            .as_reference()
                            .is_ok_and(|id| self.xobjects_gone.contains(&id))
                })
                .map(|(name, _)| name.clone())
                .collect();
            for name in names {
                xobjects.remove(&name);
            }
            changed |= xobjects.len() != before;
        }
        for (target, names) in self.properties_hidden {
            changed |= drop_names(doc, &target, &names);
        }
        changed
    }
}

fn drop_names(doc: &mut Document, target: &Target, names: &HashSet<Vec<u8>>) -> bool {
    let Some(Object::Dictionary(dict)) = target_mut(doc, target) else {
        return false;
    };
    let mut dropped = false;
    for name in names {
        dropped |= dict.remove(name).is_some();
    }
    dropped
}

fn target_mut<'d>(doc: &'d mut Document, target: &Target) -> Option<&'d mut Object> {
    let mut object = doc.objects.get_mut(&target.id)?;
    for key in &target.path {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &mut stream.dict,
            _ => return None,
        };
        object = dict.get_mut(key).ok()?;
    }
    Some(object)
}
