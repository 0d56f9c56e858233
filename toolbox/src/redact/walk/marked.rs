//! Marked content: a sequence that held something the areas took loses the texts that
//! describe it (/ActualText, which readers extract instead of the glyphs, /Alt and /E), and
//! its MCID is noted so that the structure element owning it loses them too. Properties given
//! by name are not changed where they are (other sequences may share them): the sequence
//! names a copy.

use lopdf::{Dictionary, Object};

use super::Run;
use super::resources::lookup;
use crate::redact::content::{Piece, write_object};

/// The entries that say in words what a sequence shows.
pub const DESCRIPTIONS: [&[u8]; 3] = [b"ActualText", b"Alt", b"E"];

/// An open marked-content sequence.
pub struct Marked {
    /// Its BMC or BDC.
    index: usize,
    /// Its properties, resolved, and whether they were given by name.
    properties: Option<(Dictionary, bool)>,
    touched: bool,
}

impl Run<'_, '_> {
    pub(super) fn begin_marked(&mut self, index: usize) {
        let ops = self.ops;
        let op = &ops[index];
        let properties = match op.operands.get(1) {
            Some(Object::Dictionary(dict)) => Some((dict.clone(), false)),
            Some(Object::Name(name)) => {
                let doc = &*self.w.doc;
                match lookup(doc, self.resources, b"Properties", name) {
                    Some((_, Object::Dictionary(dict))) => Some((dict.clone(), true)),
                    _ => None,
                }
            }
            _ => None,
        };
        self.marked.push(Marked {
            index,
            properties,
            touched: false,
        });
    }

    /// Something in the open sequences went.
    pub(super) fn touch(&mut self) {
        for marked in &mut self.marked {
            marked.touched = true;
        }
    }

    pub(super) fn end_marked(&mut self) {
        let Some(marked) = self.marked.pop() else {
            return;
        };
        let Some((properties, named)) = marked.properties.filter(|_| marked.touched) else {
            return;
        };
        if self.page_level
            && let Ok(mcid) = properties.get(b"MCID").and_then(Object::as_i64)
        {
            self.w.touched_mcids.insert(mcid);
        }
        if !DESCRIPTIONS.iter().any(|key| properties.has(key)) {
            return;
        }
        let mut cleaned = properties;
        for key in DESCRIPTIONS {
            cleaned.remove(key);
        }
        let ops = self.ops;
        let Some(tag) = ops[marked.index].operands.first() else {
            return;
        };
        let tag = String::from_utf8_lossy(&write_object(tag)).into_owned();
        if let Some(Object::Name(old)) = ops[marked.index].operands.get(1) {
            self.replaced.push((b"Properties", old.clone()));
        }
        let operand = if named {
            let name = self.add_resource(b"Properties", "RdMC", Object::Dictionary(cleaned));
            write_object(&Object::Name(name))
        } else {
            write_object(&Object::Dictionary(cleaned))
        };
        let written = format!("{tag} {} BDC", String::from_utf8_lossy(&operand));
        self.replace(marked.index, Piece::Replace(written.into_bytes()));
    }
}
