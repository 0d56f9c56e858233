//! Annotations and forms.
//!
//! Form fields and the annotation kinds PDF/A validators cannot check (free text, file
//! attachments, watermarks, printer's marks, trap networks, redaction marks) or that PDF/A
//! forbids (sounds, movies, screens, 3D, rich media) are drawn into their pages from their
//! appearances by the flatten tool's code and removed, the form with them: the page prints
//! as it did. The kinds that stay (links, notes, pop-ups and the markup kinds) are made to
//! conform (ISO 19005-1 6.5.3, ISO 19005-2 6.3): printed and never hidden, a normal
//! appearance that is one stream and nothing else in the appearance dictionary, an
//! appearance made for those that have none (PDF/A-2 and 3), opaque in PDF/A-1. A hidden
//! annotation goes: showing it would change the page.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Level;
use super::appearance;
use super::changes::Changes;
use super::opacity;
use crate::flatten::page::Painter;
use crate::flatten::{Flatten, flatten_document};
use crate::{ToolError, pages};

/// Annotation flags (ISO 32000-1 Table 165).
const INVISIBLE: i64 = 1;
const HIDDEN: i64 = 1 << 1;
const PRINT: i64 = 1 << 2;
const NO_VIEW: i64 = 1 << 5;
const TOGGLE_NO_VIEW: i64 = 1 << 8;

/// The kinds kept in PDF/A-2 and 3; PDF/A-1 keeps those of them PDF 1.4 has.
const KEPT: [&[u8]; 15] = [
    b"Link",
    b"Text",
    b"Popup",
    b"Line",
    b"Square",
    b"Circle",
    b"Polygon",
    b"PolyLine",
    b"Highlight",
    b"Underline",
    b"Squiggly",
    b"StrikeOut",
    b"Stamp",
    b"Caret",
    b"Ink",
];
/// Kept kinds PDF/A-1 does not allow (they came after PDF 1.4).
const NOT_IN_PART1: [&[u8]; 3] = [b"Polygon", b"PolyLine", b"Caret"];

/// Flattens what cannot stay and fixes what stays; returns, for PDF/A-1, the pages (their
/// objects) with a translucent annotation that could not be kept see-through, and why.
pub fn apply(
    doc: &mut Document,
    level: Level,
    changes: &mut Changes,
) -> Result<Vec<(ObjectId, String)>, ToolError> {
    let tree = pages::walk(doc)?;
    let had_form = doc.catalog().is_ok_and(|catalog| catalog.has(b"AcroForm"));
    // Each page's annotations split: those drawn in and removed go to the flatten code alone,
    // the others wait aside and come back after it.
    let mut kept_by_page: Vec<(ObjectId, Vec<Object>)> = Vec::new();
    let mut burnt_ids: HashSet<ObjectId> = HashSet::new();
    let mut any_burnt = false;
    for page in &tree.pages {
        let Some(entries) = list(doc, page.id) else {
            continue;
        };
        let (mut keep, mut burn) = (Vec::new(), Vec::new());
        for entry in entries {
            let subtype = annot(doc, &entry)
                .and_then(|a| a.get(b"Subtype").and_then(Object::as_name).ok())
                .map(<[u8]>::to_vec);
            let stays = subtype.as_deref().is_some_and(|s| {
                KEPT.contains(&s) && !(level.part1() && NOT_IN_PART1.contains(&s))
            });
            if stays {
                keep.push(entry);
            } else {
                if let Object::Reference(id) = entry {
                    burnt_ids.insert(id);
                }
                burn.push(entry);
            }
        }
        any_burnt |= !burn.is_empty();
        if let Ok(dict) = doc.get_dictionary_mut(page.id) {
            dict.set("Annots", burn);
        }
        kept_by_page.push((page.id, keep));
    }
    if any_burnt || had_form {
        let (_, flattened) = flatten_document(
            doc,
            Flatten {
                fields: true,
                annotations: true,
            },
        )?;
        let drawn = flattened.widgets + flattened.annotations;
        changes.count(
            "drew into the page and removed",
            drawn,
            "form field or annotation PDF/A validators cannot check",
            "form fields and annotations PDF/A validators cannot check",
        );
        changes.count(
            "removed",
            flattened.removed_without_appearance,
            "hidden or empty form field or annotation",
            "hidden or empty form fields and annotations",
        );
    }
    if let Ok(catalog) = doc.catalog_mut()
        && catalog.remove(b"AcroForm").is_some()
    {
        changes.note("flattened the interactive form (its fields are drawn as they were shown)");
    }
    let mut fixes = Fixes::default();
    let mut painter = Painter::new();
    for (page, keep) in kept_by_page {
        let page_ref = tree.pages.iter().find(|p| p.id == page);
        let mut out = Vec::with_capacity(keep.len());
        for entry in keep {
            // A direct annotation gets an object of its own, which the fixes address.
            let entry = match entry {
                Object::Dictionary(dict) => {
                    let id = crate::io::new_id(doc)?;
                    doc.objects.insert(id, Object::Dictionary(dict));
                    Object::Reference(id)
                }
                other => other,
            };
            // A pop-up of an annotation that was drawn in goes with it.
            let parent_gone = annot(doc, &entry)
                .and_then(|a| a.get(b"Parent").and_then(Object::as_reference).ok())
                .is_some_and(|parent| burnt_ids.contains(&parent));
            if parent_gone {
                continue;
            }
            if level.part1()
                && let (Object::Reference(id), Some(page_ref)) = (&entry, page_ref)
                && !fixes.seen.contains(id)
            {
                match opacity::annotation(doc, *id, page_ref, &mut painter) {
                    opacity::Annotation::Drawn => fixes.see_through += 1,
                    opacity::Annotation::Unfaithful(why) => fixes
                        .unfaithful
                        .push((page, format!("a translucent annotation: {why}"))),
                    opacity::Annotation::Opaque => {}
                }
            }
            if fixes.one(doc, &entry, level, page)? {
                out.push(entry);
            }
        }
        if let Ok(dict) = doc.get_dictionary_mut(page) {
            if out.is_empty() {
                dict.remove(b"Annots");
            } else {
                dict.set("Annots", out);
            }
        }
    }
    fixes.tell(changes);
    Ok(fixes.unfaithful)
}

