//! Redacting beyond the page content: a link and form fields in the area, the structure
//! tree's /ActualText, and with `clean_document` the bookmarks, document information, XMP and
//! attachments holding the term; the output written whole, without the earlier revision the
//! input carried. Judged by qpdf (structure, and every stream decompressed searched for the
//! term), pdftotext, and lopdf reading the form and outline back. Bad options get sentences.
#![allow(clippy::unwrap_used)]

mod redacting;

use std::path::Path;

use lopdf::{Document, Object, ObjectId, Stream, dictionary};
use quire_toolbox::ToolError;
use quire_toolbox::redact::{Area, Rect, redact};
use redacting::build::{Builder, helvetica_width, redaction, run, string};
use redacting::tools;

const TERM: &str = "Jane Doe";

fn rect(r: [f64; 4]) -> Object {
    Object::Array(r.iter().map(|&v| Object::Real(v as f32)).collect())
}

/// A field that is its own widget, with an appearance showing its value.
fn text_field(b: &mut Builder, name: &str, value: &str, page: ObjectId, at: [f64; 4]) -> ObjectId {
    let helvetica = b.helvetica;
    let appearance = b.add(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => rect([0.0, 0.0, at[2] - at[0], at[3] - at[1]]),
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => helvetica } },
        },
        format!("/Tx BMC BT /F1 10 Tf 2 4 Td ({value}) Tj ET EMC").into_bytes(),
    ));
    b.add(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "T" => string(name),
        "V" => string(value), "DV" => string(value), "Rect" => rect(at), "P" => page,
        "AP" => dictionary! { "N" => appearance },
    })
}

fn embedded(b: &mut Builder, name: &str, content: &str) -> ObjectId {
    let file = b.add(Stream::new(
        dictionary! { "Type" => "EmbeddedFile" },
        content.as_bytes().to_vec(),
    ));
    b.add(dictionary! {
        "Type" => "Filespec", "F" => string(name), "UF" => string(name),
        "EF" => dictionary! { "F" => file },
    })
}

