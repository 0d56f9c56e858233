//! Pages: each carries its own resources (ISO 19005-2 6.2.2 wants every resource a content
//! stream uses in a dictionary associated with it, not inherited), boxes and rotation
//! written in, and only the entries PDF/A defines (thumbnails, transitions, article beads
//! and private data go: none of them draws anything when the page is printed).

use lopdf::{Dictionary, Document, Object};

use super::Level;
use super::catalog::keep_only;
use super::changes::Changes;
use crate::ToolError;
use crate::pages::{self, Tree};

const PAGE: [&[u8]; 17] = [
    b"Type",
    b"Parent",
    b"Contents",
    b"Resources",
    b"MediaBox",
    b"CropBox",
    b"BleedBox",
    b"TrimBox",
    b"ArtBox",
    b"Rotate",
    b"Annots",
    b"Group",
    b"UserUnit",
    b"StructParents",
    b"Tabs",
    b"LastModified",
    b"ProcSet",
];
/// Smallest and largest page side (ISO 32000-1 Annex C, ISO 19005-2 6.1.13).
const MIN_SIDE: f64 = 3.0;
const MAX_SIDE: f64 = 14400.0;
/// US Letter, for a page that has no media box at all.
const LETTER: [i64; 4] = [0, 0, 612, 792];

/// Cleans every page and node of the page tree.
pub fn clean(doc: &mut Document, level: Level, changes: &mut Changes) -> Result<Tree, ToolError> {
    let tree = pages::walk(doc)?;
    let mut pruned = 0usize;
    for page in &tree.pages {
        let inherited: Vec<(&'static [u8], Object)> = page
            .inherited
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        let resolved_inherited: Vec<(&'static [u8], Object)> = inherited
            .into_iter()
            .map(|(k, v)| {
                let v = match &v {
                    Object::Reference(_) if k != b"Resources" => {
                        doc.dereference(&v).map(|(_, o)| o.clone()).unwrap_or(v)
                    }
                    _ => v,
                };
                (k, v)
            })
            .collect();
        let Ok(dict) = doc.get_dictionary_mut(page.id) else {
            continue;
        };
        for (key, value) in resolved_inherited {
            if !dict.has(key) {
                dict.set(key, value);
            }
        }
        dict.set("Type", Object::Name(b"Page".to_vec()));
        if !dict.has(b"Resources") {
            dict.set("Resources", Dictionary::new());
        }
        if !dict.has(b"MediaBox") {
            dict.set(
                "MediaBox",
                LETTER
                    .iter()
                    .map(|&v| Object::Integer(v))
                    .collect::<Vec<_>>(),
            );
        }
        let mut allowed: Vec<&[u8]> = PAGE.to_vec();
        if level.part1() {
            allowed.retain(|k| !matches!(*k, b"Group" | b"UserUnit" | b"Tabs"));
        }
        pruned += keep_only(dict, &allowed);
        if let Ok(rotate) = dict.get(b"Rotate").and_then(Object::as_i64) {
            let normal = (rotate.rem_euclid(360) / 90) * 90;
            if normal != rotate {
                dict.set("Rotate", normal);
            }
        } else if dict.has(b"Rotate") {
            dict.remove(b"Rotate");
        }
        check_boxes(doc, page.id)?;
    }
    // One /Pages node over every page: each page's /Parent and the /Count are then right
    // whatever the tree was (a page listed twice, a cycle, a wrong count).
    let kids: Vec<lopdf::ObjectId> = tree.pages.iter().map(|p| p.id).collect();
    let root = match tree.root {
        Some(root) => root,
        None => crate::io::new_id(doc)?,
    };
    doc.objects
        .insert(root, Object::Dictionary(pages::root_node(kids.clone())));
    for kid in kids {
        if let Ok(dict) = doc.get_dictionary_mut(kid) {
            dict.set("Parent", root);
        }
    }
    if let Ok(catalog) = doc.catalog_mut() {
        catalog.set("Pages", root);
    }
    if pruned > 0 {
        changes
            .note("removed page entries that draw nothing (thumbnails, transitions, private data)");
    }
    Ok(tree)
}

/// Boxes must be rectangles of sides between 3 and 14,400 units; a box other than the media
/// box that is not goes (it then defaults to the crop or media box), a media box that is not
/// cannot be fixed.
fn check_boxes(doc: &mut Document, page: lopdf::ObjectId) -> Result<(), ToolError> {
    for key in [
        b"MediaBox".as_slice(),
        b"CropBox",
        b"BleedBox",
        b"TrimBox",
        b"ArtBox",
    ] {
        let value = doc
            .get_dictionary(page)
            .ok()
            .and_then(|d| d.get(key).ok())
            .and_then(|v| doc.dereference(v).ok())
            .map(|(_, v)| v.clone());
        let Some(value) = value else {
            continue;
        };
        let numbers: Vec<f64> = value
            .as_array()
            .map(|a| a.iter().filter_map(super::annots::number).collect())
            .unwrap_or_default();
        let ok_sides = numbers.len() == 4 && {
            let w = (numbers[2] - numbers[0]).abs();
            let h = (numbers[3] - numbers[1]).abs();
            (MIN_SIDE..=MAX_SIDE).contains(&w) && (MIN_SIDE..=MAX_SIDE).contains(&h)
        };
        let Ok(dict) = doc.get_dictionary_mut(page) else {
            continue;
        };
        if ok_sides {
            // Written in as numbers, not a reference (the validators read them in place).
            dict.set(key, value);
            continue;
        }
        if key == b"MediaBox" {
            return Err(ToolError::InvalidFile(format!(
                "a page is {} units wide or high: PDF/A allows pages of 3 to 14,400 units \
                 (about 200 inches) a side",
                if numbers.len() == 4 {
                    format!(
                        "{:.0} x {:.0}",
                        (numbers[2] - numbers[0]).abs(),
                        (numbers[3] - numbers[1]).abs()
                    )
                } else {
                    "not".into()
                }
            )));
        }
        dict.remove(key);
    }
    Ok(())
}

/// Forms, patterns and glyphs without resources of their own draw with those of the stream
/// that uses them, which PDF/A-2 does not count as theirs (ISO 19005-2 6.2.2): each gets a
/// copy of them.
pub fn explicit_resources(doc: &mut Document) {
    let mut lent: Vec<(lopdf::ObjectId, Dictionary)> = Vec::new();
    super::walk::walk(doc, |event| {
        if let super::walk::Event::Stream(drawn) = event
            && drawn.borrowed
            && !drawn.label.starts_with("Type 3")
            && let Some(resources) = drawn.resources
            && doc
                .get_object(drawn.id)
                .is_ok_and(|o| o.as_stream().is_ok())
        {
            lent.push((drawn.id, resources.clone()));
        }
    });
    for (id, resources) in lent {
        if let Ok(Object::Stream(stream)) = doc.get_object_mut(id)
            && !stream.dict.has(b"Resources")
        {
            stream.dict.set("Resources", resources);
        }
    }
}
