//! A file's print condition: the catalog's output intents and a PDF/X file's claims, which
//! screen, ebook and printer copies drop, and the pages' /DefaultCMYK profiles, which screen
//! and ebook copies drop (see the module above).

use lopdf::{Document, Object, ObjectId};

use super::xmp::{document_xmp, replace};

/// Removes the catalog's output intents and the PDF/X claims, and for a screen copy the
/// resources' /DefaultCMYK, unless the XMP says PDF/A.
pub fn drop(doc: &mut Document, catalog: Option<ObjectId>, screen_copy: bool) -> usize {
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
    if screen_copy {
        removed += drop_default_cmyk(doc);
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

/// /DefaultCMYK in every resource colour space dictionary: a CMYK profile (often half a
/// megabyte) saying how the page's DeviceCMYK is to look. A screen copy turns CMYK images into
/// RGB through the viewers' standard conversion, so the rest of the page follows the same
/// one: pikepdf's cmyk.pdf without its profile renders at 39.5 dB against itself with it,
/// Ghostscript's sRGB screen copy at 41.6 dB.
fn drop_default_cmyk(doc: &mut Document) -> usize {
    let referenced: Vec<ObjectId> = doc
        .objects
        .values()
        .filter_map(|object| match object {
            Object::Dictionary(dict) => dict.get(b"ColorSpace").and_then(Object::as_reference).ok(),
            _ => None,
        })
        .collect();
    let mut removed = 0;
    for object in doc.objects.values_mut() {
        if let Object::Dictionary(dict) = object
            && let Ok(Object::Dictionary(spaces)) = dict.get_mut(b"ColorSpace")
        {
            removed += usize::from(spaces.remove(b"DefaultCMYK").is_some());
        }
    }
    for id in referenced {
        // Only a dictionary of named spaces: an image's /ColorSpace is a name or an array.
        if let Ok(spaces) = doc.get_dictionary_mut(id) {
            removed += usize::from(spaces.remove(b"DefaultCMYK").is_some());
        }
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

#[cfg(test)]
mod tests {
    use lopdf::{Dictionary, dictionary};

    use super::*;

    #[test]
    fn a_screen_copy_drops_default_cmyk_inline_or_referenced() {
        let mut doc = Document::with_version("1.7");
        let profile = doc.add_object(lopdf::Stream::new(dictionary! {"N" => 4}, vec![0; 64]));
        let cmyk = || vec![Object::Name(b"ICCBased".to_vec()), profile.into()];
        let shared = doc.add_object(dictionary! {"DefaultCMYK" => cmyk(), "CS0" => "DeviceRGB"});
        let inline = doc.add_object(dictionary! {
            "ColorSpace" => dictionary! {"DefaultCMYK" => cmyk()},
        });
        let by_reference = doc.add_object(dictionary! {"ColorSpace" => shared});
        let catalog = doc.add_object(dictionary! {"Type" => "Catalog"});
        let spaces = |doc: &Document, id| -> Dictionary {
            match doc
                .get_dictionary(id)
                .expect("resources")
                .get(b"ColorSpace")
            {
                Ok(Object::Dictionary(d)) => d.clone(),
                Ok(Object::Reference(r)) => doc.get_dictionary(*r).expect("spaces").clone(),
                _ => panic!("no spaces"),
            }
        };
        let mut kept = doc.clone();
        drop(&mut kept, Some(catalog), false);
        assert!(spaces(&kept, inline).has(b"DefaultCMYK"));
        drop(&mut doc, Some(catalog), true);
        assert!(!spaces(&doc, inline).has(b"DefaultCMYK"));
        let named = spaces(&doc, by_reference);
        assert!(!named.has(b"DefaultCMYK") && named.has(b"CS0"));
    }
}
