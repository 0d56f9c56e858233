//! Flattening draws the values a viewer shows: appearances regenerated first for a form with
//! /NeedAppearances, for a widget without one, and for one that does not show the value.

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use super::{Flatten, Flattened, flatten_document};

const FIELDS: Flatten = Flatten {
    fields: true,
    annotations: false,
};

/// A one-page form; `fields` gets the page and the /DR fonts and returns the field widgets.
fn form(
    need_appearances: bool,
    fields: impl FnOnce(&mut Document, ObjectId) -> Vec<ObjectId>,
) -> (Document, ObjectId) {
    let mut doc = Document::with_version("1.7");
    let pages = doc.new_object_id();
    let body = doc.add_object(Stream::new(
        dictionary! {},
        b"BT /F1 12 Tf 72 720 Td (Form) Tj ET".to_vec(),
    ));
    let helvetica = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages, "Contents" => body,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => helvetica } },
    });
    doc.objects.insert(
        pages,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
        }),
    );
    let widgets = fields(&mut doc, page);
    if let Ok(dict) = doc.get_dictionary_mut(page) {
        let annots: Vec<Object> = widgets.iter().map(|&id| id.into()).collect();
        dict.set("Annots", annots);
    }
    let mut acroform = dictionary! {
        "Fields" => widgets.iter().map(|&id| id.into()).collect::<Vec<Object>>(),
        "DA" => Object::string_literal("/Helv 0 Tf 0 g"),
        "DR" => dictionary! { "Font" => dictionary! { "Helv" => helvetica } },
    };
    if need_appearances {
        acroform.set("NeedAppearances", true);
    }
    let acroform = doc.add_object(acroform);
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog", "Pages" => pages, "AcroForm" => acroform,
    });
    doc.trailer.set("Root", catalog);
    (doc, page)
}

/// A text field that is its own widget, with `extra` entries (/V, /AP).
fn text_field(
    doc: &mut Document,
    page: ObjectId,
    name: &str,
    y: i64,
    extra: Dictionary,
) -> ObjectId {
    let mut field = dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "F" => 4,
        "T" => Object::string_literal(name), "P" => page,
        "Rect" => vec![100.into(), y.into(), 300.into(), (y + 20).into()],
        "DA" => Object::string_literal("/Helv 12 Tf 0 g"),
    };
    field.extend(&extra);
    doc.add_object(field)
}

/// An appearance stream drawing `content` in a 200 x 20 box.
fn appearance(doc: &mut Document, content: &str) -> ObjectId {
    doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 200.into(), 20.into()],
        },
        content.as_bytes().to_vec(),
    ))
}

/// Flattens the form's fields, saves and reloads the file, as a reader gets it.
fn flattened(mut doc: Document) -> (Document, Flattened) {
    let (_, counts) = flatten_document(&mut doc, FIELDS).expect("flattens");
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("saves");
    (Document::load_mem(&bytes).expect("loads"), counts)
}

/// Every string the page shows (Tj, TJ, ' and "), in its content and in the forms it draws,
/// as the bytes of its glyph codes.
fn shown(doc: &Document) -> Vec<Vec<u8>> {
    let page = *doc.get_pages().get(&1).expect("a page");
    let page = doc.get_dictionary(page).expect("page");
    let contents = doc
        .dereference(page.get(b"Contents").expect("contents"))
        .expect("contents")
        .1;
    let streams: Vec<&Object> = match contents {
        Object::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let mut content = Vec::new();
    for stream in streams {
        let (_, stream) = doc.dereference(stream).expect("a stream");
        content.extend(
            stream
                .as_stream()
                .expect("stream")
                .decompressed_content()
                .expect("decodes"),
        );
        content.push(b'\n');
    }
    let resources = doc
        .dereference(page.get(b"Resources").expect("resources"))
        .expect("resources")
        .1;
    let mut out = Vec::new();
    walk(
        doc,
        &content,
        resources.as_dict().expect("resources"),
        0,
        &mut out,
    );
    out
}

fn walk(
    doc: &Document,
    content: &[u8],
    resources: &Dictionary,
    depth: usize,
    out: &mut Vec<Vec<u8>>,
) {
    assert!(depth < 8, "forms drawn too deep");
    for op in Content::decode(content).expect("content parses").operations {
        match (op.operator.as_str(), op.operands.as_slice()) {
            ("Tj" | "'", [Object::String(text, _)]) | ("\"", [_, _, Object::String(text, _)]) => {
                out.push(text.clone());
            }
            ("TJ", [Object::Array(items)]) => out.push(
                items
                    .iter()
                    .filter_map(|item| item.as_str().ok())
                    .flatten()
                    .copied()
                    .collect(),
            ),
            ("Do", [Object::Name(name)]) => {
                let xobjects = doc
                    .dereference(resources.get(b"XObject").expect("xobjects"))
                    .expect("xobjects")
                    .1
                    .as_dict()
                    .expect("xobjects");
                let (_, form) = doc
                    .dereference(xobjects.get(name).expect("drawn"))
                    .expect("form");
                let form = form.as_stream().expect("a form stream");
                let inner = form
                    .dict
                    .get(b"Resources")
                    .ok()
                    .and_then(|r| doc.dereference(r).ok())
                    .and_then(|(_, r)| r.as_dict().ok())
                    .cloned()
                    .unwrap_or_default();
                let data = form.decompressed_content().expect("form decodes");
                walk(doc, &data, &inner, depth + 1, out);
            }
            _ => {}
        }
    }
}

fn shows(doc: &Document, text: &[u8]) -> bool {
    shown(doc).iter().any(|s| s.as_slice() == text)
}

#[test]
fn a_need_appearances_form_keeps_its_values_on_the_page() {
    let (doc, _) = form(true, |doc, page| {
        let name = text_field(
            doc,
            page,
            "name",
            600,
            dictionary! { "V" => Object::string_literal("Hello 42") },
        );
        let agree = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "FT" => "Btn", "F" => 4,
            "T" => Object::string_literal("agree"), "P" => page, "V" => "Yes",
            "Rect" => vec![100.into(), 560.into(), 114.into(), 574.into()],
            "DA" => Object::string_literal("/ZaDb 0 Tf 0 g"),
        });
        vec![name, agree]
    });
    let (doc, counts) = flattened(doc);
    assert!(
        shows(&doc, b"Form"),
        "the page's own text: {:?}",
        shown(&doc)
    );
    assert!(
        shows(&doc, b"Hello 42"),
        "the value is drawn: {:?}",
        shown(&doc)
    );
    // ZapfDingbats "4" is the check mark.
    assert!(shows(&doc, b"4"), "the box is checked: {:?}", shown(&doc));
    assert_eq!(
        counts,
        Flattened {
            widgets: 2,
            regenerated: 2,
            ..Flattened::default()
        }
    );
    assert!(doc.catalog().expect("catalog").get(b"AcroForm").is_err());
}

