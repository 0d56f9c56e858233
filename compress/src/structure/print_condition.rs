//! A file's print condition: the catalog's output intents and a PDF/X file's claims, which
//! screen, ebook and printer copies drop (see the module above).

use lopdf::{Document, Object, ObjectId};

use super::xmp::{document_xmp, replace};

/// Removes the catalog's output intents and the PDF/X claims, unless the XMP says PDF/A.
pub fn drop(doc: &mut Document, catalog: Option<ObjectId>) -> usize {
    let Some(catalog) = catalog else {
        return 0;
    };
    let xmp = document_xmp(doc, catalog);
    if xmp
        .as_ref()
        .is_some_and(|(_, xml)| contains(xml, b"pdfaid:part"))
    {
        return 0;
    }
    let mut removed = 0;
    if let Ok(dict) = doc.get_dictionary_mut(catalog) {
        removed += usize::from(dict.remove(b"OutputIntents").is_some());
    }
    if let Ok(info) = doc.trailer.get(b"Info").and_then(Object::as_reference)
        && let Ok(info) = doc.get_dictionary_mut(info)
    {
        for key in [b"GTS_PDFXVersion".as_slice(), b"GTS_PDFXConformance"] {
            removed += usize::from(info.remove(key).is_some());
        }
    }
    if let Some((id, xml)) = xmp
        && let Some(cleaned) = without_pdfx_claim(&xml)
    {
        replace(doc, id, cleaned);
        removed += 1;
    }
    removed
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}

/// The XMP without its PDF/X version and conformance properties, written either as elements
/// or as attributes; `None` when it has none.
fn without_pdfx_claim(xml: &[u8]) -> Option<Vec<u8>> {
    let mut out = xml.to_vec();
    let mut changed = false;
    for property in [
        "pdfxid:GTS_PDFXVersion",
        "pdfx:GTS_PDFXVersion",
        "pdfx:GTS_PDFXConformance",
    ] {
        let open = format!("<{property}>");
        let close = format!("</{property}>");
        while let Some(start) = find(&out, open.as_bytes()) {
            let Some(end) = find(&out[start..], close.as_bytes()) else {
                break;
            };
            out.drain(start..start + end + close.len());
            changed = true;
        }
        let attribute = format!(" {property}=\"");
        while let Some(start) = find(&out, attribute.as_bytes()) {
            let value = start + attribute.len();
            let Some(end) = out[value..].iter().position(|&b| b == b'"') else {
                break;
            };
            out.drain(start..value + end + 1);
            changed = true;
        }
    }
    changed.then_some(out)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
