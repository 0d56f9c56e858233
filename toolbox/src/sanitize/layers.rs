//! Hidden layers: optional content groups that are off in the default configuration, and
//! what is drawn in them.
//!
//! A page shows what it draws in a hidden group only when the user turns the layer on, so the
//! content is still in the file for anyone to find. Here it goes: marked-content sections
//! `/OC /name BDC ... EMC` whose group (or membership dictionary) is hidden lose what they
//! paint (text, paths, images, shadings, XObjects) but keep what they change in the graphics
//! state, as a reader does with hidden content (ISO 32000-1, 8.11.3.3), so what follows is
//! drawn exactly as before; XObjects and annotations whose own /OC is hidden go; resource
//! entries that only hidden content used go; and the groups leave /OCProperties.
//!
//! Content is parsed with lopdf's strict decoder: its lenient one stops at the first token it
//! cannot read and drops the rest, which re-encoding would then lose. A stream that does not
//! decode is left as it is and counted; while any is, the groups stay in /OCProperties (still
//! off) and resource entries are kept, so that what was left stays hidden.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use crate::pages::Tree;

/// Past this a content stream is not decoded (and counted as not parsed).
const STREAM_LIMIT: usize = 64 << 20;

/// Visibility expressions evaluated per document, at most: a hostile file cannot make the
/// evaluation of nested expressions take exponential time.
const MAX_EVALUATIONS: usize = 100_000;
const MAX_EXPRESSION_DEPTH: usize = 32;

/// Deeper than any page tree or form nesting a producer writes.
const MAX_DEPTH: usize = 128;

/// What was removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Hidden groups whose content was removed or that left /OCProperties.
    pub layers: u32,
    /// Content streams that use hidden content but could not be decoded, left as they were.
    pub unparsed: u32,
}

pub fn remove(doc: &mut Document, tree: &Tree) -> Outcome {
    let hidden = hidden_groups(doc);
    if hidden.is_empty() {
        return Outcome::default();
    }
    let plan = {
        let mut planner = Planner {
            doc,
            visibility: Visibility {
                doc,
                hidden: &hidden,
                budget: Cell::new(MAX_EVALUATIONS),
            },
            plan: Plan::default(),
            forms: Vec::new(),
            forms_seen: HashSet::new(),
        };
        planner.pages(tree);
        planner.forms();
        planner.plan
    };
    let unparsed = plan.unparsed;
    let changed = plan.apply(doc);
    let dropped = unparsed == 0 && drop_groups(doc, &hidden);
    let layers = if changed || dropped {
        u32::try_from(hidden.len()).unwrap_or(u32::MAX)
    } else {
        0
    };
    Outcome { layers, unparsed }
}

/// The groups off in the default configuration: /D /OFF, or with /BaseState /OFF every
/// group not in /D /ON.
fn hidden_groups(doc: &Document) -> HashSet<ObjectId> {
    let Some(properties) = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"OCProperties").ok())
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_dict().ok())
    else {
        return HashSet::new();
    };
    let groups = |dict: &Dictionary, key: &[u8]| -> HashSet<ObjectId> {
        dict.get(key)
            .ok()
            .and_then(|o| resolve(doc, o))
            .and_then(|o| o.as_array().ok())
            .into_iter()
            .flatten()
            .filter_map(|item| item.as_reference().ok())
            .filter(|id| doc.get_dictionary(*id).is_ok())
            .collect()
    };
    let Some(config) = properties
        .get(b"D")
        .ok()
        .and_then(|o| resolve(doc, o))
        .and_then(|o| o.as_dict().ok())
    else {
        return HashSet::new();
    };
    let base_off = config.get(b"BaseState").and_then(Object::as_name).ok() == Some(b"OFF");
    if base_off {
        let on = groups(config, b"ON");
        groups(properties, b"OCGs")
            .into_iter()
            .filter(|id| !on.contains(id))
            .collect()
    } else {
        groups(config, b"OFF")
    }
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, object)| object)
}

/// Decides whether an /OC value (a group, or a membership dictionary) is hidden.
struct Visibility<'a> {
    doc: &'a Document,
    hidden: &'a HashSet<ObjectId>,
    budget: Cell<usize>,
}

