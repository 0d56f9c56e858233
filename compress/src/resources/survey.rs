//! Which names each resource dictionary's users look up: the content of every page (with the
//! resources it inherits from the page tree), of every form XObject, tiling pattern and
//! appearance stream with resources of its own, and every Type 3 font's glyph procedures.
//! Content without resources of its own (old forms, appearances, Type 3 fonts) looks its names
//! up in whoever draws it, and lenient viewers look a name missing from a form's resources up
//! in the page's (PDFium does): those names are kept in every resource dictionary.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::names::{self, Names};

/// Where a resource dictionary is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// An object of its own (`/Resources 12 0 R`), which several holders may share.
    Object(ObjectId),
    /// Inside the dictionary of the object given (page, page tree node, stream, Type 3 font).
    Inline(ObjectId),
}

/// The names looked up in a dictionary, or `All` when some of its users could not be read.
#[derive(Clone, Debug)]
pub enum Used {
    All,
    Names(Names),
}

impl Default for Used {
    fn default() -> Used {
        Used::none()
    }
}

impl Used {
    pub fn none() -> Used {
        Used::Names(Names::new())
    }

    pub fn add(&mut self, other: &Used) {
        match (&mut *self, other) {
            (Used::All, _) => {}
            (_, Used::All) => *self = Used::All,
            (Used::Names(names), Used::Names(more)) => names.extend(more.iter().cloned()),
        }
    }
}

#[derive(Default)]
pub struct Survey {
    pub used: HashMap<Place, Used>,
    /// Each object whose /Resources was read, and the resource dictionary object it points
    /// to: a dictionary pointed to from anywhere else is kept whole.
    pub owned: HashMap<ObjectId, ObjectId>,
    /// Names of content whose resources are not its own: kept in every dictionary.
    pub fallback: Used,
    /// The pages lopdf finds in the page tree, and the nodes they take resources from.
    pages: HashSet<ObjectId>,
    inherited_from: HashSet<ObjectId>,
}

/// Nesting followed inside one object when looking for resources in odd places.
const MAX_DEPTH: usize = 32;
/// Page tree levels climbed for inherited resources.
const MAX_LEVELS: usize = 64;

pub fn survey(doc: &Document) -> Survey {
    let mut survey = Survey::default();
    for page in doc.get_pages().into_values() {
        survey.pages.insert(page);
        let used = page_names(doc, page);
        if let Some((owner, resources)) = inherited(doc, page) {
            survey.inherited_from.insert(owner);
            survey.register(doc, owner, resources, &used, false);
        }
    }
    for (&id, object) in &doc.objects {
        match object {
            Object::Stream(stream) => survey.stream(doc, id, stream),
            Object::Dictionary(dict) => survey.dictionary(doc, id, dict),
            _ => {}
        }
        let dict = match object {
            Object::Stream(stream) => &stream.dict,
            Object::Dictionary(dict) => dict,
            _ => continue,
        };
        for (_, value) in dict.iter() {
            survey.nested(doc, value, 0);
        }
    }
    survey
}

impl Survey {
    fn fallback(&mut self, used: &Used) {
        self.fallback.add(used);
    }

    /// `owner`'s /Resources `value` is looked up for `used`; `lenient`: a name it lacks is
    /// looked up in the page's by some viewers.
    fn register(
        &mut self,
        doc: &Document,
        owner: ObjectId,
        value: &Object,
        used: &Used,
        lenient: bool,
    ) {
        let (place, resources) = match value {
            Object::Reference(id) => match doc.get_dictionary(*id) {
                Ok(resources) => {
                    self.owned.insert(owner, *id);
                    (Place::Object(*id), resources)
                }
                Err(_) => return,
            },
            Object::Dictionary(resources) => (Place::Inline(owner), resources),
            _ => return,
        };
        self.used.entry(place).or_insert_with(Used::none).add(used);
        if let (true, Used::Names(names)) = (lenient, used) {
            let defined = defined(doc, resources);
            let missing: Names = names
                .iter()
                .filter(|name| !defined.contains(name.as_slice()))
                .cloned()
                .collect();
            self.fallback(&Used::Names(missing));
        }
    }

    /// A form, pattern or appearance stream: its content uses its own resources, or the
    /// drawer's when it has none.
    fn stream(&mut self, doc: &Document, id: ObjectId, stream: &lopdf::Stream) {
        let dict = &stream.dict;
        let name = |key: &[u8]| dict.get(key).and_then(Object::as_name).ok();
        let image = name(b"Subtype") == Some(b"Image");
        match dict.get(b"Resources") {
            Ok(value) if image => self.unknown(value),
            Ok(value) => {
                let used = stream_names(stream);
                self.register(doc, id, value, &used, true);
            }
            Err(_) => {
                let content = name(b"Subtype") == Some(b"Form")
                    || dict.get(b"PatternType").and_then(Object::as_i64).ok() == Some(1)
                    || (!image && dict.has(b"BBox"));
                if content {
                    let used = stream_names(stream);
                    self.fallback(&used);
                }
            }
        }
    }

