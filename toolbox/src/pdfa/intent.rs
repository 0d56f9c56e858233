//! The output intent and the ICC profiles of the document: one GTS_PDFA1 intent (the
//! document's own when one of its profiles suits PDF/A, else sRGB), and every ICCBased
//! colour space's profile one PDF/A accepts (ISO 19005-1 6.2.2-6.2.3.2, ISO 19005-2 6.2.3
//! and 6.2.4.2).

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use super::Level;
use super::catalog::keep_only;
use super::changes::Changes;
use super::colour::Family;
use super::icc::{self, Header};
use crate::ToolError;

/// Largest profile read.
const MAX_PROFILE: usize = 16 << 20;

/// The profile streams and ICCBased colour space arrays this conversion added, by
/// component count.
#[derive(Default)]
pub struct Profiles {
    streams: HashMap<i64, ObjectId>,
    spaces: HashMap<i64, ObjectId>,
}

impl Profiles {
    fn stream(&mut self, doc: &mut Document, n: i64) -> Result<ObjectId, ToolError> {
        if let Some(id) = self.streams.get(&n) {
            return Ok(*id);
        }
        let data = icc::load(match n {
            1 => icc::GRAY,
            3 => icc::SRGB,
            _ => icc::CMYK,
        })?;
        let id = crate::io::new_id(doc)?;
        doc.objects.insert(
            id,
            Object::Stream(Stream::new(dictionary! { "N" => n }, data)),
        );
        self.streams.insert(n, id);
        Ok(id)
    }

    /// An indirect `[/ICCBased profile]` array.
    pub fn space(&mut self, doc: &mut Document, n: i64) -> Result<ObjectId, ToolError> {
        if let Some(id) = self.spaces.get(&n) {
            return Ok(*id);
        }
        let stream = self.stream(doc, n)?;
        let id = crate::io::new_id(doc)?;
        doc.objects.insert(
            id,
            Object::Array(vec![Object::Name(b"ICCBased".to_vec()), stream.into()]),
        );
        self.spaces.insert(n, id);
        Ok(id)
    }
}

fn profile_header(doc: &Document, id: ObjectId) -> Option<Header> {
    let stream = doc.get_object(id).ok()?.as_stream().ok()?;
    let data = stream.decompressed_content_with_limit(MAX_PROFILE).ok()?;
    Header::parse(&data)
}

/// Every profile of an ICCBased colour space that PDF/A does not accept (an ICC version
/// after 2 in PDF/A-1, an abstract or device-link profile, /N that does not match) is
/// replaced by the free profile of its number of components.
pub fn fix_icc_streams(
    doc: &mut Document,
    level: Level,
    profiles: &mut Profiles,
    changes: &mut Changes,
) -> Result<(), ToolError> {
    let mut ids = HashSet::new();
    for object in doc.objects.values() {
        collect_icc(object, &mut ids);
    }
    let mut replaced = 0;
    for id in ids {
        let header = profile_header(doc, id);
        let Ok(Object::Stream(stream)) = doc.get_object_mut(id) else {
            continue;
        };
        let n = stream
            .dict
            .get(b"N")
            .and_then(Object::as_i64)
            .ok()
            .or_else(|| header.and_then(|h| h.components()))
            .unwrap_or(3);
        keep_only(
            &mut stream.dict,
            &[
                b"N",
                b"Alternate",
                b"Range",
                b"Length",
                b"Filter",
                b"DecodeParms",
            ],
        );
        stream.dict.set("N", n);
        if header.is_some_and(|h| h.input_ok(n, level.part1())) {
            continue;
        }
        let n = if matches!(n, 1 | 3 | 4) { n } else { 3 };
        let data = icc::load(match n {
            1 => icc::GRAY,
            3 => icc::SRGB,
            _ => icc::CMYK,
        })?;
        if let Ok(Object::Stream(stream)) = doc.get_object_mut(id) {
            stream.dict = dictionary! { "N" => n };
            stream.set_content(data);
        }
        replaced += 1;
    }
    let _ = profiles;
    changes.count(
        "replaced",
        replaced,
        "ICC profile PDF/A does not accept by a free one of the same colour space",
        "ICC profiles PDF/A does not accept by free ones of the same colour spaces",
    );
    Ok(())
}

