//! Scripts, embedded files, and links and actions that reach outside the document.
//!
//! What is removed is found by what it is, not by where a producer put it: every object is
//! classified first (a JavaScript action, a web link, a file attachment annotation, a link
//! annotation whose action goes, ...), then every dictionary and array of the document drops
//! its references to what was condemned, wherever they are (an /OpenAction, an /AA entry, an
//! annotation's /A, a /Next chain, an /Annots array, an outline item). Nothing then reaches
//! the condemned objects and the save prunes them. The catalog's own entries (the /Names
//! trees, /AcroForm /XFA, the portfolio /Collection, the base /URI) go by name.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

/// Which of the three kinds are removed.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub javascript: bool,
    pub embedded_files: bool,
    pub links: bool,
}

impl Options {
    fn any(self) -> bool {
        self.javascript || self.embedded_files || self.links
    }
}

/// How many of each kind were removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub javascript: u32,
    pub embedded_files: u32,
    pub links: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Script,
    Embedded,
    Link,
}

/// Actions that leave the document or bring something in (ISO 32000-1, 12.6.4).
const LINK_ACTIONS: [&[u8]; 8] = [
    b"URI",
    b"Launch",
    b"GoToR",
    b"GoToE",
    b"SubmitForm",
    b"ImportData",
    b"Sound",
    b"Movie",
];

/// Deeper than a name tree is ever built.
const MAX_TREE_DEPTH: usize = 32;

