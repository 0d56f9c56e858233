//! Documents built here: which resource entries the pass removes and which it keeps.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use super::drop_unused;
use crate::test_pdf::one_page;

fn font(doc: &mut Document, name: &str) -> ObjectId {
    doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => name,
    })
}

fn image(doc: &mut Document) -> ObjectId {
    doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 1, "Height" => 1,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        vec![0x80],
    ))
}

fn form(doc: &mut Document, content: &str, resources: Option<Object>) -> ObjectId {
    let mut dict = dictionary! {
        "Type" => "XObject", "Subtype" => "Form",
        "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()],
    };
    if let Some(resources) = resources {
        dict.set("Resources", resources);
    }
    doc.add_object(Stream::new(dict, content.as_bytes().to_vec()))
}

fn contents(doc: &mut Document, content: &str) -> ObjectId {
    let mut stream = Stream::new(Dictionary::new(), content.as_bytes().to_vec());
    stream.compress().ok();
    doc.add_object(stream)
}

/// A document of one page drawing `content` with `resources`; returns it and the page's id.
fn page(content: &str, resources: Object) -> (Document, ObjectId) {
    let mut doc = Document::with_version("1.7");
    let contents = contents(&mut doc, content);
    let page = one_page(
        &mut doc,
        dictionary! { "Contents" => contents, "Resources" => resources },
        Dictionary::new(),
    );
    (doc, page)
}

/// The names left in the category of the resources `resources` points to or holds.
fn names(doc: &Document, resources: &Object, category: &str) -> Vec<String> {
    let (_, resources) = doc.dereference(resources).expect("resources");
    let table = resources
        .as_dict()
        .expect("a dictionary")
        .get(category.as_bytes())
        .expect("the category");
    let (_, table) = doc.dereference(table).expect("the category's list");
    let mut names: Vec<String> = table
        .as_dict()
        .expect("a dictionary")
        .iter()
        .map(|(name, _)| String::from_utf8_lossy(name).into_owned())
        .collect();
    names.sort();
    names
}

fn page_resources(doc: &Document, page: ObjectId) -> Object {
    doc.get_dictionary(page)
        .and_then(|page| page.get(b"Resources"))
        .expect("the page's resources")
        .clone()
}

#[test]
fn unused_font_and_image_go_used_ones_stay() {
    let mut doc = Document::with_version("1.7");
    let (f1, f2) = (font(&mut doc, "Helvetica"), font(&mut doc, "Courier"));
    let (im1, im2) = (image(&mut doc), image(&mut doc));
    let gs = doc.add_object(dictionary! { "Type" => "ExtGState", "CA" => 0.5 });
    let resources = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => f1, "F2" => f2 },
        "XObject" => dictionary! { "Im1" => im1, "Im2" => im2 },
        "ExtGState" => dictionary! { "GS1" => gs },
    });
    let contents = contents(
        &mut doc,
        "BT /F1 12 Tf (Hi) Tj ET q 10 0 0 10 0 0 cm /Im1 Do Q",
    );
    let page = one_page(
        &mut doc,
        dictionary! { "Contents" => contents, "Resources" => resources },
        Dictionary::new(),
    );
    assert_eq!(drop_unused(&mut doc), 3);
    let resources = page_resources(&doc, page);
    assert_eq!(names(&doc, &resources, "Font"), ["F1"]);
    assert_eq!(names(&doc, &resources, "XObject"), ["Im1"]);
    assert!(names(&doc, &resources, "ExtGState").is_empty());
    // The dropped objects are no longer referenced: pruning removes them.
    let pruned = doc.prune_objects();
    assert!(pruned.contains(&f2) && pruned.contains(&im2) && pruned.contains(&gs));
}

#[test]
fn a_form_without_resources_keeps_the_page_resources_it_names() {
    let mut doc = Document::with_version("1.7");
    let (f1, f2, f3) = (
        font(&mut doc, "Helvetica"),
        font(&mut doc, "Courier"),
        font(&mut doc, "Times-Roman"),
    );
    let im = image(&mut doc);
    let inner = form(&mut doc, "BT /F2 9 Tf (a) Tj ET /Im1 Do", None);
    let resources = dictionary! {
        "Font" => dictionary! { "F1" => f1, "F2" => f2, "F3" => f3 },
        "XObject" => dictionary! { "Im1" => im, "Fm1" => inner },
    };
    let contents = contents(&mut doc, "BT /F1 12 Tf (Hi) Tj ET /Fm1 Do");
    let page = one_page(
        &mut doc,
        dictionary! { "Contents" => contents, "Resources" => resources },
        Dictionary::new(),
    );
    assert_eq!(drop_unused(&mut doc), 1);
    let resources = page_resources(&doc, page);
    assert_eq!(names(&doc, &resources, "Font"), ["F1", "F2"]);
    assert_eq!(names(&doc, &resources, "XObject"), ["Fm1", "Im1"]);
}

