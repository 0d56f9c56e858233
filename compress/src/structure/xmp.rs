//! The document's XMP packet, slimmed. Thumbnails go at every preset (the page previews of
//! `xmp:Thumbnails`, base64 JPEG of 5 to 50 KB, are what `/Thumb` is in XMP); screen, ebook
//! and printer also drop what only the authoring tool reads: InDesign's and Illustrator's
//! swatches, fonts and plate lists, the edit history, the placed-file manifest, Photoshop's
//! ancestors and Camera Raw's settings. Titles, authors, dates, rights, identifiers and the
//! PDF/A and PDF/X identification stay. Indentation and the packet's padding go too.
//! Ghostscript keeps none of the original packet (it writes a new one from /Info); this keeps
//! what a user or an archive reads.

use lopdf::{Document, Object, ObjectId};
use std::collections::HashSet;

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::{PrefixDeclaration, ResolveResult};
use quick_xml::reader::{NsReader, Reader};

use crate::Preset;

/// Largest XMP packet read.
pub const MAX_XMP: usize = 4 << 20;

const XMP: &[u8] = b"http://ns.adobe.com/xap/1.0/";
const XMP_MM: &[u8] = b"http://ns.adobe.com/xap/1.0/mm/";
const PAGED_TEXT: &[u8] = b"http://ns.adobe.com/xap/1.0/t/pg/";
const PHOTOSHOP: &[u8] = b"http://ns.adobe.com/photoshop/1.0/";
const ILLUSTRATOR: &[u8] = b"http://ns.adobe.com/illustrator/1.0/";
const CAMERA_RAW: &[u8] = b"http://ns.adobe.com/camera-raw-settings/1.0/";
const PDFA_EXTENSION: &[u8] = b"http://www.aiim.org/pdfa/ns/extension/";

/// Properties dropped at screen, ebook and printer: (namespace, local name; empty for all).
const AUTHORING: &[(&[u8], &[u8])] = &[
    (PAGED_TEXT, b""),
    (ILLUSTRATOR, b""),
    (CAMERA_RAW, b""),
    (XMP_MM, b"History"),
    (XMP_MM, b"DerivedFrom"),
    (XMP_MM, b"Ingredients"),
    (XMP_MM, b"Manifest"),
    (XMP_MM, b"Pantry"),
    (PHOTOSHOP, b"DocumentAncestors"),
    (PHOTOSHOP, b"TextLayers"),
];

/// The catalog's XMP stream and its decoded bytes.
pub fn document_xmp(doc: &Document, catalog: ObjectId) -> Option<(ObjectId, Vec<u8>)> {
    let id = doc
        .get_dictionary(catalog)
        .and_then(|c| c.get(b"Metadata"))
        .and_then(Object::as_reference)
        .ok()?;
    let stream = doc.get_object(id).ok()?.as_stream().ok()?;
    let xml = if stream.dict.has(b"Filter") {
        crate::plain::decode(stream, MAX_XMP).ok()?
    } else {
        stream.content.clone()
    };
    Some((id, xml))
}

/// Rewrites the document's XMP without what `preset` drops; returns whether it changed.
pub fn slim(doc: &mut Document, catalog: Option<ObjectId>, preset: Preset) -> bool {
    let Some((id, xml)) = catalog.and_then(|c| document_xmp(doc, c)) else {
        return false;
    };
    let Some(slimmed) = slimmed(&xml, preset) else {
        return false;
    };
    replace(doc, id, slimmed);
    true
}

/// Puts `xml` in the XMP stream `id`, unfiltered: PDF/A wants the packet readable as it is.
pub fn replace(doc: &mut Document, id: ObjectId, xml: Vec<u8>) {
    if let Ok(Object::Stream(stream)) = doc.get_object_mut(id) {
        stream.dict.remove(b"Filter");
        stream.dict.remove(b"DecodeParms");
        stream.set_content(xml);
    }
}