/// Removes what `options` chooses from `doc`.
pub fn remove(doc: &mut Document, options: Options) -> Tally {
    if !options.any() {
        return Tally::default();
    }
    let embedded = if options.embedded_files {
        embedded_streams(doc)
    } else {
        HashSet::new()
    };
    let condemned = condemn(doc, options);
    let mut walker = Walker {
        options,
        condemned: &condemned,
        removed: HashMap::new(),
        direct: HashMap::new(),
        attachments: HashSet::new(),
        direct_attachments: 0,
    };
    walker.catalog_entries(doc);
    for (id, object) in doc.objects.iter_mut() {
        // A condemned object goes with the save; what it holds is not counted again.
        if condemned.contains_key(id) {
            continue;
        }
        match object {
            Object::Dictionary(dict) => walker.dict(dict),
            Object::Stream(stream) => walker.dict(&mut stream.dict),
            // An indirect array (a page's /Annots, a name tree's /Names) has no key to tell
            // what it is; `array` reads a tree's pairs from its shape.
            Object::Array(items) => walker.array(items, b""),
            _ => {}
        }
    }
    let count = |kind: Kind| {
        let ids = walker.removed.get(&kind).map_or(0, HashSet::len);
        let direct = walker.direct.get(&kind).copied().unwrap_or(0);
        saturate(ids).saturating_add(direct)
    };
    let attachments = saturate(walker.attachments.len()).saturating_add(walker.direct_attachments);
    Tally {
        javascript: count(Kind::Script),
        embedded_files: saturate(embedded.len()).max(attachments),
        links: count(Kind::Link),
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What kind of action `dict` is, if it is one that goes.
fn action_kind(dict: &Dictionary, options: Options) -> Option<Kind> {
    let s = dict.get(b"S").and_then(Object::as_name).ok();
    if options.javascript && (dict.has(b"JS") || matches!(s, Some(b"JavaScript" | b"Rendition"))) {
        return Some(Kind::Script);
    }
    let s = s?;
    if options.links && LINK_ACTIONS.contains(&s) {
        return Some(Kind::Link);
    }
    (options.javascript && s == b"Launch").then_some(Kind::Script)
}

/// Whether `dict` goes where it is referenced, and as what: a condemned action, an embedded
/// file stream, a file attachment annotation, a link annotation whose action goes, a pop-up
/// whose annotation goes. `condemned` holds the verdicts on indirect objects so far.
fn verdict(
    dict: &Dictionary,
    stream: bool,
    condemned: &HashMap<ObjectId, Kind>,
    options: Options,
) -> Option<Kind> {
    if let Some(kind) = action_kind(dict, options) {
        return Some(kind);
    }
    if stream {
        return (options.embedded_files && dict.has_type(b"EmbeddedFile"))
            .then_some(Kind::Embedded);
    }
    let subtype = dict.get(b"Subtype").and_then(Object::as_name).ok()?;
    let follow = |key: &[u8]| match dict.get(key).ok()? {
        Object::Reference(id) => condemned.get(id).copied(),
        Object::Dictionary(action) => action_kind(action, options),
        _ => None,
    };
    match subtype {
        b"FileAttachment" if options.embedded_files => Some(Kind::Embedded),
        b"Link" => follow(b"A"),
        b"Popup" => follow(b"Parent"),
        _ => None,
    }
}

/// The verdicts on indirect objects: actions and attachments first, then the link
/// annotations whose actions go, then the pop-ups of annotations that go.
fn condemn(doc: &Document, options: Options) -> HashMap<ObjectId, Kind> {
    let mut condemned = HashMap::new();
    for round in 0..3 {
        let mut found = Vec::new();
        for (&id, object) in &doc.objects {
            if condemned.contains_key(&id) {
                continue;
            }
            let (dict, stream) = match object {
                Object::Dictionary(dict) => (dict, false),
                Object::Stream(stream) => (&stream.dict, true),
                _ => continue,
            };
            let subtype = dict.get(b"Subtype").and_then(Object::as_name).ok();
            let wanted = match round {
                0 => !matches!(subtype, Some(b"Link" | b"Popup")),
                1 => subtype == Some(b"Link"),
                _ => subtype == Some(b"Popup"),
            };
            if wanted && let Some(kind) = verdict(dict, stream, &condemned, options) {
                found.push((id, kind));
            }
        }
        condemned.extend(found);
    }
    condemned
}

/// The embedded file streams the document holds: those an /EF dictionary names and those
/// typed /EmbeddedFile, among the objects the trailer reaches.
fn embedded_streams(doc: &Document) -> HashSet<ObjectId> {
    let reached = reachable(doc);
    let mut files = HashSet::new();
    for id in &reached {
        let Ok(object) = doc.get_object(*id) else {
            continue;
        };
        if let Object::Stream(stream) = object
            && stream.dict.has_type(b"EmbeddedFile")
        {
            files.insert(*id);
        }
        visit_dicts(object, &mut |dict| {
            let Some(ef) = dict
                .get(b"EF")
                .ok()
                .and_then(|ef| doc.dereference(ef).ok())
                .and_then(|(_, ef)| ef.as_dict().ok())
            else {
                return;
            };
            for (_, value) in ef {
                if let Object::Reference(file) = value
                    && reached.contains(file)
                {
                    files.insert(*file);
                }
            }
        });
    }
    files
}

/// Calls `f` on every dictionary in `object` (a stream's included), nested ones too.
fn visit_dicts(object: &Object, f: &mut impl FnMut(&Dictionary)) {
    match object {
        Object::Dictionary(dict) => {
            f(dict);
            dict.iter().for_each(|(_, value)| visit_dicts(value, f));
        }
        Object::Stream(stream) => {
            f(&stream.dict);
            stream
                .dict
                .iter()
                .for_each(|(_, value)| visit_dicts(value, f));
        }
        Object::Array(items) => items.iter().for_each(|item| visit_dicts(item, f)),
        _ => {}
    }
}

/// The objects the trailer reaches.
pub fn reachable(doc: &Document) -> HashSet<ObjectId> {
    let mut seen = HashSet::new();
    let mut todo = Vec::new();
    let push = |object: &Object, todo: &mut Vec<ObjectId>| {
        collect_refs(object, &mut |id| todo.push(id));
    };
    for (_, value) in &doc.trailer {
        push(value, &mut todo);
    }
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        if let Ok(object) = doc.get_object(id) {
            push(object, &mut todo);
        }
    }
    seen
}

fn collect_refs(object: &Object, f: &mut impl FnMut(ObjectId)) {
    match object {
        Object::Reference(id) => f(*id),
        Object::Array(items) => items.iter().for_each(|item| collect_refs(item, f)),
        Object::Dictionary(dict) => dict.iter().for_each(|(_, value)| collect_refs(value, f)),
        Object::Stream(stream) => stream
            .dict
            .iter()
            .for_each(|(_, value)| collect_refs(value, f)),
        _ => {}
    }
}

/// The values of a name tree, cycle-guarded.
fn tree_values(doc: &Document, root: &Object) -> Vec<Object> {
    let mut values = Vec::new();
    let mut seen = HashSet::new();
    let mut todo = vec![(root.clone(), 0)];
    while let Some((node, depth)) = todo.pop() {
        if let Object::Reference(id) = node
            && !seen.insert(id)
        {
            continue;
        }
        let Some(node) = doc
            .dereference(&node)
            .ok()
            .and_then(|(_, node)| node.as_dict().ok())
        else {
            continue;
        };
        let array = |key: &[u8]| {
            node.get(key)
                .ok()
                .and_then(|value| doc.dereference(value).ok())
                .and_then(|(_, value)| value.as_array().ok())
        };
        if let Some(pairs) = array(b"Names") {
            values.extend(pairs.chunks_exact(2).map(|pair| pair[1].clone()));
        }
        if depth < MAX_TREE_DEPTH
            && let Some(kids) = array(b"Kids")
        {
            todo.extend(kids.iter().map(|kid| (kid.clone(), depth + 1)));
        }
    }
    values
}

/// Keys that name what goes, in whatever dictionary they are left.
fn forbidden_key(options: Options, key: &[u8]) -> bool {
    (options.javascript && matches!(key, b"JS" | b"JavaScript" | b"XFA"))
        || (options.embedded_files
            && matches!(
                key,
                b"EF" | b"RF" | b"AF" | b"EmbeddedFiles" | b"EmbeddedFile"
            ))
        || (options.links && matches!(key, b"URI" | b"Launch"))
}

/// Name values that name what goes (an action type, a stream type).
fn forbidden_name(options: Options, object: &Object) -> bool {
    let Object::Name(name) = object else {
        return false;
    };
    (options.javascript && name == b"JavaScript")
        || (options.embedded_files && matches!(name.as_slice(), b"EmbeddedFile" | b"EmbeddedFiles"))
        || (options.links && matches!(name.as_slice(), b"URI" | b"Launch"))
}

struct Walker<'a> {
    options: Options,
    condemned: &'a HashMap<ObjectId, Kind>,
    /// Indirect objects whose references were removed, by kind.
    removed: HashMap<Kind, HashSet<ObjectId>>,
    /// Direct dictionaries removed, by kind.
    direct: HashMap<Kind, u32>,
    attachments: HashSet<ObjectId>,
    direct_attachments: u32,
}

