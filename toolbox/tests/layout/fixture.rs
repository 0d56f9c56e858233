//! The test document, and reading its outputs back with lopdf alone.

use std::path::{Path, PathBuf};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

pub const A4: (f64, f64) = (595.28, 841.89);

/// Each page's visible box in user space, and its /Rotate.
pub const PAGES: [([f64; 4], i64); 5] = [
    ([0.0, 0.0, 595.28, 841.89], 0),
    ([0.0, 0.0, 612.0, 792.0], 0),
    ([0.0, 0.0, 842.0, 595.0], 0),
    ([0.0, 0.0, 612.0, 792.0], 90),
    ([100.0, 150.0, 400.0, 550.0], 0),
];

/// The link on page 2 (to page 3, an explicit /Dest) and on page 5 (to page 3, a GoTo).
pub const LINK2: [f64; 4] = [72.0, 600.0, 272.0, 630.0];
pub const LINK5: [f64; 4] = [120.0, 500.0, 300.0, 530.0];

/// The displayed size of page `i` (0-based).
pub fn shown(i: usize) -> (f64, f64) {
    let ([x0, y0, x1, y1], rotate) = PAGES[i];
    if rotate == 90 {
        (y1 - y0, x1 - x0)
    } else {
        (x1 - x0, y1 - y0)
    }
}

/// Five pages, each showing "Page N" (gray, upright as displayed), a gray 8 pt frame on its
/// visible box and a black 30 pt square in the visible box's displayed upper-left corner:
///
/// 1. A4, with a text note; 2. US Letter, a link to page 3 (`/Dest [p3 /XYZ 72 500 null]`)
///    and a /TrimBox [10 10 602 782];
/// 3. landscape 842 x 595;
/// 4. US Letter under an inner /Pages node that gives it /Rotate 90;
/// 5. US Letter with /CropBox [100 150 400 550], a black square outside it (at 0 0) and a link
///    to page 3 (a GoTo action, /Fit).
///
/// The root node gives /Resources (Helvetica as /F1) in place; the outline's one entry, "Four",
/// leads to page 4.
pub fn sample(dir: &Path) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let root = doc.new_object_id();
    let inner = doc.new_object_id();
    let ids: Vec<ObjectId> = (0..5).map(|_| doc.new_object_id()).collect();
    let rect = |r: [f64; 4]| Object::Array(r.iter().map(|&v| Object::Real(v as f32)).collect());
    for (i, &id) in ids.iter().enumerate() {
        let ([x0, y0, x1, y1], rotate) = PAGES[i];
        let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let mut content = format!("0.7 G 8 w {x0} {y0} {} {} re S\n", x1 - x0, y1 - y0);
        if rotate == 90 {
            // Displayed upper-left is the box's lower-left; the text runs up the page.
            content += &format!("0 g {x0} {y0} 30 30 re f\n");
            content += &format!(
                "0.5 g BT /F1 24 Tf 0 1 -1 0 {cx} {} Tm (Page {}) Tj ET\n",
                cy - 40.0,
                i + 1
            );
        } else {
            content += &format!("0 g {x0} {} 30 30 re f\n", y1 - 30.0);
            content += &format!(
                "0.5 g BT /F1 24 Tf {} {cy} Td (Page {}) Tj ET\n",
                cx - 40.0,
                i + 1
            );
        }
        if i == 4 {
            content += "0 g 0 0 90 90 re f\n";
        }
        let contents = doc.add_object(Stream::new(Dictionary::new(), content.into_bytes()));
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => if i == 3 { inner } else { root },
            "Contents" => contents,
        };
        match i {
            0..=2 => page.set("MediaBox", rect(PAGES[i].0)),
            4 => {
                page.set("MediaBox", rect([0.0, 0.0, 612.0, 792.0]));
                page.set("CropBox", rect(PAGES[4].0));
            }
            _ => {}
        }
        match i {
            0 => {
                let note = doc.add_object(dictionary! {
                    "Type" => "Annot", "Subtype" => "Text", "Rect" => rect([300.0, 700.0, 320.0, 720.0]),
                    "Contents" => Object::string_literal("note"),
                });
                page.set("Annots", vec![note.into()]);
            }
            1 => {
                let link = doc.add_object(dictionary! {
                    "Type" => "Annot", "Subtype" => "Link", "Rect" => rect(LINK2), "P" => id,
                    "Border" => vec![0.into(), 0.into(), 0.into()],
                    "Dest" => vec![ids[2].into(), "XYZ".into(), 72.into(), 500.into(), Object::Null],
                });
                page.set("Annots", vec![link.into()]);
                page.set("TrimBox", rect([10.0, 10.0, 602.0, 782.0]));
            }
            4 => {
                // Written in place in /Annots, as some producers do.
                let action =
                    dictionary! { "S" => "GoTo", "D" => vec![ids[2].into(), "Fit".into()] };
                let link = dictionary! {
                    "Type" => "Annot", "Subtype" => "Link", "Rect" => rect(LINK5), "A" => action,
                    "Border" => vec![0.into(), 0.into(), 0.into()],
                };
                page.set("Annots", vec![link.into()]);
            }
            _ => {}
        }
        doc.objects.insert(id, Object::Dictionary(page));
    }
    doc.objects.insert(
        inner,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Parent" => root, "Kids" => vec![ids[3].into()], "Count" => 1,
            "Rotate" => 90, "MediaBox" => rect(PAGES[3].0),
        }),
    );
    let kids: Vec<Object> = vec![
        ids[0].into(),
        ids[1].into(),
        ids[2].into(),
        inner.into(),
        ids[4].into(),
    ];
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => 5,
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        }),
    );
    let outlines = doc.new_object_id();
    let four = doc.add_object(dictionary! {
        "Title" => Object::string_literal("Four"), "Parent" => outlines,
        "Dest" => vec![ids[3].into(), "Fit".into()],
    });
    doc.objects.insert(
        outlines,
        Object::Dictionary(
            dictionary! { "Type" => "Outlines", "First" => four, "Last" => four, "Count" => 1 },
        ),
    );
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog", "Pages" => root, "Outlines" => outlines,
        "PageLabels" => dictionary! { "Nums" => vec![0.into(), dictionary! { "S" => "r" }.into()] },
    });
    doc.trailer.set("Root", catalog);
    let path = dir.join("sample.pdf");
    doc.save(&path).unwrap();
    path
}