fn list(doc: &Document, page: ObjectId) -> Option<Vec<Object>> {
    let annots = doc.get_dictionary(page).ok()?.get(b"Annots").ok()?;
    doc.dereference(annots).ok()?.1.as_array().ok().cloned()
}

fn annot<'a>(doc: &'a Document, entry: &'a Object) -> Option<&'a Dictionary> {
    doc.dereference(entry).ok()?.1.as_dict().ok()
}

#[derive(Default)]
struct Fixes {
    flags: u32,
    hidden: u32,
    appearances: u32,
    made: u32,
    opaque: u32,
    see_through: u32,
    unfaithful: Vec<(ObjectId, String)>,
    seen: HashSet<ObjectId>,
}

impl Fixes {
    /// Makes one kept annotation conform; `false` when it goes instead.
    fn one(
        &mut self,
        doc: &mut Document,
        entry: &Object,
        level: Level,
        page: ObjectId,
    ) -> Result<bool, ToolError> {
        let id = match entry {
            Object::Reference(id) => *id,
            _ => return Ok(false),
        };
        if !self.seen.insert(id) {
            return Ok(true);
        }
        let Ok(dict) = doc.get_dictionary(id) else {
            return Ok(false);
        };
        let flags = dict
            .get(b"F")
            .ok()
            .and_then(|f| doc.dereference(f).ok())
            .and_then(|(_, f)| f.as_i64().ok())
            .unwrap_or(0);
        let subtype = dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .map(<[u8]>::to_vec)
            .unwrap_or_default();
        if flags & (HIDDEN | NO_VIEW) != 0 && subtype != b"Popup" {
            self.hidden += 1;
            return Ok(false);
        }
        let appearance = normal_appearance(doc, dict);
        let rect = rect(doc, dict);
        if rect.is_none() {
            // Without a rectangle it has no place on the page.
            self.hidden += 1;
            return Ok(false);
        }
        let dict = doc
            .get_dictionary_mut(id)
            .map_err(|_| ToolError::InvalidFile("an annotation is not a dictionary".into()))?;
        let fixed = (flags | PRINT) & !(INVISIBLE | HIDDEN | NO_VIEW | TOGGLE_NO_VIEW);
        if fixed != flags || !dict.has(b"F") {
            dict.set("F", fixed);
            self.flags += 1;
        }
        super::annot_keys::prune_keys(dict, &subtype);
        dict.set("Type", Object::Name(b"Annot".to_vec()));
        if let Some(r) = rect {
            dict.set(
                "Rect",
                r.iter()
                    .map(|&v| Object::Real(v as f32))
                    .collect::<Vec<_>>(),
            );
        }
        dict.set("P", page);
        if level.part1() && dict.get(b"CA").ok().and_then(number) != Some(1.0) && dict.has(b"CA") {
            dict.remove(b"CA");
            self.opaque += 1;
        }
        match appearance {
            Appearance::Stream(stream) => {
                let was_only_n = dict
                    .get(b"AP")
                    .ok()
                    .and_then(|ap| ap.as_dict().ok())
                    .is_some_and(|ap| ap.len() == 1 && ap.get(b"N").ok() == Some(&stream));
                if !was_only_n {
                    self.appearances += 1;
                }
                dict.set("AP", lopdf::dictionary! { "N" => stream });
                dict.remove(b"AS");
            }
            Appearance::None => {
                dict.remove(b"AP");
                dict.remove(b"AS");
                let needs = !level.part1()
                    && subtype != b"Popup"
                    && subtype != b"Link"
                    && rect.is_some_and(|r| r[0] != r[2] || r[1] != r[3]);
                if needs {
                    let annot = doc.get_dictionary(id).cloned().unwrap_or_default();
                    let form = appearance::make(doc, &annot, rect.unwrap_or_default(), level)?;
                    if let Ok(dict) = doc.get_dictionary_mut(id) {
                        dict.set("AP", lopdf::dictionary! { "N" => form });
                    }
                    self.made += 1;
                }
            }
        }
        Ok(true)
    }