impl Walker<'_> {
    /// The catalog's entries that go by name: the JavaScript and embedded files name trees
    /// (their entries counted), the XFA forms and the rendering they need, the portfolio and
    /// the base URI of relative links.
    fn catalog_entries(&mut self, doc: &mut Document) {
        let options = self.options;
        let names = doc
            .catalog()
            .ok()
            .and_then(|catalog| catalog.get(b"Names").ok())
            .cloned();
        if options.javascript
            && let Some(tree) = names
                .as_ref()
                .and_then(|names| doc.dereference(names).ok())
                .and_then(|(_, names)| names.as_dict().ok())
                .and_then(|names| names.get(b"JavaScript").ok())
        {
            for value in tree_values(doc, tree) {
                self.note(Kind::Script, &value);
            }
        }
        let mut drop_from_names = Vec::new();
        if options.javascript {
            drop_from_names.push(b"JavaScript".as_slice());
        }
        if options.embedded_files {
            drop_from_names.push(b"EmbeddedFiles");
        }
        match names {
            Some(Object::Reference(id)) => {
                if let Ok(names) = doc.get_dictionary_mut(id) {
                    drop_from_names.iter().for_each(|key| {
                        names.remove(key);
                    });
                }
            }
            Some(Object::Dictionary(_)) => {
                if let Ok(Object::Dictionary(names)) = doc
                    .catalog_mut()
                    .and_then(|catalog| catalog.get_mut(b"Names"))
                {
                    drop_from_names.iter().for_each(|key| {
                        names.remove(key);
                    });
                }
            }
            _ => {}
        }
        if options.javascript {
            let form = doc
                .catalog()
                .ok()
                .and_then(|catalog| catalog.get(b"AcroForm").ok())
                .cloned();
            let had_xfa = match form {
                Some(Object::Reference(id)) => doc
                    .get_dictionary_mut(id)
                    .ok()
                    .and_then(|form| form.remove(b"XFA")),
                Some(Object::Dictionary(_)) => doc
                    .catalog_mut()
                    .ok()
                    .and_then(|catalog| catalog.get_mut(b"AcroForm").ok())
                    .and_then(|form| form.as_dict_mut().ok())
                    .and_then(|form| form.remove(b"XFA")),
                _ => None,
            };
            if had_xfa.is_some() {
                *self.direct.entry(Kind::Script).or_default() += 1;
            }
        }
        if let Ok(catalog) = doc.catalog_mut() {
            if options.javascript {
                catalog.remove(b"NeedsRendering");
            }
            if options.embedded_files {
                catalog.remove(b"Collection");
            }
            if options.links {
                catalog.remove(b"URI");
            }
        }
    }

    /// The verdict on a value: a reference to a condemned object, or a direct dictionary that
    /// would be condemned.
    fn verdict(&self, value: &Object) -> Option<Kind> {
        match value {
            Object::Reference(id) => self.condemned.get(id).copied(),
            Object::Dictionary(dict) => verdict(dict, false, self.condemned, self.options),
            _ => None,
        }
    }

    fn note(&mut self, kind: Kind, value: &Object) {
        let attachment = match value {
            Object::Dictionary(dict) => {
                dict.get(b"Subtype").ok() == Some(&Object::Name(b"FileAttachment".to_vec()))
            }
            _ => false,
        };
        match value {
            Object::Reference(id) => {
                self.removed.entry(kind).or_default().insert(*id);
                if kind == Kind::Embedded {
                    self.attachments.insert(*id);
                }
            }
            _ => {
                *self.direct.entry(kind).or_default() += 1;
                if attachment {
                    self.direct_attachments += 1;
                }
            }
        }
    }

    fn dict(&mut self, dict: &mut Dictionary) {
        let keys: Vec<Vec<u8>> = dict.iter().map(|(key, _)| key.clone()).collect();
        for key in keys {
            if forbidden_key(self.options, &key) {
                dict.remove(&key);
                continue;
            }
            let Ok(value) = dict.get_mut(&key) else {
                continue;
            };
            if forbidden_name(self.options, value) {
                dict.remove(&key);
                continue;
            }
            if let Some(kind) = self.verdict(value) {
                let value = value.clone();
                self.note(kind, &value);
                dict.remove(&key);
                continue;
            }
            self.value(value, &key);
            let emptied = match value {
                Object::Dictionary(inner) => {
                    (key == b"AA" && inner.is_empty()) || lost_object(inner)
                }
                Object::Array(items) => key == b"Next" && items.is_empty(),
                _ => false,
            };
            if emptied {
                dict.remove(&key);
            }
        }
    }

    fn value(&mut self, value: &mut Object, key: &[u8]) {
        match value {
            Object::Dictionary(dict) => self.dict(dict),
            Object::Stream(stream) => self.dict(&mut stream.dict),
            Object::Array(items) => self.array(items, key),
            _ => {}
        }
    }

    /// Drops the condemned items of an array; in a name or number tree's /Names or /Nums (or
    /// an indirect array of key and value pairs), the key before a condemned value goes with
    /// it.
    fn array(&mut self, items: &mut Vec<Object>, key: &[u8]) {
        let paired = items.len().is_multiple_of(2)
            && match key {
                b"Names" | b"Nums" => true,
                b"" => {
                    !items.is_empty()
                        && items
                            .iter()
                            .step_by(2)
                            .all(|key| matches!(key, Object::String(..) | Object::Integer(_)))
                }
                _ => false,
            };
        let step = if paired { 2 } else { 1 };
        let old = std::mem::take(items);
        let mut chunks = old.chunks_exact(step);
        for chunk in chunks.by_ref() {
            let last = &chunk[step - 1];
            if let Some(kind) = self.verdict(last) {
                self.note(kind, last);
                continue;
            }
            if !paired && forbidden_name(self.options, last) {
                continue;
            }
            let mut chunk = chunk.to_vec();
            if let Some(last) = chunk.last_mut() {
                self.value(last, key);
                if let Object::Dictionary(dict) = last
                    && lost_object(dict)
                {
                    continue;
                }
            }
            items.extend(chunk);
        }
        items.extend_from_slice(chunks.remainder());
    }
}

