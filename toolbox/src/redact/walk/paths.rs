//! Vector paths: built subpath by subpath in page space, and at the painting operator each
//! subpath lying wholly inside an area (with half the line width when stroked) is removed.
//! Removing a subpath inside an area changes what is painted (or clipped) only inside that
//! area, which the box covers. A path left with no subpath is not painted; a clipping path
//! then clips to nothing, as it already did outside the area. Subpaths that cross an area
//! stay under the box. A shading whose /BBox lies inside an area is removed; tiling patterns
//! painted across an area must hold no text or images (or the page is unsafe).

use lopdf::{Object, ObjectId, Stream};

use super::Run;
use super::resources::lookup;
use crate::geometry::{apply, number_of};
use crate::redact::content::{self, Op, Piece};
use crate::redact::geometry::{Point, bounds, quad};

/// A pattern's content larger than this is not read (its page is unsafe when it matters).
const MAX_PATTERN: usize = 16 << 20;

/// The path being built.
#[derive(Default)]
pub struct Path {
    subpaths: Vec<Subpath>,
    /// The clipping operator, when the path clips.
    pub clip: Option<usize>,
    /// A segment came before any `m` or `re`: the path is kept whole.
    broken: bool,
}

struct Subpath {
    ops: Vec<usize>,
    /// Its points (control points included) on the page.
    points: Vec<Point>,
}

impl Run<'_, '_> {
    pub(super) fn path_segment(&mut self, index: usize) {
        let ops = self.ops;
        let op = &ops[index];
        let ctm = self.state.ctm;
        let point = |i: usize| Some(apply(ctm, (op.number(i)?, op.number(i + 1)?)));
        let points: Option<Vec<Point>> = match op.operator.as_str() {
            "m" | "l" => point(0).map(|p| vec![p]),
            "c" => [point(0), point(2), point(4)].into_iter().collect(),
            "v" | "y" => [point(0), point(2)].into_iter().collect(),
            "re" => (|| {
                let [x, y, w, h] = [0, 1, 2, 3].map(|i| op.number(i));
                let rect = [x?, y?, x? + w?, y? + h?];
                Some(quad(ctm, rect).to_vec())
            })(),
            _ => Some(Vec::new()),
        };
        let Some(points) = points else {
            self.path.broken = true;
            return;
        };
        if matches!(op.operator.as_str(), "m" | "re") {
            self.path.subpaths.push(Subpath {
                ops: vec![index],
                points,
            });
            return;
        }
        match self.path.subpaths.last_mut() {
            Some(subpath) => {
                subpath.ops.push(index);
                subpath.points.extend(points);
            }
            None => self.path.broken = true,
        }
    }

    /// A painting operator (or `n`): the subpaths inside an area go.
    pub(super) fn paint(&mut self, index: usize) {
        let path = std::mem::take(&mut self.path);
        let operator = self.ops[index].operator.as_str();
        if path.subpaths.is_empty() || (operator == "n" && path.clip.is_none()) {
            return;
        }
        let stroke = matches!(operator, "S" | "s" | "B" | "B*" | "b" | "b*");
        let fill = matches!(operator, "f" | "F" | "f*" | "B" | "B*" | "b" | "b*");
        let half = if stroke {
            self.state.line_width.max(0.0) * self.state.magnification() / 2.0
        } else {
            0.0
        };
        let areas = self.w.areas;
        let mut removed = Vec::new();
        let mut crossing = false;
        for (k, subpath) in path.subpaths.iter().enumerate() {
            let [x0, y0, x1, y1] = bounds(&subpath.points);
            let bbox = [x0 - half, y0 - half, x1 + half, y1 + half];
            if !path.broken && areas.holds(&bbox) {
                removed.push(k);
            } else if areas.touches(&bbox) {
                crossing = true;
            }
        }
        if crossing {
            let patterns = [
                (fill, self.state.fill_pattern.clone()),
                (stroke, self.state.stroke_pattern.clone()),
            ];
            for (painted, pattern) in patterns {
                if let (true, Some(Some(name))) = (painted, pattern) {
                    self.check_pattern(&name);
                }
            }
            self.w.tally.paths_covered += 1;
        }
        if removed.is_empty() {
            return;
        }
        self.w.tally.paths_removed += 1;
        self.touch();
        for &k in &removed {
            for &op in &path.subpaths[k].ops {
                self.replace(op, Piece::Drop);
            }
        }
        if removed.len() == path.subpaths.len() {
            match path.clip {
                Some(clip) => {
                    let rule = self.ops[clip].operator.clone();
                    self.replace(clip, Piece::Drop);
                    let empty = format!("0 0 0 0 re {rule} n");
                    self.replace(index, Piece::Replace(empty.into_bytes()));
                }
                None => self.replace(index, Piece::Drop),
            }
        }
    }

