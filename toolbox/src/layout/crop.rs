//! Cropping: a page's /CropBox set to what should show, its /TrimBox kept inside it. Nothing
//! else changes: content, rotation and the media box stay as they are.

use std::path::Path;

use lopdf::Document;

use super::Margins;
use crate::geometry::{self, Frame, Rect};
use crate::pages::{self, PageRef};
use crate::{ToolError, Written, io};

/// The least a crop may leave of a page, either way: half an inch.
const MIN_LEFT: f64 = 36.0;

pub fn crop(
    input: &Path,
    margins: Margins,
    pages: Option<&str>,
    output: &Path,
) -> Result<Written, ToolError> {
    let Margins {
        top,
        right,
        bottom,
        left,
    } = margins;
    for (side, value) in [
        ("top", top),
        ("right", right),
        ("bottom", bottom),
        ("left", left),
    ] {
        if !value.is_finite() || value < 0.0 {
            return Err(ToolError::BadOptions(format!(
                "the {side} margin is {value}: margins are 0 or more points"
            )));
        }
    }
    let [top, right, bottom, left] = [top, right, bottom, left].map(f64::from);
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    let count = crate::count(tree.pages.len());
    let chosen = super::chosen(pages, count)?;
    let mut boxes = Vec::with_capacity(chosen.len());
    for index in chosen {
        let page = &tree.pages[index];
        let frame = Frame::of(&doc, page);
        let (width, height) = (frame.width - left - right, frame.height - top - bottom);
        if width < MIN_LEFT || height < MIN_LEFT {
            return Err(ToolError::BadOptions(format!(
                "page {}: margins of {} pt (left and right) and {} pt (top and bottom) leave \
                 {} x {} pt of its {} x {} pt; at least {MIN_LEFT} pt must remain each way",
                index + 1,
                geometry::number(left + right),
                geometry::number(top + bottom),
                geometry::number(width.max(0.0)),
                geometry::number(height.max(0.0)),
                geometry::number(frame.width),
                geometry::number(frame.height),
            )));
        }
        // The margins are taken off the displayed frame, which the frame's matrix maps back
        // onto the page's own space whatever its rotation.
        let shown = [left, bottom, frame.width - right, frame.height - top];
        boxes.push((page, geometry::transform_rect(frame.to_user, shown)));
    }
    for (page, rect) in boxes {
        set_crop(&mut doc, page, rect);
    }
    io::save(&mut doc, output)?;
    Ok(Written { pages: count })
}

pub fn crop_to_boxes(
    input: &Path,
    boxes: &[Option<[f32; 4]>],
    output: &Path,
) -> Result<Written, ToolError> {
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    if boxes.len() != tree.pages.len() {
        return Err(ToolError::BadOptions(format!(
            "{} boxes given for a document of {} pages: give one per page",
            boxes.len(),
            tree.pages.len()
        )));
    }
    let mut chosen = Vec::new();
    for (index, (page, wanted)) in tree.pages.iter().zip(boxes).enumerate() {
        let Some(wanted) = wanted else {
            continue;
        };
        let refused = |why: &str| {
            ToolError::BadOptions(format!("page {}: the box {wanted:?} {why}", index + 1))
        };
        if wanted.iter().any(|v| !v.is_finite()) {
            return Err(refused("is not four numbers"));
        }
        let [a, b, c, d] = wanted.map(f64::from);
        let rect = [a.min(c), b.min(d), a.max(c), b.max(d)];
        let media = Frame::of(&doc, page).media;
        let clamped = geometry::intersection(rect, media)
            .ok_or_else(|| refused("does not overlap the page's media box"))?;
        chosen.push((page, clamped));
    }
    for (page, rect) in chosen {
        set_crop(&mut doc, page, rect);
    }
    io::save(&mut doc, output)?;
    Ok(Written {
        pages: crate::count(tree.pages.len()),
    })
}

/// Sets the page's own /CropBox (over any it inherits) and clamps its /TrimBox to it.
fn set_crop(doc: &mut Document, page: &PageRef, rect: Rect) {
    let trim = doc
        .get_dictionary(page.id)
        .ok()
        .and_then(|dict| dict.get(b"TrimBox").ok())
        .map(|trim| geometry::rect(doc, trim));
    let Ok(dict) = doc.get_dictionary_mut(page.id) else {
        return;
    };
    dict.set("CropBox", geometry::rect_object(rect));
    if let Some(trim) = trim {
        let clamped = trim
            .and_then(|trim| geometry::intersection(trim, rect))
            .unwrap_or(rect);
        dict.set("TrimBox", geometry::rect_object(clamped));
    }
}
