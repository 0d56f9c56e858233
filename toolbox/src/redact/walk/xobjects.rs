//! Images and forms drawn by `Do`, and inline images: an image reaching an area is drawn as a
//! painted copy, a form as a redacted copy; either wholly inside an area is not drawn at all.
//! The originals stay for whatever else draws them.

use lopdf::{Dictionary, Object, ObjectId, Stream};

use super::Run;
use super::resources::lookup;
use crate::geometry::{IDENTITY, multiply, number_of};
use crate::redact::content::{Piece, write_object};
use crate::redact::geometry::{bounds, quad};
use crate::redact::{MAX_FORM_DEPTH, images};

/// The largest form content decoded.
const MAX_FORM: usize = 64 << 20;

/// What a placement shows of an area.
pub(super) enum Reach {
    None,
    Partly,
    Wholly,
}

/// Inline image keys and their full names (ISO 32000-1, table 93).
const INLINE_KEYS: [(&[u8], &[u8]); 9] = [
    (b"BPC", b"BitsPerComponent"),
    (b"CS", b"ColorSpace"),
    (b"D", b"Decode"),
    (b"DP", b"DecodeParms"),
    (b"F", b"Filter"),
    (b"H", b"Height"),
    (b"IM", b"ImageMask"),
    (b"I", b"Interpolate"),
    (b"W", b"Width"),
];

impl Run<'_, '_> {
    pub(super) fn reach(&self, m: crate::geometry::Matrix, bbox: [f64; 4]) -> Reach {
        let shape = quad(m, bbox);
        let areas = self.w.areas;
        if !areas.reaches(&shape) {
            Reach::None
        } else if areas.holds(&bounds(&shape)) {
            Reach::Wholly
        } else {
            Reach::Partly
        }
    }

    pub(super) fn draw_xobject(&mut self, index: usize) {
        let ops = self.ops;
        let Some(name) = ops[index].name(0) else {
            return;
        };
        let doc = &*self.w.doc;
        let Some((id, Object::Stream(stream))) = lookup(doc, self.resources, b"XObject", name)
        else {
            return;
        };
        let subtype = stream.dict.get(b"Subtype").and_then(Object::as_name).ok();
        let lends = subtype == Some(b"Form") && !stream.dict.has(b"Resources");
        self.replaced.push((b"XObject", name.to_vec()));
        if lends {
            self.lends_resources = true;
        }
        match subtype {
            Some(b"Image") => {
                let stream = stream.clone();
                self.image(index, &stream);
            }
            Some(b"Form") => {
                let stream = stream.clone();
                self.form(index, id, &stream);
            }
            _ => {}
        }
    }

    fn image(&mut self, index: usize, stream: &Stream) {
        let ctm = self.state.ctm;
        match self.reach(ctm, [0.0, 0.0, 1.0, 1.0]) {
            Reach::None => {}
            Reach::Wholly => {
                self.w.tally.images += 1;
                self.touch();
                self.replace(index, Piece::Drop);
            }
            Reach::Partly => {
                let doc = &*self.w.doc;
                match images::redact(doc, stream, ctm, self.w.areas, self.w.fill) {
                    Ok(None) => {}
                    Ok(Some(painted)) => {
                        let id = painted.add_to(self.w.doc);
                        let name = self.add_resource(b"XObject", "RdIm", Object::Reference(id));
                        self.w.tally.images += 1;
                        self.touch();
                        self.replace(index, Piece::Replace(draw(&name)));
                    }
                    Err(why) => self.mark_unsafe(format!("an image under an area: {why}")),
                }
            }
        }
    }

