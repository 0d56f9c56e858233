//! Text: the state that places glyphs, and the showing operators, whose strings lose the
//! glyphs the areas take. A string that loses glyphs is written as a TJ array in which a
//! number stands for each run of removed glyphs: minus their advance (with Tc, Tw on a
//! one-byte space, Tz) in thousandths of the font size, so what follows stays in place.

use std::fmt::Write as _;
use std::rc::Rc;

use lopdf::Object;

use super::Run;
use super::resources::lookup;
use super::state::Selected;
use crate::geometry::{multiply, number};
use crate::redact::content::{Op, Piece, hex_string, write_object};
use crate::redact::fonts::{Font, Glyph};
use crate::redact::geometry::{bounds, quad};

/// One item of a TJ array as written again.
enum Item {
    Text(Vec<u8>),
    Number(f64),
}

impl Run<'_, '_> {
    pub(super) fn text_parameter(&mut self, op: &Op) {
        let value = op.number(0);
        let state = &mut self.state;
        match (op.operator.as_str(), value) {
            ("Tc", Some(v)) => state.char_spacing = v,
            ("Tw", Some(v)) => state.word_spacing = v,
            ("Tz", Some(v)) => state.scale = v / 100.0,
            ("TL", Some(v)) => state.leading = v,
            ("Ts", Some(v)) => state.rise = v,
            ("Tf", _) => {
                if let (Some(name), Some(size)) = (op.name(0), op.number(1)) {
                    let name = name.to_vec();
                    self.state.font = Some(self.font_named(&name));
                    self.state.size = size;
                }
            }
            _ => {}
        }
    }

    pub(super) fn text_position(&mut self, op: &Op) {
        match op.operator.as_str() {
            "Td" | "TD" => {
                if let (Some(tx), Some(ty)) = (op.number(0), op.number(1)) {
                    if op.operator == "TD" {
                        self.state.leading = -ty;
                    }
                    self.text.next_line(tx, ty);
                }
            }
            "Tm" => {
                if let Some(m) = super::matrix(op) {
                    self.text.set(m);
                }
            }
            _ => self.text.next_line(0.0, -self.state.leading),
        }
    }

    /// An ExtGState's font and line width.
    pub(super) fn ext_gstate(&mut self, op: &Op) {
        let Some(name) = op.name(0) else {
            return;
        };
        let doc = &*self.w.doc;
        let Some((_, Object::Dictionary(gs))) = lookup(doc, self.resources, b"ExtGState", name)
        else {
            return;
        };
        // Cloned: reading the soft mask may add to the walker's caches.
        let gs = gs.clone();
        let gs = &gs;
        if let Some(width) = gs.get(b"LW").ok().and_then(crate::geometry::number_of) {
            self.state.line_width = width;
        }
        self.soft_mask(gs);
        let doc = &*self.w.doc;
        let font = gs
            .get(b"Font")
            .ok()
            .and_then(|f| doc.dereference(f).ok())
            .and_then(|(_, f)| f.as_array().ok())
            .and_then(|f| Some((f.first()?.clone(), crate::geometry::number_of(f.get(1)?)?)));
        if let Some((font, size)) = font {
            self.state.font = Some(self.font_of(&font));
            self.state.size = size;
        }
    }

