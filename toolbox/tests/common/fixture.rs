//! The test document, built with lopdf.

use std::path::{Path, PathBuf};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};

/// How a sample differs from the default.
#[derive(Clone, Copy, Default)]
pub struct Variant {
    pub no_outline: bool,
    /// The parent's /Rotate as an indirect object.
    pub indirect_rotate: bool,
    /// An outline whose last entry loops back to the first, and a page tree node listing
    /// its own ancestor.
    pub cycles: bool,
}

/// A four-page document whose pages show "<prefix>1".."<prefix>4":
///
/// - the root /Pages node gives /Resources (font F1), /Rotate 90 and a letter /MediaBox;
///   pages 3 and 4 sit under an inner node that overrides /MediaBox with [0 0 500 700];
/// - page 2 has resources of its own with an image whose data is "IMAGE-<prefix>2";
/// - outline: Chapter 1 (page 1) > Section 1.1 (GoTo action, page 2); Chapter 2 (page 3) >
///   Section 2.1 (named destination "sec21", page 4);
/// - links: page 1 to page 3 (explicit /Dest), page 2 to "sec21" (string, name tree), page 3 to
///   /chap2 (name, /Dests dictionary, page 3), page 4 to a web address; page 4 also has a
///   note whose /P names page 2; the document opens at page 2;
/// - named destinations: (intro) page 1 and (sec21) page 4 in a two-level name tree, /chap2
///   page 3 in the /Dests dictionary;
/// - a text field "name" that is its own widget, on page 1, and a button field "choice" whose
///   kid widget is on page 2; info title "Sample <prefix>".
pub fn sample(dir: &Path, prefix: &str, variant: Variant) -> PathBuf {
    let mut doc = Document::with_version("1.5");
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let root = doc.new_object_id();
    let inner = doc.new_object_id();
    let page_ids: Vec<ObjectId> = (0..4).map(|_| doc.new_object_id()).collect();
    let marker = format!("IMAGE-{prefix}2");
    let image = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => marker.len() as i64,
            "Height" => 1, "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        marker.into_bytes(),
    ));
    let named = |name: &str| Object::String(name.as_bytes().to_vec(), StringFormat::Literal);
    let fit = |page: ObjectId| Object::Array(vec![page.into(), "Fit".into()]);
    let link = |doc: &mut Document, page: ObjectId, how: (&str, Object)| {
        let mut dict = dictionary! {
            "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![0.into(), 0.into(), 100.into(), 20.into()],
            "P" => page,
        };
        dict.set(how.0, how.1);
        doc.add_object(dict)
    };
    let field = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "T" => named("name"),
        "Rect" => vec![100.into(), 100.into(), 300.into(), 120.into()], "P" => page_ids[0],
    });
    // A field with a widget of its own on page 2: its kid, not a field itself.
    let choice = doc.new_object_id();
    let choice_widget = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "Parent" => choice,
        "Rect" => vec![100.into(), 100.into(), 120.into(), 120.into()], "P" => page_ids[1],
    });
    doc.objects.insert(
        choice,
        Object::Dictionary(dictionary! {
            "FT" => "Btn", "T" => named("choice"), "Kids" => vec![choice_widget.into()],
        }),
    );
    let annots = [
        vec![
            link(&mut doc, page_ids[0], ("Dest", fit(page_ids[2]))),
            field,
        ],
        vec![
            link(&mut doc, page_ids[1], ("Dest", named("sec21"))),
            choice_widget,
        ],
        vec![link(
            &mut doc,
            page_ids[2],
            (
                "A",
                dictionary! { "S" => "GoTo", "D" => Object::Name(b"chap2".to_vec()) }.into(),
            ),
        )],
        vec![
            link(
                &mut doc,
                page_ids[3],
                (
                    "A",
                    dictionary! { "S" => "URI", "URI" => named("https://example.org") }.into(),
                ),
            ),
            // A note that names the wrong page as its own, as some producers write it.
            doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Text", "Contents" => named("note"),
                "Rect" => vec![0.into(), 0.into(), 20.into(), 20.into()], "P" => page_ids[1],
            }),
        ],
    ];
    for (i, (&id, annots)) in page_ids.iter().zip(annots).enumerate() {
        let label = format!("{prefix}{}", i + 1);
        let mut content = format!("BT /F1 24 Tf 72 700 Td ({label}) Tj ET").into_bytes();
        if i == 1 {
            content.extend_from_slice(b" q 8 0 0 1 72 600 cm /Im1 Do Q");
        }
        let contents = doc.add_object(Stream::new(Dictionary::new(), content));
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => if i < 2 { root } else { inner }, "Contents" => contents,
            "Annots" => annots.into_iter().map(Object::Reference).collect::<Vec<_>>(),
        };
        if i == 1 {
            page.set(
                "Resources",
                dictionary! { "Font" => dictionary! { "F1" => font }, "XObject" => dictionary! { "Im1" => image } },
            );
        }
        doc.objects.insert(id, Object::Dictionary(page));
    }
    let mut inner_kids: Vec<Object> = vec![page_ids[2].into(), page_ids[3].into()];
    if variant.cycles {
        inner_kids.push(root.into());
    }
    doc.objects.insert(
        inner,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Parent" => root, "Kids" => inner_kids, "Count" => 2,
            "MediaBox" => vec![0.into(), 0.into(), 500.into(), 700.into()],
        }),
    );
    let rotate = if variant.indirect_rotate {
        Object::Reference(doc.add_object(Object::Integer(90)))
    } else {
        Object::Integer(90)
    };
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![page_ids[0].into(), page_ids[1].into(), inner.into()],
            "Count" => 4,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
            "Rotate" => rotate,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let leaf = doc.add_object(dictionary! {
        "Names" => vec![named("intro"), fit(page_ids[0]), named("sec21"), fit(page_ids[3])],
        "Limits" => vec![named("intro"), named("sec21")],
    });
    let tree = doc.add_object(dictionary! { "Kids" => vec![leaf.into()] });
    let helv = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let mut catalog = dictionary! {
        "Type" => "Catalog", "Pages" => root,
        "Names" => dictionary! { "Dests" => tree },
        "Dests" => dictionary! { "chap2" => fit(page_ids[2]) },
        "AcroForm" => dictionary! {
            "Fields" => vec![field.into(), choice.into()], "DA" => named("/Helv 0 Tf 0 g"),
            "DR" => dictionary! { "Font" => dictionary! { "Helv" => helv } },
        },
        "OpenAction" => vec![page_ids[1].into(), "Fit".into()],
        "PageLabels" => dictionary! { "Nums" => vec![0.into(), dictionary! { "S" => "r" }.into()] },
    };
    if !variant.no_outline {
        catalog.set("Outlines", outline(&mut doc, &page_ids, variant.cycles));
    }
    let catalog = doc.add_object(catalog);
    let info = doc.add_object(dictionary! { "Title" => named(&format!("Sample {prefix}")) });
    doc.trailer.set("Root", catalog);
    doc.trailer.set("Info", info);
    let path = dir.join(format!("{prefix}.pdf"));
    doc.save(&path).unwrap();
    path
}

