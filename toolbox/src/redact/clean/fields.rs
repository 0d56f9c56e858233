//! Form fields' tooltips (`/TU`, which viewers show on hover and screen readers speak), export
//! names (`/TM`) and partial names (`/T`) holding a term have each occurrence replaced: the
//! field keeps its place, its value and its widgets. A partial name gets a plain word rather
//! than the label, as a name's characters are limited (no period, which joins names).

use lopdf::{Document, Object};

use super::Terms;

/// What replaces a term inside a field's partial name.
const NAME_REPLACEMENT: &str = "redacted";

/// Returns how many entries changed.
pub fn clean(doc: &mut Document, terms: &Terms, replacement: &str) -> u32 {
    let mut changed = 0;
    for object in doc.objects.values_mut() {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            _ => continue,
        };
        // A field has a type or a partial name; a widget merged with its field carries both.
        if !(dict.has(b"FT") || dict.has(b"T") || dict.has(b"TU")) {
            continue;
        }
        for (key, with) in [
            (b"TU".as_slice(), replacement),
            (b"TM", replacement),
            (b"T", NAME_REPLACEMENT),
        ] {
            let Ok(Object::String(bytes, _)) = dict.get(key) else {
                continue;
            };
            let text = crate::text::decode(bytes);
            if terms.found_in(&text) || terms.found_in_bytes(bytes) {
                dict.set(key, crate::text::encode(&terms.replace_in(&text, with)));
                changed += 1;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    #[test]
    fn tooltips_and_names_lose_the_term_and_the_rest_stays() {
        let mut doc = Document::new();
        let field = doc.add_object(dictionary! {
            "FT" => "Tx",
            "T" => Object::string_literal("IdentificationNumber[0]"),
            "TU" => Object::string_literal("SECTION 1: VETERAN'S IDENTIFICATION INFORMATION"),
            "V" => Object::string_literal("12345"),
        });
        let other = doc.add_object(dictionary! {
            "FT" => "Tx", "T" => Object::string_literal("Name"), "TU" => Object::string_literal("Your name"),
        });
        let terms = Terms::new(&["identification".into()]);
        assert_eq!(clean(&mut doc, &terms, "[REDACTED]"), 2);
        let get = |id, key: &[u8]| {
            let dict = doc.get_dictionary(id).expect("dict");
            crate::text::decode(dict.get(key).expect("key").as_str().expect("string"))
        };
        assert_eq!(get(field, b"T"), "redactedNumber[0]");
        assert_eq!(
            get(field, b"TU"),
            "SECTION 1: VETERAN'S [REDACTED] INFORMATION"
        );
        assert_eq!(get(field, b"V"), "12345");
        assert_eq!(get(other, b"TU"), "Your name");
    }
}
