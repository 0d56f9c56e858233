//! Document structure: what no viewer draws is dropped, per preset, the way Ghostscript's
//! presets (Distiller's settings) do. Page thumbnails (`/Thumb`: viewers draw their own) and
//! private application data (`/PieceInfo`: Illustrator and InDesign keep whole editable copies
//! there; the trailer's `/AdditionalStreams`: LibreOffice's hybrid PDFs keep the ODF source
//! there; annotations' `/AAPL:AKExtras`: Apple's markup keeps a copy of each annotation it
//! made, images included) go at every preset, and so do annotations' links to pages outside the page tree
//! (`stale_pages`). Screen and ebook also drop the print-only parts: per-object XMP
//! (`/Metadata` of pages, images and forms; the document's own stays), OPI proxies and
//! alternate images, and the graphics state's transfer functions and UCR/black generation;
//! printer drops halftones too, prepress keeps all of those. The document information is kept
//! at every preset, and so is the document's XMP, slimmed (`xmp`): a title or an author is
//! what a user would miss, an embedded page preview or an edit history is not.
//!
//! Only prepress makes a copy for a print shop, so the other presets drop the print condition,
//! as Ghostscript's do: the catalog's `/OutputIntents` (a CMYK profile of half a megabyte is
//! common) and the PDF/X version claim in the document information and its XMP, so the copy
//! does not claim to be what it is no longer. Screen and ebook turn CMYK into RGB, which PDF/X
//! forbids; printer copies are for office printers, which read no output intent. Screen and
//! ebook also drop the pages' /DefaultCMYK profiles: their CMYK follows the viewers' standard
//! conversion, as their converted CMYK images do. A PDF/A file keeps its output intent and
//! default spaces at every preset: PDF/A requires them.

mod form_fonts;
mod print_condition;
mod stale_pages;
mod xmp;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Preset;

/// Keys removed from a graphics state dictionary: (key, kept at printer, kept at prepress).
const GRAPHICS_STATE: &[(&[u8], bool, bool)] = &[
    (b"HT", false, true),
    (b"TR", true, true),
    (b"TR2", true, true),
    (b"UCR", true, true),
    (b"UCR2", true, true),
    (b"BG", true, true),
    (b"BG2", true, true),
];

/// Drops what the preset does not keep; returns how many entries went.
pub fn clean(doc: &mut Document, preset: Preset) -> usize {
    let print_only = matches!(preset, Preset::Screen | Preset::Ebook);
    let catalog = doc.trailer.get(b"Root").and_then(Object::as_reference).ok();
    let mut removed = 0;
    for (&id, object) in doc.objects.iter_mut() {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &mut stream.dict,
            _ => continue,
        };
        // Apple's markup keeps a second copy of each annotation it made, appearance and
        // images included, for its own editor: no viewer draws it.
        let mut keys: Vec<&[u8]> = vec![b"PieceInfo", b"AAPL:AKExtras"];
        match kind(dict) {
            Kind::Page => {
                keys.push(b"Thumb");
                if print_only {
                    keys.push(b"Metadata");
                }
            }
            Kind::Image | Kind::Form if print_only => {
                keys.extend([b"Metadata".as_slice(), b"OPI", b"Alternates"]);
            }
            _ if print_only && Some(id) != catalog && is_xmp_owner(dict) => {
                keys.push(b"Metadata");
            }
            _ => {}
        }
        removed += keys
            .into_iter()
            .filter(|key| dict.remove(key).is_some())
            .count();
    }
    // Graphics states: those written inline are cleaned on the way, those referenced after.
    let mut found = Found::default();
    for object in doc.objects.values_mut() {
        removed += inline_graphics_states(object, preset, &mut found, 0);
    }
    // An /ExtGState entry may itself be a reference to the dictionary of states.
    for list in found.lists {
        if let Ok(states) = doc.get_dictionary(list) {
            found
                .states
                .extend(states.iter().filter_map(|(_, s)| s.as_reference().ok()));
        }
    }
    found.states.sort_unstable();
    found.states.dedup();
    for id in found.states {
        if let Ok(state) = doc.get_dictionary_mut(id) {
            removed += clean_graphics_state(state, preset);
        }
    }
    if preset != Preset::Prepress {
        removed += print_condition::drop(doc, catalog, print_only);
    }
    removed += usize::from(xmp::slim(doc, catalog, preset));
    removed += stale_pages::unlink(doc);
    // LibreOffice's hybrid PDFs carry the whole editable document (ODF) in the trailer, for
    // LibreOffice alone to open again: private application data, like /PieceInfo.
    removed += usize::from(doc.trailer.remove(b"AdditionalStreams").is_some());
    removed += form_fonts::drop_unnamed(doc);
    removed
}

enum Kind {
    Page,
    Image,
    Form,
    Other,
}