    fn form(&mut self, index: usize, id: Option<ObjectId>, stream: &Stream) {
        let doc = &*self.w.doc;
        let numbers = |key: &[u8]| -> Option<Vec<f64>> {
            let (_, value) = doc.dereference(stream.dict.get(key).ok()?).ok()?;
            value
                .as_array()
                .ok()?
                .iter()
                .map(|v| number_of(doc.dereference(v).ok()?.1))
                .collect()
        };
        let matrix = numbers(b"Matrix")
            .and_then(|m| <[f64; 6]>::try_from(m).ok())
            .unwrap_or(IDENTITY);
        let m = multiply(matrix, self.state.ctm);
        let bbox = numbers(b"BBox").and_then(|b| <[f64; 4]>::try_from(b).ok());
        let reach = match bbox {
            Some([x0, y0, x1, y1]) => {
                self.reach(m, [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)])
            }
            // Without a box the form is not clipped: it is walked wherever it draws.
            None => Reach::Partly,
        };
        // A form wholly inside an area is not drawn. Any other is walked, even one whose box
        // misses the areas: text it clips away is still text that extraction tools place
        // where it was drawn, maybe inside an area.
        if matches!(reach, Reach::Wholly) {
            self.touch();
            self.replace(index, Piece::Drop);
            return;
        }
        if self.depth >= MAX_FORM_DEPTH {
            return self.mark_unsafe("forms nested too deep");
        }
        if id.is_some_and(|id| self.w.forms.contains(&id)) {
            return self.mark_unsafe("a form that draws itself");
        }
        let Ok(data) = stream.decompressed_content_with_limit(MAX_FORM) else {
            return self.mark_unsafe("a form whose content cannot be decoded");
        };
        let own = stream
            .dict
            .get(b"Resources")
            .ok()
            .and_then(|r| doc.dereference(r).ok())
            .and_then(|(_, r)| r.as_dict().ok())
            .cloned();
        // A form without resources uses those of the stream that draws it (PDF 1.1).
        let resources = own.unwrap_or_else(|| self.resources.clone());
        let mut state = self.state.clone();
        state.ctm = m;
        self.w.forms.extend(id);
        let walked = self
            .w
            .stream(&data, &resources, state, self.depth + 1, false);
        if id.is_some() {
            self.w.forms.pop();
        }
        match walked {
            Err(why) => self.mark_unsafe(format!("a form's content cannot be read ({})", why.0)),
            Ok(output) if output.changed => {
                let mut dict = stream.dict.clone();
                for key in [
                    &b"Length"[..],
                    b"Filter",
                    b"DecodeParms",
                    b"PieceInfo",
                    b"Metadata",
                ] {
                    dict.remove(key);
                }
                dict.set("Resources", Object::Dictionary(output.resources));
                let copy = self.w.doc.add_object(Stream::new(dict, output.content));
                let name = self.add_resource(b"XObject", "RdFm", Object::Reference(copy));
                self.touch();
                self.replace(index, Piece::Replace(draw(&name)));
            }
            Ok(_) => {}
        }
    }

    /// An inline image: painted, it becomes an image XObject drawn in its place.
    pub(super) fn inline_image(&mut self, index: usize) {
        let ctm = self.state.ctm;
        match self.reach(ctm, [0.0, 0.0, 1.0, 1.0]) {
            Reach::None => return,
            Reach::Wholly => {
                self.w.tally.images += 1;
                self.touch();
                return self.replace(index, Piece::Drop);
            }
            Reach::Partly => {}
        }
        let ops = self.ops;
        let op = &ops[index];
        let (Some(Object::Dictionary(inline)), Some(data)) = (op.operands.first(), &op.image)
        else {
            return;
        };
        let Some(bytes) = self.data.get(data.clone()) else {
            return;
        };
        let dict = self.expand_inline(inline);
        let stream = Stream::new(dict, bytes.to_vec());
        let doc = &*self.w.doc;
        match images::redact(doc, &stream, ctm, self.w.areas, self.w.fill) {
            Ok(None) => {}
            Ok(Some(painted)) => {
                let id = painted.add_to(self.w.doc);
                let name = self.add_resource(b"XObject", "RdIm", Object::Reference(id));
                self.w.tally.images += 1;
                self.touch();
                self.replace(index, Piece::Replace(draw(&name)));
            }
            Err(why) => self.mark_unsafe(format!("an inline image under an area: {why}")),
        }
    }

    /// An inline image's dictionary as an image XObject's: full key names, a named colour
    /// space resolved through the resources.
    fn expand_inline(&self, inline: &Dictionary) -> Dictionary {
        let mut dict = Dictionary::new();
        dict.set("Type", Object::Name(b"XObject".to_vec()));
        dict.set("Subtype", Object::Name(b"Image".to_vec()));
        for (key, value) in inline {
            let full = INLINE_KEYS
                .iter()
                .find(|(short, _)| short == key)
                .map_or(key.as_slice(), |(_, long)| long);
            dict.set(full.to_vec(), value.clone());
        }
        if let Ok(Object::Name(name)) = dict.get(b"ColorSpace")
            && !matches!(
                name.as_slice(),
                b"G" | b"RGB" | b"CMYK" | b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK"
            )
            && let Some((id, value)) = lookup(self.w.doc, self.resources, b"ColorSpace", name)
        {
            let value = id.map_or_else(|| value.clone(), Object::Reference);
            dict.set("ColorSpace", value);
        }
        dict
    }
}

/// `/name Do`.
fn draw(name: &[u8]) -> Vec<u8> {
    let mut out = write_object(&Object::Name(name.to_vec()));
    out.extend_from_slice(b" Do");
    out
}