impl Visibility<'_> {
    fn hides(&self, oc: &Object) -> bool {
        let Ok((id, object)) = self.doc.dereference(oc) else {
            return false;
        };
        let Ok(dict) = object.as_dict() else {
            return false;
        };
        if !dict.has_type(b"OCMD") {
            return id.is_some_and(|id| self.hidden.contains(&id));
        }
        if let Ok(expression) = dict.get(b"VE") {
            return !self.shows(expression, 0);
        }
        let groups: Vec<bool> = match dict.get(b"OCGs") {
            Ok(Object::Reference(id)) if self.is_group(*id) => vec![!self.hidden.contains(id)],
            Ok(list) => self
                .doc
                .dereference(list)
                .ok()
                .and_then(|(_, list)| list.as_array().ok())
                .into_iter()
                .flatten()
                .filter_map(|item| item.as_reference().ok())
                .filter(|id| self.is_group(*id))
                .map(|id| !self.hidden.contains(&id))
                .collect(),
            Err(_) => Vec::new(),
        };
        if groups.is_empty() {
            return false;
        }
        let visible = match dict.get(b"P").and_then(Object::as_name).ok() {
            Some(b"AllOn") => groups.iter().all(|on| *on),
            Some(b"AnyOff") => groups.iter().any(|on| !on),
            Some(b"AllOff") => groups.iter().all(|on| !on),
            _ => groups.iter().any(|on| *on),
        };
        !visible
    }

    fn is_group(&self, id: ObjectId) -> bool {
        self.doc
            .get_dictionary(id)
            .is_ok_and(|dict| !dict.has_type(b"OCMD"))
    }

    /// A visibility expression: a group, or `[/And ...]`, `[/Or ...]`, `[/Not e]`.
    fn shows(&self, expression: &Object, depth: usize) -> bool {
        let left = self.budget.get();
        if left == 0 || depth > MAX_EXPRESSION_DEPTH {
            return true;
        }
        self.budget.set(left - 1);
        let Ok((id, object)) = self.doc.dereference(expression) else {
            return true;
        };
        match object {
            Object::Array(items) => {
                let Some((operator, operands)) = items.split_first() else {
                    return true;
                };
                let mut values = operands.iter().map(|e| self.shows(e, depth + 1));
                match operator.as_name().ok() {
                    Some(b"And") => values.all(|v| v),
                    Some(b"Or") => values.any(|v| v),
                    Some(b"Not") => !values.next().unwrap_or(false),
                    _ => true,
                }
            }
            Object::Dictionary(_) => !id.is_some_and(|id| self.hidden.contains(&id)),
            _ => true,
        }
    }
}

/// Where a dictionary or array lives: an object, then keys through direct dictionaries.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Target {
    id: ObjectId,
    path: Vec<Vec<u8>>,
}

impl Target {
    fn child(&self, key: &[u8]) -> Target {
        let mut path = self.path.clone();
        path.push(key.to_vec());
        Target { id: self.id, path }
    }
}

/// What a resources dictionary tells about hidden content.
#[derive(Default)]
struct Scope {
    /// /Properties names of hidden groups or membership dictionaries.
    hidden_properties: HashSet<Vec<u8>>,
    /// /XObject names of XObjects whose own /OC is hidden.
    hidden_xobjects: HashSet<Vec<u8>>,
    forms: Vec<ObjectId>,
    /// Every /XObject name's object.
    xobject_ids: HashMap<Vec<u8>, ObjectId>,
    xobject_dict: Option<Target>,
    properties_dict: Option<Target>,
}

impl Scope {
    fn relevant(&self) -> bool {
        !self.hidden_properties.is_empty() || !self.hidden_xobjects.is_empty()
    }
}

#[derive(Default)]
struct Plan {
    page_contents: Vec<(ObjectId, Vec<u8>)>,
    form_contents: Vec<(ObjectId, Vec<u8>)>,
    /// Page /Annots arrays that hold hidden annotations.
    annots: Vec<Target>,
    hidden_annots: HashSet<ObjectId>,
    /// Per /XObject dictionary of content that was filtered: names drawn outside hidden
    /// content.
    xobjects_shown: HashMap<Target, HashSet<Vec<u8>>>,
    /// XObjects drawn in hidden content somewhere, or hidden themselves: their entries go
    /// from the /XObject dictionaries above where no content draws them visibly.
    xobjects_gone: HashSet<ObjectId>,
    /// Per /Properties dictionary: names of hidden groups.
    properties_hidden: HashMap<Target, HashSet<Vec<u8>>>,
    unparsed: u32,
    /// A form without resources of its own draws with its parent's names: then no resource
    /// entry is dropped, as the form's use of them is not followed.
    borrowed_resources: bool,
}

