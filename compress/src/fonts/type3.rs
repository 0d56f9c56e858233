//! Type 3 fonts cut to the glyphs shown: a glyph procedure (/CharProcs entry) that no code
//! shown with the font can name goes, as Ghostscript drops it. The names a code may stand
//! for are taken as generously as for other simple fonts (its /Differences entry and the
//! standard encodings, see `glyphs::code_names`), and /.notdef stays; /Widths, /Encoding
//! and the rest of the font are left as they are, so every code keeps its advance.

use std::collections::{BTreeSet, HashMap};

use lopdf::{Document, Object, ObjectId};

use super::glyphs::code_names;
use super::usage::Usage;

/// Drops the unnamed glyph procedures of every Type 3 font whose usage is known; returns
/// how many fonts lost some.
pub fn trim(doc: &mut Document, usage: &Usage, references: &HashMap<ObjectId, usize>) -> usize {
    // (font, its CharProcs when an object of its own, glyph names to keep)
    let mut jobs: Vec<(ObjectId, Option<ObjectId>, BTreeSet<Vec<u8>>)> = Vec::new();
    for (&id, object) in &doc.objects {
        let Object::Dictionary(font) = object else {
            continue;
        };
        if font.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Type3")
            || !usage.seen.contains(&id)
            || usage.whole.contains(&id)
        {
            continue;
        }
        // A CharProcs dictionary another font shares may be drawn with codes not counted.
        let procs = match font.get(b"CharProcs") {
            Ok(Object::Dictionary(_)) => None,
            Ok(Object::Reference(procs)) if references.get(procs) == Some(&1) => Some(*procs),
            _ => continue,
        };
        let codes: BTreeSet<u8> = usage
            .shown
            .get(&id)
            .into_iter()
            .flatten()
            .flatten()
            .copied()
            .collect();
        let mut names: BTreeSet<Vec<u8>> = BTreeSet::from([b".notdef".to_vec()]);
        for code in codes {
            names.extend(
                code_names(doc, font, code)
                    .into_iter()
                    .map(|(name, _)| name),
            );
        }
        jobs.push((id, procs, names));
    }
    let mut changed = 0;
    for (font, procs, names) in jobs {
        let dict = match procs {
            Some(procs) => doc.get_dictionary_mut(procs),
            None => doc
                .get_dictionary_mut(font)
                .and_then(|f| f.get_mut(b"CharProcs"))
                .and_then(Object::as_dict_mut),
        };
        let Ok(dict) = dict else { continue };
        let before = dict.len();
        let dropped: Vec<Vec<u8>> = dict
            .iter()
            .map(|(name, _)| name.clone())
            .filter(|name| !names.contains(name))
            .collect();
        for name in &dropped {
            dict.remove(name);
        }
        tracing::debug!(font = ?font, before, after = dict.len(), "type 3 glyphs cut");
        changed += usize::from(!dropped.is_empty());
    }
    changed
}

#[cfg(test)]
mod tests {
    use lopdf::{Dictionary, Stream, dictionary};

    use super::*;
    use crate::test_pdf::one_page;

    #[test]
    fn glyph_procedures_no_shown_code_names_go() {
        let mut doc = Document::with_version("1.7");
        let mut procs = Dictionary::new();
        for name in ["a", "b", "c", ".notdef"] {
            let id = doc.add_object(Stream::new(
                Dictionary::new(),
                b"500 0 0 0 400 400 d1 0 0 400 400 re f".to_vec(),
            ));
            procs.set(name, id);
        }
        let procs = doc.add_object(procs);
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type3",
            "FontBBox" => vec![0.into(), 0.into(), 400.into(), 400.into()],
            "FontMatrix" => vec![0.001.into(), 0.into(), 0.into(), 0.001.into(), 0.into(), 0.into()],
            "CharProcs" => procs,
            "Encoding" => dictionary! {
                "Type" => "Encoding",
                "Differences" => vec![1.into(), "a".into(), "b".into(), "c".into()],
            },
            "FirstChar" => 1, "LastChar" => 3,
            "Widths" => vec![500.into(), 500.into(), 500.into()],
        });
        let content = doc.add_object(Stream::new(
            Dictionary::new(),
            b"BT /F1 12 Tf <0101> Tj ET".to_vec(),
        ));
        one_page(
            &mut doc,
            dictionary! {
                "Contents" => content,
                "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
            },
            Dictionary::new(),
        );
        let (usage, _) = crate::survey(&doc);
        assert_eq!(super::super::subset_fonts(&mut doc, &usage), 1);
        let kept: Vec<&[u8]> = doc
            .get_dictionary(procs)
            .expect("CharProcs")
            .iter()
            .map(|(name, _)| name.as_slice())
            .collect();
        assert_eq!(kept, [b"a".as_slice(), b".notdef"]);
        let widths = doc.get_dictionary(font).and_then(|f| f.get(b"Widths"));
        assert_eq!(
            widths.and_then(Object::as_array).map(Vec::len).ok(),
            Some(3)
        );
    }
}
