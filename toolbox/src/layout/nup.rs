//! Several pages per sheet: new sheet pages drawing the pages' forms in a grid, the pages'
//! links moved onto the sheets, and the old pages gone.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use lopdf::{Dictionary, Object};

use super::dests::Placed;
use super::form::Forms;
use super::{Paper, annots, sheet};
use crate::geometry::{self, Frame, Rect};
use crate::{ToolError, Written, io};

/// The space around and between cells, in points.
const GAP: f64 = 12.0;

pub fn n_up(
    input: &Path,
    per_sheet: u32,
    paper: Paper,
    output: &Path,
) -> Result<Written, ToolError> {
    if !matches!(per_sheet, 2 | 4) {
        return Err(ToolError::BadOptions(format!(
            "{per_sheet} pages per sheet: choose 2 or 4"
        )));
    }
    let (mut doc, tree, root) = sheet::open(input)?;
    let (width, height, cells) = cells(per_sheet, paper);
    let mut forms = Forms::default();
    let mut placed = HashMap::new();
    let (mut seen, mut turned) = (HashSet::new(), HashSet::new());
    let mut kids = Vec::new();
    for group in tree.pages.chunks(cells.len()) {
        let sheet = io::new_id(&mut doc)?;
        let mut drawn = Vec::with_capacity(group.len());
        let mut named = Vec::with_capacity(group.len());
        let mut links = Vec::new();
        for (slot, (page, cell)) in group.iter().zip(&cells).enumerate() {
            let frame = Frame::of(&doc, page);
            let m = frame.fit_into(*cell);
            let form = forms.make(&mut doc, page, &frame)?;
            let name = format!("QuirePage{}", slot + 1);
            drawn.push((name.clone(), m));
            named.push((name, form));
            links.extend(annots::take_links(
                &mut doc,
                page.id,
                m,
                frame.rotate,
                sheet,
                &mut seen,
                &mut turned,
            ));
            placed.insert(
                page.id,
                Placed {
                    sheet,
                    matrix: m,
                    frame,
                },
            );
        }
        let mut dict = Dictionary::new();
        dict.set("Type", Object::Name(b"Page".to_vec()));
        dict.set("Parent", root);
        dict.set("MediaBox", geometry::rect_object([0.0, 0.0, width, height]));
        dict.set("Resources", sheet::resources(&named));
        dict.set("Contents", sheet::contents(&mut doc, &drawn));
        if !links.is_empty() {
            dict.set("Annots", links);
        }
        doc.objects.insert(sheet, Object::Dictionary(dict));
        kids.push(sheet);
    }
    // The pages are drawn by their forms now; what pointed at them is pointed at the sheets.
    for page in &tree.pages {
        doc.objects.remove(&page.id);
    }
    sheet::finish(
        &mut doc,
        root,
        kids,
        &placed,
        &[
            b"PageLabels",
            b"AcroForm",
            b"StructTreeRoot",
            b"MarkInfo",
            b"Threads",
        ],
        output,
    )
}

/// The sheet's size and its cells in reading order: two side by side on a landscape sheet,
/// or a 2x2 grid on a portrait one.
fn cells(per_sheet: u32, paper: Paper) -> (f64, f64, Vec<Rect>) {
    let (short, long) = paper.size();
    if per_sheet == 2 {
        let (width, height) = (long, short);
        let cell = (width - 3.0 * GAP) / 2.0;
        let cells = vec![
            [GAP, GAP, GAP + cell, height - GAP],
            [2.0 * GAP + cell, GAP, width - GAP, height - GAP],
        ];
        return (width, height, cells);
    }
    let (width, height) = (short, long);
    let (w, h) = ((width - 3.0 * GAP) / 2.0, (height - 3.0 * GAP) / 2.0);
    let (left, right) = ([GAP, GAP + w], [2.0 * GAP + w, width - GAP]);
    let (top, bottom) = ([2.0 * GAP + h, height - GAP], [GAP, GAP + h]);
    let cell = |[x0, x1]: [f64; 2], [y0, y1]: [f64; 2]| [x0, y0, x1, y1];
    let cells = vec![
        cell(left, top),
        cell(right, top),
        cell(left, bottom),
        cell(right, bottom),
    ];
    (width, height, cells)
}
