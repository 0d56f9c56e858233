//! An interactive form's default resources (`/AcroForm /DR`) list the fonts a viewer may draw
//! new field values with; only those a default appearance (`/DA`) names can ever be used. An
//! embedded font there that no `/DA` names (or any font of a form with no fields) is dropped
//! from `/DR`, and with it its program when nothing else draws with it: Word and Acrobat put
//! every font of the document there, whole. Fonts that are not embedded are a few bytes and
//! stay: a viewer's own appearance code may look for Helvetica or ZapfDingbats by name.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

/// How many fields deep the walk goes.
const DEPTH: usize = 32;

/// Drops the unnamed embedded fonts from the form's `/DR`; returns how many went. The form
/// gets a `/DR` of its own, written inline: producers share one font dictionary (or one whole
/// resource dictionary) between `/DR`, the pages and the fields' appearances, which still
/// draw with those fonts.
pub fn drop_unnamed(doc: &mut Document) -> usize {
    let Some(form_at) = locate(doc, &[b"AcroForm"]) else {
        return 0;
    };
    let Some(resources_at) = locate(doc, &[b"AcroForm", b"DR"]) else {
        return 0;
    };
    let Some(fonts_at) = locate(doc, &[b"AcroForm", b"DR", b"Font"]) else {
        return 0;
    };
    let Some(named) = named_fonts(doc) else {
        return 0;
    };
    let (Some(resources), Some(fonts)) = (dict_at(doc, &resources_at), dict_at(doc, &fonts_at))
    else {
        return 0;
    };
    let mut kept = Dictionary::new();
    for (name, font) in fonts {
        if named.contains(name.as_slice()) || !is_embedded(doc, font) {
            kept.set(name.clone(), font.clone());
        }
    }
    let dropped = fonts.len() - kept.len();
    if dropped == 0 {
        return 0;
    }
    let mut own = resources.clone();
    own.set("Font", kept);
    if let Some(form) = dict_at_mut(doc, &form_at) {
        form.set("DR", own);
    }
    dropped
}

/// A dictionary reached from the catalog through `path`: the last object on the way, and the
/// keys of the dictionaries written inline in it from there.
type At = (ObjectId, Vec<Vec<u8>>);

fn locate(doc: &Document, path: &[&[u8]]) -> Option<At> {
    let mut holder = doc.trailer.get(b"Root").ok()?.as_reference().ok()?;
    let mut inline = Vec::new();
    let mut current = doc.get_dictionary(holder).ok()?;
    for key in path {
        match current.get(key).ok()? {
            Object::Reference(id) => {
                holder = *id;
                inline.clear();
                current = doc.get_dictionary(*id).ok()?;
            }
            Object::Dictionary(dict) => {
                inline.push(key.to_vec());
                current = dict;
            }
            _ => return None,
        }
    }
    Some((holder, inline))
}

fn dict_at<'a>(doc: &'a Document, (holder, inline): &At) -> Option<&'a Dictionary> {
    let mut dict = doc.get_dictionary(*holder).ok()?;
    for key in inline {
        dict = dict.get(key).ok()?.as_dict().ok()?;
    }
    Some(dict)
}

fn dict_at_mut<'a>(doc: &'a mut Document, (holder, inline): &At) -> Option<&'a mut Dictionary> {
    let mut dict = doc.get_dictionary_mut(*holder).ok()?;
    for key in inline {
        dict = dict.get_mut(key).ok()?.as_dict_mut().ok()?;
    }
    Some(dict)
}

/// Every font name a `/DA` of the form's fields, their widgets and the form itself (when it
/// has fields: its `/DA` is what they inherit) names; `None` when a `/DA` cannot be read, so
/// that nothing is dropped on a guess.
fn named_fonts(doc: &Document) -> Option<HashSet<Vec<u8>>> {
    let form = dict_at(doc, &locate(doc, &[b"AcroForm"])?)?;
    let mut names = HashSet::new();
    let mut stack: Vec<(&Object, usize)> = match form.get(b"Fields") {
        Ok(fields) => match doc.dereference(fields) {
            Ok((_, Object::Array(items))) => items.iter().map(|o| (o, 0)).collect(),
            _ => Vec::new(),
        },
        Err(_) => Vec::new(),
    };
    if !stack.is_empty()
        && let Ok(Object::String(da, _)) = form.get(b"DA")
    {
        names.extend(da_fonts(da)?);
    }
    let mut seen = HashSet::new();
    while let Some((object, depth)) = stack.pop() {
        if let Object::Reference(id) = object
            && !seen.insert(*id)
        {
            continue;
        }
        let Ok((_, Object::Dictionary(field))) = doc.dereference(object) else {
            continue;
        };
        if let Ok(Object::String(da, _)) = field.get(b"DA") {
            names.extend(da_fonts(da)?);
        }
        if depth < DEPTH
            && let Ok(kids) = field.get(b"Kids")
            && let Ok((_, Object::Array(kids))) = doc.dereference(kids)
        {
            stack.extend(kids.iter().map(|k| (k, depth + 1)));
        }
    }
    // Widgets on the pages that the field tree does not reach carry their own /DA too.
    for page in doc.get_pages().into_values() {
        for annot in doc.get_page_annotations(page).unwrap_or_default() {
            if let Ok(Object::String(da, _)) = annot.get(b"DA") {
                names.extend(da_fonts(da)?);
            }
        }
    }
    Some(names)
}