    fn tell(&self, changes: &mut Changes) {
        changes.count(
            "fixed",
            self.flags,
            "annotation's flags",
            "annotations' flags",
        );
        changes.count(
            "removed",
            self.hidden,
            "hidden or misplaced annotation",
            "hidden or misplaced annotations",
        );
        changes.count(
            "reduced to one normal appearance",
            self.appearances,
            "annotation",
            "annotations",
        );
        changes.count(
            "made an appearance for",
            self.made,
            "annotation that had none",
            "annotations that had none",
        );
        changes.count(
            "drew under the page's text, blended with white (PDF/A-1 has no transparency),",
            self.see_through,
            "translucent annotation's appearance",
            "translucent annotations' appearances",
        );
        changes.count(
            "made opaque (PDF/A-1 has no transparency)",
            self.opaque,
            "annotation",
            "annotations",
        );
    }
}

enum Appearance {
    /// A reference to the normal appearance stream.
    Stream(Object),
    None,
}

/// The normal appearance: /AP /N when it is a stream, or the state of it /AS names (the
/// first state when /AS names none).
fn normal_appearance(doc: &Document, annot: &Dictionary) -> Appearance {
    let Some(ap) = annot
        .get(b"AP")
        .ok()
        .and_then(|ap| doc.dereference(ap).ok())
        .and_then(|(_, ap)| ap.as_dict().ok())
    else {
        return Appearance::None;
    };
    let Ok(normal) = ap.get(b"N") else {
        return Appearance::None;
    };
    let is_stream = |value: &Object| match value {
        Object::Reference(id) => doc
            .get_object(*id)
            .is_ok_and(|o| o.as_stream().is_ok_and(|s| s.dict.has(b"BBox"))),
        _ => false,
    };
    if is_stream(normal) {
        return Appearance::Stream(normal.clone());
    }
    let Some(states) = doc
        .dereference(normal)
        .ok()
        .and_then(|(_, n)| n.as_dict().ok())
    else {
        return Appearance::None;
    };
    let chosen = annot
        .get(b"AS")
        .and_then(Object::as_name)
        .ok()
        .and_then(|state| states.get(state).ok());
    match chosen {
        Some(state) if is_stream(state) => Appearance::Stream(state.clone()),
        Some(_) => Appearance::None,
        None => states
            .iter()
            .map(|(_, v)| v)
            .find(|v| is_stream(v))
            .map_or(Appearance::None, |v| Appearance::Stream(v.clone())),
    }
}

/// The annotation's /Rect, normalized (lower left first).
fn rect(doc: &Document, annot: &Dictionary) -> Option<[f64; 4]> {
    let rect = doc
        .dereference(annot.get(b"Rect").ok()?)
        .ok()?
        .1
        .as_array()
        .ok()?;
    let v: Vec<f64> = rect.iter().filter_map(number).collect();
    let [a, b, c, d] = v.as_slice() else {
        return None;
    };
    Some([a.min(*c), b.min(*d), a.max(*c), b.max(*d)])
}

pub fn number(object: &Object) -> Option<f64> {
    match object {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) => Some(f64::from(*r)),
        _ => None,
    }
}
