//! Pages replaced by pictures of them: the fallback for pages the engine could not redact
//! safely. The caller draws each page (boxes painted) and reads its words; each page then
//! shows only the picture over its visible box, with the words as invisible text (render mode
//! 3) so that it stays searchable. Its old content, resources and annotations go, and the
//! structure tree's descriptions of its content with them.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::structure::{self, Touched};
use super::{RasterPage, annots};
use crate::geometry::{Frame, apply, cm, number, transform_rect};
use crate::stamp::font::Font;
use crate::stamp::helvetica;
use crate::stamp::picture::Picture;
use crate::{ToolError, Written, io, pages};

/// Page attributes a replaced page keeps: its boxes and turn.
const KEPT: [&[u8]; 6] = [
    b"MediaBox",
    b"CropBox",
    b"BleedBox",
    b"TrimBox",
    b"ArtBox",
    b"Rotate",
];

pub fn replace_with_rasters(
    input: &Path,
    rasters: &[RasterPage],
    output: &Path,
) -> Result<Written, ToolError> {
    let mut doc = io::open(input)?;
    doc.max_id = doc.max_id.max(io::max_number(&doc));
    let tree = pages::walk(&doc)?;
    let count = tree.pages.len();
    let mut by_page = BTreeMap::new();
    for raster in rasters {
        let index = (raster.page as usize).wrapping_sub(1);
        if raster.page == 0 || index >= count {
            let pages = if count == 1 { "page" } else { "pages" };
            return Err(ToolError::BadOptions(format!(
                "the picture is for page {}, but the PDF has {count} {pages}",
                raster.page
            )));
        }
        if by_page.insert(index, raster).is_some() {
            return Err(ToolError::BadOptions(format!(
                "page {} has two pictures: give one per page",
                raster.page
            )));
        }
    }
    let font = Font::Helvetica;
    let font_id = (!by_page.is_empty()).then(|| font.add_to(&mut doc));
    let mut removed = HashSet::new();
    let mut touched = Touched::new();
    for (index, raster) in by_page {
        let page = &tree.pages[index];
        let picture = Picture::from_bytes(raster.image.clone()).map_err(|_| {
            ToolError::BadOptions(format!(
                "the picture of page {} is not a PNG or JPEG",
                raster.page
            ))
        })?;
        let image = picture.add_to(&mut doc);
        let frame = Frame::of(&doc, page);
        // The picture spans the displayed page: its unit square scaled to the displayed size,
        // then turned into user space.
        let mut content = format!(
            "q {} {} /RdPage Do Q\n",
            cm(frame.to_user),
            cm([frame.width, 0.0, 0.0, frame.height, 0.0, 0.0])
        );
        content.push_str(&words(&raster.words, &frame, &font));
        let stream = doc.add_object(Stream::new(Dictionary::new(), content.into_bytes()));
        removed.extend(page_annotations(&doc, page.id));
        let mut dict = Dictionary::new();
        for key in KEPT {
            if let Some(value) = pages::effective(&doc, page, key) {
                dict.set(key, value.clone());
            }
        }
        let own = doc.get_dictionary(page.id).ok();
        for key in [b"Type".as_slice(), b"Parent", b"UserUnit", b"StructParents"] {
            if let Some(value) = own.and_then(|d| d.get(key).ok()) {
                dict.set(key, value.clone());
            }
        }
        let mut fonts = Dictionary::new();
        if let Some(id) = font_id {
            fonts.set("RdOcr", Object::Reference(id));
        }
        let mut xobjects = Dictionary::new();
        xobjects.set("RdPage", Object::Reference(image));
        let mut resources = Dictionary::new();
        resources.set("XObject", Object::Dictionary(xobjects));
        resources.set("Font", Object::Dictionary(fonts));
        dict.set("Resources", Object::Dictionary(resources));
        dict.set("Contents", Object::Reference(stream));
        doc.objects.insert(page.id, Object::Dictionary(dict));
        touched.insert(page.id, None);
    }
    structure::strip(&mut doc, &touched, &removed);
    crate::flatten::remove_fields(&mut doc, &removed);
    annots::cut_references(&mut doc, &removed);
    io::save(&mut doc, output)?;
    Ok(Written {
        pages: crate::count(count),
    })
}

fn page_annotations(doc: &Document, page: ObjectId) -> Vec<ObjectId> {
    doc.get_dictionary(page)
        .ok()
        .and_then(|d| d.get(b"Annots").ok())
        .and_then(|a| doc.dereference(a).ok())
        .and_then(|(_, a)| a.as_array().ok())
        .map(|items| items.iter().filter_map(|i| i.as_reference().ok()).collect())
        .unwrap_or_default()
}

/// The words as invisible text, each in its box: upright as displayed, as high as the box,
/// scaled horizontally to its width.
fn words(words: &[(String, super::Rect)], frame: &Frame, font: &Font) -> String {
    let mut out = String::new();
    let (ascent, descent) = font.vertical();
    for (word, rect) in words {
        let text: String = word
            .chars()
            .map(|c| if helvetica::code(c).is_some() { c } else { '?' })
            .collect();
        let unit = font.width(&text);
        let box_user = [
            rect.x0.min(rect.x1),
            rect.y0.min(rect.y1),
            rect.x0.max(rect.x1),
            rect.y0.max(rect.y1),
        ];
        let shown = transform_rect(frame.shown_from_user(), box_user);
        let (width, height) = (shown[2] - shown[0], shown[3] - shown[1]);
        if text.trim().is_empty() || unit <= 0.0 || width <= 0.0 || height <= 0.0 {
            continue;
        }
        let size = height / (ascent - descent);
        let scale = width / (unit * size) * 100.0;
        let (x, y) = apply(frame.to_user, (shown[0], shown[1] - descent * size));
        let [a, b, c, d, _, _] = frame.to_user;
        let _ = writeln!(
            out,
            "BT 3 Tr /RdOcr {} Tf {} Tz {} {} {} {} {} {} Tm {} Tj ET",
            number(size),
            number(scale),
            number(a),
            number(b),
            number(c),
            number(d),
            number(x),
            number(y),
            font.show(&text)
        );
    }
    out
}
