//! The lenient scan: a packet's elements with their attributes, text and byte spans.

use super::entities::decode_entities;
use super::{DC, PDF, RDF, XML, XMP};

/// More elements than any metadata packet holds; past it the scan stops.
const MAX_ELEMENTS: usize = 100_000;

/// Prefixes used without a declaration by some producers, read as what they always mean.
const USUAL_PREFIXES: [(&str, &str); 6] = [
    ("rdf", RDF),
    ("dc", DC),
    ("pdf", PDF),
    ("xmp", XMP),
    ("xap", XMP),
    ("x", "adobe:ns:meta/"),
];

#[derive(Debug)]
pub(super) struct Attr {
    pub(super) ns: String,
    pub(super) local: String,
    pub(super) value: String,
    /// From the white space before the name to after the closing quote.
    pub(super) span: (usize, usize),
}

#[derive(Debug)]
pub(super) struct Element {
    pub(super) ns: String,
    pub(super) local: String,
    pub(super) attrs: Vec<Attr>,
    children: Vec<usize>,
    /// The decoded text directly inside the element.
    pub(super) text: String,
    /// From `<` of the start tag to after `>` of the end tag (or of an empty-element tag).
    pub(super) span: (usize, usize),
    /// Where the end tag starts (the span's end for an empty element).
    pub(super) content_end: usize,
    pub(super) empty: bool,
}

impl Element {
    pub(super) fn is(&self, ns: &str, local: &str) -> bool {
        self.ns == ns && self.local == local
    }

    pub(super) fn attr(&self, ns: &str, local: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.ns == ns && a.local == local)
    }
}

/// The elements of a packet, in document order (a parent before its children).
#[derive(Debug, Default)]
pub(super) struct Tree {
    elements: Vec<Element>,
}

impl Tree {
    pub(super) fn parse(xml: &str) -> Tree {
        Scanner {
            xml,
            bytes: xml.as_bytes(),
            tree: Tree::default(),
            open: Vec::new(),
            scopes: Vec::new(),
        }
        .run()
    }

    pub(super) fn find(&self, ns: &str, local: &str) -> impl Iterator<Item = &Element> {
        self.elements.iter().filter(move |e| e.is(ns, local))
    }

    pub(super) fn children(&self, element: &Element) -> impl Iterator<Item = &Element> {
        element.children.iter().map(|&i| &self.elements[i])
    }

    pub(super) fn descriptions(&self) -> impl Iterator<Item = &Element> {
        self.find(RDF, "Description")
    }
}

struct Scanner<'a> {
    xml: &'a str,
    bytes: &'a [u8],
    tree: Tree,
    /// Open elements, each with the number of namespace declarations in scope before it.
    open: Vec<(usize, usize)>,
    scopes: Vec<(String, String)>,
}