/// The font names of a default appearance's `Tf` operators.
fn da_fonts(da: &[u8]) -> Option<Vec<Vec<u8>>> {
    let content = crate::content::parse(da, |op| op == b"Tf")?;
    Some(
        content
            .operations
            .iter()
            .filter(|op| op.operator == "Tf")
            .filter_map(|op| op.operands.first()?.as_name().ok().map(<[u8]>::to_vec))
            .collect(),
    )
}

/// Whether a font (or a Type 0 font's descendant) embeds a program.
fn is_embedded(doc: &Document, font: &Object) -> bool {
    let Ok((_, Object::Dictionary(font))) = doc.dereference(font) else {
        return false;
    };
    let descriptor_embeds = |font: &Dictionary| {
        font.get(b"FontDescriptor")
            .ok()
            .and_then(|d| doc.dereference(d).ok())
            .and_then(|(_, d)| d.as_dict().ok())
            .is_some_and(|d| {
                [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"]
                    .iter()
                    .any(|k| d.has(k))
            })
    };
    if descriptor_embeds(font) {
        return true;
    }
    font.get(b"DescendantFonts")
        .ok()
        .and_then(|d| doc.dereference(d).ok())
        .and_then(|(_, d)| d.as_array().ok())
        .is_some_and(|kids| {
            kids.iter().any(|kid| {
                doc.dereference(kid)
                    .ok()
                    .and_then(|(_, k)| k.as_dict().ok())
                    .is_some_and(descriptor_embeds)
            })
        })
}

#[cfg(test)]
mod tests {
    use lopdf::{Document, Object, Stream, dictionary};

    use super::drop_unnamed;
    use crate::test_pdf::one_page;

    fn embedded(doc: &mut Document) -> Object {
        let program = doc.add_object(Stream::new(dictionary! {}, vec![0; 4000]));
        let descriptor =
            doc.add_object(dictionary! { "Type" => "FontDescriptor", "FontFile2" => program });
        doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Arial", "FontDescriptor" => descriptor,
        })
        .into()
    }

    fn form(fields: Vec<Object>) -> Document {
        let mut doc = Document::with_version("1.6");
        let (arial, calibri) = (embedded(&mut doc), embedded(&mut doc));
        let helv = doc.add_object(
            dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" },
        );
        let fonts =
            doc.add_object(dictionary! { "Arial" => arial, "Calibri" => calibri, "Helv" => helv });
        let form = dictionary! {
            "Fields" => fields,
            "DA" => Object::string_literal("/Helv 0 Tf 0 g"),
            "DR" => dictionary! { "Font" => fonts },
        };
        one_page(&mut doc, dictionary! {}, dictionary! { "AcroForm" => form });
        doc
    }

    fn font_names(doc: &Document) -> Vec<Vec<u8>> {
        let catalog = doc.catalog().expect("catalog");
        let form = catalog
            .get(b"AcroForm")
            .and_then(Object::as_dict)
            .expect("form");
        let fonts = form
            .get(b"DR")
            .and_then(Object::as_dict)
            .and_then(|dr| dr.get(b"Font"))
            .and_then(Object::as_dict)
            .expect("fonts");
        fonts.iter().map(|(name, _)| name.clone()).collect()
    }

    #[test]
    fn fonts_no_default_appearance_names_go_and_named_ones_stay() {
        let field = dictionary! { "FT" => "Tx", "T" => Object::string_literal("name"), "DA" => Object::string_literal("/Arial 10 Tf 0 g") };
        let mut doc = form(vec![field.into()]);
        // The pages share the form's font dictionary, as cups-filters' forms do.
        let shared = doc
            .catalog()
            .and_then(|c| c.get(b"AcroForm"))
            .and_then(Object::as_dict)
            .and_then(|f| f.get(b"DR"))
            .and_then(Object::as_dict)
            .and_then(|dr| dr.get(b"Font"))
            .and_then(Object::as_reference)
            .expect("a font dictionary object");
        assert_eq!(drop_unnamed(&mut doc), 1);
        assert_eq!(font_names(&doc), vec![b"Arial".to_vec(), b"Helv".to_vec()]);
        assert_eq!(
            doc.get_dictionary(shared).expect("kept").len(),
            3,
            "the shared dictionary was edited"
        );
    }

    #[test]
    fn a_form_without_fields_keeps_only_its_fonts_that_are_not_embedded() {
        let mut doc = form(vec![]);
        assert_eq!(drop_unnamed(&mut doc), 2);
        assert_eq!(font_names(&doc), vec![b"Helv".to_vec()]);
    }
}
