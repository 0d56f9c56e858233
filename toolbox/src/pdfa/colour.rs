//! Colour: one PDF/A output intent, ICC profiles PDF/A accepts, and device colour that agrees
//! with the intent (ISO 19005-1 6.2.2-6.2.3, ISO 19005-2 6.2.3-6.2.4).
//!
//! The intent is the document's own when one of its output intents has a profile PDF/A
//! accepts, else sRGB. Device colour of another family than the intent's is given a
//! device-independent meaning: /DefaultCMYK (or /DefaultRGB) in the resources of every
//! content stream, and images, groups and shadings declared in that family get the ICC
//! colour space itself. Nothing is converted: the same numbers are drawn through a profile.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Level;
use super::changes::Changes;
use super::content::{self, Operand};
use super::intent::{self, Profiles};
use crate::ToolError;

/// The colour family of the output intent: `b"RGB "`, `b"CMYK"` or `b"GRAY"`.
pub type Family = [u8; 4];

/// Sets the output intent, fixes the profiles and gives device colour its meaning.
pub fn apply(doc: &mut Document, level: Level, changes: &mut Changes) -> Result<Family, ToolError> {
    let mut profiles = Profiles::default();
    intent::fix_icc_streams(doc, level, &mut profiles, changes)?;
    let family = intent::output_intent(doc, level, &mut profiles, changes)?;
    let uses = device_use(doc);
    let mut defaults: Vec<(&'static [u8], &'static [u8], ObjectId)> = Vec::new();
    if family != *b"CMYK" && uses.cmyk {
        let space = profiles.space(doc, 4)?;
        defaults.push((b"DeviceCMYK", b"DefaultCMYK", space));
    }
    if family != *b"RGB " && uses.rgb {
        let space = profiles.space(doc, 3)?;
        defaults.push((b"DeviceRGB", b"DefaultRGB", space));
    }
    if !defaults.is_empty() {
        declare(doc, &defaults);
        let names: Vec<String> = defaults
            .iter()
            .map(|(device, _, _)| String::from_utf8_lossy(device).into_owned())
            .collect();
        changes.note(format!(
            "gave {} colour an ICC profile (the output intent is {})",
            names.join(" and "),
            String::from_utf8_lossy(&family).trim()
        ));
    }
    Ok(family)
}

/// Which device families the document draws with.
#[derive(Default)]
struct Uses {
    rgb: bool,
    cmyk: bool,
}

fn device_use(doc: &Document) -> Uses {
    let mut uses = Uses::default();
    fn names(object: &Object, uses: &mut Uses) {
        match object {
            Object::Name(n) if n == b"DeviceCMYK" => uses.cmyk = true,
            Object::Name(n) if n == b"DeviceRGB" => uses.rgb = true,
            Object::Array(items) => items.iter().for_each(|i| names(i, uses)),
            Object::Dictionary(d) => d.iter().for_each(|(_, v)| names(v, uses)),
            Object::Stream(s) => s.dict.iter().for_each(|(_, v)| names(v, uses)),
            _ => {}
        }
    }
    for object in doc.objects.values() {
        names(object, &mut uses);
    }
    for id in super::layers::content_streams(doc) {
        let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
            continue;
        };
        let Ok(data) = stream.decompressed_content() else {
            continue;
        };
        match content::parse(&data) {
            Ok(ops) => {
                for op in ops {
                    match op.operator.as_slice() {
                        b"k" | b"K" => uses.cmyk = true,
                        b"rg" | b"RG" => uses.rgb = true,
                        _ => {}
                    }
                    for operand in &op.operands {
                        operand_names(operand, &mut uses);
                    }
                }
            }
            Err(_) => {
                uses.cmyk = true;
                uses.rgb = true;
            }
        }
    }
    uses
}

fn operand_names(operand: &Operand, uses: &mut Uses) {
    match operand {
        Operand::Name(n) if n == b"DeviceCMYK" || n == b"CMYK" => uses.cmyk = true,
        Operand::Name(n) if n == b"DeviceRGB" || n == b"RGB" => uses.rgb = true,
        Operand::Array(items) => items.iter().for_each(|i| operand_names(i, uses)),
        Operand::Dict(entries) => entries.iter().for_each(|(_, v)| operand_names(v, uses)),
        _ => {}
    }
}

