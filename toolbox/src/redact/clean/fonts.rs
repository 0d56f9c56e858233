//! Embedded fonts whose name holds a term (a company's own typeface, a font named after a
//! person) are renamed: `/BaseFont` and `/FontName` get an opaque name, the subset prefix
//! (`ABCDEF+`) kept, and `/FontFamily` goes. An embedded font is drawn from its program, never
//! looked up by name, so the pages look the same. A font that is not embedded is found by its
//! name: it keeps it, and the check that follows refuses the file rather than change how the
//! text looks.

use std::collections::{BTreeMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Terms;

const PROGRAMS: [&[u8]; 3] = [b"FontFile", b"FontFile2", b"FontFile3"];

/// Returns how many font names changed.
pub fn rename(doc: &mut Document, terms: &Terms) -> u32 {
    let holds = |name: &[u8]| terms.found_in_bytes(name);
    let family_holds = |dict: &Dictionary| {
        dict.get(b"FontFamily")
            .and_then(Object::as_str)
            .is_ok_and(|family| terms.found_in_bytes(family))
    };
    // Each descriptor of an embedded font that holds a term, and every font dictionary that
    // uses one (a Type 0 font through its descendant).
    let descriptors: HashSet<ObjectId> = doc
        .objects
        .iter()
        .filter_map(|(id, object)| {
            let dict = object.as_dict().ok()?;
            let embedded = PROGRAMS.iter().any(|key| dict.has(key));
            let named = dict
                .get(b"FontName")
                .and_then(Object::as_name)
                .is_ok_and(holds)
                || family_holds(dict);
            (is(dict, b"FontDescriptor") && embedded && named).then_some(*id)
        })
        .collect();
    let embedded_font = |dict: &Dictionary| -> bool {
        let descriptor = |font: &Dictionary| {
            font.get(b"FontDescriptor")
                .and_then(Object::as_reference)
                .ok()
                .and_then(|id| doc.get_dictionary(id).ok())
                .is_some_and(|d| PROGRAMS.iter().any(|key| d.has(key)))
        };
        descriptor(dict)
            || dict
                .get(b"DescendantFonts")
                .and_then(Object::as_array)
                .ok()
                .and_then(|kids| kids.first())
                .and_then(|kid| doc.dereference(kid).ok())
                .and_then(|(_, kid)| kid.as_dict().ok())
                .is_some_and(descriptor)
    };
    let fonts: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter_map(|(id, object)| {
            let dict = object.as_dict().ok()?;
            let named = dict
                .get(b"BaseFont")
                .and_then(Object::as_name)
                .is_ok_and(holds);
            (is(dict, b"Font") && named && embedded_font(dict)).then_some(*id)
        })
        .collect();
    let mut names: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
    let mut fresh = |old: &[u8]| -> Vec<u8> {
        let count = names.len() + 1;
        names
            .entry(old.to_vec())
            .or_insert_with(|| opaque(old, count))
            .clone()
    };
    let mut changed = 0;
    for id in descriptors {
        let Ok(dict) = doc.get_dictionary_mut(id) else {
            continue;
        };
        let family = family_holds(dict);
        if let Ok(name) = dict.get(b"FontName").and_then(Object::as_name)
            && holds(name)
        {
            let new = fresh(name);
            dict.set("FontName", Object::Name(new));
            changed += 1;
            // The family would name what the new name hides.
            dict.remove(b"FontFamily");
        } else if family {
            dict.remove(b"FontFamily");
            changed += 1;
        }
    }
    for id in fonts {
        let Ok(dict) = doc.get_dictionary_mut(id) else {
            continue;
        };
        if let Ok(name) = dict.get(b"BaseFont").and_then(Object::as_name) {
            let new = fresh(name);
            dict.set("BaseFont", Object::Name(new));
            changed += 1;
        }
        // A Type 0 font's descendant written inside it, not as an object of its own.
        if let Ok(Object::Array(kids)) = dict.get_mut(b"DescendantFonts") {
            for kid in kids.iter_mut().filter_map(|kid| kid.as_dict_mut().ok()) {
                if let Ok(name) = kid.get(b"BaseFont").and_then(Object::as_name)
                    && holds(name)
                {
                    let new = fresh(name);
                    kid.set("BaseFont", Object::Name(new));
                    changed += 1;
                }
            }
        }
    }
    changed
}

fn is(dict: &Dictionary, kind: &[u8]) -> bool {
    dict.get(b"Type")
        .and_then(Object::as_name)
        .is_ok_and(|t| t == kind)
}

/// "ABCDEF+RedactedFont3" for "ABCDEF+JaneDoeSans-Bold": the subset prefix kept.
fn opaque(old: &[u8], count: usize) -> Vec<u8> {
    let prefix = match old.get(6) {
        Some(b'+') if old[..6].iter().all(u8::is_ascii_uppercase) => &old[..7],
        _ => &[][..],
    };
    let mut name = prefix.to_vec();
    name.extend_from_slice(format!("RedactedFont{count}").as_bytes());
    name
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn embedded_fonts_are_renamed_and_named_ones_keep_their_name() {
        let mut doc = Document::new();
        let program = doc.add_object(lopdf::Stream::new(dictionary! {}, vec![0; 8]));
        let descriptor = doc.add_object(dictionary! {
            "Type" => "FontDescriptor", "FontName" => "ABCDEF+Cantarell-Italic",
            "FontFamily" => Object::string_literal("Cantarell"), "FontFile2" => program,
        });
        let descendant = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "CIDFontType2",
            "BaseFont" => "ABCDEF+Cantarell-Italic", "FontDescriptor" => descriptor,
        });
        let type0 = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "ABCDEF+Cantarell-Italic",
            "DescendantFonts" => vec![descendant.into()],
        });
        // pypdf's fontsampler.pdf writes the descendant inside the Type 0 font.
        let inline = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "Cantarell Italic",
            "DescendantFonts" => vec![dictionary! {
                "Type" => "Font", "Subtype" => "CIDFontType2",
                "BaseFont" => "Cantarell Italic", "FontDescriptor" => descriptor,
            }.into()],
        });
        let bare = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Cantarell",
        });
        let terms = Terms::new(&["cantarell".into()]);
        // FontName (its family with it), the two BaseFonts of the embedded font, and the
        // other Type 0 font's two.
        assert_eq!(rename(&mut doc, &terms), 5);
        let name = |id, key: &[u8]| {
            let dict = doc.get_dictionary(id).expect("dict");
            dict.get(key)
                .expect("key")
                .as_name()
                .expect("name")
                .to_vec()
        };
        assert_eq!(name(descriptor, b"FontName"), b"ABCDEF+RedactedFont1");
        assert_eq!(name(descendant, b"BaseFont"), b"ABCDEF+RedactedFont1");
        assert_eq!(name(type0, b"BaseFont"), b"ABCDEF+RedactedFont1");
        assert!(
            !doc.get_dictionary(descriptor)
                .expect("d")
                .has(b"FontFamily")
        );
        assert_eq!(name(bare, b"BaseFont"), b"Cantarell");
        let inline = doc.get_dictionary(inline).expect("font");
        assert_eq!(
            inline
                .get(b"BaseFont")
                .expect("name")
                .as_name()
                .expect("name"),
            b"RedactedFont2"
        );
        let kids = inline
            .get(b"DescendantFonts")
            .expect("kids")
            .as_array()
            .expect("array");
        let kid = kids[0].as_dict().expect("inline descendant");
        assert_eq!(
            kid.get(b"BaseFont").expect("name").as_name().expect("name"),
            b"RedactedFont2"
        );
    }
}
