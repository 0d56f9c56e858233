//! Editing a packet in place, and writing a new one.

use super::entities::escape;
use super::scan::Tree;
use super::{DC, PDF, RDF, XMP};

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
    use super::super::read::{PACKET, property};
    use super::*;

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
}
