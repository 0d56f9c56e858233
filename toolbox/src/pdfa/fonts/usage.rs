//! The codes each font shows, read from every content stream: `Tf` selects a font by its
//! resource name, the text operators show strings with it.

use std::collections::{BTreeSet, HashMap};

use lopdf::{Document, ObjectId};

use super::super::content::Operand;
use super::super::walk::{self, Event};

/// The strings shown with each font object, and whether some content could not be read
/// (its fonts' usage is then unknown).
#[derive(Default)]
pub struct Usage {
    pub codes: HashMap<ObjectId, BTreeSet<u8>>,
    pub unreadable: Vec<String>,
}

/// Reads every content stream of `doc`.
pub fn read(doc: &Document) -> Usage {
    let mut usage = Usage::default();
    walk::walk(doc, |event| match event {
        Event::Unreadable { label, message, .. } => {
            usage.unreadable.push(format!("{label}: {message}"))
        }
        Event::Stream(drawn) => {
            let fonts = drawn
                .resources
                .and_then(|r| walk::category(doc, r, b"Font"));
            let mut current: Option<ObjectId> = None;
            let mut stack: Vec<Option<ObjectId>> = Vec::new();
            for op in drawn.ops {
                match op.operator.as_slice() {
                    b"q" => stack.push(current),
                    b"Q" => current = stack.pop().unwrap_or(current),
                    b"Tf" => {
                        current = op
                            .operands
                            .first()
                            .and_then(Operand::name)
                            .and_then(|name| fonts?.get(name).ok()?.as_reference().ok());
                    }
                    b"Tj" | b"'" | b"\"" | b"TJ" => {
                        let Some(font) = current else {
                            continue;
                        };
                        let codes = usage.codes.entry(font).or_default();
                        for operand in &op.operands {
                            match operand {
                                Operand::Str(bytes) => codes.extend(bytes.iter().copied()),
                                Operand::Array(items) => {
                                    for item in items {
                                        if let Operand::Str(bytes) = item {
                                            codes.extend(bytes.iter().copied());
                                        }
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    });
    usage
}