/// /NeedAppearances: a stale appearance is replaced by the value; a check box shows the state
/// its /AS names, whatever appearance it has.
#[test]
fn stale_appearances_are_redrawn_and_check_boxes_keep_their_state() {
    let (doc, _) = form(true, |doc, page| {
        let stale = appearance(doc, "BT /Helv 12 Tf 2 5 Td (Old) Tj ET");
        let name = text_field(
            doc,
            page,
            "name",
            600,
            dictionary! { "V" => Object::string_literal("New"), "AP" => dictionary! { "N" => stale } },
        );
        let on = appearance(doc, "BT /Helv 12 Tf 0 0 Td (Ticked) Tj ET");
        let off = appearance(doc, "");
        let agree = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "FT" => "Btn", "F" => 4,
            "T" => Object::string_literal("agree"), "P" => page, "V" => "Yes", "AS" => "Yes",
            "Rect" => vec![100.into(), 560.into(), 114.into(), 574.into()],
            "AP" => dictionary! { "N" => dictionary! { "Yes" => on, "Off" => off } },
        });
        vec![name, agree]
    });
    let (doc, counts) = flattened(doc);
    assert!(
        shows(&doc, b"New") && !shows(&doc, b"Old"),
        "{:?}",
        shown(&doc)
    );
    assert!(
        shows(&doc, b"Ticked"),
        "the /AS appearance: {:?}",
        shown(&doc)
    );
    assert_eq!((counts.widgets, counts.regenerated), (2, 1));
}

/// Without /NeedAppearances viewers show the appearances as they are, but for a value that a
/// blank appearance or none at all would lose.
#[test]
fn without_need_appearances_only_unshown_values_are_drawn() {
    let (doc, _) = form(false, |doc, page| {
        let kept = appearance(doc, "/Tx BMC BT /Helv 12 Tf 2 5 Td (As drawn) Tj ET EMC");
        let drawn = text_field(
            doc,
            page,
            "drawn",
            600,
            dictionary! { "V" => Object::string_literal("Value"), "AP" => dictionary! { "N" => kept } },
        );
        let empty = appearance(doc, "/Tx BMC EMC");
        let blank = text_field(
            doc,
            page,
            "blank",
            560,
            dictionary! { "V" => Object::string_literal("Typed"), "AP" => dictionary! { "N" => empty } },
        );
        let none = text_field(
            doc,
            page,
            "none",
            520,
            dictionary! { "V" => Object::string_literal("Bare") },
        );
        vec![drawn, blank, none]
    });
    let (doc, counts) = flattened(doc);
    assert!(
        shows(&doc, b"As drawn") && !shows(&doc, b"Value"),
        "{:?}",
        shown(&doc)
    );
    assert!(shows(&doc, b"Typed"), "{:?}", shown(&doc));
    assert!(shows(&doc, b"Bare"), "{:?}", shown(&doc));
    assert_eq!(
        (counts.widgets, counts.regenerated, counts.stale_kept),
        (3, 2, 0)
    );
}

/// A value no font here can show keeps the appearance it had, and the report says so.
#[test]
fn a_value_no_font_can_show_keeps_its_appearance() {
    let (doc, _) = form(true, |doc, page| {
        let old = appearance(doc, "BT /Helv 12 Tf 2 5 Td (Before) Tj ET");
        let text = crate::text::encode("\u{65e5}\u{672c}");
        let field = text_field(
            doc,
            page,
            "kanji",
            600,
            dictionary! { "V" => text, "AP" => dictionary! { "N" => old } },
        );
        vec![field]
    });
    let (doc, counts) = flattened(doc);
    assert!(shows(&doc, b"Before"), "{:?}", shown(&doc));
    assert_eq!(
        (counts.widgets, counts.regenerated, counts.stale_kept),
        (1, 0, 1)
    );
}
