//! One content stream rewritten so that what it drew translucently stays see-through once
//! PDF/A-1 has made it opaque (ISO 19005-1 6.4 has no transparency).
//!
//! A translucent object (constant opacity below 1 with the Normal blend mode, or a Multiply
//! or Darken blend, the highlighter's) over white shows its colour blended with white, and
//! what lies under it shows through. Opaque, the first holds if its colour is blended with
//! white beforehand (c' = a c + (1 - a) white, per component of its colour space), and the
//! second if it is drawn under what it covered. So the stream is written in three parts:
//! - A: the operations up to the split point, as they were (translucent objects in them
//!   blended in place);
//! - B: the whole stream again with only the translucent objects after the split point
//!   drawn (blended), every other operation kept for the state it sets;
//! - C: the operations up to the split point replayed for their state only (nothing drawn),
//!   then the rest of the stream without the translucent objects.
//!
//! The split point is after the last opaque object that is not text (an image, a filled
//! background, a form) under a translucent one: what the translucent object was drawn over
//! stays under it, and the text and lines after that point are drawn over it, which is how
//! a reader saw them through it. A and B are each wrapped in `q ... Q` so that their state
//! does not leak. What this cannot keep faithfully (soft masks, other blend modes,
//! translucent images, forms, shadings or pattern colours, clipping text) is returned as a
//! reason instead, and the caller pictures the page.

use std::fmt::Write as _;

use super::content::Op;
use super::marks::{Mark, find_marks};
use crate::geometry::{Rect, number};

/// How a graphics state dictionary paints.
#[derive(Debug, Clone, Copy, Default)]
pub struct GState {
    pub fill: Option<f64>,
    pub stroke: Option<f64>,
    pub blend: Option<Blend>,
    /// Some(true): a soft mask; Some(false): /SMask /None; None: not set.
    pub soft_mask: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blend {
    Normal,
    /// Multiply or Darken: over white they show their own colour, and what is under them
    /// shows through, as when drawn under it.
    Under,
    Other,
}

/// A colour space, by what its white is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Components that are 1 for white (Gray, RGB, their ICC and CIE forms), and how many.
    Additive(usize),
    /// Components that are 0 for white (CMYK).
    Subtractive(usize),
    /// Patterns, separations, indexed, Lab: no blend is computed.
    Other,
}

/// An XObject as far as this needs it.
#[derive(Debug, Clone, Copy)]
pub enum XObject {
    Image {
        soft_mask: bool,
    },
    Form {
        /// The /BBox, mapped by the form's /Matrix.
        bbox: Rect,
        /// Its content (or that of a form or pattern it lists) uses transparency.
        translucent: bool,
        /// A translucent annotation's appearance, already blended (see `opacity`).
        underlay: bool,
    },
    Unknown,
}

/// The resources a stream is drawn with.
pub trait Resources {
    fn gs(&self, name: &[u8]) -> Option<GState>;
    fn space(&self, name: &[u8]) -> Space;
    fn xobject(&self, name: &[u8]) -> XObject;
}

pub enum Outcome {
    Unchanged,
    /// The new stream, and how many translucent objects it keeps visible.
    Rewritten(Vec<u8>, u32),
    Unfaithful(String),
}