fn outline(doc: &mut Document, pages: &[ObjectId], cycles: bool) -> ObjectId {
    let outlines = doc.new_object_id();
    let ids: Vec<ObjectId> = (0..4).map(|_| doc.new_object_id()).collect();
    let [c1, s11, c2, s21] = [ids[0], ids[1], ids[2], ids[3]];
    let title = |text: &str| Object::String(text.as_bytes().to_vec(), StringFormat::Literal);
    let mut chapter2 = dictionary! {
        "Title" => title("Chapter 2"), "Parent" => outlines, "Prev" => c1, "First" => s21, "Last" => s21,
        "Count" => 1, "Dest" => vec![pages[2].into(), "Fit".into()],
    };
    if cycles {
        chapter2.set("Next", c1);
    }
    let items = [
        (
            c1,
            dictionary! {
                "Title" => title("Chapter 1"), "Parent" => outlines, "Next" => c2, "First" => s11,
                "Last" => s11, "Count" => 1,
                "Dest" => vec![pages[0].into(), "XYZ".into(), 0.into(), 792.into(), 0.into()],
            },
        ),
        (
            s11,
            dictionary! {
                "Title" => title("Section 1.1"), "Parent" => c1,
                "A" => dictionary! { "S" => "GoTo", "D" => vec![pages[1].into(), "Fit".into()] },
            },
        ),
        (c2, chapter2),
        (
            s21,
            dictionary! {
                "Title" => title("Section 2.1"), "Parent" => c2, "Dest" => title("sec21"),
            },
        ),
    ];
    for (id, dict) in items {
        doc.objects.insert(id, Object::Dictionary(dict));
    }
    doc.objects.insert(
        outlines,
        Object::Dictionary(
            dictionary! { "Type" => "Outlines", "First" => c1, "Last" => c2, "Count" => 4 },
        ),
    );
    outlines
}
