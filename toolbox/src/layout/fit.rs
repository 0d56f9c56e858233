//! Fitting every page to a paper size: each page object keeps its number (so that whatever
//! points at it still does) and becomes a sheet drawing its old content as a form.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use lopdf::Object;

use super::dests::Placed;
use super::form::Forms;
use super::{Paper, annots, sheet};
use crate::geometry::{self, Frame};
use crate::pages;
use crate::{ToolError, Written};

/// The name the sheet's resources give the page's form.
const FORM: &str = "QuirePage";

/// Page entries that describe the old page space and have no meaning on the sheet.
const STALE: [&[u8]; 8] = [
    b"CropBox",
    b"Rotate",
    b"UserUnit",
    b"Thumb",
    b"B",
    b"VP",
    b"StructParents",
    b"PieceInfo",
];

pub fn fit_to_paper(input: &Path, paper: Paper, output: &Path) -> Result<Written, ToolError> {
    let (mut doc, tree, root) = sheet::open(input)?;
    let (short, long) = paper.size();
    let mut forms = Forms::default();
    let mut placed = HashMap::new();
    let (mut seen, mut turned) = (HashSet::new(), HashSet::new());
    let mut kids = Vec::with_capacity(tree.pages.len());
    for page in &tree.pages {
        let frame = Frame::of(&doc, page);
        let (width, height) = if frame.width > frame.height {
            (long, short)
        } else {
            (short, long)
        };
        let paper_box = [0.0, 0.0, width, height];
        let m = frame.fit_into(paper_box);
        let form = forms.make(&mut doc, page, &frame)?;
        let Ok(own) = doc.get_dictionary(page.id) else {
            continue;
        };
        let mut dict = pages::standalone(own, &page.inherited, root);
        // The print boxes move with the content, within the sheet.
        for key in [b"BleedBox".as_slice(), b"TrimBox", b"ArtBox"] {
            let moved = dict
                .get(key)
                .ok()
                .and_then(|rect| geometry::rect(&doc, rect))
                .and_then(|rect| {
                    geometry::intersection(geometry::transform_rect(m, rect), paper_box)
                });
            match moved {
                Some(rect) => dict.set(key, geometry::rect_object(rect)),
                None => {
                    dict.remove(key);
                }
            }
        }
        for key in STALE {
            dict.remove(key);
        }
        dict.set("MediaBox", geometry::rect_object(paper_box));
        dict.set("Resources", sheet::resources(&[(FORM.into(), form)]));
        dict.set("Contents", sheet::contents(&mut doc, &[(FORM.into(), m)]));
        doc.objects.insert(page.id, Object::Dictionary(dict));
        annots::move_all(&mut doc, page.id, m, frame.rotate, &mut seen, &mut turned);
        placed.insert(
            page.id,
            Placed {
                sheet: page.id,
                matrix: m,
                frame,
            },
        );
        kids.push(page.id);
    }
    sheet::finish(
        &mut doc,
        root,
        kids,
        &placed,
        &[b"StructTreeRoot", b"MarkInfo", b"Threads"],
        output,
    )
}