/// Rewrites `ops` (parsed from `data`) so that translucent objects stay see-through, their
/// opacity multiplied by `extra` (an annotation's /CA).
pub fn rewrite(data: &[u8], ops: &[Op], resources: &dyn Resources, extra: f64) -> Outcome {
    let marks = match find_marks(ops, resources, extra) {
        Ok(marks) => marks,
        Err(why) => return Outcome::Unfaithful(why),
    };
    let translucent = marks.iter().filter(|m| m.translucent).count();
    if translucent == 0 {
        return Outcome::Unchanged;
    }
    // The split point: after the last opaque object other than text that a later
    // translucent object covers.
    let mut split = 0;
    for (i, t) in marks.iter().enumerate().filter(|(_, m)| m.translucent) {
        for m in marks[..i].iter().filter(|m| !m.translucent && !m.text) {
            if overlaps(m.bbox, t.bbox) {
                split = split.max(m.end + 1);
            }
        }
    }
    if text_depth(&ops[..split]) != 0 {
        return Outcome::Unfaithful("a translucent object covers an image inside text".into());
    }
    let mut by_start = vec![None; ops.len()];
    for (i, m) in marks.iter().enumerate() {
        by_start[m.start] = Some(i);
    }
    let source = Source {
        data,
        ops,
        marks: &marks,
        by_start,
    };
    let mut out = Vec::with_capacity(data.len() * 2 + 64);
    // The marked-content sequences open at the split point: A closes them, C opens them again.
    let mut marked_at_split = Vec::new();
    // A.
    if split > 0 {
        out.extend_from_slice(b"q\n");
        let open = source.copy(0..split, &|_| true, true, 0, &mut out);
        marked_at_split = open.marked.clone();
        for _ in 0..open.marked.len() {
            out.extend_from_slice(b"EMC\n");
        }
        close(open.depth, &mut out);
        out.extend_from_slice(b"Q\n");
    }
    // B.
    out.extend_from_slice(b"q\n");
    let moved = |m: &Mark| m.translucent && m.start >= split;
    let open = source.copy(0..ops.len(), &moved, false, 0, &mut out);
    close(open.depth, &mut out);
    out.extend_from_slice(b"Q\n");
    // C.
    let open = source.copy(0..split, &|_| false, false, 0, &mut out);
    for at in marked_at_split {
        out.extend_from_slice(&data[ops[at].span.0..ops[at].span.1]);
        out.push(b'\n');
    }
    let stays = |m: &Mark| !m.translucent;
    source.copy(split..ops.len(), &stays, true, open.depth, &mut out);
    Outcome::Rewritten(out, crate::count(translucent))
}

fn overlaps(a: Option<Rect>, b: Option<Rect>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3],
        _ => true,
    }
}

fn text_depth(ops: &[Op]) -> i32 {
    ops.iter().fold(0, |d, op| match op.operator.as_slice() {
        b"BT" => d + 1,
        b"ET" => (d - 1).max(0),
        _ => d,
    })
}

fn close(depth: usize, out: &mut Vec<u8>) {
    for _ in 0..depth {
        out.extend_from_slice(b"Q\n");
    }
}

/// What a copy left open: `q` levels and marked-content sequences (their `BMC`/`BDC`).
struct Open {
    depth: usize,
    marked: Vec<usize>,
}

/// The stream being rewritten: its bytes, operations and marks (by first operation).
struct Source<'a> {
    data: &'a [u8],
    ops: &'a [Op],
    marks: &'a [Mark],
    by_start: Vec<Option<usize>>,
}

impl Source<'_> {
    /// Copies the operations in `range`, drawing the marks `draw` accepts (the translucent
    /// ones blended) and keeping every other operation for its state; marked content only
    /// when `marked_content`. `depth` is the `q` depth at the start; a `Q` below it is
    /// dropped.
    fn copy(
        &self,
        range: std::ops::Range<usize>,
        draw: &dyn Fn(&Mark) -> bool,
        marked_content: bool,
        depth: usize,
        out: &mut Vec<u8>,
    ) -> Open {
        let (data, ops, marks, by_start) = (self.data, self.ops, self.marks, &self.by_start);
        let mut open = Open {
            depth,
            marked: Vec::new(),
        };
        let end = range.end;
        let mut i = range.start;
        let verbatim = |out: &mut Vec<u8>, op: &Op| {
            out.extend_from_slice(&data[op.span.0..op.span.1]);
            out.push(b'\n');
        };
        while i < end {
            if let Some(m) = by_start[i].map(|m| &marks[m])
                && m.end < end
            {
                if draw(m) {
                    for (blended, _, stroke) in &m.recolour {
                        out.extend_from_slice(scn(blended, *stroke).as_bytes());
                    }
                    for op in &ops[m.start..=m.end] {
                        verbatim(out, op);
                    }
                    for (_, original, stroke) in &m.recolour {
                        out.extend_from_slice(scn(original, *stroke).as_bytes());
                    }
                } else if m.clips {
                    // The clip stays; nothing is painted.
                    for op in &ops[m.start..m.end] {
                        verbatim(out, op);
                    }
                    out.extend_from_slice(b"n\n");
                } else {
                    out.extend_from_slice(side_effects(&ops[m.end]).as_bytes());
                }
                i = m.end + 1;
                continue;
            }
            let op = &ops[i];
            match op.operator.as_slice() {
                b"q" => {
                    open.depth += 1;
                    verbatim(out, op);
                }
                b"Q" => {
                    if open.depth > 0 {
                        open.depth -= 1;
                        verbatim(out, op);
                    }
                }
                b"BMC" | b"BDC" => {
                    if marked_content {
                        open.marked.push(i);
                        verbatim(out, op);
                    }
                }
                b"EMC" => {
                    if marked_content && open.marked.pop().is_some() {
                        verbatim(out, op);
                    }
                }
                b"MP" | b"DP" => {
                    if marked_content {
                        verbatim(out, op);
                    }
                }
                _ => verbatim(out, op),
            }
            i += 1;
        }
        open
    }
}

