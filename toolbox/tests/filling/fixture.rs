//! The test form, built with lopdf.

use std::path::{Path, PathBuf};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};

/// How the sample differs from the default.
#[derive(Clone, Copy, Default)]
pub struct Variant {
    /// A hybrid form: /XFA next to the AcroForm fields.
    pub xfa: bool,
    /// /NeedAppearances true, and the field "address" without any appearance.
    pub need_appearances: bool,
}

fn text(value: &str) -> Object {
    Object::String(value.as_bytes().to_vec(), StringFormat::Literal)
}

fn rect(values: [i64; 4]) -> Object {
    Object::Array(values.into_iter().map(Object::Integer).collect())
}

fn texts(values: &[&str]) -> Object {
    Object::Array(values.iter().map(|v| text(v)).collect())
}

fn stream(doc: &mut Document, w: i64, h: i64, ops: &str, fonts: Option<ObjectId>) -> ObjectId {
    let mut dict = dictionary! {
        "Type" => "XObject", "Subtype" => "Form", "BBox" => rect([0, 0, w, h]),
    };
    if let Some(font) = fonts {
        dict.set(
            "Resources",
            dictionary! { "Font" => dictionary! { "Helv" => font } },
        );
    }
    doc.add_object(Stream::new(dict, ops.as_bytes().to_vec()))
}

/// A widget dictionary on `page` (merged with its field when `extra` holds /T).
fn widget(page: ObjectId, at: [i64; 4], extra: Dictionary) -> Dictionary {
    let mut dict = dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "Rect" => rect(at), "P" => page, "F" => 4,
    };
    dict.extend(&extra);
    dict
}

