//! An XFA form (/AcroForm /XFA: one stream, or an array of packet names and streams) holding
//! a term goes, as it goes when a field loses its value: the AcroForm fields stay and are
//! what viewers show. Its packets are XML whose words cannot be cut out safely. A packet
//! that cannot be decompressed is taken to hold a term.

use std::collections::HashSet;

use lopdf::{Document, Object};

use super::Terms;

/// The largest packet searched; a larger one is taken to hold a term.
const MAX_PACKET: usize = 64 << 20;

/// Returns 1 when the XFA form went, else 0.
pub fn remove(doc: &mut Document, terms: &Terms) -> u32 {
    let Some(xfa) = crate::forms::acroform(doc).and_then(|form| form.get(b"XFA").ok()) else {
        return 0;
    };
    let parts: Vec<&Object> = match doc.dereference(xfa) {
        Ok((_, Object::Array(items))) => items.iter().collect(),
        Ok((_, _)) => vec![xfa],
        Err(_) => return 0,
    };
    let holds = parts
        .into_iter()
        .any(|part| match doc.dereference(part).map(|(_, p)| p) {
            Ok(Object::Stream(stream)) => stream
                .decompressed_content_with_limit(MAX_PACKET)
                .map_or(true, |bytes| terms.found_in_bytes(&bytes)),
            Ok(Object::String(bytes, _)) => terms.found_in_bytes(bytes),
            _ => false,
        });
    if !holds {
        return 0;
    }
    // No widget removed: every field stays, the form loses /XFA (and the catalog its
    // /NeedsRendering); a form with no AcroForm field at all goes whole, as nothing of it
    // would be left to show.
    crate::flatten::remove_fields(doc, &HashSet::new());
    1
}
