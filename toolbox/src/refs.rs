//! Walking the references an object holds, and renumbering a whole document.

use std::collections::{BTreeMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::ToolError;

/// Calls `f` on every reference `object` holds, in its arrays and dictionaries and in a
/// stream's dictionary (never its data). The parser bounds how deep objects nest, and the
/// objects this crate builds are shallow, so the recursion is bounded too.
pub fn for_each_ref(object: &mut Object, f: &mut impl FnMut(&mut Object)) {
    match object {
        Object::Reference(_) => f(object),
        Object::Array(items) => {
            for item in items {
                for_each_ref(item, f);
            }
        }
        Object::Dictionary(dict) => for_each_ref_in(dict, f),
        Object::Stream(stream) => for_each_ref_in(&mut stream.dict, f),
        _ => {}
    }
}

pub fn for_each_ref_in(dict: &mut Dictionary, f: &mut impl FnMut(&mut Object)) {
    for (_, value) in dict.iter_mut() {
        for_each_ref(value, f);
    }
}

/// Renumbers every object of `doc` by `offset`, so that its objects can join another
/// document's, and turns references to objects the file lacks into null (which they mean), so
/// that none can land on another document's object. Returns the highest object number after.
pub fn shift(doc: &mut Document, offset: u32) -> Result<u32, ToolError> {
    let present: HashSet<ObjectId> = doc.objects.keys().copied().collect();
    let too_many = || ToolError::InvalidFile("the PDFs hold too many objects to merge".into());
    let mut fix = |object: &mut Object| {
        if let Object::Reference(id) = object {
            if present.contains(id) {
                // Checked below for every object the reference can name.
                id.0 = id.0.wrapping_add(offset);
            } else {
                *object = Object::Null;
            }
        }
    };
    let top = crate::io::max_number(doc);
    top.checked_add(offset).ok_or_else(too_many)?;
    for_each_ref_in(&mut doc.trailer, &mut fix);
    if offset == 0 {
        for object in doc.objects.values_mut() {
            for_each_ref(object, &mut fix);
        }
        return Ok(top);
    }
    let objects = std::mem::take(&mut doc.objects);
    doc.objects = objects
        .into_iter()
        .map(|((number, generation), mut object)| {
            for_each_ref(&mut object, &mut fix);
            ((number + offset, generation), object)
        })
        .collect::<BTreeMap<_, _>>();
    doc.max_id = top + offset;
    Ok(top + offset)
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn shift_renumbers_and_nulls_dangling_references() {
        let mut doc = Document::new();
        let a = doc.add_object(dictionary! { "Missing" => (40, 0), "Me" => (1, 0) });
        doc.trailer.set("Root", a);
        assert_eq!(shift(&mut doc, 10).ok(), Some(11));
        assert_eq!(
            doc.trailer.get(b"Root").ok(),
            Some(&Object::Reference((11, 0)))
        );
        let dict = doc.get_dictionary((11, 0)).expect("moved");
        assert_eq!(dict.get(b"Missing").ok(), Some(&Object::Null));
        assert_eq!(dict.get(b"Me").ok(), Some(&Object::Reference((11, 0))));
    }

    #[test]
    fn shift_past_the_numbers_is_an_error() {
        let mut doc = Document::new();
        doc.objects.insert((u32::MAX - 1, 0), Object::Null);
        assert!(shift(&mut doc, 5).is_err());
    }
}