#[test]
fn a_form_with_its_own_resources_is_cleaned_on_its_own() {
    let mut doc = Document::with_version("1.7");
    let (f1, f2) = (font(&mut doc, "Helvetica"), font(&mut doc, "Courier"));
    let own = dictionary! { "Font" => dictionary! { "F1" => f1, "F2" => f2 } };
    let inner = form(&mut doc, "BT /F2 9 Tf (a) Tj ET", Some(own.into()));
    let resources = dictionary! {
        "Font" => dictionary! { "F1" => f1, "F2" => f2 },
        "XObject" => dictionary! { "Fm1" => inner },
    };
    let contents = contents(&mut doc, "BT /F1 12 Tf (Hi) Tj ET /Fm1 Do");
    let page = one_page(
        &mut doc,
        dictionary! { "Contents" => contents, "Resources" => resources },
        Dictionary::new(),
    );
    assert_eq!(drop_unused(&mut doc), 2);
    let resources = page_resources(&doc, page);
    assert_eq!(names(&doc, &resources, "Font"), ["F1"]);
    let form_resources = doc
        .get_object(inner)
        .and_then(Object::as_stream)
        .and_then(|form| form.dict.get(b"Resources"))
        .expect("the form's resources")
        .clone();
    assert_eq!(names(&doc, &form_resources, "Font"), ["F2"]);
}

#[test]
fn a_shared_resources_dictionary_keeps_what_any_page_names() {
    let mut doc = Document::with_version("1.7");
    let fonts: Vec<ObjectId> = ["Helvetica", "Courier", "Times-Roman"]
        .into_iter()
        .map(|name| font(&mut doc, name))
        .collect();
    let shared = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => fonts[0], "F2" => fonts[1], "F3" => fonts[2] },
    });
    let pages_id = doc.new_object_id();
    let mut kids = Vec::new();
    for text in ["BT /F1 12 Tf (a) Tj ET", "BT /F2 12 Tf (b) Tj ET"] {
        let contents = contents(&mut doc, text);
        kids.push(Object::from(doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => contents,
            "Resources" => shared,
        })));
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => 2 }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    assert_eq!(drop_unused(&mut doc), 1);
    assert_eq!(
        names(&doc, &Object::Reference(shared), "Font"),
        ["F1", "F2"]
    );
}

#[test]
fn resources_inherited_from_the_page_tree_are_cleaned_for_their_pages() {
    let (mut doc, page) = page("BT /F1 12 Tf (a) Tj ET", Object::Null);
    let (f1, f2) = (font(&mut doc, "Helvetica"), font(&mut doc, "Courier"));
    let parent = doc
        .get_dictionary(page)
        .and_then(|page| page.get(b"Parent"))
        .and_then(Object::as_reference)
        .expect("the page's parent");
    doc.get_dictionary_mut(page)
        .expect("the page")
        .remove(b"Resources");
    doc.get_dictionary_mut(parent).expect("the page tree").set(
        "Resources",
        dictionary! { "Font" => dictionary! { "F1" => f1, "F2" => f2 } },
    );
    assert_eq!(drop_unused(&mut doc), 1);
    let inherited = doc
        .get_dictionary(parent)
        .and_then(|node| node.get(b"Resources"))
        .expect("the inherited resources")
        .clone();
    assert_eq!(names(&doc, &inherited, "Font"), ["F1"]);
}

#[test]
fn a_page_lopdf_misses_keeps_what_it_inherits() {
    // The page sits under a node with no /Type: lopdf takes the node for a page, viewers
    // follow its /Kids and draw the page with the root's resources.
    let mut doc = Document::with_version("1.7");
    let (f1, f2) = (font(&mut doc, "Helvetica"), font(&mut doc, "Courier"));
    let (root, node) = (doc.new_object_id(), doc.new_object_id());
    let contents = contents(&mut doc, "BT /F2 12 Tf (a) Tj ET");
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => node, "Contents" => contents,
    });
    doc.objects.insert(
        node,
        Object::Dictionary(dictionary! { "Parent" => root, "Kids" => vec![page.into()] }),
    );
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![node.into()], "Count" => 1,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => f1, "F2" => f2 } },
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
    doc.trailer.set("Root", catalog);
    assert!(!doc.get_pages().values().any(|&id| id == page));
    assert_eq!(drop_unused(&mut doc), 0);
}

