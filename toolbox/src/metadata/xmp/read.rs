//! Reading a property the way a reader sees it.

use super::RDF;
use super::XML;
use super::scan::{Element, Tree};

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
pub(super) fn property(xml: &str, ns: &str, local: &str, sep: &str) -> Option<String> {
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

#[cfg(test)]
pub(super) const PACKET: &str = r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
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

#[cfg(test)]
mod tests {
    use super::super::{DC, PDF};
    use super::*;

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
}
