//! Drawing appearances on a page: each under a fresh XObject name in the page's resources
//! (its effective resources, maybe inherited or shared, copied onto the page first), by a
//! content stream added after the page's own, which is wrapped in `q ... Q`.
//!
//! A small equivalent of the stamp's `content` module, whose adding of resources shares one
//! extended copy between pages that shared resources (right for a stamp, the same on every
//! page, wrong here: each page draws its own annotations).

use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use super::appearance::Drawing;
use crate::geometry::number;
use crate::pages::{self, PageRef};

/// The streams that wrap every page's content, shared by all pages.
pub struct Painter {
    save: Option<ObjectId>,
    restore: Option<ObjectId>,
}

impl Painter {
    pub fn new() -> Painter {
        Painter {
            save: None,
            restore: None,
        }
    }

    /// Draws `drawings` over the page's content, in order (the last on top).
    pub fn draw(&mut self, doc: &mut Document, page: &PageRef, drawings: &[Drawing]) {
        let mut resources = pages::effective(doc, page, b"Resources")
            .and_then(|object| object.as_dict().ok())
            .cloned()
            .unwrap_or_default();
        let mut operators = String::new();
        let mut forms = Category::of(doc, &resources, b"XObject", "Fm");
        let mut groups = Category::of(doc, &resources, b"Properties", "OC");
        for drawing in drawings {
            let form = forms.add(drawing.stream.into());
            let [a, b, c, d, e, f] = drawing.matrix.map(number);
            let paint = format!("q {a} {b} {c} {d} {e} {f} cm {} Do Q\n", operand(&form));
            match &drawing.optional_content {
                Some(group) => {
                    let tag = groups.add(group.clone());
                    operators.push_str(&format!("/OC {} BDC\n{paint}EMC\n", operand(&tag)));
                }
                None => operators.push_str(&paint),
            }
        }
        forms.put(&mut resources);
        groups.put(&mut resources);
        let ours = doc.add_object(Stream::new(Dictionary::new(), operators.into_bytes()));
        let existing = contents(doc, page.id);
        let mut all = Vec::with_capacity(existing.len() + 3);
        if !existing.is_empty() {
            // The line breaks keep tokens apart in readers that join the streams as they are.
            let save = *self.save.get_or_insert_with(|| {
                doc.add_object(Stream::new(Dictionary::new(), b"q\n".to_vec()))
            });
            let restore = *self.restore.get_or_insert_with(|| {
                doc.add_object(Stream::new(Dictionary::new(), b"\nQ\n".to_vec()))
            });
            all.push(Object::Reference(save));
            all.extend(existing);
            all.push(Object::Reference(restore));
        }
        all.push(Object::Reference(ours));
        if let Ok(dict) = doc.get_dictionary_mut(page.id) {
            dict.set("Resources", Object::Dictionary(resources));
            dict.set("Contents", Object::Array(all));
        }
    }
}

/// A category of a page's resources (/XObject, /Properties) being added to: a copy of its
/// entries (it may be shared), and the base of the names given with the next number to try.
struct Category {
    key: &'static [u8],
    entries: Dictionary,
    base: &'static str,
    next: u64,
}

impl Category {
    fn of(
        doc: &Document,
        resources: &Dictionary,
        key: &'static [u8],
        base: &'static str,
    ) -> Category {
        let entries = resources
            .get(key)
            .ok()
            .and_then(|object| doc.dereference(object).ok())
            .and_then(|(_, object)| object.as_dict().ok())
            .cloned()
            .unwrap_or_default();
        Category {
            key,
            entries,
            base,
            next: 1,
        }
    }

    /// Adds `value` under a name the category does not use yet, and returns the name.
    fn add(&mut self, value: Object) -> Vec<u8> {
        let name = loop {
            let name = format!("{}{}", self.base, self.next).into_bytes();
            self.next += 1;
            if !self.entries.has(&name) {
                break name;
            }
        };
        self.entries.set(name.clone(), value);
        name
    }

    /// Puts the category, when anything was added to it, into `resources`.
    fn put(self, resources: &mut Dictionary) {
        if self.next > 1 {
            resources.set(self.key, Object::Dictionary(self.entries));
        }
    }
}

/// The page's content streams, in order: /Contents as one reference or an array (maybe
/// itself an indirect object); nothing for a page without content.
fn contents(doc: &Document, page: ObjectId) -> Vec<Object> {
    let Some(value) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|dict| dict.get(b"Contents").ok())
    else {
        return Vec::new();
    };
    let items = match value {
        Object::Reference(id) => match doc.get_object(*id) {
            Ok(Object::Array(items)) => items,
            _ => return vec![value.clone()],
        },
        Object::Array(items) => items,
        _ => return Vec::new(),
    };
    items
        .iter()
        .filter(|item| matches!(item, Object::Reference(_)))
        .cloned()
        .collect()
}

/// A name as an operand: the `/` and its characters, `#`-escaped where needed.
fn operand(name: &[u8]) -> String {
    let mut out = String::from("/");
    for &byte in name {
        if byte.is_ascii_alphanumeric() {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("#{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_plain() {
        assert_eq!(number(2.0), "2");
        assert_eq!(number(-0.0000001), "0");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(-380.25), "-380.25");
        assert_eq!(number(1e20), "100000000000000000000");
    }
}
