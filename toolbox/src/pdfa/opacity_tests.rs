//! PDF/A-1 keeps translucent content see-through: a generated document converted whole.
#![allow(clippy::unwrap_used)]

use lopdf::{Document, Object, Stream, dictionary};

use super::{Level, convert};

/// Page 1: black text, then a 40 % yellow rectangle over it (ExtGState /ca 0.4). Page 2:
/// black text under a highlight annotation (/CA 0.4, an appearance that multiplies). Page 3:
/// a rectangle drawn through a soft mask, which vectors cannot keep.
fn write_input(path: &std::path::Path) {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let translucent =
        doc.add_object(dictionary! { "Type" => "ExtGState", "ca" => 0.4, "CA" => 0.4 });
    let multiply = doc.add_object(dictionary! { "Type" => "ExtGState", "BM" => "Multiply" });
    let mask_group = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Group" => dictionary! { "S" => "Transparency", "CS" => "DeviceGray" },
        },
        b"0.5 g 0 0 612 792 re f".to_vec(),
    ));
    let masked = doc.add_object(dictionary! {
        "Type" => "ExtGState",
        "SMask" => dictionary! { "Type" => "Mask", "S" => "Luminosity", "G" => mask_group },
    });
    let text = b"BT /F1 24 Tf 72 700 Td (Hidden words) Tj ET\n".to_vec();
    let mut page_ids = Vec::new();
    for (n, extra) in [
        (1, &b"/GS1 gs 1 1 0 rg 66 690 200 36 re f\n"[..]),
        (2, b""),
        (3, b"/GS3 gs 1 1 0 rg 66 690 200 36 re f\n"),
    ] {
        let mut content = text.clone();
        content.extend_from_slice(extra);
        let contents = doc.add_object(Stream::new(dictionary! {}, content));
        let mut page = dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Contents" => contents,
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => font },
                "ExtGState" => dictionary! { "GS1" => translucent, "GS3" => masked },
            },
        };
        if n == 2 {
            let appearance = doc.add_object(Stream::new(
                dictionary! {
                    "Type" => "XObject", "Subtype" => "Form",
                    "BBox" => vec![0.into(), 0.into(), 200.into(), 36.into()],
                    "Resources" => dictionary! { "ExtGState" => dictionary! { "M" => multiply } },
                },
                b"/M gs 1 1 0 rg 0 0 200 36 re f".to_vec(),
            ));
            let annot = doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Highlight", "F" => 4, "CA" => 0.4,
                "Rect" => vec![66.into(), 690.into(), 266.into(), 726.into()],
                "QuadPoints" => vec![66.into(), 726.into(), 266.into(), 726.into(), 66.into(), 690.into(), 266.into(), 690.into()],
                "C" => vec![1.into(), 1.into(), 0.into()],
                "Contents" => Object::string_literal("a note"),
                "AP" => dictionary! { "N" => appearance },
            });
            page.set("Annots", vec![Object::Reference(annot)]);
        }
        page_ids.push(doc.add_object(page));
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => page_ids.iter().map(|&id| id.into()).collect::<Vec<Object>>(),
            "Count" => 3,
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc.save(path).unwrap();
}

fn content(doc: &Document, page: lopdf::ObjectId) -> String {
    String::from_utf8_lossy(&doc.get_page_content(page)).into_owned()
}

#[test]
fn translucent_content_stays_see_through_at_pdfa_1() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
    write_input(&input);
    let converted = convert(&input, Level::A1b, &output).unwrap();
    let doc = Document::load(&output).unwrap();
    // Nothing translucent is left.
    for object in doc.objects.values() {
        let dict = match object {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &s.dict,
            _ => continue,
        };
        for key in [b"ca".as_slice(), b"CA"] {
            if let Ok(value) = dict.get(key) {
                assert_eq!(super::annots::number(value), Some(1.0), "{dict:?}");
            }
        }
    }
    let pages: Vec<_> = doc.get_pages().into_values().collect();
    // Page 1: the rectangle, blended with white, is drawn before (under) the text.
    let first = content(&doc, pages[0]);
    let rect = first.find("66 690 200 36 re").expect("the rectangle stays");
    let shown = first.find("Tj").expect("the text stays");
    assert!(
        rect < shown,
        "the rectangle is drawn over the text:\n{first}"
    );
    assert!(first.contains("1 1 0.6 scn"), "not blended:\n{first}");
    // Page 2: the highlight's appearance is drawn in the page, under the text; the
    // annotation stays, opaque and empty.
    let second = content(&doc, pages[1]);
    let drawn = second
        .find(" Do")
        .expect("the highlight is drawn in the page");
    assert!(drawn < second.find("Tj").unwrap(), "{second}");
    let annots = doc
        .get_dictionary(pages[1])
        .unwrap()
        .get(b"Annots")
        .unwrap()
        .as_array()
        .unwrap();
    let annot = doc
        .get_dictionary(annots[0].as_reference().unwrap())
        .unwrap();
    assert!(!annot.has(b"CA"));
    // Page 3: a soft mask cannot be kept in vectors: the page is listed for a picture.
    assert_eq!(
        converted
            .pictured
            .iter()
            .map(|(page, _)| *page)
            .collect::<Vec<_>>(),
        [3],
        "{:?}",
        converted.pictured
    );
    let said = converted.changes.join("; ");
    assert!(said.contains("see-through"), "{said}");
}