impl Scanner<'_> {
    fn run(mut self) -> Tree {
        let mut at = 0;
        while at < self.bytes.len() && self.tree.elements.len() < MAX_ELEMENTS {
            let next = if self.bytes[at] == b'<' {
                self.markup(at)
            } else {
                let end = self.find_from(at, "<").unwrap_or(self.bytes.len());
                self.text(&decode_entities(&self.xml[at..end]));
                Some(end)
            };
            match next {
                Some(next) => at = next,
                None => break,
            }
        }
        let end = self.bytes.len();
        while let Some((index, _)) = self.open.pop() {
            let element = &mut self.tree.elements[index];
            element.span.1 = end;
            element.content_end = end;
        }
        self.tree
    }

    fn find_from(&self, from: usize, needle: &str) -> Option<usize> {
        self.xml[from..].find(needle).map(|i| from + i)
    }

    fn text(&mut self, text: &str) {
        if let Some(&(index, _)) = self.open.last() {
            self.tree.elements[index].text.push_str(text);
        }
    }

    /// The markup at `at` (a `<`); returns where scanning goes on, `None` at a tag that
    /// never ends.
    fn markup(&mut self, at: usize) -> Option<usize> {
        let rest = &self.xml[at..];
        if rest.starts_with("<!--") {
            return Some(
                self.find_from(at + 4, "-->")
                    .map_or(self.bytes.len(), |i| i + 3),
            );
        }
        if rest.starts_with("<![CDATA[") {
            let end = self.find_from(at + 9, "]]>").unwrap_or(self.bytes.len());
            let text = self.xml[at + 9..end].to_string();
            self.text(&text);
            return Some((end + 3).min(self.bytes.len()));
        }
        if rest.starts_with("<?") {
            return Some(
                self.find_from(at + 2, "?>")
                    .map_or(self.bytes.len(), |i| i + 2),
            );
        }
        if rest.starts_with("<!") {
            return Some(
                self.find_from(at + 2, ">")
                    .map_or(self.bytes.len(), |i| i + 1),
            );
        }
        if rest.starts_with("</") {
            let end = self.find_from(at + 2, ">")?;
            let name = self.xml[at + 2..end].trim();
            self.close(name, at, end + 1);
            return Some(end + 1);
        }
        self.start_tag(at)
    }

    /// Closes the innermost open element named `name` and any left open inside it; an end
    /// tag that matches nothing open is ignored.
    fn close(&mut self, name: &str, at: usize, end: usize) {
        let (prefix, local) = split_name(name);
        let ns = self.resolve(prefix);
        let Some(depth) = self.open.iter().rposition(|&(index, _)| {
            let element = &self.tree.elements[index];
            element.local == local && element.ns == ns
        }) else {
            return;
        };
        while self.open.len() > depth {
            let Some((index, scopes)) = self.open.pop() else {
                break;
            };
            self.scopes.truncate(scopes);
            let element = &mut self.tree.elements[index];
            element.content_end = at;
            element.span.1 = if self.open.len() == depth { end } else { at };
        }
    }

    fn start_tag(&mut self, at: usize) -> Option<usize> {
        let bytes = self.bytes;
        let mut i = at + 1;
        while i < bytes.len() && !is_space(bytes[i]) && !matches!(bytes[i], b'>' | b'/') {
            i += 1;
        }
        let name = &self.xml[at + 1..i];
        let mut raw_attrs: Vec<(&str, String, (usize, usize))> = Vec::new();
        let end;
        let empty;
        loop {
            let attr_start = i;
            while i < bytes.len() && is_space(bytes[i]) {
                i += 1;
            }
            match bytes.get(i) {
                None => return None,
                Some(b'>') => {
                    end = i + 1;
                    empty = false;
                    break;
                }
                Some(b'/') if bytes.get(i + 1) == Some(&b'>') => {
                    end = i + 2;
                    empty = true;
                    break;
                }
                Some(b'/') => {
                    i += 1;
                    continue;
                }
                Some(_) => {}
            }
            let name_start = i;
            while i < bytes.len() && !is_space(bytes[i]) && !matches!(bytes[i], b'=' | b'>' | b'/')
            {
                i += 1;
            }
            let attr_name = &self.xml[name_start..i];
            while i < bytes.len() && is_space(bytes[i]) {
                i += 1;
            }
            if bytes.get(i) != Some(&b'=') {
                // A name without a value: not XML, skipped.
                continue;
            }
            i += 1;
            while i < bytes.len() && is_space(bytes[i]) {
                i += 1;
            }
            let value = match bytes.get(i) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let close = self.find_from(i + 1, if quote == b'"' { "\"" } else { "'" })?;
                    let value = decode_entities(&self.xml[i + 1..close]);
                    i = close + 1;
                    value
                }
                _ => {
                    let from = i;
                    while i < bytes.len() && !is_space(bytes[i]) && bytes[i] != b'>' {
                        i += 1;
                    }
                    decode_entities(&self.xml[from..i])
                }
            };
            raw_attrs.push((attr_name, value, (attr_start, i)));
        }
        let scopes = self.scopes.len();
        for (attr_name, value, _) in &raw_attrs {
            if *attr_name == "xmlns" {
                self.scopes.push((String::new(), value.clone()));
            } else if let Some(prefix) = attr_name.strip_prefix("xmlns:") {
                self.scopes.push((prefix.to_string(), value.clone()));
            }
        }
        let (prefix, local) = split_name(name);
        let attrs = raw_attrs
            .into_iter()
            .filter(|(n, _, _)| *n != "xmlns" && !n.starts_with("xmlns:"))
            .map(|(n, value, span)| {
                let (prefix, local) = split_name(n);
                Attr {
                    // An attribute without a prefix is in no namespace.
                    ns: if prefix.is_empty() {
                        String::new()
                    } else {
                        self.resolve(prefix)
                    },
                    local: local.to_string(),
                    value,
                    span,
                }
            })
            .collect();
        let element = Element {
            ns: self.resolve(prefix),
            local: local.to_string(),
            attrs,
            children: Vec::new(),
            text: String::new(),
            span: (at, end),
            content_end: end,
            empty,
        };
        let index = self.tree.elements.len();
        if let Some(&(parent, _)) = self.open.last() {
            self.tree.elements[parent].children.push(index);
        }
        self.tree.elements.push(element);
        if empty {
            self.scopes.truncate(scopes);
        } else {
            self.open.push((index, scopes));
        }
        Some(end)
    }

    fn resolve(&self, prefix: &str) -> String {
        if prefix == "xml" {
            return XML.to_string();
        }
        if let Some((_, uri)) = self.scopes.iter().rev().find(|(p, _)| p == prefix) {
            return uri.clone();
        }
        USUAL_PREFIXES
            .iter()
            .find(|(p, _)| *p == prefix)
            .map_or_else(String::new, |(_, uri)| (*uri).to_string())
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn split_name(name: &str) -> (&str, &str) {
    name.split_once(':').unwrap_or(("", name))
}