/// What a text operator does besides drawing, for a copy that does not draw it.
fn side_effects(op: &Op) -> String {
    match (op.operator.as_slice(), op.operands.as_slice()) {
        (b"'", _) => "T*\n".into(),
        (b"\"", [aw, ac, _]) => format!(
            "{} Tw {} Tc T*\n",
            number(aw.number().unwrap_or(0.0)),
            number(ac.number().unwrap_or(0.0))
        ),
        _ => String::new(),
    }
}

fn scn(comps: &[f64], stroke: bool) -> String {
    let mut s = String::new();
    for c in comps {
        let _ = write!(s, "{} ", number(*c));
    }
    s.push_str(if stroke { "SCN\n" } else { "scn\n" });
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdfa::content::parse;

    struct Plain;

    impl Resources for Plain {
        fn gs(&self, name: &[u8]) -> Option<GState> {
            match name {
                b"Half" => Some(GState {
                    fill: Some(0.4),
                    stroke: Some(0.4),
                    ..GState::default()
                }),
                b"Opaque" => Some(GState {
                    fill: Some(1.0),
                    ..GState::default()
                }),
                b"Mask" => Some(GState {
                    soft_mask: Some(true),
                    ..GState::default()
                }),
                _ => None,
            }
        }
        fn space(&self, _: &[u8]) -> Space {
            Space::Other
        }
        fn xobject(&self, name: &[u8]) -> XObject {
            match name {
                b"Im" => XObject::Image { soft_mask: false },
                _ => XObject::Unknown,
            }
        }
    }

    fn run(data: &[u8]) -> Outcome {
        rewrite(data, &parse(data).expect("parses"), &Plain, 1.0)
    }

    fn text(outcome: Outcome) -> String {
        match outcome {
            Outcome::Rewritten(out, _) => String::from_utf8(out).expect("ascii"),
            Outcome::Unchanged => panic!("unchanged"),
            Outcome::Unfaithful(why) => panic!("unfaithful: {why}"),
        }
    }

    #[test]
    fn a_highlight_over_text_is_blended_and_drawn_under_it() {
        let out = text(run(
            b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET q /Half gs 1 1 0 rg 70 695 60 20 re f Q",
        ));
        let highlight = out.find("70 695 60 20 re").expect("highlight kept");
        let shown = out.find("(Hello) Tj").expect("text kept");
        assert!(highlight < shown, "{out}");
        assert!(out.contains("1 1 0.6 scn"), "{out}");
        assert_eq!(out.matches("(Hello) Tj").count(), 1, "{out}");
        assert_eq!(out.matches("re\nf\n").count(), 1, "{out}");
        assert_eq!(out.matches('q').count(), out.matches('Q').count(), "{out}");
    }

    #[test]
    fn a_highlight_over_an_image_stays_over_it() {
        let out = text(run(
            b"q 200 0 0 100 0 0 cm /Im Do Q BT (a) Tj ET /Half gs 1 1 0 rg 10 10 50 20 re f",
        ));
        let image = out.find("/Im Do").expect("image");
        let highlight = out.find("10 10 50 20 re").expect("highlight");
        let shown = out.find("(a) Tj").expect("text");
        assert!(image < highlight && highlight < shown, "{out}");
    }

    #[test]
    fn what_cannot_be_blended_is_told() {
        assert!(matches!(
            run(b"/Mask gs 0 0 10 10 re f"),
            Outcome::Unfaithful(_)
        ));
        assert!(matches!(
            run(b"/Half gs /P0 cs /P0 scn 0 0 10 10 re f"),
            Outcome::Unfaithful(_)
        ));
        assert!(matches!(
            run(b"/Opaque gs 0 0 10 10 re f"),
            Outcome::Unchanged
        ));
        assert!(matches!(
            run(b"BT (a) Tj /Half gs (b) Tj ET"),
            Outcome::Unfaithful(_)
        ));
    }
}