/// Declares the default colour spaces in every content stream's resources, and gives the
/// images, groups and shadings declared in a device family the ICC space itself.
fn declare(doc: &mut Document, defaults: &[(&'static [u8], &'static [u8], ObjectId)]) {
    let replace: HashMap<&[u8], ObjectId> = defaults
        .iter()
        .map(|(device, _, space)| (*device, *space))
        .collect();
    // Resource dictionaries of content streams: pages', forms', patterns', Type 3 fonts'.
    let mut holders: Vec<ObjectId> = Vec::new();
    for (id, object) in &doc.objects {
        let dict = match object {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &s.dict,
            _ => continue,
        };
        let subtype = dict.get(b"Subtype").and_then(Object::as_name).ok();
        let content = dict.has_type(b"Page")
            || subtype == Some(b"Form")
            || subtype == Some(b"Type3")
            || dict.get(b"PatternType").and_then(Object::as_i64).ok() == Some(1);
        if content {
            holders.push(*id);
        }
    }
    for id in holders {
        let resources = match doc.get_object(id) {
            Ok(Object::Dictionary(d)) => d.get(b"Resources").ok().cloned(),
            Ok(Object::Stream(s)) => s.dict.get(b"Resources").ok().cloned(),
            _ => None,
        };
        match resources {
            Some(Object::Reference(res)) => {
                if let Ok(dict) = doc.get_dictionary_mut(res) {
                    add_defaults(dict, defaults);
                }
                let cs = doc
                    .get_dictionary(res)
                    .ok()
                    .and_then(|d| d.get(b"ColorSpace").ok())
                    .and_then(|c| c.as_reference().ok());
                if let Some(cs) = cs
                    && let Ok(dict) = doc.get_dictionary_mut(cs)
                {
                    add_default_entries(dict, defaults);
                }
            }
            other => {
                let mut dict = match other {
                    Some(Object::Dictionary(d)) => d,
                    _ => Dictionary::new(),
                };
                add_defaults(&mut dict, defaults);
                let cs = dict.get(b"ColorSpace").and_then(Object::as_reference).ok();
                if let Some(cs) = cs
                    && let Ok(shared) = doc.get_dictionary_mut(cs)
                {
                    add_default_entries(shared, defaults);
                }
                match doc.get_object_mut(id) {
                    Ok(Object::Dictionary(d)) => d.set("Resources", dict),
                    Ok(Object::Stream(s)) => s.dict.set("Resources", dict),
                    _ => {}
                }
            }
        }
    }
    for object in doc.objects.values_mut() {
        let dict = match object {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &mut s.dict,
            _ => continue,
        };
        let key: &[u8] = if dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image")
            || dict.has(b"ShadingType")
        {
            b"ColorSpace"
        } else if dict.get(b"S").and_then(Object::as_name).ok() == Some(b"Transparency") {
            b"CS"
        } else {
            if let Ok(Object::Dictionary(group)) = dict.get_mut(b"Group") {
                replace_device(group.get_mut(b"CS").ok(), &replace);
            }
            continue;
        };
        replace_device(dict.get_mut(key).ok(), &replace);
    }
}

/// A device family name (or the base of an Indexed space) replaced by its ICC space.
fn replace_device(value: Option<&mut Object>, replace: &HashMap<&[u8], ObjectId>) {
    match value {
        Some(object @ Object::Name(_)) => {
            if let Object::Name(n) = &*object
                && let Some(id) = replace.get(n.as_slice())
            {
                *object = Object::Reference(*id);
            }
        }
        Some(Object::Array(items))
            if items.first().and_then(|f| f.as_name().ok()) == Some(b"Indexed") =>
        {
            replace_device(items.get_mut(1), replace);
        }
        _ => {}
    }
}

fn add_defaults(resources: &mut Dictionary, defaults: &[(&'static [u8], &'static [u8], ObjectId)]) {
    match resources.get_mut(b"ColorSpace") {
        Ok(Object::Dictionary(spaces)) => add_default_entries(spaces, defaults),
        Ok(Object::Reference(_)) => {}
        _ => {
            let mut spaces = Dictionary::new();
            add_default_entries(&mut spaces, defaults);
            resources.set("ColorSpace", spaces);
        }
    }
}

fn add_default_entries(
    spaces: &mut Dictionary,
    defaults: &[(&'static [u8], &'static [u8], ObjectId)],
) {
    for (_, key, space) in defaults {
        spaces.set(*key, Object::Reference(*space));
    }
}