    fn dictionary(&mut self, doc: &Document, id: ObjectId, dict: &Dictionary) {
        let name = |key: &[u8]| dict.get(key).and_then(Object::as_name).ok();
        if name(b"Subtype") == Some(b"Type3") {
            let used = glyph_names(doc, dict);
            match dict.get(b"Resources") {
                Ok(value) => self.register(doc, id, value, &used, true),
                Err(_) => self.fallback(&used),
            }
            return;
        }
        let page_like =
            name(b"Type") == Some(b"Page") || (dict.has(b"Contents") && dict.has(b"Parent"));
        if page_like
            && !self.pages.contains(&id)
            && let Some((owner, value)) = inherited(doc, id)
        {
            // A page lopdf does not find in the tree (under a node with no /Type, which
            // viewers follow): what it draws with is unknown, so its resources stay whole.
            let place = match value {
                Object::Reference(resources) => Place::Object(*resources),
                _ => Place::Inline(owner),
            };
            self.used.insert(place, Used::All);
        }
        let Ok(value) = dict.get(b"Resources") else {
            return;
        };
        let known = match name(b"Type") {
            Some(b"Page") => self.pages.contains(&id),
            _ if dict.has(b"Kids") => {
                self.inherited_from.contains(&id) || self.only_known_pages(doc, dict, 0)
            }
            _ => false,
        };
        if known {
            // What the pages inherit was added with their content; this counts the node as
            // a known user of a shared dictionary.
            self.register(doc, id, value, &Used::none(), false);
        } else {
            self.unknown(value);
        }
    }

    /// Whether every page under the node is one lopdf found: then a page inheriting the
    /// node's resources would have been read with them.
    fn only_known_pages(&self, doc: &Document, node: &Dictionary, depth: usize) -> bool {
        let Ok(Object::Array(kids)) = node.get(b"Kids") else {
            return false;
        };
        depth < MAX_LEVELS
            && kids.iter().all(|kid| {
                let Ok(id) = kid.as_reference() else {
                    return false;
                };
                self.pages.contains(&id)
                    || doc.get_dictionary(id).is_ok_and(|kid| {
                        kid.get(b"Type").and_then(Object::as_name).ok() == Some(b"Pages")
                            && self.only_known_pages(doc, kid, depth + 1)
                    })
            })
    }

    /// Resources held where this pass reads no content: kept whole.
    fn unknown(&mut self, value: &Object) {
        if let Object::Reference(id) = value {
            self.used.insert(Place::Object(*id), Used::All);
        }
    }

    /// Resources written inside another object (a Type 3 font inline in a font list, say):
    /// those dictionaries are not edited, and a Type 3 font's glyph names are kept everywhere.
    fn nested(&mut self, doc: &Document, object: &Object, depth: usize) {
        if depth > MAX_DEPTH {
            self.fallback = Used::All;
            return;
        }
        match object {
            Object::Array(items) => {
                for item in items {
                    self.nested(doc, item, depth + 1);
                }
            }
            Object::Dictionary(dict) => {
                if dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type3") {
                    let used = glyph_names(doc, dict);
                    self.fallback(&used);
                }
                if let Ok(value) = dict.get(b"Resources") {
                    self.unknown(value);
                }
                for (_, value) in dict.iter() {
                    self.nested(doc, value, depth + 1);
                }
            }
            _ => {}
        }
    }
}

fn stream_names(stream: &lopdf::Stream) -> Used {
    let mut found = Names::new();
    if names::of_stream(stream, &mut found) {
        Used::Names(found)
    } else {
        Used::All
    }
}

/// The names of the page's content streams.
fn page_names(doc: &Document, page: ObjectId) -> Used {
    let Ok(dict) = doc.get_dictionary(page) else {
        return Used::All;
    };
    let contents = match dict.get(b"Contents") {
        Err(_) => return Used::none(),
        Ok(contents) => contents,
    };
    let items = match doc.dereference(contents) {
        Ok((_, Object::Array(items))) => items.iter().collect(),
        Ok((_, Object::Null)) => Vec::new(),
        Ok(_) => vec![contents],
        Err(_) => return Used::All,
    };
    let mut found = Names::new();
    for item in items {
        match doc.dereference(item) {
            Ok((_, Object::Stream(stream))) if names::of_stream(stream, &mut found) => {}
            Ok((_, Object::Null)) => {}
            _ => return Used::All,
        }
    }
    Used::Names(found)
}

/// The names of all of a Type 3 font's glyph procedures (which ones are shown does not
/// matter: they are few, and their names are looked up all the same).
fn glyph_names(doc: &Document, font: &Dictionary) -> Used {
    let procs = match font.get(b"CharProcs").map(|o| doc.dereference(o)) {
        Err(_) => return Used::none(),
        Ok(Ok((_, Object::Dictionary(procs)))) => procs,
        Ok(_) => return Used::All,
    };
    let mut found = Names::new();
    for (_, proc) in procs.iter() {
        match doc.dereference(proc) {
            Ok((_, Object::Stream(stream))) if names::of_stream(stream, &mut found) => {}
            _ => return Used::All,
        }
    }
    Used::Names(found)
}

/// The page tree node the page takes its /Resources from, and that entry.
fn inherited(doc: &Document, page: ObjectId) -> Option<(ObjectId, &Object)> {
    let mut node = page;
    for _ in 0..MAX_LEVELS {
        let dict = doc.get_dictionary(node).ok()?;
        if let Ok(resources) = dict.get(b"Resources") {
            return Some((node, resources));
        }
        node = dict.get(b"Parent").and_then(Object::as_reference).ok()?;
    }
    None
}

/// Every name the resource dictionary defines, of any category.
fn defined<'a>(doc: &'a Document, resources: &'a Dictionary) -> HashSet<&'a [u8]> {
    resources
        .iter()
        .filter_map(|(_, table)| doc.dereference(table).ok()?.1.as_dict().ok())
        .flat_map(|table| table.iter().map(|(name, _)| name.as_slice()))
        .collect()
}