pub fn load(path: &Path) -> Document {
    Document::load(path).unwrap()
}

pub fn page_ids(doc: &Document) -> Vec<ObjectId> {
    doc.get_pages().into_values().collect()
}

/// A page's own box (the tools write boxes on the pages), as numbers.
pub fn own_box(doc: &Document, page: ObjectId, key: &[u8]) -> Option<[f64; 4]> {
    let value = doc.get_dictionary(page).unwrap().get(key).ok()?;
    let values = doc.dereference(value).unwrap().1.as_array().unwrap();
    let numbers: Vec<f64> = values
        .iter()
        .map(|v| f64::from(v.as_float().unwrap()))
        .collect();
    Some(numbers.try_into().unwrap())
}

/// Each annotation of a page: its subtype, /Rect and the page index its destination leads to.
pub fn annots(doc: &Document, page: ObjectId) -> Vec<(String, [f64; 4], Option<usize>)> {
    let pages = page_ids(doc);
    let resolve = |o: &Object| doc.dereference(o).unwrap().1.clone();
    let Ok(list) = doc.get_dictionary(page).unwrap().get(b"Annots") else {
        return Vec::new();
    };
    let list = resolve(list);
    list.as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let annot = resolve(entry).as_dict().unwrap().clone();
            let subtype =
                String::from_utf8_lossy(annot.get(b"Subtype").unwrap().as_name().unwrap());
            let numbers: Vec<f64> = annot
                .get(b"Rect")
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|v| f64::from(v.as_float().unwrap()))
                .collect();
            let dest = match annot.get(b"Dest") {
                Ok(dest) => Some(resolve(dest)),
                Err(_) => annot
                    .get(b"A")
                    .ok()
                    .map(|a| resolve(resolve(a).as_dict().unwrap().get(b"D").unwrap())),
            };
            let target = dest.and_then(|d| {
                let page = d.as_array().ok()?.first()?.as_reference().ok()?;
                pages.iter().position(|&p| p == page)
            });
            (subtype.into_owned(), numbers.try_into().unwrap(), target)
        })
        .collect()
}

/// The page index the first outline entry leads to.
pub fn outline_target(doc: &Document) -> Option<usize> {
    let outlines = doc.catalog().unwrap().get(b"Outlines").ok()?;
    let first = doc
        .dereference(outlines)
        .unwrap()
        .1
        .as_dict()
        .unwrap()
        .get(b"First")
        .ok()?;
    let entry = doc.dereference(first).unwrap().1.as_dict().unwrap();
    let dest = doc.dereference(entry.get(b"Dest").ok()?).unwrap().1;
    let page = dest.as_array().ok()?.first()?.as_reference().ok()?;
    page_ids(doc).iter().position(|&p| p == page)
}

pub fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

pub fn close_box(a: [f64; 4], b: [f64; 4], tolerance: f64) -> bool {
    a.iter().zip(b).all(|(x, y)| close(*x, y, tolerance))
}
