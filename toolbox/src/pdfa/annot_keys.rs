//! The keys each kind of annotation that stays may have (ISO 32000-1 Tables 164 to 183):
//! the others (private data, keys of other kinds) go.

use lopdf::Dictionary;

/// Keys every kept annotation may have (ISO 32000-1 Table 164).
const COMMON: [&[u8]; 15] = [
    b"Type",
    b"Subtype",
    b"Rect",
    b"Contents",
    b"P",
    b"NM",
    b"M",
    b"F",
    b"AP",
    b"AS",
    b"Border",
    b"C",
    b"StructParent",
    b"OC",
    b"AF",
];

/// Keys of markup annotations (Table 170).
const MARKUP: [&[u8]; 9] = [
    b"T",
    b"Popup",
    b"CA",
    b"RC",
    b"CreationDate",
    b"IRT",
    b"Subj",
    b"RT",
    b"IT",
];

const LINK: [&[u8]; 6] = [b"A", b"Dest", b"H", b"PA", b"QuadPoints", b"BS"];

const TEXT: [&[u8]; 4] = [b"Open", b"Name", b"State", b"StateModel"];

const POPUP: [&[u8]; 2] = [b"Parent", b"Open"];

const SHAPES: [&[u8]; 17] = [
    b"QuadPoints",
    b"BS",
    b"IC",
    b"BE",
    b"RD",
    b"L",
    b"LE",
    b"LL",
    b"LLE",
    b"LLO",
    b"Cap",
    b"CP",
    b"CO",
    b"Vertices",
    b"InkList",
    b"Name",
    b"Sy",
];

/// Drops the keys the annotation's kind does not define (private data, keys of other kinds).
pub fn prune_keys(dict: &mut Dictionary, subtype: &[u8]) {
    let specific: &[&[u8]] = match subtype {
        b"Link" => &LINK,
        b"Text" => &TEXT,
        b"Popup" => &POPUP,
        _ => &SHAPES,
    };
    let markup = !matches!(subtype, b"Link" | b"Popup");
    let keys: Vec<Vec<u8>> = dict.iter().map(|(k, _)| k.clone()).collect();
    for key in keys {
        let k = key.as_slice();
        let known = COMMON.contains(&k) || specific.contains(&k) || (markup && MARKUP.contains(&k));
        if !known {
            dict.remove(k);
        }
    }
}