/// The packet without the dropped properties and its indentation; `None` when it cannot be
/// read as XML (it is then kept as it was) or nothing would be saved.
fn slimmed(xml: &[u8], preset: Preset) -> Option<Vec<u8>> {
    let authoring = preset != Preset::Prepress;
    // PDF/A's extension schemas describe custom properties to a PDF/A validator: without a
    // PDF/A claim (or once the PDF/X one is gone) nothing reads them.
    let schemas = !super::print_condition::contains(xml, b"pdfaid:part");
    let dropped = |namespace: &[u8], local: &[u8]| {
        (namespace == XMP && local == b"Thumbnails")
            || (authoring && schemas && namespace == PDFA_EXTENSION)
            || (authoring
                && AUTHORING
                    .iter()
                    .any(|&(ns, name)| ns == namespace && (name.is_empty() || name == local)))
    };
    let mut reader = NsReader::from_reader(xml);
    let mut writer = quick_xml::Writer::new(Vec::with_capacity(xml.len() / 2));
    // Depth inside a dropped element.
    let mut skipping = 0usize;
    loop {
        let (namespace, event) = reader.read_resolved_event().ok()?;
        let namespace = match namespace {
            ResolveResult::Bound(ns) => ns.into_inner().to_vec(),
            _ => Vec::new(),
        };
        match event {
            Event::Eof => break,
            Event::Start(start) => {
                if skipping > 0 || dropped(&namespace, start.local_name().into_inner()) {
                    skipping += 1;
                    continue;
                }
                writer.write_event(Event::Start(start)).ok()?;
            }
            Event::End(end) => {
                if skipping > 0 {
                    skipping -= 1;
                    continue;
                }
                writer.write_event(Event::End(end)).ok()?;
            }
            Event::Empty(empty)
                if skipping == 0 && !dropped(&namespace, empty.local_name().into_inner()) =>
            {
                writer.write_event(Event::Empty(empty)).ok()?;
            }
            Event::Empty(_) => {}
            // Indentation and padding: whitespace that spans lines is never a value.
            Event::Text(text)
                if text.iter().all(u8::is_ascii_whitespace) && text.contains(&b'\n') => {}
            event if skipping == 0 => writer.write_event(event).ok()?,
            _ => {}
        }
    }
    let out = without_unused_prefixes(&writer.into_inner())?;
    (out.len() < xml.len()).then_some(out)
}

