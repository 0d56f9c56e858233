//! XMP packets without an XML library: a lenient scan into elements with their byte spans,
//! enough to read the few properties the Info dictionary mirrors and to replace them in place.
//!
//! Reading forgives what a strict parser would refuse (unclosed or mismatched elements, a
//! missing namespace declaration for the usual prefixes, unknown entities). Editing removes
//! the old property (an attribute of an `rdf:Description`, or a child element) by its span and
//! writes the new values in one new `rdf:Description` before `</rdf:RDF>`, so everything else
//! in the packet stays byte for byte; what it writes is escaped, so a well-formed packet stays
//! well-formed.

pub const RDF: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
pub const DC: &str = "http://purl.org/dc/elements/1.1/";
pub const PDF: &str = "http://ns.adobe.com/pdf/1.3/";
pub const XMP: &str = "http://ns.adobe.com/xap/1.0/";
const XML: &str = "http://www.w3.org/XML/1998/namespace";

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
struct Attr {
    ns: String,
    local: String,
    value: String,
    /// From the white space before the name to after the closing quote.
    span: (usize, usize),
}

#[derive(Debug)]
struct Element {
    ns: String,
    local: String,
    attrs: Vec<Attr>,
    children: Vec<usize>,
    /// The decoded text directly inside the element.
    text: String,
    /// From `<` of the start tag to after `>` of the end tag (or of an empty-element tag).
    span: (usize, usize),
    /// Where the end tag starts (the span's end for an empty element).
    content_end: usize,
    empty: bool,
}

impl Element {
    fn is(&self, ns: &str, local: &str) -> bool {
        self.ns == ns && self.local == local
    }

    fn attr(&self, ns: &str, local: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.ns == ns && a.local == local)
    }
}

/// The elements of a packet, in document order (a parent before its children).
#[derive(Debug, Default)]
struct Tree {
    elements: Vec<Element>,
}

impl Tree {
    fn parse(xml: &str) -> Tree {
        Scanner {
            xml,
            bytes: xml.as_bytes(),
            tree: Tree::default(),
            open: Vec::new(),
            scopes: Vec::new(),
        }
        .run()
    }

    fn find(&self, ns: &str, local: &str) -> impl Iterator<Item = &Element> {
        self.elements.iter().filter(move |e| e.is(ns, local))
    }

    fn children(&self, element: &Element) -> impl Iterator<Item = &Element> {
        element.children.iter().map(|&i| &self.elements[i])
    }

