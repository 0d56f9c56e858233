//! One page's content walked with its graphics state, and rewritten without what lies in its
//! areas: glyphs (`text`), subpaths and shadings (`paths`), images and forms (`xobjects`),
//! with marked-content properties that describe what went (`marked`).
//!
//! Each stream is read into operations (see `content`), interpreted in order, and written
//! back with only the changed operations replaced. Forms are walked at each placement that
//! reaches an area, and a placement whose form changed draws a copy of it under a new name:
//! whatever else draws the form keeps drawing the original.

mod marked;
mod paths;
mod resources;
mod state;
mod text;
mod xobjects;

use std::collections::{BTreeSet, HashMap};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::content::{self, Malformed, Op, Piece};
use super::geometry::Areas;
use crate::geometry::{Matrix, multiply};
pub use marked::DESCRIPTIONS;
use marked::Marked;
use paths::Path;
use state::{GState, Selected, TextState};

/// Operations interpreted for one page, forms included at each placement: past this the page
/// is unsafe rather than a worker stalled on a hostile file.
const MAX_OPERATIONS: usize = 20_000_000;

/// What was removed.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub glyphs: u64,
    pub images: u32,
    pub paths_removed: u32,
    pub paths_covered: u32,
    /// The boxes of the glyphs removed, in the page's user space: a glyph that goes may reach
    /// past its area, and the caller's rendering check must not count that as a loss.
    pub glyph_boxes: Vec<[f64; 4]>,
}

/// A stream walked: its new content, and its resources with what the new content names.
pub struct Output {
    pub content: Vec<u8>,
    pub resources: Dictionary,
    pub changed: bool,
}

/// One page's walk.
pub struct Walker<'a> {
    pub doc: &'a mut Document,
    pub areas: &'a Areas,
    pub fill: [u8; 3],
    pub tally: Tally,
    /// Why the page cannot be redacted safely; empty when it can.
    pub unsafe_reasons: BTreeSet<String>,
    /// MCIDs of the page's own content whose marked sequences lost something.
    pub touched_mcids: BTreeSet<i64>,
    fonts: HashMap<ObjectId, Selected>,
    budget: usize,
    /// Forms being walked, outermost first: a form that draws itself is not followed.
    forms: Vec<ObjectId>,
    /// Counter for the names given to new resources.
    fresh: usize,
    /// Tiling patterns read, and whether they are safe to leave under a box.
    patterns: HashMap<ObjectId, bool>,
}

impl<'a> Walker<'a> {
    pub fn new(doc: &'a mut Document, areas: &'a Areas, fill: [u8; 3]) -> Walker<'a> {
        Walker {
            doc,
            areas,
            fill,
            tally: Tally::default(),
            unsafe_reasons: BTreeSet::new(),
            touched_mcids: BTreeSet::new(),
            fonts: HashMap::new(),
            budget: MAX_OPERATIONS,
            forms: Vec::new(),
            fresh: 0,
            patterns: HashMap::new(),
        }
    }

    pub fn mark_unsafe(&mut self, why: impl Into<String>) {
        self.unsafe_reasons.insert(why.into());
    }

    /// Walks the page's content (its streams joined) in default user space. `None` when it
    /// does not parse (the page is then unsafe).
    pub fn page(&mut self, data: &[u8], resources: &Dictionary) -> Option<Output> {
        match self.stream(
            data,
            resources,
            GState::new(crate::geometry::IDENTITY),
            0,
            true,
        ) {
            Ok(output) => Some(output),
            Err(Malformed(why)) => {
                self.mark_unsafe(format!("the page's content cannot be read ({why})"));
                None
            }
        }
    }

    fn stream(
        &mut self,
        data: &[u8],
        resources: &Dictionary,
        state: GState,
        depth: usize,
        page_level: bool,
    ) -> Result<Output, Malformed> {
        let ops = match content::parse_at_most(data, self.budget) {
            Ok(ops) => ops,
            Err(error) => {
                // Past the budget, nothing more of the page is walked.
                if ops_exhausted(&error) {
                    self.budget = 0;
                }
                return Err(error);
            }
        };
        self.budget -= ops.len();
        let mut run = Run {
            pieces: vec![Piece::Keep; ops.len()],
            w: self,
            data,
            ops: &ops,
            resources,
            added: Vec::new(),
            replaced: Vec::new(),
            lends_resources: false,
            state,
            stack: Vec::new(),
            text: TextState::new(),
            path: Path::default(),
            marked: Vec::new(),
            depth,
            page_level,
            changed: false,
        };
        for index in 0..ops.len() {
            run.operation(index);
        }
        run.finish()
    }
}

