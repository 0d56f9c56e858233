//! The test document of the flatten tests, built with lopdf.

use std::path::{Path, PathBuf};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};

fn text(value: &str) -> Object {
    Object::String(value.as_bytes().to_vec(), StringFormat::Literal)
}

fn numbers(values: &[f64]) -> Object {
    Object::Array(values.iter().map(|&v| Object::Real(v as f32)).collect())
}

/// A form XObject without /Subtype (as many appearance streams are) and `extra` entries.
fn form(doc: &mut Document, bbox: &[f64], extra: Dictionary, ops: &str) -> ObjectId {
    let mut dict = dictionary! { "BBox" => numbers(bbox) };
    dict.extend(&extra);
    doc.add_object(Stream::new(dict, ops.as_bytes().to_vec()))
}

fn annot(subtype: &str, rect: &[f64], extra: Dictionary) -> Dictionary {
    let mut dict = dictionary! { "Type" => "Annot", "Subtype" => subtype, "Rect" => numbers(rect) };
    dict.extend(&extra);
    dict
}

/// A two-page US Letter document. Page 1 ("Flatten test", resources inherited from the root)
/// holds, in /Annots order:
///
/// - the text field "person.name" (a terminal field that is its own widget, kid of "person"):
///   an appearance showing "Jane Doe" in /Helv, the font of the form's /DR;
/// - the checkbox "agree", a field with one kid widget, /AS /Yes of /Yes (a filled square)
///   and /Off (an outline), a 50 x 50 box drawn on a 100 x 100 rectangle;
/// - the text field "note" whose 400 x 100 appearance (a black triangle, "Rotated") has a
///   /Matrix turning it 90 degrees, on a 100 x 400 rectangle; its text is in /Helv, but the
///   appearance has no resources: it counts on the form's /DR (poppler does not);
/// - a stamp, a 100 x 50 gray box at (10, 10) drawn on a 200 x 100 rectangle, with a popup;
/// - a link, a hidden square (flag Hidden, with an appearance), a caret without appearance.
///
/// Page 2 ("Second page", its own resources as a shared object) has an indirect /Annots with
/// a free text annotation ("Free text note") listed twice, the NoView widget "secret" and a
/// square (a black box with an appearance) in an optional content group that is off.
pub fn sample(dir: &Path, need_appearances: bool) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let helvetica = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let root = doc.new_object_id();
    let (page1, page2) = (doc.new_object_id(), doc.new_object_id());

    let person = doc.new_object_id();
    let name_ap = form(
        &mut doc,
        &[0.0, 0.0, 200.0, 20.0],
        dictionary! { "Resources" => dictionary! { "Font" => dictionary! { "Helv" => helvetica } } },
        "/Tx BMC q 0.85 g 0 0 200 20 re f Q BT /Helv 12 Tf 0 g 4 5 Td (Jane Doe) Tj ET EMC",
    );
    let name = doc.add_object(annot(
        "Widget",
        &[100.0, 600.0, 300.0, 620.0],
        dictionary! {
            "FT" => "Tx", "T" => text("name"), "V" => text("Jane Doe"), "Parent" => person,
            "P" => page1, "DA" => text("/Helv 12 Tf 0 g"), "AP" => dictionary! { "N" => name_ap },
        },
    ));
    doc.objects.insert(
        person,
        Object::Dictionary(dictionary! { "T" => text("person"), "Kids" => vec![name.into()] }),
    );

    let agree = doc.new_object_id();
    let yes = form(
        &mut doc,
        &[0.0, 0.0, 50.0, 50.0],
        dictionary! {},
        "0 g 0 0 50 50 re f",
    );
    let off = form(
        &mut doc,
        &[0.0, 0.0, 50.0, 50.0],
        dictionary! {},
        "0 g 1 w 0.5 0.5 49 49 re S",
    );
    let check = doc.add_object(annot(
        "Widget",
        &[100.0, 400.0, 200.0, 500.0],
        dictionary! {
            "Parent" => agree, "P" => page1, "AS" => "Yes",
            "AP" => dictionary! { "N" => dictionary! { "Yes" => yes, "Off" => off } },
        },
    ));
    doc.objects.insert(
        agree,
        Object::Dictionary(dictionary! {
            "FT" => "Btn", "T" => text("agree"), "V" => "Yes", "Kids" => vec![check.into()],
        }),
    );

    let turned = form(
        &mut doc,
        &[0.0, 0.0, 400.0, 100.0],
        dictionary! { "Type" => "XObject", "Subtype" => "Form",
        "Matrix" => vec![0.into(), 1.into(), (-1).into(), 0.into(), 0.into(), 0.into()] },
        "0 g 0 0 m 400 0 l 0 100 l f BT /Helv 24 Tf 0.5 g 200 40 Td (Rotated) Tj ET",
    );
    let note = doc.add_object(annot(
        "Widget",
        &[350.0, 100.0, 450.0, 500.0],
        dictionary! {
            "FT" => "Tx", "T" => text("note"), "V" => text("Rotated"), "P" => page1,
            "DA" => text("/Helv 24 Tf 0 g"), "AP" => dictionary! { "N" => turned },
        },
    ));

    let stamp_ap = form(
        &mut doc,
        &[10.0, 10.0, 110.0, 60.0],
        dictionary! {},
        "0.3 g 10 10 100 50 re f",
    );
    let stamp = doc.new_object_id();
    let popup = doc.add_object(annot(
        "Popup",
        &[400.0, 650.0, 550.0, 750.0],
        dictionary! { "Parent" => stamp, "Open" => false },
    ));
    doc.objects.insert(
        stamp,
        Object::Dictionary(annot(
            "Stamp",
            &[50.0, 650.0, 250.0, 750.0],
            dictionary! { "Name" => "Approved", "Popup" => popup, "AP" => dictionary! { "N" => stamp_ap } },
        )),
    );
    let link = doc.add_object(annot(
        "Link",
        &[72.0, 735.0, 300.0, 765.0],
        dictionary! {
            "Border" => vec![0.into(), 0.into(), 0.into()],
            "A" => dictionary! { "S" => "URI", "URI" => text("https://example.com/") },
        },
    ));
    let square_ap = form(
        &mut doc,
        &[0.0, 0.0, 50.0, 50.0],
        dictionary! {},
        "0 g 0 0 50 50 re f",
    );
    let hidden = doc.add_object(annot(
        "Square",
        &[500.0, 50.0, 550.0, 100.0],
        dictionary! { "F" => 2, "AP" => dictionary! { "N" => square_ap } },
    ));
    let caret = doc.add_object(annot(
        "Caret",
        &[300.0, 300.0, 320.0, 320.0],
        dictionary! {},
    ));

    let note_ap = form(
        &mut doc,
        &[0.0, 0.0, 300.0, 60.0],
        dictionary! { "Resources" => dictionary! { "Font" => dictionary! { "F1" => helvetica } } },
        "0.6 g 0 0 300 60 re f BT /F1 18 Tf 0 g 10 20 Td (Free text note) Tj ET",
    );
    let free_text = doc.add_object(annot(
        "FreeText",
        &[72.0, 500.0, 372.0, 560.0],
        dictionary! { "DA" => text("/F1 18 Tf 0 g"), "AP" => dictionary! { "N" => note_ap } },
    ));
    let secret_ap = form(
        &mut doc,
        &[0.0, 0.0, 200.0, 20.0],
        dictionary! {},
        "0 g 0 0 200 20 re f",
    );
    let secret = doc.add_object(annot(
        "Widget",
        &[72.0, 300.0, 272.0, 320.0],
        dictionary! {
            "FT" => "Tx", "T" => text("secret"), "F" => 32, "P" => page2,
            "AP" => dictionary! { "N" => secret_ap },
        },
    ));

    let body = |doc: &mut Document, line: &str| {
        let ops = format!("BT /F1 20 Tf 300 760 Td ({line}) Tj ET");
        doc.add_object(Stream::new(dictionary! {}, ops.into_bytes()))
    };
    let (body1, body2) = (
        body(&mut doc, "Flatten test"),
        body(&mut doc, "Second page"),
    );
    let annots1: Vec<Object> = [name, check, note, stamp, popup, link, hidden, caret]
        .map(Object::Reference)
        .to_vec();
    doc.objects.insert(
        page1,
        Object::Dictionary(dictionary! {
            "Type" => "Page", "Parent" => root, "Contents" => body1, "Annots" => annots1,
        }),
    );
    let fonts = dictionary! { "Font" => dictionary! { "F1" => helvetica } };
    let resources2 = doc.add_object(fonts.clone());
    let layer = doc.add_object(dictionary! { "Type" => "OCG", "Name" => text("Hidden layer") });
    let box_ap = form(
        &mut doc,
        &[0.0, 0.0, 100.0, 100.0],
        dictionary! {},
        "0 g 0 0 100 100 re f",
    );
    let layered = doc.add_object(annot(
        "Square",
        &[300.0, 100.0, 400.0, 200.0],
        dictionary! { "OC" => layer, "AP" => dictionary! { "N" => box_ap } },
    ));
    let annots2 = doc.add_object(vec![
        free_text.into(),
        free_text.into(),
        secret.into(),
        layered.into(),
    ]);
    doc.objects.insert(
        page2,
        Object::Dictionary(dictionary! {
            "Type" => "Page", "Parent" => root, "Contents" => body2, "Resources" => resources2,
            "Annots" => annots2,
        }),
    );
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page1.into(), page2.into()], "Count" => 2,
            "Resources" => fonts,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let mut acroform = dictionary! {
        "Fields" => vec![person.into(), agree.into(), note.into(), secret.into()],
        "CO" => vec![note.into()],
        "DA" => text("/Helv 0 Tf 0 g"),
        "DR" => dictionary! { "Font" => dictionary! { "Helv" => helvetica } },
    };
    if need_appearances {
        acroform.set("NeedAppearances", true);
    }
    let acroform = doc.add_object(acroform);
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog", "Pages" => root, "AcroForm" => acroform,
        "OCProperties" => dictionary! {
            "OCGs" => vec![layer.into()],
            "D" => dictionary! { "OFF" => vec![layer.into()] },
        },
    });
    doc.trailer.set("Root", catalog);
    let path = dir.join(if need_appearances {
        "stale.pdf"
    } else {
        "form.pdf"
    });
    doc.save(&path).expect("the sample saves");
    path
}