    /// A soft mask's group is drawn whole, under everything painted while it is set: one that
    /// reaches an area with text or images in it cannot be cut there.
    fn soft_mask(&mut self, gs: &lopdf::Dictionary) {
        let doc = &*self.w.doc;
        let Some(group) = gs
            .get(b"SMask")
            .ok()
            .and_then(|m| doc.dereference(m).ok())
            .and_then(|(_, m)| m.as_dict().ok())
            .and_then(|m| m.get(b"G").ok())
        else {
            return;
        };
        let Ok((id, Object::Stream(stream))) = doc.dereference(group) else {
            return;
        };
        let numbers = |key: &[u8]| -> Option<Vec<f64>> {
            let (_, value) = doc.dereference(stream.dict.get(key).ok()?).ok()?;
            let items = value.as_array().ok()?;
            items
                .iter()
                .map(|v| crate::geometry::number_of(doc.dereference(v).ok()?.1))
                .collect()
        };
        let matrix = numbers(b"Matrix")
            .and_then(|m| <[f64; 6]>::try_from(m).ok())
            .unwrap_or(crate::geometry::IDENTITY);
        let reaches = match numbers(b"BBox").and_then(|b| <[f64; 4]>::try_from(b).ok()) {
            Some([x0, y0, x1, y1]) => {
                let bbox = [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)];
                !matches!(
                    self.reach(multiply(matrix, self.state.ctm), bbox),
                    super::xobjects::Reach::None
                )
            }
            None => true,
        };
        let stream = stream.clone();
        if reaches && self.draws_text_or_images(id, &stream) {
            self.mark_unsafe("a soft mask with text or images over an area");
        }
    }

    fn font_named(&mut self, name: &[u8]) -> Selected {
        let value = self
            .resources
            .get(b"Font")
            .ok()
            .and_then(|g| self.w.doc.dereference(g).ok())
            .and_then(|(_, g)| g.as_dict().ok())
            .and_then(|g| g.get(name).ok())
            .cloned();
        match value {
            Some(value) => self.font_of(&value),
            None => Rc::new(Err("a font the resources do not have")),
        }
    }

    /// A font object (a reference or a dictionary), read once per object.
    fn font_of(&mut self, value: &Object) -> Selected {
        let id = value.as_reference().ok();
        if let Some(font) = id.and_then(|id| self.w.fonts.get(&id)) {
            return font.clone();
        }
        let doc = &*self.w.doc;
        let loaded = match doc
            .dereference(value)
            .ok()
            .and_then(|(_, f)| f.as_dict().ok())
        {
            Some(dict) => Font::load(doc, dict),
            None => Err("a font that is not a font dictionary"),
        };
        let loaded = Rc::new(loaded);
        if let Some(id) = id {
            self.w.fonts.insert(id, loaded.clone());
        }
        loaded
    }

    /// Tj, TJ, ' and ": each glyph placed, those the areas take removed.
    pub(super) fn show(&mut self, index: usize) {
        let ops = self.ops;
        let op = &ops[index];
        let mut prefix = String::new();
        let items: Vec<&Object> = match (op.operator.as_str(), op.operands.as_slice()) {
            ("Tj", [s]) => vec![s],
            ("'", [s]) => {
                prefix.push_str("T* ");
                self.text.next_line(0.0, -self.state.leading);
                vec![s]
            }
            ("\"", [aw, ac, s]) => {
                let (Some(w), Some(c)) = (op.number(0), op.number(1)) else {
                    return;
                };
                self.state.word_spacing = w;
                self.state.char_spacing = c;
                let (aw, ac) = (write_object(aw), write_object(ac));
                prefix = format!(
                    "{} Tw {} Tc T* ",
                    String::from_utf8_lossy(&aw),
                    String::from_utf8_lossy(&ac)
                );
                self.text.next_line(0.0, -self.state.leading);
                vec![s]
            }
            ("TJ", [Object::Array(items)]) => items.iter().collect(),
            _ => return,
        };
        let shows_something = items
            .iter()
            .any(|item| matches!(item, Object::String(s, _) if !s.is_empty()));
        let font = match self.state.font.clone() {
            Some(font) => font,
            None if shows_something => return self.mark_unsafe("text shown with no font set"),
            None => return,
        };
        let font = match font.as_ref() {
            Ok(font) => font,
            Err(why) => {
                if shows_something {
                    self.mark_unsafe(format!("text shown in {why}"));
                }
                return;
            }
        };
        if !font.exact && shows_something {
            self.mark_unsafe("text shown in a font whose widths are not known");
        }
        let mut out = Vec::with_capacity(items.len());
        let mut removed = 0u64;
        for item in items {
            match item {
                Object::String(bytes, _) => {
                    let Some(glyphs) = font.glyphs(bytes) else {
                        return self
                            .mark_unsafe("a string that does not split into the font's codes");
                    };
                    removed += self.string(font, bytes, &glyphs, &mut out);
                }
                other => {
                    if let Some(n) = crate::geometry::number_of(other) {
                        self.kern(n);
                        out.push(Item::Number(n));
                    }
                }
            }
        }
        if removed > 0 {
            self.w.tally.glyphs += removed;
            self.touch();
            let mut written = prefix;
            written.push('[');
            for item in &out {
                match item {
                    Item::Text(bytes) => written.push_str(&hex_string(bytes)),
                    Item::Number(n) => {
                        let _ = write!(written, " {} ", number(*n));
                    }
                }
            }
            written.push_str("] TJ");
            self.replace(index, Piece::Replace(written.into_bytes()));
        }
    }

    /// A TJ number: the text position moves back by it, in thousandths of the font size.
    fn kern(&mut self, n: f64) {
        let shift = -n / 1000.0 * self.state.size;
        if self.vertical() {
            self.text.advance(0.0, shift);
        } else {
            self.text.advance(shift * self.state.scale, 0.0);
        }
    }

    fn vertical(&self) -> bool {
        matches!(self.state.font.as_deref(), Some(Ok(font)) if font.vertical())
    }

    /// One string's glyphs placed and judged: the kept ones written as runs of their codes,
    /// the removed ones as numbers. Returns how many went.
    fn string(&mut self, font: &Font, bytes: &[u8], glyphs: &[Glyph], out: &mut Vec<Item>) -> u64 {
        let mut removed = 0;
        let mut at = 0;
        let mut run_start = 0;
        for glyph in glyphs {
            let state = &self.state;
            let spacing = state.char_spacing + if glyph.space { state.word_spacing } else { 0.0 };
            let trm = multiply(
                [
                    state.size * state.scale,
                    0.0,
                    0.0,
                    state.size,
                    0.0,
                    state.rise,
                ],
                multiply(self.text.matrix, state.ctm),
            );
            let (shape, advance) = match glyph.vertical {
                None => (
                    [0.0, font.descent, glyph.width, font.ascent],
                    glyph.width * state.size + spacing,
                ),
                Some((w1, vx, vy)) => (
                    [-vx, font.descent - vy, glyph.width - vx, font.ascent - vy],
                    w1 * state.size + spacing,
                ),
            };
            let corners = quad(trm, shape);
            if self.w.areas.takes_glyph(&corners) {
                self.w.tally.glyph_boxes.push(bounds(&corners));
                if run_start < at {
                    out.push(Item::Text(bytes[run_start..at].to_vec()));
                }
                run_start = at + glyph.len;
                removed += 1;
                // The number that moves the text position as the glyph did; with no font
                // size nothing can (the glyph then drew nothing either).
                if state.size != 0.0 {
                    let n = -advance * 1000.0 / state.size;
                    match out.last_mut() {
                        Some(Item::Number(previous)) => *previous += n,
                        _ => out.push(Item::Number(n)),
                    }
                }
            }
            if glyph.vertical.is_some() {
                self.text.advance(0.0, advance);
            } else {
                self.text.advance(advance * self.state.scale, 0.0);
            }
            at += glyph.len;
        }
        if run_start < at {
            out.push(Item::Text(bytes[run_start..at].to_vec()));
        }
        removed
    }
}
