//! Every object of the file: implementation limits, stream filters and external data,
//! embedded files, images, forms, graphics states, soft masks, transparency groups,
//! annotations, actions and optional content.

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::super::actions::{forbidden_action, forbidden_in_action_slot};
use super::Findings;

pub fn label(id: ObjectId) -> String {
    format!("object {} {}", id.0, id.1)
}

/// Checks every object; `intent` is the output intent's colour space.
pub fn check(doc: &Document, intent: Option<[u8; 4]>, f: &mut Findings) {
    let level = f.level;
    let mut masks: Vec<ObjectId> = Vec::new();
    for (&id, object) in &doc.objects {
        limits(object, f, 0);
        let dict = match object {
            Object::Stream(stream) => {
                super::xobjects::stream_rules(doc, id, stream, f);
                &stream.dict
            }
            Object::Dictionary(dict) => dict,
            _ => continue,
        };
        if let Ok(Object::Reference(mask)) = dict.get(b"SMask")
            && dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image")
        {
            masks.push(*mask);
        }
        generic(doc, id, dict, f);
    }
    for mask in masks {
        let ok = doc
            .get_object(mask)
            .and_then(Object::as_stream)
            .is_ok_and(|s| {
                s.dict.get(b"ColorSpace").and_then(Object::as_name).ok() == Some(b"DeviceGray")
                    && !s.dict.has(b"SMask")
                    && !s.dict.has(b"Mask")
                    && s.dict.get(b"ImageMask").and_then(Object::as_bool).ok() != Some(true)
            });
        if !ok {
            f.add(
                "6.4-2",
                "6.2.8-1",
                format!("the soft mask {} is not a DeviceGray image", label(mask)),
            );
        }
    }
    super::annots::annotations(doc, intent, f);
    let _ = level;
}

/// Implementation limits (ISO 19005-1 6.1.12, ISO 19005-2 6.1.13).
pub fn limits(object: &Object, f: &mut Findings, depth: usize) {
    let part1 = f.level.part1();
    if depth > 64 {
        f.add("6.1.12-1", "6.1.13-1", "objects nest deeper than 64 levels");
        return;
    }
    match object {
        Object::Integer(i) if *i < -(1 << 31) || *i > (1 << 31) - 1 => {
            f.add(
                "6.1.12-1",
                "6.1.13-1",
                format!("the integer {i} is out of range"),
            );
        }
        Object::Real(r) => {
            let r = f64::from(*r);
            if part1 && r.abs() > 32767.0 {
                f.add(
                    "6.1.12-2",
                    "6.1.13-2",
                    format!("the real {r} is larger than 32767"),
                );
            }
            if !part1 && r != 0.0 && r.abs() < 1.175e-38 {
                f.add("", "6.1.13-4", format!("the real {r} is too close to zero"));
            }
        }
        Object::String(bytes, _) => {
            let max = if part1 { 65535 } else { 32767 };
            if bytes.len() > max {
                f.add(
                    "6.1.12-3",
                    "6.1.13-3",
                    format!("a string of {} bytes is longer than {max}", bytes.len()),
                );
            }
        }
        Object::Name(name) if name.len() > 127 => {
            f.add("6.1.12-4", "6.1.13-5", "a name is longer than 127 bytes");
        }
        Object::Array(items) => {
            if part1 && items.len() > 8191 {
                f.add(
                    "6.1.12-5",
                    "6.1.12-5",
                    "an array has more than 8191 elements",
                );
            }
            for item in items {
                limits(item, f, depth + 1);
            }
        }
        Object::Dictionary(dict) => {
            if part1 && dict.len() > 4095 {
                f.add(
                    "6.1.12-6",
                    "6.1.12-6",
                    "a dictionary has more than 4095 entries",
                );
            }
            for (key, value) in dict.iter() {
                if key.len() > 127 {
                    f.add("6.1.12-4", "6.1.13-5", "a name is longer than 127 bytes");
                }
                limits(value, f, depth + 1);
            }
        }
        Object::Stream(stream) => limits(&Object::Dictionary(stream.dict.clone()), f, depth),
        _ => {}
    }
}

/// Rules on any dictionary: actions, /AA, optional content in PDF/A-1, graphics states,
/// groups.
fn generic(doc: &Document, id: ObjectId, dict: &Dictionary, f: &mut Findings) {
    let level = f.level;
    if dict.has(b"AA") {
        f.add(
            "6.6.2-3",
            "6.5.2-1",
            format!("{} has additional actions (/AA)", label(id)),
        );
    }
    check_actions(doc, dict, f, 0);
    if level.part1() && (dict.has(b"OC") || dict.has_type(b"OCG") || dict.has_type(b"OCMD")) {
        f.add(
            "6.1.13-1",
            "6.1.13-1",
            format!("{} uses optional content", label(id)),
        );
    }
    if dict.has_type(b"Page") && level.part1() && dict.has(b"Group") {
        f.add(
            "6.4-3",
            "6.4-3",
            format!("the page {} is a transparency group", label(id)),
        );
    }
    if dict.has_type(b"Page") && dict.has(b"PresSteps") {
        f.add(
            "6.1.13-1",
            "6.10-2",
            format!("the page {} has presentation steps", label(id)),
        );
    }
    if let Ok(Object::Dictionary(group)) = dict.get(b"Group")
        && group.get(b"S").and_then(Object::as_name).ok() != Some(b"Transparency")
    {
        f.add(
            "6.4-3",
            "6.2.10-1",
            format!("{} has a group that is not a transparency group", label(id)),
        );
    }
    if let Some(states) = dict
        .get(b"ExtGState")
        .ok()
        .and_then(|s| doc.dereference(s).ok())
        .and_then(|(_, s)| s.as_dict().ok())
    {
        for (_, state) in states.iter() {
            if let Ok((_, Object::Dictionary(state))) = doc.dereference(state) {
                super::gstate::ext_g_state(doc, state, f);
            }
        }
    }
}

fn check_actions(doc: &Document, dict: &Dictionary, f: &mut Findings, depth: usize) {
    if depth > 32 {
        return;
    }
    if let Some(kind) = forbidden_action(dict) {
        f.add(
            "6.6.1-1",
            "6.5.1-1",
            format!("a {kind} action, which PDF/A does not allow"),
        );
    }
    for key in [b"A".as_slice(), b"PA", b"Next", b"OpenAction"] {
        let values: Vec<&Object> = match dict.get(key) {
            Ok(Object::Array(items)) if key == b"Next" => items.iter().collect(),
            Ok(value) => vec![value],
            Err(_) => Vec::new(),
        };
        for value in values {
            let target = doc
                .dereference(value)
                .ok()
                .and_then(|(_, v)| v.as_dict().ok());
            if let Some(kind) = target.and_then(forbidden_in_action_slot) {
                f.add(
                    "6.6.1-1",
                    "6.5.1-1",
                    format!("a {kind} action, which PDF/A does not allow"),
                );
            }
        }
    }
    for (_, value) in dict.iter() {
        match value {
            Object::Dictionary(inner) => check_actions(doc, inner, f, depth + 1),
            Object::Array(items) => {
                for item in items {
                    if let Object::Dictionary(inner) = item {
                        check_actions(doc, inner, f, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
}