/// One stream being walked.
struct Run<'r, 'a> {
    w: &'r mut Walker<'a>,
    data: &'r [u8],
    ops: &'r [Op],
    pieces: Vec<Piece>,
    resources: &'r Dictionary,
    /// Resources the new content names: category, name, value.
    added: Vec<(&'static [u8], Vec<u8>, Object)>,
    /// XObject and property names the old content drew or marked with: those the new content
    /// no longer names are dropped from its resources, or the originals would stay in the file.
    replaced: Vec<(&'static [u8], Vec<u8>)>,
    /// A form drawn here takes its resources from this stream's: none may be dropped.
    lends_resources: bool,
    state: GState,
    stack: Vec<GState>,
    text: TextState,
    path: Path,
    marked: Vec<Marked>,
    depth: usize,
    page_level: bool,
    changed: bool,
}

impl Run<'_, '_> {
    fn operation(&mut self, index: usize) {
        let op = &self.ops[index];
        match op.operator.as_str() {
            "q" => self.stack.push(self.state.clone()),
            "Q" => match self.stack.pop() {
                Some(state) => self.state = state,
                // A restore with nothing saved would pop the wrapper around the page.
                None => self.replace(index, Piece::Drop),
            },
            "cm" => {
                if let Some(m) = matrix(op) {
                    self.state.ctm = multiply(m, self.state.ctm);
                }
            }
            "w" => {
                if let Some(width) = op.number(0) {
                    self.state.line_width = width;
                }
            }
            "gs" => self.ext_gstate(op),
            "BT" => self.text = TextState::new(),
            "Tc" | "Tw" | "Tz" | "TL" | "Ts" | "Tf" | "Tr" => self.text_parameter(op),
            "Td" | "TD" | "Tm" | "T*" => self.text_position(op),
            "Tj" | "TJ" | "'" | "\"" => self.show(index),
            "cs" | "CS" | "scn" | "SCN" | "sc" | "SC" | "g" | "G" | "rg" | "RG" | "k" | "K" => {
                self.colour(op)
            }
            "m" | "l" | "c" | "v" | "y" | "h" | "re" => self.path_segment(index),
            "W" | "W*" => self.path.clip = Some(index),
            "S" | "s" | "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" | "n" => self.paint(index),
            "sh" => self.shading(index),
            "Do" => self.draw_xobject(index),
            "BI" => self.inline_image(index),
            "BMC" | "BDC" => self.begin_marked(index),
            "EMC" => self.end_marked(),
            _ => {}
        }
    }

    fn replace(&mut self, index: usize, piece: Piece) {
        self.pieces[index] = piece;
        self.changed = true;
    }

    fn mark_unsafe(&mut self, why: impl Into<String>) {
        self.w.mark_unsafe(why);
    }

    /// The stream written again, with its resources.
    fn finish(mut self) -> Result<Output, Malformed> {
        while !self.marked.is_empty() {
            self.end_marked();
        }
        let mut bytes = content::assemble(self.data, self.ops, &self.pieces);
        // The page's own content is wrapped in q ... Q: what it leaves saved is restored here.
        if self.page_level && !self.stack.is_empty() {
            self.changed = true;
            for _ in 0..self.stack.len() {
                bytes.extend_from_slice(b"\nQ");
            }
        }
        let mut resources = resources::extended(self.w.doc, self.resources, &self.added);
        if !self.lends_resources {
            let stale = self.stale();
            resources::remove(self.w.doc, &mut resources, &stale);
        }
        Ok(Output {
            content: bytes,
            resources,
            changed: self.changed,
        })
    }
}

impl Run<'_, '_> {
    /// Resources the old content named and the new one no longer does: left in, they would
    /// keep the original (unpainted image, undescribed form, described sequence) in the file.
    fn stale(&self) -> Vec<(&'static [u8], Vec<u8>)> {
        let mut used: Vec<(&'static [u8], &[u8])> = Vec::new();
        for (op, piece) in self.ops.iter().zip(&self.pieces) {
            if *piece != Piece::Keep {
                continue;
            }
            match (op.operator.as_str(), op.operands.as_slice()) {
                ("Do", [Object::Name(name)]) => used.push((b"XObject", name)),
                ("BDC", [_, Object::Name(name)]) => used.push((b"Properties", name)),
                _ => {}
            }
        }
        self.replaced
            .iter()
            .filter(|(category, name)| {
                !used
                    .iter()
                    .any(|(c, n)| c == category && *n == name.as_slice())
            })
            .cloned()
            .collect()
    }
}

fn ops_exhausted(error: &Malformed) -> bool {
    error.0 == content::TOO_MANY
}

/// A `cm` or `Tm` operand list as a matrix.
fn matrix(op: &Op) -> Option<Matrix> {
    let mut m = [0.0; 6];
    for (i, slot) in m.iter_mut().enumerate() {
        *slot = op.number(i)?;
    }
    Some(m)
}