/// A resources dictionary, and where it is.
type Resources<'a> = (&'a Dictionary, Target);

struct Planner<'a> {
    doc: &'a Document,
    visibility: Visibility<'a>,
    plan: Plan,
    /// Forms to visit, each with the resources it inherits from where it is drawn, and its
    /// depth.
    forms: Vec<(ObjectId, Option<Resources<'a>>, usize)>,
    forms_seen: HashSet<ObjectId>,
}

impl<'a> Planner<'a> {
    fn pages(&mut self, tree: &Tree) {
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

    fn forms(&mut self) {
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

struct Filtered {
    operations: Vec<Operation>,
    changed: bool,
    /// XObject names drawn outside hidden content.
    shown: HashSet<Vec<u8>>,
    /// XObject names drawn in hidden content (and so not any more).
    hidden: HashSet<Vec<u8>>,
}

/// Operators that build a path, and those that end one.
const PATH: [&str; 7] = ["m", "l", "c", "v", "y", "h", "re"];
const PAINT: [&str; 10] = ["S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"];

fn filter(operations: Vec<Operation>, scope: &Scope) -> Filtered {
    let mut out = Filtered {
        operations: Vec::with_capacity(operations.len()),
        changed: false,
        shown: HashSet::new(),
        hidden: HashSet::new(),
    };
    // Depth of marked content inside a hidden section; 0 outside one.
    let mut depth = 0usize;
    // A path being built inside hidden content, and whether it clips.
    let mut path: Vec<Operation> = Vec::new();
    let mut clips = false;
    let xobject = |op: &Operation| {
        op.operands
            .first()
            .and_then(|name| name.as_name().ok())
            .map(<[u8]>::to_vec)
    };
    for op in operations {
        let operator = op.operator.as_str();
        if depth == 0 {
            match operator {
                "BDC" if opens_hidden(&op, scope) => {
                    depth = 1;
                    out.changed = true;
                }
                "Do" => match xobject(&op) {
                    Some(name) if scope.hidden_xobjects.contains(&name) => out.changed = true,
                    Some(name) => {
                        out.shown.insert(name);
                        out.operations.push(op);
                    }
                    None => out.operations.push(op),
                },
                _ => out.operations.push(op),
            }
            continue;
        }
        match operator {
            "BMC" | "BDC" => depth += 1,
            "EMC" => {
                depth -= 1;
                if depth == 0 {
                    path.clear();
                    clips = false;
                }
            }
            "W" | "W*" => {
                clips = true;
                path.push(op);
            }
            _ if PATH.contains(&operator) => path.push(op),
            _ if PAINT.contains(&operator) => {
                // A clipping path still clips when hidden: it is kept, unpainted.
                if clips {
                    out.operations.append(&mut path);
                    out.operations.push(Operation::new("n", Vec::new()));
                }
                path.clear();
                clips = false;
            }
            // Showing text moves on; the move to the next line of ' and " is kept.
            "Tj" | "TJ" => {}
            "'" => out.operations.push(Operation::new("T*", Vec::new())),
            "\"" => {
                if let [word, character, _] = op.operands.as_slice() {
                    out.operations
                        .push(Operation::new("Tw", vec![word.clone()]));
                    out.operations
                        .push(Operation::new("Tc", vec![character.clone()]));
                }
                out.operations.push(Operation::new("T*", Vec::new()));
            }
            "Do" => {
                if let Some(name) = xobject(&op) {
                    out.hidden.insert(name);
                }
            }
            "sh" | "BI" | "MP" | "DP" => {}
            _ => out.operations.push(op),
        }
    }
    out.hidden.retain(|name| !out.shown.contains(name));
    out
}

fn opens_hidden(op: &Operation, scope: &Scope) -> bool {
    match op.operands.as_slice() {
        [Object::Name(tag), Object::Name(name)] => {
            tag == b"OC" && scope.hidden_properties.contains(name)
        }
        _ => false,
    }
}

impl Plan {
    /// Makes the changes; returns whether anything changed.
    fn apply(self, doc: &mut Document) -> bool {
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

/// Takes the hidden groups out of /OCProperties: its /OCGs, and the /ON, /OFF, /Order,
/// /RBGroups, /Locked and usage application arrays of every configuration. With no group
/// left, /OCProperties goes. Returns whether anything was dropped.
fn drop_groups(doc: &mut Document, hidden: &HashSet<ObjectId>) -> bool {
    let Ok(catalog) = doc.catalog_mut() else {
        return false;
    };
    let mut todo = Vec::new();
    let mut dropped = false;
    match catalog.get_mut(b"OCProperties") {
        Ok(Object::Reference(id)) => todo.push(*id),
        Ok(properties) => dropped |= strip_groups(properties, hidden, &mut todo),
        Err(_) => return false,
    }
    let mut seen = HashSet::new();
    while let Some(id) = todo.pop() {
        if hidden.contains(&id) || !seen.insert(id) || seen.len() > 10_000 {
            continue;
        }
        let Ok(object) = doc.get_object_mut(id) else {
            continue;
        };
        // Groups are what the arrays list, not parts of the configuration.
        if object.as_dict().is_ok_and(|dict| dict.has_type(b"OCG")) {
            continue;
        }
        dropped |= strip_groups(object, hidden, &mut todo);
    }
    let none_left = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"OCProperties").ok())
        .and_then(|properties| doc.dereference(properties).ok())
        .and_then(|(_, properties)| properties.as_dict().ok())
        .and_then(|properties| properties.get(b"OCGs").ok())
        .and_then(|groups| doc.dereference(groups).ok())
        .and_then(|(_, groups)| groups.as_array().ok())
        .is_some_and(Vec::is_empty);
    if none_left && let Ok(catalog) = doc.catalog_mut() {
        catalog.remove(b"OCProperties");
    }
    dropped
}

fn strip_groups(object: &mut Object, hidden: &HashSet<ObjectId>, todo: &mut Vec<ObjectId>) -> bool {
    match object {
        Object::Array(items) => {
            let before = items.len();
            items.retain(|item| !item.as_reference().is_ok_and(|id| hidden.contains(&id)));
            let mut dropped = items.len() != before;
            for item in items {
                dropped |= strip_groups(item, hidden, todo);
            }
            dropped
        }
        Object::Dictionary(dict) => {
            let mut dropped = false;
            for (_, value) in dict.iter_mut() {
                dropped |= strip_groups(value, hidden, todo);
            }
            dropped
        }
        Object::Reference(id) => {
            todo.push(*id);
            false
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(content: &str) -> Vec<Operation> {
        Content::decode_strict(content.as_bytes())
            .expect("decodes")
            .operations
    }

    fn encode(operations: Vec<Operation>) -> String {
        let bytes = Content { operations }.encode().expect("encodes");
        String::from_utf8(bytes).expect("text").replace('\n', " ")
    }

    fn scope() -> Scope {
        Scope {
            hidden_properties: HashSet::from([b"oc1".to_vec()]),
            hidden_xobjects: HashSet::from([b"Hid".to_vec()]),
            ..Scope::default()
        }
    }

    #[test]
    fn hidden_sections_lose_their_paint_but_not_their_state() {
        let content = "/OC /oc1 BDC q 1 0 0 RG 0 0 m 10 10 l S 0 0 5 5 re W n \
                       BT /F1 9 Tf (secret) Tj (more) ' ET /Im1 Do /P BMC (x) Tj EMC EMC \
                       /OC /oc2 BDC (shown) Tj EMC /Hid Do /Im2 Do Q";
        let out = filter(ops(content), &scope());
        assert!(out.changed);
        assert_eq!(
            encode(out.operations),
            "q 1 0 0 RG 0 0 5 5 re W n BT /F1 9 Tf T* ET /OC /oc2 BDC (shown) Tj EMC /Im2 Do Q"
        );
        assert_eq!(out.hidden, HashSet::from([b"Im1".to_vec()]));
        assert_eq!(out.shown, HashSet::from([b"Im2".to_vec()]));
    }

    #[test]
    fn visible_content_is_unchanged() {
        let out = filter(ops("/OC /oc2 BDC (a) Tj EMC /Im1 Do"), &scope());
        assert!(!out.changed);
    }
}
