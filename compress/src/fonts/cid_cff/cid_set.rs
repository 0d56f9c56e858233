//! `/CIDSet`, which a font descriptor may carry (PDF/A-1 requires it of subset CID fonts):
//! a bit per CID the program holds, which the compaction changes.

use std::collections::BTreeSet;

use lopdf::{Document, Object, ObjectId, Stream, dictionary};

/// Every descriptor in `chain` that has a `/CIDSet` gets one of the CIDs `cff` holds.
pub fn refresh(doc: &mut Document, chain: &BTreeSet<ObjectId>, cff: &[u8]) {
    let Some(font) = super::Font::read(cff) else {
        return;
    };
    let descriptors: Vec<ObjectId> = chain
        .iter()
        .copied()
        .filter(|&id| doc.get_dictionary(id).is_ok_and(|d| d.has(b"CIDSet")))
        .collect();
    if descriptors.is_empty() {
        return;
    }
    let set = doc.add_object(Stream::new(dictionary! {}, bits(&font.cids)));
    for id in descriptors {
        if let Ok(descriptor) = doc.get_dictionary_mut(id) {
            descriptor.set("CIDSet", Object::Reference(set));
        }
    }
}

/// The bits of `cids`, the high bit of the first byte standing for CID 0.
fn bits(cids: &[u16]) -> Vec<u8> {
    let last = cids.iter().copied().max().map_or(0, usize::from);
    let mut out = vec![0u8; last / 8 + 1];
    for &cid in cids {
        out[usize::from(cid) / 8] |= 0x80 >> (cid % 8);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_high_bit_is_the_first_cid() {
        assert_eq!(super::bits(&[0, 9, 10]), vec![0x80, 0x60]);
    }
}
