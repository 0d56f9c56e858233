//! Rotating pages: a page's /Rotate, its own or inherited, turned further clockwise.

use std::collections::BTreeSet;
use std::path::Path;

use lopdf::Object;

use crate::pages::{self, PageRef};
use crate::{ToolError, Written, io};

pub fn rotate(
    input: &Path,
    degrees: i32,
    pages: Option<&str>,
    output: &Path,
) -> Result<Written, ToolError> {
    if !matches!(degrees, 90 | 180 | 270) {
        return Err(ToolError::BadOptions(format!(
            "pages turn by 90, 180 or 270 degrees, not {degrees}"
        )));
    }
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    let count = crate::count(tree.pages.len());
    let chosen: BTreeSet<usize> = match pages {
        None => (0..tree.pages.len()).collect(),
        Some(spec) => crate::parse_ranges(spec, count)?
            .into_iter()
            .flatten()
            .map(|page| page as usize - 1)
            .collect(),
    };
    for index in chosen {
        let page = &tree.pages[index];
        let turned = (current(&doc, page) + i64::from(degrees)) % 360;
        if let Ok(dict) = doc.get_dictionary_mut(page.id) {
            dict.set("Rotate", turned);
        }
    }
    io::save(&mut doc, output)?;
    Ok(Written { pages: count })
}

/// The page's rotation as viewers apply it: its own /Rotate or the nearest ancestor's (which
/// may be an indirect object), as a multiple of 90 in 0..360. A value that is not a multiple
/// of 90 counts as 0, as viewers (pdf.js, MuPDF) draw it.
fn current(doc: &lopdf::Document, page: &PageRef) -> i64 {
    let degrees = match pages::effective(doc, page, b"Rotate") {
        Some(Object::Integer(degrees)) => *degrees,
        Some(Object::Real(degrees)) => degrees.round() as i64,
        _ => 0,
    };
    let degrees = degrees.rem_euclid(360);
    if degrees % 90 == 0 { degrees } else { 0 }
}