/// A structure tree's object reference whose object was removed.
fn lost_object(dict: &Dictionary) -> bool {
    dict.has_type(b"OBJR") && !dict.has(b"Obj")
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    const ALL: Options = Options {
        javascript: true,
        embedded_files: true,
        links: true,
    };

    #[test]
    fn actions_are_judged_by_their_type() {
        let js =
            dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("app.alert(1)") };
        let uri = dictionary! { "S" => "URI", "URI" => Object::string_literal("https://x") };
        let goto = dictionary! { "S" => "GoTo", "D" => vec![Object::Integer(0)] };
        let launch = dictionary! { "S" => "Launch" };
        let struct_elem = dictionary! { "S" => "Link", "Type" => "StructElem" };
        assert_eq!(action_kind(&js, ALL), Some(Kind::Script));
        assert_eq!(action_kind(&uri, ALL), Some(Kind::Link));
        assert_eq!(action_kind(&goto, ALL), None);
        assert_eq!(action_kind(&struct_elem, ALL), None);
        assert_eq!(action_kind(&launch, ALL), Some(Kind::Link));
        let scripts_only = Options {
            javascript: true,
            embedded_files: false,
            links: false,
        };
        assert_eq!(action_kind(&launch, scripts_only), Some(Kind::Script));
        assert_eq!(action_kind(&uri, scripts_only), None);
    }

    #[test]
    fn next_chains_and_tree_pairs_lose_only_what_goes() {
        let mut doc = Document::with_version("1.7");
        let js = doc
            .add_object(dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("x") });
        let mut action = Object::Dictionary(dictionary! {
            "S" => "GoTo", "D" => vec![Object::Integer(0)],
            "Next" => vec![js.into(), dictionary! { "S" => "URI", "URI" => Object::string_literal("u") }.into()],
        });
        let mut tree = Object::Dictionary(dictionary! {
            "Names" => vec![Object::string_literal("a"), js.into(), Object::string_literal("b"), Object::Integer(1)],
        });
        let condemned = condemn(&doc, ALL);
        let mut walker = Walker {
            options: ALL,
            condemned: &condemned,
            removed: HashMap::new(),
            direct: HashMap::new(),
            attachments: HashSet::new(),
            direct_attachments: 0,
        };
        walker.value(&mut action, b"A");
        walker.value(&mut tree, b"Dests");
        let action = action.as_dict().expect("dict");
        assert!(!action.has(b"Next"));
        assert_eq!(action.get(b"S").ok(), Some(&Object::Name(b"GoTo".to_vec())));
        assert_eq!(
            tree.as_dict().and_then(|t| t.get(b"Names")).ok(),
            Some(&Object::Array(vec![
                Object::string_literal("b"),
                Object::Integer(1)
            ]))
        );
        assert_eq!(walker.removed.get(&Kind::Script).map(HashSet::len), Some(1));
        assert_eq!(walker.direct.get(&Kind::Link), Some(&1));
    }
}