    pub(super) fn shading(&mut self, index: usize) {
        let ops = self.ops;
        let Some(name) = ops[index].name(0) else {
            return;
        };
        let doc = &*self.w.doc;
        let shading = match lookup(doc, self.resources, b"Shading", name) {
            Some((_, Object::Dictionary(dict))) => dict,
            Some((_, Object::Stream(stream))) => &stream.dict,
            _ => return,
        };
        let bbox = shading
            .get(b"BBox")
            .ok()
            .and_then(|b| doc.dereference(b).ok())
            .and_then(|(_, b)| b.as_array().ok())
            .and_then(|b| b.iter().map(number_of).collect::<Option<Vec<f64>>>())
            .and_then(|b| <[f64; 4]>::try_from(b).ok());
        let Some(bbox) = bbox else {
            return;
        };
        if self.w.areas.holds(&bounds(&quad(self.state.ctm, bbox))) {
            self.w.tally.paths_removed += 1;
            self.touch();
            self.replace(index, Piece::Drop);
        }
    }

    /// Colour operators: whether fill and stroke paint with a pattern, and which.
    pub(super) fn colour(&mut self, op: &Op) {
        let stroking = op
            .operator
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_uppercase());
        let pattern = match op.operator.as_str() {
            "cs" | "CS" => {
                let is_pattern = op
                    .name(0)
                    .is_some_and(|name| name == b"Pattern" || self.names_pattern_space(name));
                is_pattern.then_some(None)
            }
            "scn" | "SCN" => {
                let current = if stroking {
                    &self.state.stroke_pattern
                } else {
                    &self.state.fill_pattern
                };
                match (current, op.operands.last()) {
                    (Some(_), Some(Object::Name(name))) => Some(Some(name.clone())),
                    (current, _) => current.clone(),
                }
            }
            "sc" | "SC" => return,
            _ => None,
        };
        if stroking {
            self.state.stroke_pattern = pattern;
        } else {
            self.state.fill_pattern = pattern;
        }
    }

    fn names_pattern_space(&self, name: &[u8]) -> bool {
        let doc = &*self.w.doc;
        let Some((_, Object::Array(items))) = lookup(doc, self.resources, b"ColorSpace", name)
        else {
            return false;
        };
        matches!(items.first(), Some(Object::Name(family)) if family == b"Pattern")
    }

    /// A tiling pattern painted across an area: its cells repeat everywhere, so what they
    /// draw cannot be cut for one area. Only vector art is safe under the box.
    fn check_pattern(&mut self, name: &[u8]) {
        let doc = &*self.w.doc;
        let Some((id, Object::Stream(stream))) = lookup(doc, self.resources, b"Pattern", name)
        else {
            return;
        };
        if stream
            .dict
            .get(b"PatternType")
            .and_then(Object::as_i64)
            .ok()
            != Some(1)
        {
            return;
        }
        let stream = stream.clone();
        if self.draws_text_or_images(id, &stream) {
            self.mark_unsafe("a tiling pattern with text or images painted across an area");
        }
    }

    /// Whether a stream drawn whole wherever it is used (a tiling pattern's cell, a soft
    /// mask's group) holds text or images (forms, which may hold either), or cannot be read:
    /// what it draws cannot be cut for one area. Paths and shadings carry no words.
    pub(super) fn draws_text_or_images(&mut self, id: Option<ObjectId>, stream: &Stream) -> bool {
        if let Some(&safe) = id.and_then(|id| self.w.patterns.get(&id)) {
            return !safe;
        }
        let safe = stream
            .decompressed_content_with_limit(MAX_PATTERN)
            .ok()
            .and_then(|data| content::parse(&data).ok())
            .is_some_and(|ops| {
                !ops.iter().any(|op| {
                    matches!(op.operator.as_str(), "Tj" | "TJ" | "'" | "\"" | "Do" | "BI")
                })
            });
        if let Some(id) = id {
            self.w.patterns.insert(id, safe);
        }
        !safe
    }
}