/// A two-page form (US Letter). Page 1 says "Form page one", page 2 "Form page two".
///
/// Fields, in /Fields order (fully qualified names): "name" (text, /Helv 12, border and
/// background, an old appearance showing "Old name"), "address" (multiline, auto size, blue),
/// "code" (comb of 6), "person.first" and "person.last" (kids of "person", which gives them
/// /FT; "last" is on page 2), "agree" (a checkbox whose widget is a kid, states /Yes and /Off,
/// off), "color" (radio group Red/Green/Blue with appearances, Green on), "size" (radio group
/// with states /0 and /1 and /Opt [Small Large]), "country" (combo: fr France, de Germany,
/// it Italy), "fruit" (editable combo: Apple, Pear), "toppings" (multi-select list box:
/// Cheese, Ham, Olives, Peppers), "locked" (read-only text "fixed"), "tiny" (text, /MaxLen 5),
/// "submit" (push button), "sig" (signature), "noap" (a checkbox without appearances), "tip"
/// (text with /TU "Your tip", required).
pub fn sample(dir: &Path, file: &str, variant: Variant) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let helv = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let zadb = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "ZapfDingbats",
    });
    let root = doc.new_object_id();
    let (p1, p2) = (doc.new_object_id(), doc.new_object_id());
    let mut annots1: Vec<ObjectId> = Vec::new();
    let mut annots2: Vec<ObjectId> = Vec::new();
    let mut fields: Vec<ObjectId> = Vec::new();

    let old = stream(
        &mut doc,
        250,
        20,
        "/Tx BMC BT /Helv 12 Tf 0 g 2 5 Td (Old name) Tj ET EMC",
        Some(helv),
    );
    let name = doc.add_object(widget(
        p1,
        [50, 700, 300, 720],
        dictionary! {
            "FT" => "Tx", "T" => text("name"), "V" => text("Old name"), "DA" => text("/Helv 12 Tf 0 g"),
            "MK" => dictionary! { "BC" => vec![0.into(), 0.into(), 0.into()], "BG" => vec![Object::Real(0.9), Object::Real(0.9), 1.into()] },
            "AP" => dictionary! { "N" => old },
        },
    ));
    let mut address = dictionary! {
        "FT" => "Tx", "T" => text("address"), "Ff" => 4096, "DA" => text("/Helv 0 Tf 0 0 1 rg"),
    };
    if !variant.need_appearances {
        let blank = stream(&mut doc, 250, 80, "/Tx BMC EMC", None);
        address.set("AP", dictionary! { "N" => blank });
    }
    let address = doc.add_object(widget(p1, [50, 600, 300, 680], address));
    let code = doc.add_object(widget(
        p1,
        [50, 560, 230, 580],
        dictionary! { "FT" => "Tx", "T" => text("code"), "Ff" => 1 << 24, "MaxLen" => 6 },
    ));
    annots1.extend([name, address, code]);
    fields.extend([name, address, code]);

    let person = doc.new_object_id();
    let first = doc.add_object(widget(
        p1,
        [50, 520, 200, 540],
        dictionary! { "T" => text("first"), "Parent" => person },
    ));
    let last = doc.add_object(widget(
        p2,
        [50, 700, 200, 720],
        dictionary! { "T" => text("last"), "Parent" => person },
    ));
    doc.objects.insert(
        person,
        Object::Dictionary(dictionary! {
            "T" => text("person"), "FT" => "Tx", "Kids" => vec![first.into(), last.into()],
        }),
    );
    annots1.push(first);
    annots2.push(last);
    fields.push(person);

    // The checkbox: a field with one kid widget.
    let agree = doc.new_object_id();
    let yes = stream(&mut doc, 20, 20, "0 g 4 4 12 12 re f", None);
    let off = stream(&mut doc, 20, 20, "0 G 1 1 18 18 re S", None);
    let agree_widget = doc.add_object(widget(
        p1,
        [50, 480, 70, 500],
        dictionary! {
            "Parent" => agree, "AS" => "Off",
            "AP" => dictionary! { "N" => dictionary! { "Yes" => yes, "Off" => off } },
        },
    ));
    doc.objects.insert(
        agree,
        Object::Dictionary(dictionary! {
            "FT" => "Btn", "T" => text("agree"), "V" => "Off", "Kids" => vec![agree_widget.into()],
        }),
    );
    annots1.push(agree_widget);
    fields.push(agree);

    let radio =
        |doc: &mut Document, name: &str, states: &[&str], on: &str, y: i64, opt: Option<Object>| {
            let field = doc.new_object_id();
            let mut kids = Vec::new();
            for (i, state) in states.iter().enumerate() {
                let dot = stream(doc, 20, 20, "0 g 5 5 10 10 re f", None);
                let empty = stream(doc, 20, 20, "", None);
                let mut states_dict = Dictionary::new();
                states_dict.set(*state, dot);
                states_dict.set("Off", empty);
                let x = 50 + 40 * i as i64;
                let shown = if *state == on { *state } else { "Off" };
                kids.push(doc.add_object(widget(
                    p1,
                    [x, y, x + 20, y + 20],
                    dictionary! {
                        "Parent" => field, "AS" => Object::Name(shown.as_bytes().to_vec()),
                        "AP" => dictionary! { "N" => states_dict },
                    },
                )));
            }
            let mut dict = dictionary! {
                "FT" => "Btn", "T" => text(name), "Ff" => (1 << 15) | (1 << 14),
                "V" => Object::Name(on.as_bytes().to_vec()),
                "Kids" => kids.iter().map(|&k| Object::Reference(k)).collect::<Vec<_>>(),
            };
            if let Some(opt) = opt {
                dict.set("Opt", opt);
            }
            doc.objects.insert(field, Object::Dictionary(dict));
            (field, kids)
        };
    let (color, color_kids) = radio(
        &mut doc,
        "color",
        &["Red", "Green", "Blue"],
        "Green",
        440,
        None,
    );
    let (size, size_kids) = radio(
        &mut doc,
        "size",
        &["0", "1"],
        "Off",
        400,
        Some(texts(&["Small", "Large"])),
    );
    annots1.extend(color_kids.iter().chain(&size_kids));
    fields.extend([color, size]);

    let pair = |export: &str, label: &str| Object::Array(vec![text(export), text(label)]);
    let country = doc.add_object(widget(
        p1,
        [50, 360, 200, 380],
        dictionary! {
            "FT" => "Ch", "T" => text("country"), "Ff" => 1 << 17, "DA" => text("/Helv 10 Tf 0 g"),
            "Opt" => vec![pair("fr", "France"), pair("de", "Germany"), pair("it", "Italy")],
        },
    ));
    let fruit = doc.add_object(widget(
        p1,
        [250, 360, 400, 380],
        dictionary! {
            "FT" => "Ch", "T" => text("fruit"), "Ff" => (1 << 17) | (1 << 18),
            "Opt" => texts(&["Apple", "Pear"]),
        },
    ));
    let toppings = doc.add_object(widget(
        p1,
        [50, 260, 200, 340],
        dictionary! {
            "FT" => "Ch", "T" => text("toppings"), "Ff" => 1 << 21, "DA" => text("/Helv 10 Tf 0 g"),
            "Opt" => texts(&["Cheese", "Ham", "Olives", "Peppers"]),
            "MK" => dictionary! { "BC" => vec![Object::Real(0.5)] },
        },
    ));
    let locked = doc.add_object(widget(
        p1,
        [50, 220, 200, 240],
        dictionary! { "FT" => "Tx", "T" => text("locked"), "Ff" => 1, "V" => text("fixed") },
    ));
    let tiny = doc.add_object(widget(
        p1,
        [250, 220, 400, 240],
        dictionary! { "FT" => "Tx", "T" => text("tiny"), "MaxLen" => 5 },
    ));
    let submit = doc.add_object(widget(
        p1,
        [50, 180, 150, 200],
        dictionary! { "FT" => "Btn", "T" => text("submit"), "Ff" => 1 << 16 },
    ));
    let sig = doc.add_object(widget(
        p1,
        [250, 180, 400, 200],
        dictionary! { "FT" => "Sig", "T" => text("sig") },
    ));
    let noap = doc.add_object(widget(
        p1,
        [50, 140, 70, 160],
        dictionary! {
            "FT" => "Btn", "T" => text("noap"),
            "MK" => dictionary! { "BC" => vec![0.into()] },
        },
    ));
    let tip = doc.add_object(widget(
        p2,
        [50, 600, 300, 620],
        dictionary! { "FT" => "Tx", "T" => text("tip"), "TU" => text("Your tip"), "Ff" => 2 },
    ));
    annots1.extend([country, fruit, toppings, locked, tiny, submit, sig, noap]);
    annots2.push(tip);
    fields.extend([
        country, fruit, toppings, locked, tiny, submit, sig, noap, tip,
    ]);

    let font_resources = dictionary! { "Font" => dictionary! { "F1" => helv } };
    for (id, label, annots) in [
        (p1, "Form page one", annots1),
        (p2, "Form page two", annots2),
    ] {
        let content = doc.add_object(Stream::new(
            Dictionary::new(),
            format!("BT /F1 14 Tf 50 750 Td ({label}) Tj ET").into_bytes(),
        ));
        doc.objects.insert(
            id,
            Object::Dictionary(dictionary! {
                "Type" => "Page", "Parent" => root, "Contents" => content,
                "Resources" => font_resources.clone(), "MediaBox" => rect([0, 0, 612, 792]),
                "Annots" => annots.into_iter().map(Object::Reference).collect::<Vec<_>>(),
            }),
        );
    }
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![p1.into(), p2.into()], "Count" => 2,
        }),
    );
    let mut form = dictionary! {
        "Fields" => fields.into_iter().map(Object::Reference).collect::<Vec<_>>(),
        "DA" => text("/Helv 0 Tf 0 g"),
        "DR" => dictionary! { "Font" => dictionary! { "Helv" => helv, "ZaDb" => zadb } },
    };
    if variant.need_appearances {
        form.set("NeedAppearances", true);
    }
    if variant.xfa {
        let xdp = doc.add_object(Stream::new(Dictionary::new(), b"<xdp:xdp/>".to_vec()));
        form.set("XFA", xdp);
    }
    let form = doc.add_object(form);
    let catalog =
        doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root, "AcroForm" => form });
    doc.trailer.set("Root", catalog);
    let path = dir.join(file);
    doc.save(&path).unwrap();
    path
}

/// A form with no AcroForm field, only XFA (a LiveCycle dynamic form).
pub fn xfa_only(dir: &Path) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let root = doc.new_object_id();
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => root, "MediaBox" => rect([0, 0, 612, 792]),
    });
    doc.objects.insert(
        root,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let xdp = doc.add_object(Stream::new(Dictionary::new(), b"<xdp:xdp/>".to_vec()));
    let form = doc.add_object(dictionary! { "Fields" => vec![], "XFA" => xdp });
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog", "Pages" => root, "AcroForm" => form, "NeedsRendering" => true,
    });
    doc.trailer.set("Root", catalog);
    let path = dir.join("xfa-only.pdf");
    doc.save(&path).unwrap();
    path
}