fn kind(dict: &Dictionary) -> Kind {
    let name = |key: &[u8]| dict.get(key).and_then(Object::as_name).ok();
    match (name(b"Type"), name(b"Subtype")) {
        (Some(b"Page"), _) => Kind::Page,
        (_, Some(b"Image")) => Kind::Image,
        (_, Some(b"Form")) => Kind::Form,
        _ => Kind::Other,
    }
}

/// Fonts' descriptors and other dictionaries may carry their own XMP too; only a stream
/// reference is removed, never an entry named Metadata that is something else.
fn is_xmp_owner(dict: &Dictionary) -> bool {
    matches!(dict.get(b"Metadata"), Ok(Object::Reference(_)))
        && !matches!(
            dict.get(b"Type").and_then(Object::as_name),
            Ok(b"Catalog" | b"Metadata")
        )
}

/// Nested dictionaries deeper than this are not searched for resources.
const MAX_DEPTH: usize = 32;

/// Graphics states and dictionaries of them that resources reference.
#[derive(Default)]
struct Found {
    states: Vec<ObjectId>,
    lists: Vec<ObjectId>,
}

/// Cleans the graphics states written inline in any resource dictionary within `object` and
/// collects the references found in `/ExtGState` entries.
fn inline_graphics_states(
    object: &mut Object,
    preset: Preset,
    found: &mut Found,
    depth: usize,
) -> usize {
    if depth > MAX_DEPTH {
        return 0;
    }
    let dict = match object {
        Object::Dictionary(dict) => dict,
        Object::Stream(stream) => &mut stream.dict,
        Object::Array(items) => {
            return items
                .iter_mut()
                .map(|item| inline_graphics_states(item, preset, found, depth + 1))
                .sum();
        }
        _ => return 0,
    };
    let mut removed = 0;
    for (key, value) in dict.iter_mut() {
        if key.as_slice() != b"ExtGState" {
            removed += inline_graphics_states(value, preset, found, depth + 1);
            continue;
        }
        match value {
            Object::Reference(id) => found.lists.push(*id),
            Object::Dictionary(states) => {
                for (_, state) in states.iter_mut() {
                    match state {
                        Object::Reference(id) => found.states.push(*id),
                        Object::Dictionary(state) => {
                            removed += clean_graphics_state(state, preset);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    removed
}

fn clean_graphics_state(state: &mut Dictionary, preset: Preset) -> usize {
    GRAPHICS_STATE
        .iter()
        .filter(|(_, printer, prepress)| match preset {
            Preset::Screen | Preset::Ebook => true,
            Preset::Printer => !printer,
            Preset::Prepress => !prepress,
        })
        .filter(|(key, _, _)| state.remove(key).is_some())
        .count()
}

#[cfg(test)]
mod tests {
    use lopdf::{Stream, dictionary};

    use super::print_condition::contains;
    use super::*;
    use crate::test_pdf::one_page;

    /// A page with a thumbnail, application data and its own XMP, drawing a form and an
    /// image that carry XMP too, and a graphics state with a halftone and a transfer function.
    fn document() -> (Document, ObjectId, ObjectId, ObjectId) {
        let mut doc = Document::with_version("1.7");
        let xmp = doc.add_object(Stream::new(
            dictionary! {"Type" => "Metadata"},
            b"<x/>".to_vec(),
        ));
        let thumb = doc.add_object(Stream::new(dictionary! {}, vec![0; 8]));
        let image = doc.add_object(Stream::new(
            dictionary! {"Subtype" => "Image", "Metadata" => xmp, "OPI" => dictionary! {}},
            vec![0; 4],
        ));
        let state = doc.add_object(dictionary! {"HT" => "Default", "TR" => "Identity", "LW" => 2});
        let page = one_page(
            &mut doc,
            dictionary! {
                "Thumb" => thumb,
                "PieceInfo" => dictionary! {"Illustrator" => dictionary! {}},
                "AAPL:AKExtras" => dictionary! {"AAPL:AKVersion" => 2},
                "Metadata" => xmp,
                "Resources" => dictionary! {
                    "XObject" => dictionary! {"Im0" => image},
                    "ExtGState" => dictionary! {"G0" => state, "G1" => dictionary! {"UCR" => "Default"}},
                },
            },
            dictionary! {"Metadata" => xmp},
        );
        (doc, page, image, state)
    }

    #[test]
    fn every_preset_drops_thumbnails_and_application_data() {
        let (mut doc, page, _, _) = document();
        let source = doc.add_object(lopdf::Stream::new(dictionary! {}, b"PK...".to_vec()));
        doc.trailer.set(
            "AdditionalStreams",
            vec![
                Object::Name(b"application/vnd.oasis.opendocument.text".to_vec()),
                source.into(),
            ],
        );
        clean(&mut doc, Preset::Prepress);
        assert!(!doc.trailer.has(b"AdditionalStreams"));
        let page = doc.get_dictionary(page).expect("page");
        assert!(!page.has(b"Thumb") && !page.has(b"PieceInfo") && !page.has(b"AAPL:AKExtras"));
        // Prepress keeps the print parts.
        assert!(page.has(b"Metadata"));
    }

    #[test]
    fn screen_drops_print_parts_but_keeps_the_documents_metadata() {
        let (mut doc, page, image, state) = document();
        clean(&mut doc, Preset::Screen);
        assert!(!doc.get_dictionary(page).expect("page").has(b"Metadata"));
        let image = &doc
            .get_object(image)
            .expect("image")
            .as_stream()
            .expect("stream")
            .dict;
        assert!(!image.has(b"Metadata") && !image.has(b"OPI"));
        let state = doc.get_dictionary(state).expect("state");
        assert!(!state.has(b"HT") && !state.has(b"TR") && state.has(b"LW"));
        let catalog = doc.catalog().expect("catalog");
        assert!(catalog.has(b"Metadata"));
        let inline = doc
            .get_dictionary(page)
            .and_then(|p| p.get_deref(b"Resources", &doc))
            .and_then(Object::as_dict)
            .and_then(|r| r.get(b"ExtGState"))
            .and_then(Object::as_dict)
            .and_then(|s| s.get(b"G1"))
            .and_then(Object::as_dict)
            .expect("inline state");
        assert!(!inline.has(b"UCR"));
    }

    #[test]
    fn screen_drops_a_pdfx_print_condition_but_pdfa_keeps_its_intent() {
        for (claim, kept) in [
            (
                "pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion",
                false,
            ),
            ("pdfaid:part>2</pdfaid:part", true),
        ] {
            let (mut doc, _, _, _) = document();
            let xmp =
                format!("<x:xmpmeta><rdf:Description><{claim}></rdf:Description></x:xmpmeta>");
            let xmp = doc.add_object(Stream::new(
                dictionary! {"Type" => "Metadata"},
                xmp.into_bytes(),
            ));
            let intent = doc.add_object(dictionary! {"Type" => "OutputIntent", "S" => "GTS_PDFX"});
            let info = doc.add_object(dictionary! {"Title" => Object::string_literal("t"), "GTS_PDFXVersion" => Object::string_literal("PDF/X-4")});
            doc.trailer.set("Info", info);
            let catalog = doc
                .trailer
                .get(b"Root")
                .and_then(Object::as_reference)
                .expect("root");
            let dict = doc.get_dictionary_mut(catalog).expect("catalog");
            dict.set("Metadata", xmp);
            dict.set("OutputIntents", vec![intent.into()]);
            clean(&mut doc, Preset::Ebook);
            let catalog = doc.get_dictionary(catalog).expect("catalog");
            assert_eq!(catalog.has(b"OutputIntents"), kept);
            let info = doc.get_dictionary(info).expect("info");
            assert_eq!(info.has(b"GTS_PDFXVersion"), kept);
            assert!(info.has(b"Title"));
            let xml = &doc
                .get_object(xmp)
                .expect("xmp")
                .as_stream()
                .expect("stream")
                .content;
            assert_eq!(contains(xml, b"pdfaid"), kept);
            assert!(!contains(xml, b"PDF/X-4"));
        }
        // Printer drops a PDF/X file's print condition too; prepress keeps every intent.
        for (preset, pdfx, kept) in [
            (Preset::Printer, true, false),
            (Preset::Prepress, true, true),
            (Preset::Prepress, false, true),
        ] {
            let (mut doc, _, _, _) = document();
            let intent = doc.add_object(dictionary! {"Type" => "OutputIntent"});
            if pdfx {
                let info = doc.add_object(
                    dictionary! {"GTS_PDFXVersion" => Object::string_literal("PDF/X-1a:2001")},
                );
                doc.trailer.set("Info", info);
            }
            let catalog = doc
                .trailer
                .get(b"Root")
                .and_then(Object::as_reference)
                .expect("root");
            doc.get_dictionary_mut(catalog)
                .expect("catalog")
                .set("OutputIntents", vec![intent.into()]);
            clean(&mut doc, preset);
            let catalog = doc.get_dictionary(catalog).expect("catalog");
            assert_eq!(
                catalog.has(b"OutputIntents"),
                kept,
                "{preset:?} pdfx {pdfx}"
            );
        }
    }

    #[test]
    fn printer_drops_halftones_only() {
        let (mut doc, _, _, state) = document();
        clean(&mut doc, Preset::Printer);
        let state = doc.get_dictionary(state).expect("state");
        assert!(!state.has(b"HT") && state.has(b"TR"));
    }
}
