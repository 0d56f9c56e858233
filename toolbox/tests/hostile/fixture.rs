//! The hostile document: three pages holding everything sanitize removes, and what it must
//! keep.

use std::path::{Path, PathBuf};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};

pub const XMP_TITLE: &str = "XMP title";

/// Everything the fixture holds, by id, for the tests to look at.
pub struct Fixture {
    pub path: PathBuf,
    pub pages: Vec<ObjectId>,
    pub hidden_group: ObjectId,
    pub shown_group: ObjectId,
    pub internal_links: Vec<ObjectId>,
    pub widget: ObjectId,
    pub button: ObjectId,
    pub form_xobject: ObjectId,
}

fn text(s: &str) -> Object {
    Object::String(s.as_bytes().to_vec(), StringFormat::Literal)
}

fn rect() -> Object {
    vec![0.into(), 0.into(), 50.into(), 20.into()].into()
}

fn js(doc: &mut Document, script: &str) -> ObjectId {
    doc.add_object(dictionary! { "Type" => "Action", "S" => "JavaScript", "JS" => text(script) })
}

/// An XMP packet with a title, a creator and a producer, as Acrobat lays it out.
pub fn xmp_packet(title: &str) -> String {
    format!(
        r#"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.6">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"
   xmp:CreatorTool="XMP tool" xmp:ModifyDate="2020-01-01T00:00:00Z" pdf:Producer="XMP producer"
   pdfaid:part="2" pdfaid:conformance="B">
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>XMP author</rdf:li></rdf:Seq></dc:creator>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"#
    )
}

/// A three-page document with everything sanitize removes:
///
/// - JavaScript (8): catalog /OpenAction (with a /Next GoTo), catalog /AA /WC, a /Names
///   /JavaScript tree of two, page 1 /AA /O, a text field's /AA /K, a link on page 2 whose
///   action is JavaScript, AcroForm /XFA;
/// - embedded files (2): one in /Names /EmbeddedFiles (also in the catalog's /AF), one on a
///   FileAttachment annotation of page 1 (with a pop-up);
/// - links (5): a /URI link on page 1 (also in the structure tree), a /Launch and a /GoToR
///   link on page 2, an outline item with a /URI action, a push button that submits the form;
///   the catalog has a base /URI; kept: a link to page 2 by /Dest, a GoTo link to page 3, an
///   outline item to page 3;
/// - metadata (3): /Info with every field and a custom key, the catalog's XMP, a page
///   /PieceInfo;
/// - hidden layers (1): group "Secret layer" off by default, drawn in a /OC section of page 1
///   (text, a path, an image) and of a form XObject, on an image XObject and an annotation;
///   group "Shown layer" on.
pub fn fixture(dir: &Path) -> Fixture {
    fixture_with(dir, "hostile.pdf", None)
}