/// Two pages; on page 1 "Name: Jane Doe" with a link, a field and a structure element over
/// the name; everything else of the document mentions the name too.
fn fixture(dir: &Path) -> std::path::PathBuf {
    let mut b = Builder::new();
    let piece =
        b.add(dictionary! { "App" => dictionary! { "Private" => string("Jane Doe's draft") } });
    let thumb = b.add(Stream::new(
        dictionary! { "Width" => 2, "Height" => 1, "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8 },
        b"Jane Doe".to_vec(),
    ));
    let page1 = b.page_with(
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Name: Jane Doe) Tj ET EMC\n\
          BT /F1 12 Tf 72 650 Td (Kept: Paris) Tj ET",
        dictionary! {},
        dictionary! { "PieceInfo" => piece, "Thumb" => thumb, "StructParents" => 0 },
    );
    let page2 = b.page("BT /F1 12 Tf 72 700 Td (Second page) Tj ET", dictionary! {});
    let name_start = 72.0 + helvetica_width("Name: ") * 12.0;
    let name_box = [
        name_start - 1.0,
        696.0,
        name_start + helvetica_width(TERM) * 12.0 + 1.0,
        712.0,
    ];
    let link = b.add(dictionary! {
        "Type" => "Annot", "Subtype" => "Link", "Rect" => rect(name_box),
        "A" => dictionary! { "S" => "URI", "URI" => string("mailto:jane.doe@example.com") },
    });
    let name = text_field(
        &mut b,
        "name",
        TERM,
        page1,
        [name_box[0], 680.0, name_box[2], 695.0],
    );
    let city = text_field(&mut b, "city", "Paris", page1, [300.0, 640.0, 400.0, 660.0]);
    // A field with a widget in the area and one on page 2.
    let ssn = b.add(dictionary! { "FT" => "Tx", "T" => string("ssn"), "V" => string("123-45") });
    let ssn1 = b.add(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "Parent" => ssn, "P" => page1,
        "Rect" => rect([name_box[0], 700.0, name_box[0] + 20.0, 705.0]),
    });
    let ssn2 = b.add(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "Parent" => ssn, "P" => page2,
        "Rect" => rect([72.0, 500.0, 200.0, 520.0]),
    });
    if let Ok(dict) = b.doc.get_dictionary_mut(ssn) {
        dict.set("Kids", vec![ssn1.into(), ssn2.into()]);
    }
    let attached = embedded(&mut b, "card.txt", "Contact: JANE DOE, 1 Main St");
    let note = b.add(dictionary! {
        "Type" => "Annot", "Subtype" => "FileAttachment", "Rect" => rect([500.0, 50.0, 520.0, 70.0]),
        "FS" => attached, "Contents" => string("a card"),
    });
    for (page, annots) in [
        (page1, vec![link, name, city, ssn1]),
        (page2, vec![ssn2, note]),
    ] {
        let annots: Vec<Object> = annots.into_iter().map(Object::from).collect();
        b.doc
            .get_dictionary_mut(page)
            .unwrap()
            .set("Annots", annots);
    }
    let notes = embedded(&mut b, "notes.txt", "Notes about jane doe.");
    let other = embedded(&mut b, "other.txt", "Nothing to see.");
    let xmp = b.add(
        Stream::new(
            dictionary! { "Type" => "Metadata", "Subtype" => "XML" },
            b"<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description><dc:creator>Jane Doe</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>".to_vec(),
        )
        .with_compression(false),
    );
    let outlines = b.doc.new_object_id();
    let about = b.doc.new_object_id();
    let details = b.add(dictionary! {
        "Title" => string("Details"), "Parent" => about, "Dest" => vec![page1.into(), "Fit".into()],
    });
    b.doc.objects.insert(
        about,
        Object::Dictionary(dictionary! {
            "Title" => string("About Jane Doe"), "Parent" => outlines, "First" => details,
            "Last" => details, "Count" => 1, "Dest" => vec![page1.into(), "Fit".into()],
        }),
    );
    b.doc.objects.insert(
        outlines,
        Object::Dictionary(
            dictionary! { "Type" => "Outlines", "First" => about, "Last" => about, "Count" => 2 },
        ),
    );
    let element = b.add(dictionary! {
        "Type" => "StructElem", "S" => "P", "Pg" => page1, "K" => 0,
        "ActualText" => string("Name: Jane Doe"), "Alt" => string("the name"),
    });
    // The link's structure element describes it in words too.
    let link_element = b.add(dictionary! {
        "Type" => "StructElem", "S" => "Link", "Pg" => page1,
        "K" => dictionary! { "Type" => "OBJR", "Obj" => link }, "Alt" => string("Write to Jane Doe"),
    });
    let parent_tree = b.add(dictionary! { "Nums" => vec![0.into(), vec![element.into()].into()] });
    let struct_root = b.add(dictionary! {
        "Type" => "StructTreeRoot", "K" => vec![element.into(), link_element.into()],
        "ParentTree" => parent_tree,
    });
    if let Ok(dict) = b.doc.get_dictionary_mut(element) {
        dict.set("P", struct_root);
    }
    let info = b.add(dictionary! {
        "Title" => string("Report on Jane Doe"), "Author" => string("Agency"),
        "Subject" => string("the jane doe file"),
    });
    b.doc.trailer.set("Info", info);
    let form = dictionary! { "Fields" => vec![name.into(), city.into(), ssn.into()] };
    b.save_with(
        &dir.join("document.pdf"),
        dictionary! {
            "AcroForm" => form, "Metadata" => xmp, "Outlines" => outlines,
            "StructTreeRoot" => struct_root, "MarkInfo" => dictionary! { "Marked" => true },
            "Names" => dictionary! { "EmbeddedFiles" => dictionary! {
                "Names" => vec![string("notes.txt"), notes.into(), string("other.txt"), other.into()],
            } },
        },
    )
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    doc.dereference(object).unwrap().1
}

