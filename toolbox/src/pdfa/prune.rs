//! Entries no reader draws with, dropped from the dictionaries of fonts, font programs,
//! content streams and resources: the keys ISO 32000-1 defines for each are kept, private
//! data (an editor's markers, stray lengths) goes, so that validators that check every key
//! they read find none they do not know.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

use super::catalog::keep_only;

const STREAM: [&[u8]; 4] = [b"Length", b"Filter", b"DecodeParms", b"DL"];
const RESOURCES: [&[u8]; 8] = [
    b"Font",
    b"XObject",
    b"ExtGState",
    b"ColorSpace",
    b"Properties",
    b"ProcSet",
    b"Pattern",
    b"Shading",
];
const FONT: [&[u8]; 15] = [
    b"Type",
    b"Subtype",
    b"BaseFont",
    b"Name",
    b"FirstChar",
    b"LastChar",
    b"Widths",
    b"FontDescriptor",
    b"Encoding",
    b"ToUnicode",
    b"DescendantFonts",
    b"FontBBox",
    b"FontMatrix",
    b"CharProcs",
    b"Resources",
];
const CID_FONT: [&[u8]; 10] = [
    b"Type",
    b"Subtype",
    b"BaseFont",
    b"CIDSystemInfo",
    b"FontDescriptor",
    b"DW",
    b"W",
    b"DW2",
    b"W2",
    b"CIDToGIDMap",
];
const DESCRIPTOR: [&[u8]; 25] = [
    b"Type",
    b"FontName",
    b"FontFamily",
    b"FontStretch",
    b"FontWeight",
    b"Flags",
    b"FontBBox",
    b"ItalicAngle",
    b"Ascent",
    b"Descent",
    b"Leading",
    b"CapHeight",
    b"XHeight",
    b"StemV",
    b"StemH",
    b"AvgWidth",
    b"MaxWidth",
    b"MissingWidth",
    b"FontFile",
    b"FontFile2",
    b"FontFile3",
    b"CharSet",
    b"Style",
    b"CIDSet",
    b"Lang",
];
const PROGRAM: [&[u8]; 4] = [b"Length1", b"Length2", b"Length3", b"Subtype"];
const CMAP: [&[u8]; 5] = [b"Type", b"CMapName", b"CIDSystemInfo", b"WMode", b"UseCMap"];

/// Prunes the dictionaries of fonts, their parts, page contents and resources.
pub fn apply(doc: &mut Document) {
    let mut contents: HashSet<ObjectId> = HashSet::new();
    let mut programs: HashSet<ObjectId> = HashSet::new();
    let mut cmaps: HashSet<ObjectId> = HashSet::new();
    let mut resources: HashSet<ObjectId> = HashSet::new();
    for object in doc.objects.values() {
        let dict = match object {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &s.dict,
            _ => continue,
        };
        if dict.has_type(b"Page") {
            match dict.get(b"Contents") {
                Ok(Object::Reference(id)) => {
                    contents.insert(*id);
                }
                Ok(Object::Array(items)) => {
                    contents.extend(items.iter().filter_map(|i| i.as_reference().ok()));
                }
                _ => {}
            }
        }
        if let Ok(Object::Reference(id)) = dict.get(b"Resources") {
            resources.insert(*id);
        }
        for key in [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"] {
            if let Ok(Object::Reference(id)) = dict.get(key) {
                programs.insert(*id);
            }
        }
        if dict.has_type(b"Font") {
            for key in [b"ToUnicode".as_slice(), b"Encoding"] {
                if let Ok(Object::Reference(id)) = dict.get(key) {
                    cmaps.insert(*id);
                }
            }
        }
    }
    for (id, object) in doc.objects.iter_mut() {
        match object {
            Object::Stream(stream) => {
                let dict = &mut stream.dict;
                if contents.contains(id) {
                    keep_only(dict, &STREAM);
                } else if programs.contains(id) {
                    let allowed: Vec<&[u8]> =
                        STREAM.iter().chain(PROGRAM.iter()).copied().collect();
                    keep_only(dict, &allowed);
                } else if cmaps.contains(id) {
                    let allowed: Vec<&[u8]> = STREAM.iter().chain(CMAP.iter()).copied().collect();
                    keep_only(dict, &allowed);
                }
                if let Ok(Object::Dictionary(res)) = dict.get_mut(b"Resources") {
                    keep_only(res, &RESOURCES);
                }
            }
            Object::Dictionary(dict) => {
                if resources.contains(id) {
                    keep_only(dict, &RESOURCES);
                } else if dict.has_type(b"FontDescriptor") {
                    keep_only(dict, &DESCRIPTOR);
                } else if dict.has_type(b"Font") {
                    let subtype = dict
                        .get(b"Subtype")
                        .and_then(Object::as_name)
                        .unwrap_or(b"");
                    if matches!(subtype, b"CIDFontType0" | b"CIDFontType2") {
                        keep_only(dict, &CID_FONT);
                    } else {
                        keep_only(dict, &FONT);
                    }
                    if let Ok(Object::Dictionary(encoding)) = dict.get_mut(b"Encoding") {
                        keep_only(encoding, &[b"Type", b"BaseEncoding", b"Differences"]);
                    }
                }
                if let Ok(Object::Dictionary(res)) = dict.get_mut(b"Resources") {
                    keep_only(res, &RESOURCES);
                }
            }
            _ => {}
        }
    }
}