    fn descriptions(&self) -> impl Iterator<Item = &Element> {
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

/// The five predefined entities and character references; anything else is kept as written.
fn decode_entities(raw: &str) -> String {
    if !raw.contains('&') {
        return raw.to_string();
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let decoded = rest.find(';').filter(|&semi| semi <= 12).and_then(|semi| {
            let entity = &rest[1..semi];
            let c = match entity {
                "lt" => Some('<'),
                "gt" => Some('>'),
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let number = entity.strip_prefix('#')?;
                    let code = match number.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => number.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            }?;
            Some((c, semi + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` for an attribute value or element content: the five special characters escaped,
/// and characters XML 1.0 does not allow at all dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A packet's bytes as text: UTF-8, or UTF-16 when a byte order mark or the zero bytes of
/// ASCII characters say so; and whether it was UTF-8 (the only encoding edited in place).
pub fn decode(bytes: &[u8]) -> (String, bool) {
    let utf16 = |big: bool, body: &[u8]| -> String {
        let units = body.chunks_exact(2).map(|pair| {
            if big {
                u16::from_be_bytes([pair[0], pair[1]])
            } else {
                u16::from_le_bytes([pair[0], pair[1]])
            }
        });
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect()
    };
    match bytes {
        [0xFE, 0xFF, body @ ..] => (utf16(true, body), false),
        [0xFF, 0xFE, body @ ..] => (utf16(false, body), false),
        [0, b, ..] if *b != 0 => (utf16(true, bytes), false),
        [b, 0, ..] if *b != 0 => (utf16(false, bytes), false),
        _ => {
            let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
            (String::from_utf8_lossy(body).into_owned(), true)
        }
    }
}

/// How a property's value is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A simple value.
    Text(String),
    /// A language alternative with one `x-default` item (dc:title, dc:description).
    Alt(String),
    /// An ordered array (dc:creator).
    Seq(Vec<String>),
    /// An unordered array (dc:subject).
    Bag(Vec<String>),
}

/// One property to replace: `None` removes it.
#[derive(Debug, Clone)]
pub struct Change {
    pub ns: &'static str,
    pub local: &'static str,
    pub value: Option<Value>,
}

/// The prefix a new property is written with, declared on the new rdf:Description.
fn prefix(ns: &str) -> &'static str {
    match ns {
        DC => "dc",
        PDF => "pdf",
        _ => "xmp",
    }
}

/// A packet, scanned once for several properties.
#[derive(Debug)]
pub struct Packet {
    tree: Tree,
}

impl Packet {
    pub fn parse(xml: &str) -> Packet {
        Packet {
            tree: Tree::parse(xml),
        }
    }

    /// A property's value as a reader sees it: an attribute of an rdf:Description, a simple
    /// element, or an Alt (the `x-default` item, else the first), Seq or Bag (items joined by
    /// `sep`). The first rdf:Description that has it wins.
    pub fn property(&self, ns: &str, local: &str, sep: &str) -> Option<String> {
        let tree = &self.tree;
        tree.descriptions().find_map(|description| {
            if let Some(attr) = description.attr(ns, local) {
                return non_empty(&attr.value);
            }
            tree.children(description)
                .filter(|child| child.is(ns, local) && child.attr(RDF, "resource").is_none())
                .find_map(|child| element_value(tree, child, sep))
        })
    }
}

#[cfg(test)]
fn property(xml: &str, ns: &str, local: &str, sep: &str) -> Option<String> {
    Packet::parse(xml).property(ns, local, sep)
}

fn element_value(tree: &Tree, element: &Element, sep: &str) -> Option<String> {
    let container = tree
        .children(element)
        .find(|c| c.ns == RDF && matches!(c.local.as_str(), "Alt" | "Seq" | "Bag"));
    let Some(container) = container else {
        return non_empty(&element.text);
    };
    let items: Vec<&Element> = tree
        .children(container)
        .filter(|item| item.is(RDF, "li"))
        .collect();
    if container.local == "Alt" {
        let default = items.iter().find(|item| {
            item.attr(XML, "lang")
                .is_some_and(|lang| lang.value.eq_ignore_ascii_case("x-default"))
        });
        return default
            .or(items.first())
            .and_then(|item| non_empty(&item.text));
    }
    let parts: Vec<&str> = items
        .iter()
        .map(|item| item.text.trim())
        .filter(|text| !text.is_empty())
        .collect();
    non_empty(&parts.join(sep))
}

fn non_empty(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// `xml` with `changes` made, or `None` when it has no rdf:RDF element to write into.
pub fn apply(xml: &str, changes: &[Change]) -> Option<String> {
    let tree = Tree::parse(xml);
    let rdf = tree.find(RDF, "RDF").find(|rdf| !rdf.empty)?;
    let mut removals: Vec<(usize, usize)> = Vec::new();
    for description in tree.descriptions() {
        for change in changes {
            for attr in &description.attrs {
                if attr.ns == change.ns && attr.local == change.local {
                    removals.push(attr.span);
                }
            }
            for child in tree.children(description) {
                if child.is(change.ns, change.local) {
                    removals.push(with_indent(xml, child.span));
                }
            }
        }
    }
    let about = tree
        .descriptions()
        .find_map(|d| d.attr(RDF, "about"))
        .map_or("", |a| a.value.as_str());
    let insert_at = rdf.content_end;
    // The start tags and elements removed never overlap: an attribute lies in a start tag
    // and a property element is a child of its rdf:Description, never one inside another.
    removals.sort_unstable();
    removals.dedup();
    let mut out = String::with_capacity(xml.len() + 1024);
    let mut at = 0;
    let mut inserted = false;
    for (start, end) in removals {
        if start < at {
            continue;
        }
        if !inserted && insert_at <= start {
            out.push_str(&xml[at..insert_at]);
            out.push_str(&new_description(about, changes));
            at = insert_at;
            inserted = true;
        }
        out.push_str(&xml[at..start]);
        at = end;
    }
    if !inserted {
        out.push_str(&xml[at..insert_at.max(at)]);
        out.push_str(&new_description(about, changes));
        at = insert_at.max(at);
    }
    out.push_str(&xml[at..]);
    Some(out)
}

/// An element's span extended back over the indentation before it, to the line's start.
fn with_indent(xml: &str, (start, end): (usize, usize)) -> (usize, usize) {
    let before = &xml.as_bytes()[..start];
    let indent = before
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let line_start = start - indent;
    if line_start > 0 && before[line_start - 1] == b'\n' {
        (line_start - 1, end)
    } else {
        (start, end)
    }
}

/// One rdf:Description holding the changes that set a value, declaring what it uses.
fn new_description(about: &str, changes: &[Change]) -> String {
    let set: Vec<(&Change, &Value)> = changes
        .iter()
        .filter_map(|c| c.value.as_ref().map(|v| (c, v)))
        .collect();
    if set.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "  <rdf:Description rdf:about=\"{}\" xmlns:rdf=\"{RDF}\" xmlns:dc=\"{DC}\" \
         xmlns:pdf=\"{PDF}\" xmlns:xmp=\"{XMP}\">\n",
        escape(about)
    );
    for (change, value) in set {
        let name = format!("{}:{}", prefix(change.ns), change.local);
        let items = |kind: &str, items: &[String]| {
            let lis: String = items
                .iter()
                .map(|item| format!("<rdf:li>{}</rdf:li>", escape(item)))
                .collect();
            format!("<rdf:{kind}>{lis}</rdf:{kind}>")
        };
        let body = match value {
            Value::Text(text) => escape(text),
            Value::Alt(text) => format!(
                "<rdf:Alt><rdf:li xml:lang=\"x-default\">{}</rdf:li></rdf:Alt>",
                escape(text)
            ),
            Value::Seq(list) => items("Seq", list),
            Value::Bag(list) => items("Bag", list),
        };
        out.push_str(&format!("   <{name}>{body}</{name}>\n"));
    }
    out.push_str("  </rdf:Description>\n");
    out
}

/// A whole packet holding `changes` (those that set a value).
pub fn fresh(changes: &[Change]) -> String {
    format!(
        "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n\
         <x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n <rdf:RDF xmlns:rdf=\"{RDF}\">\n{}\
         </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>",
        new_description("", changes)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKET: &str = r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="uuid:1" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    pdf:Producer="Old &amp; tired" pdf:Keywords="a, b"/>
  <rdf:Description rdf:about="uuid:1" xmlns:d="http://purl.org/dc/elements/1.1/">
   <d:title><rdf:Alt><rdf:li xml:lang="fr">Titre</rdf:li><rdf:li xml:lang="x-default">Old title</rdf:li></rdf:Alt></d:title>
   <d:creator><rdf:Seq><rdf:li>Ann</rdf:li><rdf:li>Bob</rdf:li></rdf:Seq></d:creator>
   <d:format>application/pdf</d:format>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"#;

    #[test]
    fn reads_attributes_alternatives_and_sequences() {
        assert_eq!(
            property(PACKET, PDF, "Producer", "").as_deref(),
            Some("Old & tired")
        );
        assert_eq!(
            property(PACKET, DC, "title", "").as_deref(),
            Some("Old title")
        );
        assert_eq!(
            property(PACKET, DC, "creator", "; ").as_deref(),
            Some("Ann; Bob")
        );
        assert_eq!(
            property(PACKET, DC, "format", "").as_deref(),
            Some("application/pdf")
        );
        assert_eq!(property(PACKET, DC, "description", ""), None);
    }

    #[test]
    fn reads_leniently() {
        // No declarations, an unclosed element, an unknown entity, a comment and CDATA.
        let xml = "<rdf:RDF><rdf:Description><!-- c --><pdf:Producer>A &bogus; <![CDATA[<b>]]>\
                   </pdf:Producer><dc:title><rdf:Alt><rdf:li>T</rdf:Alt>";
        assert_eq!(
            property(xml, PDF, "Producer", "").as_deref(),
            Some("A &bogus; <b>")
        );
        assert_eq!(property(xml, DC, "title", "").as_deref(), Some("T"));
        assert_eq!(property("not xml <<<", DC, "title", ""), None);
        assert_eq!(property("<a b='1", DC, "title", ""), None);
    }

    #[test]
    fn edits_in_place_and_keeps_the_rest() {
        let changes = [
            Change {
                ns: DC,
                local: "title",
                value: Some(Value::Alt("New <\"title\"> & more".into())),
            },
            Change {
                ns: PDF,
                local: "Producer",
                value: None,
            },
            Change {
                ns: DC,
                local: "creator",
                value: Some(Value::Seq(vec!["Zoë".into()])),
            },
        ];
        let edited = apply(PACKET, &changes).expect("has rdf:RDF");
        assert_eq!(
            property(&edited, DC, "title", "").as_deref(),
            Some("New <\"title\"> & more")
        );
        assert_eq!(property(&edited, PDF, "Producer", ""), None);
        assert_eq!(
            property(&edited, DC, "creator", "; ").as_deref(),
            Some("Zoë")
        );
        assert_eq!(
            property(&edited, PDF, "Keywords", "").as_deref(),
            Some("a, b")
        );
        assert_eq!(
            property(&edited, DC, "format", "").as_deref(),
            Some("application/pdf")
        );
        assert!(edited.contains("rdf:about=\"uuid:1\" xmlns:rdf="));
        assert!(!edited.contains("Titre"));
        assert!(edited.ends_with("<?xpacket end=\"w\"?>"));
        assert_eq!(apply("<x/>", &changes), None);
    }

    #[test]
    fn a_fresh_packet_reads_back() {
        let changes = [Change {
            ns: XMP,
            local: "CreatorTool",
            value: Some(Value::Text("Tool\u{1}'s".into())),
        }];
        let packet = fresh(&changes);
        assert_eq!(
            property(&packet, XMP, "CreatorTool", "").as_deref(),
            Some("Tool's")
        );
    }

    #[test]
    fn utf16_packets_decode() {
        let text = "<a>é</a>";
        let mut bytes = vec![0xFE, 0xFF];
        for unit in text.encode_utf16() {
            bytes.extend_from_slice(&unit.to_be_bytes());
        }
        assert_eq!(decode(&bytes), (text.to_string(), false));
        assert_eq!(decode(text.as_bytes()), (text.to_string(), true));
    }
}