/// The packet without the `xmlns:` declarations of prefixes nothing in it uses any more
/// (those of the dropped properties: a dozen on an Illustrator packet).
fn without_unused_prefixes(xml: &[u8]) -> Option<Vec<u8>> {
    let prefix = |name: &[u8]| {
        name.iter()
            .position(|&b| b == b':')
            .map(|at| name[..at].to_vec())
    };
    let mut used = HashSet::new();
    let mut reader = Reader::from_reader(xml);
    loop {
        match reader.read_event().ok()? {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                used.extend(prefix(e.name().as_ref()));
                for attribute in e.attributes() {
                    let key = attribute.ok()?.key;
                    if key.as_namespace_binding().is_none() {
                        used.extend(prefix(key.as_ref()));
                    }
                }
            }
            _ => {}
        }
    }
    let trim = |e: &BytesStart| -> Option<BytesStart<'static>> {
        let mut out = BytesStart::new(std::str::from_utf8(e.name().as_ref()).ok()?.to_owned());
        for attribute in e.attributes() {
            let attribute = attribute.ok()?;
            let unused = match attribute.key.as_namespace_binding() {
                Some(PrefixDeclaration::Named(name)) => !used.contains(name),
                _ => false,
            };
            if !unused {
                out.push_attribute(attribute);
            }
        }
        Some(out.into_owned())
    };
    let mut reader = Reader::from_reader(xml);
    let mut writer = quick_xml::Writer::new(Vec::with_capacity(xml.len()));
    loop {
        let event = match reader.read_event().ok()? {
            Event::Eof => break,
            Event::Start(e) => Event::Start(trim(&e)?),
            Event::Empty(e) => Event::Empty(trim(&e)?),
            event => event,
        };
        writer.write_event(event).ok()?;
    }
    Some(writer.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PACKET: &str = r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
   <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
            xmlns:xap="http://ns.adobe.com/xap/1.0/"
            xmlns:xapGImg="http://ns.adobe.com/xap/1.0/g/img/"
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:stRef="http://ns.adobe.com/xap/1.0/sType/ResourceRef#"
            xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
         <xap:CreatorTool>Adobe InDesign</xap:CreatorTool>
         <xap:Thumbnails>
            <rdf:Alt><rdf:li rdf:parseType="Resource">
               <xapGImg:image>/9j/4AAQSkZJRgABAgEASABIAAD</xapGImg:image>
            </rdf:li></rdf:Alt>
         </xap:Thumbnails>
         <xmpMM:DocumentID>uuid:1</xmpMM:DocumentID>
         <xmpMM:History><rdf:Seq><rdf:li>saved</rdf:li></rdf:Seq></xmpMM:History>
         <dc:title><rdf:Alt><rdf:li xml:lang="x-default">A  title &amp; more</rdf:li></rdf:Alt></dc:title>
         <pdfaid:part>2</pdfaid:part>
      </rdf:Description>
   </rdf:RDF>
</x:xmpmeta>
                                                                                          
<?xpacket end="w"?>"#;

    fn text(preset: Preset) -> String {
        String::from_utf8(slimmed(PACKET.as_bytes(), preset).expect("slimmed")).expect("utf-8")
    }

    #[test]
    fn thumbnails_go_everywhere_authoring_data_below_prepress() {
        let ebook = text(Preset::Ebook);
        assert!(
            !ebook.contains("Thumbnails") && !ebook.contains("/9j/"),
            "{ebook}"
        );
        assert!(!ebook.contains("History"), "{ebook}");
        for kept in [
            "<xap:CreatorTool>Adobe InDesign</xap:CreatorTool>",
            "<xmpMM:DocumentID>uuid:1</xmpMM:DocumentID>",
            "A  title &amp; more",
            "<pdfaid:part>2</pdfaid:part>",
            "<?xpacket end=\"w\"?>",
        ] {
            assert!(ebook.contains(kept), "{kept} lost: {ebook}");
        }
        assert!(!ebook.contains(">\n"), "indentation kept: {ebook}");
        // Declarations of prefixes nothing uses any more go; those still used stay.
        assert!(!ebook.contains("xmlns:xapGImg") && !ebook.contains("xmlns:stRef"));
        assert!(ebook.contains("xmlns:xap=") && ebook.contains("xmlns:rdf="));
        let prepress = text(Preset::Prepress);
        assert!(!prepress.contains("Thumbnails") && prepress.contains("xmpMM:History"));
    }

    #[test]
    fn extension_schemas_go_only_without_a_pdfa_claim() {
        let packet = |claim: &str| {
            format!(
                r#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaExtension:schemas><rdf:Bag/></pdfaExtension:schemas>{claim}</rdf:Description></rdf:RDF></x:xmpmeta>"#
            )
        };
        let without = slimmed(packet("").as_bytes(), Preset::Screen).expect("slimmed");
        assert!(!String::from_utf8_lossy(&without).contains("schemas"));
        let claimed = packet("<pdfaid:part>1</pdfaid:part>");
        let with = slimmed(claimed.as_bytes(), Preset::Screen).unwrap_or(claimed.into_bytes());
        assert!(String::from_utf8_lossy(&with).contains("<pdfaExtension:schemas>"));
    }

    #[test]
    fn a_packet_that_is_not_xml_is_kept() {
        assert_eq!(
            slimmed(b"<x:xmpmeta><rdf:RDF></x:xmpmeta>", Preset::Screen),
            None
        );
    }
}