#[test]
fn a_list_referenced_from_elsewhere_or_unreadable_content_keeps_everything() {
    // The page's font list is also the form fields' default resources: /DA strings name them.
    let (mut doc, page) = page("BT /F1 12 Tf (a) Tj ET", Object::Null);
    let (f1, f2) = (font(&mut doc, "Helvetica"), font(&mut doc, "Courier"));
    let list = doc.add_object(dictionary! { "F1" => f1, "F2" => f2 });
    doc.get_dictionary_mut(page)
        .expect("the page")
        .set("Resources", dictionary! { "Font" => list });
    let acroform = doc.add_object(dictionary! {
        "Fields" => Vec::<Object>::new(), "DR" => dictionary! { "Font" => list },
    });
    let catalog = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .expect("the catalog");
    doc.get_dictionary_mut(catalog)
        .expect("the catalog")
        .set("AcroForm", acroform);
    assert_eq!(drop_unused(&mut doc), 0);

    // Content whose Flate data is corrupt: what it names is unknown.
    let mut broken = Document::with_version("1.7");
    let (f1, f2) = (font(&mut broken, "Helvetica"), font(&mut broken, "Courier"));
    let contents = broken.add_object(Stream::new(
        dictionary! { "Filter" => "FlateDecode" },
        b"x\x9c this is not deflate".to_vec(),
    ));
    one_page(
        &mut broken,
        dictionary! {
            "Contents" => contents,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => f1, "F2" => f2 } },
        },
        Dictionary::new(),
    );
    assert_eq!(drop_unused(&mut broken), 0);
}

#[test]
fn type3_glyphs_and_patterns_keep_what_they_name() {
    let mut doc = Document::with_version("1.7");
    let (f1, f2) = (font(&mut doc, "Helvetica"), font(&mut doc, "Courier"));
    let im = image(&mut doc);
    // A Type 3 font with no resources of its own: its glyph draws the page's image.
    let glyph = doc.add_object(Stream::new(Dictionary::new(), b"0 0 d0 /Im1 Do".to_vec()));
    let type3 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type3",
        "CharProcs" => dictionary! { "a" => glyph },
    });
    let pattern = doc.add_object(Stream::new(
        dictionary! {
            "PatternType" => 1, "PaintType" => 1, "TilingType" => 1,
            "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()], "XStep" => 10, "YStep" => 10,
            "Resources" => dictionary! { "Font" => dictionary! { "F2" => f2, "F1" => f1 } },
        },
        b"BT /F2 5 Tf (p) Tj ET".to_vec(),
    ));
    let unused_pattern = doc.add_object(Stream::new(
        dictionary! { "PatternType" => 1, "Resources" => Dictionary::new() },
        Vec::new(),
    ));
    let contents = contents(
        &mut doc,
        "BT /T3 12 Tf (a) Tj ET /Pattern cs /P1 scn 0 0 10 10 re f",
    );
    let resources = dictionary! {
        "Font" => dictionary! { "T3" => type3, "F1" => f1 },
        "XObject" => dictionary! { "Im1" => im },
        "Pattern" => dictionary! { "P1" => pattern, "P2" => unused_pattern },
    };
    let page = one_page(
        &mut doc,
        dictionary! { "Contents" => contents, "Resources" => resources },
        Dictionary::new(),
    );
    // The page's F1 and P2, the pattern's F1.
    assert_eq!(drop_unused(&mut doc), 3);
    let resources = page_resources(&doc, page);
    assert_eq!(names(&doc, &resources, "Font"), ["T3"]);
    assert_eq!(names(&doc, &resources, "XObject"), ["Im1"]);
    assert_eq!(names(&doc, &resources, "Pattern"), ["P1"]);
}

#[test]
fn forms_equal_once_cleaned_merge() {
    let mut doc = Document::with_version("1.7");
    let (f1, f2, f3) = (
        font(&mut doc, "Helvetica"),
        font(&mut doc, "Courier"),
        font(&mut doc, "Times-Roman"),
    );
    let a = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => f1, "F2" => f2 } });
    let b = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => f1, "F3" => f3 } });
    let form_a = form(&mut doc, "BT /F1 9 Tf (a) Tj ET", Some(a.into()));
    let form_b = form(&mut doc, "BT /F1 9 Tf (a) Tj ET", Some(b.into()));
    let contents = contents(&mut doc, "/Fa Do /Fb Do");
    one_page(
        &mut doc,
        dictionary! {
            "Contents" => contents,
            "Resources" => dictionary! { "XObject" => dictionary! { "Fa" => form_a, "Fb" => form_b } },
        },
        Dictionary::new(),
    );
    assert_eq!(drop_unused(&mut doc), 2);
    assert_eq!(crate::streams::merge_duplicate_streams(&mut doc), 1);
}
