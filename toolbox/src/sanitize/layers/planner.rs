//! The walk that decides the changes: each page and each form it draws, with the resources
//! it draws with, what its hidden content is, and its content filtered.

use std::collections::{HashMap, HashSet};

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::pages::Tree;

use super::content::filter;
use super::plan::{Plan, Target};
use super::visibility::Visibility;

/// Past this a content stream is not decoded (and counted as not parsed).
const STREAM_LIMIT: usize = 64 << 20;

/// Deeper than any page tree or form nesting a producer writes.
const MAX_DEPTH: usize = 128;

/// What a resources dictionary tells about hidden content.
#[derive(Default)]
pub(super) struct Scope {
    /// /Properties names of hidden groups or membership dictionaries.
    pub(super) hidden_properties: HashSet<Vec<u8>>,
    /// /XObject names of XObjects whose own /OC is hidden.
    pub(super) hidden_xobjects: HashSet<Vec<u8>>,
    pub(super) forms: Vec<ObjectId>,
    /// Every /XObject name's object.
    pub(super) xobject_ids: HashMap<Vec<u8>, ObjectId>,
    pub(super) xobject_dict: Option<Target>,
    pub(super) properties_dict: Option<Target>,
}

impl Scope {
    fn relevant(&self) -> bool {
        !self.hidden_properties.is_empty() || !self.hidden_xobjects.is_empty()
    }
}

/// A resources dictionary, and where it is.
type Resources<'a> = (&'a Dictionary, Target);

pub(super) struct Planner<'a> {
    pub(super) doc: &'a Document,
    pub(super) visibility: Visibility<'a>,
    pub(super) plan: Plan,
    /// Forms to visit, each with the resources it inherits from where it is drawn, and its
    /// depth.
    pub(super) forms: Vec<(ObjectId, Option<Resources<'a>>, usize)>,
    pub(super) forms_seen: HashSet<ObjectId>,
}

impl<'a> Planner<'a> {
    pub(super) fn pages(&mut self, tree: &Tree) {
        let doc = self.doc;
        for page in &tree.pages {
            let Ok(dict) = doc.get_dictionary(page.id) else {
                continue;
            };
            self.annotations(page.id, dict);
            let resources = self.page_resources(page.id);
            let scope = self.scope(resources.clone());
            for form in &scope.forms {
                self.forms.push((*form, resources.clone(), 0));
            }
            if !scope.relevant() {
                continue;
            }
            match page_content(doc, dict) {
                Some(content) => {
                    if let Some(filtered) = self.filter(&content, &scope) {
                        self.plan.page_contents.push((page.id, filtered));
                    }
                }
                None => self.plan.unparsed += 1,
            }
        }
    }