#[test]
fn links_fields_and_the_document_lose_the_term() {
    if !tools::available("links_fields_and_the_document_lose_the_term") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = fixture(dir.path());
    assert!(tools::holds(&tools::qdf(&input), TERM));
    let name_start = 72.0 + helvetica_width("Name: ") * 12.0;
    let area = [
        name_start - 0.5,
        678.0,
        name_start + helvetica_width(TERM) * 12.0 + 0.5,
        712.0,
    ];
    let mut options = redaction(&[(1, area)]);
    options.terms = vec![TERM.into()];
    options.clean_document = true;
    options.label = Some("REDACTED".into());
    let (output, report) = run(&input, &options);
    assert_eq!(report.glyphs_removed, 8);
    assert_eq!(report.annotations_removed, 3, "{report:?}");
    assert_eq!(report.fields_cleared, 2);
    assert_eq!(report.bookmarks_cleaned, 1);
    assert_eq!(
        report.metadata_cleaned, 3,
        "Title, Subject and the XMP packet"
    );
    assert_eq!(
        report.attachments_removed, 2,
        "notes.txt and the attached card"
    );
    assert!(report.unsafe_pages.is_empty());
    tools::check(&output);
    let bytes = tools::qdf(&output);
    for gone in [TERM, "jane.doe", "123-45", "PieceInfo", "/Thumb"] {
        assert!(!tools::holds(&bytes, gone), "{gone} is still in the file");
    }
    for kept in ["Nothing to see.", "Agency", "Paris"] {
        assert!(tools::holds(&bytes, kept), "{kept} went");
    }
    let text = tools::text(&output, Some(1));
    assert!(
        text.contains("Name:") && text.contains("Kept: Paris") && text.contains("REDACTED"),
        "{text}"
    );

    let doc = Document::load(&output).unwrap();
    let catalog = doc.catalog().unwrap();
    let form = resolve(&doc, catalog.get(b"AcroForm").unwrap())
        .as_dict()
        .unwrap();
    let fields: Vec<String> = resolve(&doc, form.get(b"Fields").unwrap())
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let f = resolve(&doc, f).as_dict().unwrap();
            assert!(!f.has(b"V") || f.get(b"T").unwrap().as_str().unwrap() == b"city");
            String::from_utf8_lossy(f.get(b"T").unwrap().as_str().unwrap()).into_owned()
        })
        .collect();
    assert_eq!(fields, ["city", "ssn"]);
    let outlines = resolve(&doc, catalog.get(b"Outlines").unwrap())
        .as_dict()
        .unwrap();
    let about = resolve(&doc, outlines.get(b"First").unwrap())
        .as_dict()
        .unwrap();
    assert_eq!(
        about.get(b"Title").unwrap().as_str().unwrap(),
        b"About REDACTED"
    );
    assert!(about.has(b"First"), "the entry keeps its child");
    let page2 = doc.get_pages()[&2];
    let annots = resolve(
        &doc,
        doc.get_dictionary(page2).unwrap().get(b"Annots").unwrap(),
    );
    assert_eq!(
        annots.as_array().unwrap().len(),
        1,
        "the ssn widget stays, the card goes"
    );
}