fn collect_icc(object: &Object, ids: &mut HashSet<ObjectId>) {
    match object {
        Object::Array(items) => {
            if let [Object::Name(n), Object::Reference(id)] = items.as_slice()
                && n == b"ICCBased"
            {
                ids.insert(*id);
            }
            for item in items {
                collect_icc(item, ids);
            }
        }
        Object::Dictionary(dict) => dict.iter().for_each(|(_, v)| collect_icc(v, ids)),
        Object::Stream(stream) => stream.dict.iter().for_each(|(_, v)| collect_icc(v, ids)),
        _ => {}
    }
}

/// One GTS_PDFA1 output intent: the document's own when one has a profile PDF/A accepts,
/// else sRGB.
pub fn output_intent(
    doc: &mut Document,
    level: Level,
    profiles: &mut Profiles,
    changes: &mut Changes,
) -> Result<Family, ToolError> {
    let intents: Vec<Dictionary> = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"OutputIntents").ok())
        .and_then(|v| doc.dereference(v).ok())
        .and_then(|(_, v)| v.as_array().ok())
        .map(|items| {
            items
                .iter()
                .filter_map(|i| doc.dereference(i).ok()?.1.as_dict().ok().cloned())
                .collect()
        })
        .unwrap_or_default();
    let mut candidates: Vec<(bool, Dictionary, ObjectId, Header)> = intents
        .into_iter()
        .filter_map(|intent| {
            let profile = intent.get(b"DestOutputProfile").ok()?.as_reference().ok()?;
            let header = profile_header(doc, profile)?;
            header.output_ok(level.part1()).then(|| {
                let pdfa = intent.get(b"S").and_then(Object::as_name).ok() == Some(b"GTS_PDFA1");
                (pdfa, intent, profile, header)
            })
        })
        .collect();
    candidates.sort_by_key(|(pdfa, ..)| !pdfa);
    let (intent, family) = match candidates.into_iter().next() {
        Some((pdfa, mut intent, profile, header)) => {
            keep_only(
                &mut intent,
                &[
                    b"OutputCondition",
                    b"OutputConditionIdentifier",
                    b"RegistryName",
                    b"Info",
                ],
            );
            for key in [
                b"OutputCondition".as_slice(),
                b"OutputConditionIdentifier",
                b"RegistryName",
                b"Info",
            ] {
                if !matches!(intent.get(key), Ok(Object::String(..)) | Err(_)) {
                    intent.remove(key);
                }
            }
            if !intent.has(b"OutputConditionIdentifier") {
                intent.set(
                    "OutputConditionIdentifier",
                    Object::string_literal("Custom"),
                );
            }
            intent.set("Type", Object::Name(b"OutputIntent".to_vec()));
            intent.set("S", Object::Name(b"GTS_PDFA1".to_vec()));
            intent.set("DestOutputProfile", profile);
            if let Ok(Object::Stream(stream)) = doc.get_object_mut(profile) {
                keep_only(
                    &mut stream.dict,
                    &[
                        b"N",
                        b"Alternate",
                        b"Range",
                        b"Length",
                        b"Filter",
                        b"DecodeParms",
                    ],
                );
                stream.dict.set("N", header.components().unwrap_or(3));
                if !matches!(
                    stream.dict.get(b"Alternate").and_then(Object::as_name),
                    Ok(b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK") | Err(_)
                ) {
                    stream.dict.remove(b"Alternate");
                }
            }
            if !pdfa {
                changes.note("made the document's own output intent its PDF/A output intent");
            }
            (intent, header.space)
        }
        None => {
            let profile = profiles.stream(doc, 3)?;
            changes.note("added an sRGB output intent");
            (
                dictionary! {
                    "Type" => "OutputIntent",
                    "S" => "GTS_PDFA1",
                    "OutputConditionIdentifier" => Object::string_literal("sRGB IEC61966-2.1"),
                    "RegistryName" => Object::string_literal("http://www.color.org"),
                    "Info" => Object::string_literal("sRGB IEC61966-2.1"),
                    "DestOutputProfile" => profile,
                },
                *b"RGB ",
            )
        }
    };
    doc.catalog_mut()
        .map_err(|_| ToolError::InvalidFile("the PDF has no catalog".into()))?
        .set("OutputIntents", vec![Object::Dictionary(intent)]);
    Ok(family)
}