/// The fixture, with page 3's content replaced by `page3` (e.g. content that does not parse).
pub fn fixture_with(dir: &Path, name: &str, page3: Option<&[u8]>) -> Fixture {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let page_ids: Vec<ObjectId> = (0..3).map(|_| doc.new_object_id()).collect();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let hidden_group =
        doc.add_object(dictionary! { "Type" => "OCG", "Name" => text("Secret layer") });
    let shown_group =
        doc.add_object(dictionary! { "Type" => "OCG", "Name" => text("Shown layer") });
    let image = |doc: &mut Document, data: &str, oc: Option<ObjectId>| {
        let mut dict = dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => data.len() as i64, "Height" => 1,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        };
        if let Some(oc) = oc {
            dict.set("OC", oc);
        }
        doc.add_object(Stream::new(dict, data.as_bytes().to_vec()))
    };
    let secret_image = image(&mut doc, "HIDDEN-IMAGE-DATA", None);
    let layer_image = image(&mut doc, "LAYER-IMAGE-DATA", Some(hidden_group));
    let shown_image = image(&mut doc, "SHOWN-IMAGE-DATA", None);
    let form_xobject = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 100.into(), 100.into()],
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => font },
                "Properties" => dictionary! { "L" => hidden_group },
            },
        },
        b"BT /F1 9 Tf (FORM-VISIBLE) Tj ET /OC /L BDC BT /F1 9 Tf (FORM-SECRET) Tj ET EMC".to_vec(),
    ));
    let content = "BT /F1 24 Tf 72 700 Td (VISIBLE-ONE) Tj ET \
                   /OC /oc1 BDC BT /F1 12 Tf 72 600 Td (HIDDEN-SECRET) Tj ET \
                   q 0 0 100 100 re f Q q 10 0 0 10 0 0 cm /Im1 Do Q EMC \
                   /OC /oc2 BDC BT /F1 12 Tf 72 500 Td (LAYER-ON) Tj ET EMC \
                   q 10 0 0 10 0 0 cm /Im2 Do /Im3 Do Q /Fm1 Do";
    let contents: Vec<Vec<u8>> = vec![
        content.as_bytes().to_vec(),
        b"BT /F1 24 Tf 72 700 Td (PAGE-TWO) Tj ET".to_vec(),
        page3
            .map(<[u8]>::to_vec)
            .unwrap_or_else(|| b"BT /F1 24 Tf 72 700 Td (PAGE-THREE) Tj ET".to_vec()),
    ];
    let contents: Vec<ObjectId> = contents
        .into_iter()
        .map(|c| doc.add_object(Stream::new(Dictionary::new(), c)))
        .collect();

    // Embedded files.
    let file = |doc: &mut Document, name: &str, data: &str| {
        let stream = doc.add_object(Stream::new(
            dictionary! { "Type" => "EmbeddedFile" },
            data.as_bytes().to_vec(),
        ));
        doc.add_object(dictionary! {
            "Type" => "Filespec", "F" => text(name), "UF" => text(name),
            "EF" => dictionary! { "F" => stream, "UF" => stream },
        })
    };
    let attached = file(&mut doc, "secret.txt", "ATTACHED-SECRET");
    let annotated = file(&mut doc, "note.txt", "ANNOTATED-SECRET");
    let attachment = doc.new_object_id();
    let popup = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Popup", "Rect" => rect(), "Parent" => attachment,
    });
    doc.objects.insert(
        attachment,
        Object::Dictionary(dictionary! {
            "Type" => "Annot", "Subtype" => "FileAttachment", "Rect" => rect(), "FS" => annotated,
            "Popup" => popup, "P" => page_ids[0],
        }),
    );

    // Links.
    let link = |doc: &mut Document, page: ObjectId, key: &str, value: Object| {
        let mut dict =
            dictionary! { "Type" => "Annot", "Subtype" => "Link", "Rect" => rect(), "P" => page };
        dict.set(key, value);
        doc.add_object(dict)
    };
    let uri = dictionary! { "S" => "URI", "URI" => text("https://tracker.example/x") };
    let web_link = link(&mut doc, page_ids[0], "A", uri.clone().into());
    let dest_link = link(
        &mut doc,
        page_ids[0],
        "Dest",
        vec![page_ids[1].into(), "Fit".into()].into(),
    );
    let goto_link = link(
        &mut doc,
        page_ids[0],
        "A",
        dictionary! { "S" => "GoTo", "D" => vec![page_ids[2].into(), "Fit".into()] }.into(),
    );
    let launch_link = link(
        &mut doc,
        page_ids[1],
        "A",
        dictionary! { "S" => "Launch", "F" => text("calc.exe") }.into(),
    );
    let remote_link = link(
        &mut doc,
        page_ids[1],
        "A",
        dictionary! { "S" => "GoToR", "F" => text("other.pdf"), "D" => vec![0.into(), "Fit".into()] }.into(),
    );
    let script_action = js(&mut doc, "app.alert('link')");
    let script_link = link(&mut doc, page_ids[1], "A", script_action.into());
    let hidden_note = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Square", "Rect" => rect(), "OC" => hidden_group,
        "Contents" => text("HIDDEN-NOTE"),
    });

    // Form: a text field with a keystroke script, a submit button.
    let keystroke = js(&mut doc, "AFNumber_Keystroke(2)");
    let widget = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "T" => text("amount"),
        "Rect" => rect(), "P" => page_ids[0], "AA" => dictionary! { "K" => keystroke },
    });
    let button = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Btn", "Ff" => 65536, "T" => text("send"),
        "Rect" => rect(), "P" => page_ids[1],
        "A" => dictionary! { "S" => "SubmitForm", "F" => dictionary! { "FS" => "URL", "F" => text("https://collect.example/") } },
    });
    let xfa = doc.add_object(Stream::new(
        Dictionary::new(),
        b"<xdp:xdp><script>xfa.host.messageBox('x')</script></xdp:xdp>".to_vec(),
    ));

    // Pages.
    let page_js = js(&mut doc, "app.alert('page open')");
    let annots = [
        vec![
            web_link,
            dest_link,
            goto_link,
            attachment,
            popup,
            widget,
            hidden_note,
        ],
        vec![launch_link, remote_link, script_link, button],
        vec![],
    ];
    for (i, (&id, annots)) in page_ids.iter().zip(annots).enumerate() {
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => contents[i],
            "Annots" => annots.into_iter().map(Object::Reference).collect::<Vec<_>>(),
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => font },
                "Properties" => dictionary! { "oc1" => hidden_group, "oc2" => shown_group },
                "XObject" => dictionary! {
                    "Im1" => secret_image, "Im2" => layer_image, "Im3" => shown_image, "Fm1" => form_xobject,
                },
            },
        };
        if i == 0 {
            page.set("AA", dictionary! { "O" => page_js });
            page.set(
                "PieceInfo",
                dictionary! { "Illustrator" => dictionary! { "Private" => text("AI-PRIVATE") } },
            );
            page.set("LastModified", text("D:20240101000000Z"));
        }
        doc.objects.insert(id, Object::Dictionary(page));
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Count" => 3,
            "Kids" => page_ids.iter().copied().map(Object::Reference).collect::<Vec<_>>(),
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );

    // Outline: one web item, one to page 3.
    let outlines = doc.new_object_id();
    let first = doc.new_object_id();
    let second = doc.new_object_id();
    doc.objects.insert(
        first,
        Object::Dictionary(dictionary! {
            "Title" => text("Web"), "Parent" => outlines, "Next" => second, "A" => uri,
        }),
    );
    doc.objects.insert(
        second,
        Object::Dictionary(dictionary! {
            "Title" => text("Three"), "Parent" => outlines, "Prev" => first,
            "Dest" => vec![page_ids[2].into(), "Fit".into()],
        }),
    );
    doc.objects.insert(
        outlines,
        Object::Dictionary(
            dictionary! { "Type" => "Outlines", "First" => first, "Last" => second, "Count" => 2 },
        ),
    );

    // Structure tree: the web link is tagged.
    let link_elem = doc.add_object(dictionary! {
        "Type" => "StructElem", "S" => "Link",
        "K" => vec![dictionary! { "Type" => "OBJR", "Obj" => web_link, "Pg" => page_ids[0] }.into()],
    });
    let struct_root =
        doc.add_object(dictionary! { "Type" => "StructTreeRoot", "K" => vec![link_elem.into()] });

    let open_js = doc.add_object(dictionary! {
        "S" => "JavaScript", "JS" => text("this.print()"),
        "Next" => dictionary! { "S" => "GoTo", "D" => vec![page_ids[0].into(), "Fit".into()] },
    });
    let will_close = js(&mut doc, "app.alert('bye')");
    let tree_a = js(&mut doc, "var a = 1;");
    let tree_b = js(&mut doc, "var b = 2;");
    let js_tree = doc.add_object(dictionary! {
        "Names" => vec![text("a"), tree_a.into(), text("b"), tree_b.into()],
    });
    let metadata = doc.add_object(Stream::new(
        dictionary! { "Type" => "Metadata", "Subtype" => "XML" },
        xmp_packet(XMP_TITLE).into_bytes(),
    ));
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog", "Pages" => pages_id, "Outlines" => outlines,
        "OpenAction" => open_js,
        "AA" => dictionary! { "WC" => will_close },
        "Names" => dictionary! {
            "JavaScript" => js_tree,
            "EmbeddedFiles" => dictionary! { "Names" => vec![text("secret.txt"), attached.into()] },
        },
        "AF" => vec![attached.into()],
        "URI" => dictionary! { "Base" => text("https://base.example/") },
        "AcroForm" => dictionary! { "Fields" => vec![widget.into(), button.into()], "XFA" => xfa },
        "NeedsRendering" => true,
        "OCProperties" => dictionary! {
            "OCGs" => vec![hidden_group.into(), shown_group.into()],
            "D" => dictionary! {
                "OFF" => vec![hidden_group.into()],
                "Order" => vec![hidden_group.into(), shown_group.into()],
            },
        },
        "StructTreeRoot" => struct_root,
        "MarkInfo" => dictionary! { "Marked" => true },
        "Metadata" => metadata,
    });
    doc.trailer.set("Root", catalog);
    let info = doc.add_object(dictionary! {
        "Title" => text("Info title"), "Author" => text("Info author"),
        "Subject" => text("Info subject"), "Keywords" => text("alpha, beta"),
        "Creator" => text("Info creator"), "Producer" => text("Info producer"),
        "CreationDate" => text("D:20240102030405+01'00'"), "ModDate" => text("D:20240203040506Z"),
        "Department" => text("Legal"),
    });
    doc.trailer.set("Info", info);
    let path = dir.join(name);
    doc.save(&path).unwrap();
    Fixture {
        path,
        pages: page_ids,
        hidden_group,
        shown_group,
        internal_links: vec![dest_link, goto_link],
        widget,
        button,
        form_xobject,
    }
}