#[test]
fn an_earlier_revision_is_not_written() {
    if !tools::available("an_earlier_revision_is_not_written") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page(
        "BT /F1 12 Tf 72 700 Td (Old Secret text) Tj ET",
        dictionary! {},
    );
    let input = b.save(&dir.path().join("revised.pdf"));
    // An incremental update replacing the page's content: the old one stays in the bytes.
    let mut bytes = std::fs::read(&input).unwrap();
    let doc = Document::load(&input).unwrap();
    let page = doc.get_pages()[&1];
    let content = doc
        .get_dictionary(page)
        .unwrap()
        .get(b"Contents")
        .unwrap()
        .as_reference()
        .unwrap();
    let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
    let tail = String::from_utf8_lossy(&bytes[bytes.len() - 64..]).into_owned();
    let previous: usize = tail
        .split("startxref")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let data = b"BT /F1 12 Tf 72 700 Td (New words) Tj ET";
    let at = bytes.len() + 1;
    bytes.extend_from_slice(
        format!(
            "\n{} 0 obj\n<< /Length {} >>\nstream\n",
            content.0,
            data.len()
        )
        .as_bytes(),
    );
    bytes.extend_from_slice(data);
    bytes.extend_from_slice(b"\nendstream\nendobj\n");
    let xref = bytes.len();
    bytes.extend_from_slice(
        format!(
            "xref\n0 1\n0000000000 65535 f \n{} 1\n{at:010} 00000 n \ntrailer\n<< /Size {} /Root {} 0 R /Prev {previous} >>\nstartxref\n{xref}\n%%EOF\n",
            content.0,
            doc.max_id + 1,
            root.0
        )
        .as_bytes(),
    );
    std::fs::write(&input, &bytes).unwrap();
    assert!(tools::text(&input, None).contains("New words"));
    assert!(tools::holds(&std::fs::read(&input).unwrap(), "Old Secret"));
    let (output, _) = run(&input, &redaction(&[(1, [0.0, 0.0, 10.0, 10.0])]));
    let written = std::fs::read(&output).unwrap();
    assert_eq!(written.windows(5).filter(|w| w == b"%%EOF").count(), 1);
    assert!(!tools::holds(&tools::qdf(&output), "Old Secret"));
    assert!(tools::text(&output, None).contains("New words"));
}

fn message(result: Result<quire_toolbox::redact::Redacted, ToolError>) -> String {
    match result {
        Err(ToolError::BadOptions(why)) | Err(ToolError::InvalidFile(why)) => why,
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_input_is_told_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page("BT /F1 12 Tf 72 700 Td (One) Tj ET", dictionary! {});
    b.page("BT /F1 12 Tf 72 700 Td (Two) Tj ET", dictionary! {});
    let input = b.save(&dir.path().join("two.pdf"));
    let output = dir.path().join("out.pdf");
    let far = redaction(&[(1, [0.0, 0.0, 10.0, 10.0]), (12, [0.0, 0.0, 10.0, 10.0])]);
    assert_eq!(
        message(redact(&input, &far, &output)),
        "area 2 is on page 12, but the PDF has 2 pages"
    );
    assert!(message(redact(&input, &redaction(&[]), &output)).contains("no area"));
    let flat = redaction(&[(1, [5.0, 5.0, 5.0, 50.0])]);
    assert!(message(redact(&input, &flat, &output)).contains("no size"));
    let not_pdf = dir.path().join("not.pdf");
    std::fs::write(&not_pdf, b"hello").unwrap();
    assert!(
        message(redact(
            &not_pdf,
            &redaction(&[(1, [0.0, 0.0, 9.0, 9.0])]),
            &output
        ))
        .contains("not a readable PDF")
    );
    let area = Area {
        page: 1,
        rect: Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 1.0,
            y1: 1.0,
        },
    };
    let mut labelled = redaction(&[]);
    labelled.areas = vec![area];
    labelled.label = Some("Секрет".into());
    assert!(message(redact(&input, &labelled, &output)).starts_with("label: "));
    if tools::available("bad_input_is_told_in_words (encrypted)") {
        let locked = dir.path().join("locked.pdf");
        let status = std::process::Command::new("qpdf")
            .args([
                "--encrypt",
                "user",
                "owner",
                "256",
                "--",
                input.to_str().unwrap(),
                locked.to_str().unwrap(),
            ])
            .status()
            .unwrap();
        assert!(status.success());
        let result = redact(&locked, &redaction(&[(1, [0.0, 0.0, 9.0, 9.0])]), &output);
        assert!(matches!(result, Err(ToolError::Encrypted)), "{result:?}");
    }
}