    pub(super) fn forms(&mut self) {
        let doc = self.doc;
        while let Some((id, inherited, depth)) = self.forms.pop() {
            if depth > MAX_DEPTH || !self.forms_seen.insert(id) {
                continue;
            }
            let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
                continue;
            };
            let own = match stream.dict.get(b"Resources") {
                Ok(Object::Reference(rid)) => doc.get_dictionary(*rid).ok().map(|dict| {
                    (
                        dict,
                        Target {
                            id: *rid,
                            path: Vec::new(),
                        },
                    )
                }),
                Ok(Object::Dictionary(dict)) => Some((
                    dict,
                    Target {
                        id,
                        path: vec![b"Resources".to_vec()],
                    },
                )),
                _ => None,
            };
            let resources = match own {
                Some(own) => Some(own),
                None => {
                    self.plan.borrowed_resources = true;
                    inherited
                }
            };
            let scope = self.scope(resources.clone());
            for form in &scope.forms {
                self.forms.push((*form, resources.clone(), depth + 1));
            }
            if !scope.relevant() {
                continue;
            }
            match stream.decompressed_content_with_limit(STREAM_LIMIT) {
                Ok(content) => {
                    if let Some(filtered) = self.filter(&content, &scope) {
                        self.plan.form_contents.push((id, filtered));
                    }
                }
                Err(_) => self.plan.unparsed += 1,
            }
        }
    }

    /// Notes the page's annotations whose /OC is hidden, and where its /Annots array is.
    fn annotations(&mut self, page: ObjectId, dict: &Dictionary) {
        let (target, annots) = match dict.get(b"Annots") {
            Ok(Object::Reference(id)) => (
                Target {
                    id: *id,
                    path: Vec::new(),
                },
                self.doc.get_object(*id).and_then(Object::as_array),
            ),
            Ok(annots @ Object::Array(_)) => (
                Target {
                    id: page,
                    path: vec![b"Annots".to_vec()],
                },
                annots.as_array(),
            ),
            _ => return,
        };
        let Ok(annots) = annots else {
            return;
        };
        let mut any = false;
        for annot in annots {
            let Ok(id) = annot.as_reference() else {
                continue;
            };
            let hidden = self
                .doc
                .get_dictionary(id)
                .ok()
                .and_then(|annot| annot.get(b"OC").ok())
                .is_some_and(|oc| self.visibility.hides(oc));
            if hidden {
                self.plan.hidden_annots.insert(id);
                any = true;
            }
        }
        if any {
            self.plan.annots.push(target);
        }
    }

    /// The page's resources, its own or the nearest ancestor's, and where they are.
    fn page_resources(&self, page: ObjectId) -> Option<Resources<'a>> {
        let doc = self.doc;
        let mut node = page;
        let mut seen = HashSet::new();
        for _ in 0..MAX_DEPTH {
            if !seen.insert(node) {
                return None;
            }
            let dict = doc.get_dictionary(node).ok()?;
            match dict.get(b"Resources") {
                Ok(Object::Reference(id)) => {
                    let resources = doc.get_dictionary(*id).ok()?;
                    return Some((
                        resources,
                        Target {
                            id: *id,
                            path: Vec::new(),
                        },
                    ));
                }
                Ok(Object::Dictionary(resources)) => {
                    return Some((
                        resources,
                        Target {
                            id: node,
                            path: vec![b"Resources".to_vec()],
                        },
                    ));
                }
                _ => node = dict.get(b"Parent").and_then(Object::as_reference).ok()?,
            }
        }
        None
    }

    fn scope(&self, resources: Option<Resources<'a>>) -> Scope {
        let mut scope = Scope::default();
        let Some((resources, target)) = resources else {
            return scope;
        };
        let doc = self.doc;
        let sub = |key: &[u8]| -> Option<Resources<'a>> {
            match resources.get(key).ok()? {
                Object::Reference(id) => Some((
                    doc.get_dictionary(*id).ok()?,
                    Target {
                        id: *id,
                        path: Vec::new(),
                    },
                )),
                Object::Dictionary(dict) => Some((dict, target.child(key))),
                _ => None,
            }
        };
        if let Some((properties, at)) = sub(b"Properties") {
            for (name, value) in properties {
                if self.visibility.hides(value) {
                    scope.hidden_properties.insert(name.clone());
                }
            }
            scope.properties_dict = Some(at);
        }
        if let Some((xobjects, at)) = sub(b"XObject") {
            for (name, value) in xobjects {
                let Ok(id) = value.as_reference() else {
                    continue;
                };
                scope.xobject_ids.insert(name.clone(), id);
                let Ok(xobject) = doc.get_object(id).and_then(Object::as_stream) else {
                    continue;
                };
                if xobject
                    .dict
                    .get(b"OC")
                    .is_ok_and(|oc| self.visibility.hides(oc))
                {
                    scope.hidden_xobjects.insert(name.clone());
                } else if xobject.dict.get(b"Subtype").and_then(Object::as_name).ok()
                    == Some(b"Form")
                {
                    scope.forms.push(id);
                }
            }
            scope.xobject_dict = Some(at);
        }
        scope
    }

    /// The content without what hidden content paints, when that changes it; `None` when
    /// nothing changes or it does not decode (counted).
    fn filter(&mut self, content: &[u8], scope: &Scope) -> Option<Vec<u8>> {
        let Ok(content) = Content::decode_strict(content) else {
            self.plan.unparsed += 1;
            return None;
        };
        let filtered = filter(content.operations, scope);
        if let Some(at) = &scope.xobject_dict {
            self.plan
                .xobjects_shown
                .entry(at.clone())
                .or_default()
                .extend(filtered.shown);
            let gone = filtered.hidden.iter().chain(&scope.hidden_xobjects);
            self.plan
                .xobjects_gone
                .extend(gone.filter_map(|name| scope.xobject_ids.get(name)));
        }
        if let Some(at) = &scope.properties_dict {
            self.plan
                .properties_hidden
                .entry(at.clone())
                .or_default()
                .extend(scope.hidden_properties.iter().cloned());
        }
        if !filtered.changed {
            return None;
        }
        match (Content {
            operations: filtered.operations,
        })
        .encode()
        {
            Ok(bytes) => Some(bytes),
            Err(_) => {
                self.plan.unparsed += 1;
                None
            }
        }
    }
}

/// A page's content streams, decoded and joined; `None` when one does not decode.
fn page_content(doc: &Document, page: &Dictionary) -> Option<Vec<u8>> {
    let contents = page.get(b"Contents").ok()?;
    let ids: Vec<ObjectId> = match doc.dereference(contents).ok()? {
        (Some(id), Object::Stream(_)) => vec![id],
        (_, Object::Array(items)) => items
            .iter()
            .filter_map(|item| item.as_reference().ok())
            .collect(),
        _ => return None,
    };
    let mut content = Vec::new();
    for id in ids {
        let stream = doc.get_object(id).and_then(Object::as_stream).ok()?;
        let left = STREAM_LIMIT.checked_sub(content.len())?;
        content.extend(stream.decompressed_content_with_limit(left).ok()?);
        content.push(b'\n');
    }
    Some(content)
}
