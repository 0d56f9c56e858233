//! Graphics state parameters and transparency.
//!
//! Every level: the device-dependent parameters PDF/A forbids go from graphics state
//! dictionaries (transfer functions, halftones, black generation and undercolour removal:
//! ISO 19005-1 6.2.8, ISO 19005-2 6.2.5; a screen never used them), and values out of range
//! are reset to their defaults.
//!
//! PDF/A-1 has no transparency (ISO 19005-1 6.4): soft masks, constant opacity below 1,
//! blend modes other than Normal and transparency groups are removed, so what was
//! translucent is drawn opaque. `opacity` ran first: what it could keep see-through is
//! drawn blended and under what it covered; the pages it could not are told.

use lopdf::{Dictionary, Document, Object};

use super::Level;
use super::annots::number;
use super::catalog::keep_only;
use super::changes::Changes;

const EXT_G_STATE: [&[u8]; 21] = [
    b"Type", b"LW", b"LC", b"LJ", b"ML", b"D", b"RI", b"BM", b"SMask", b"CA", b"ca", b"AIS", b"TK",
    b"OP", b"op", b"OPM", b"SA", b"FL", b"SM", b"AAPL:AA", b"Font",
];
const BLEND_MODES: [&[u8]; 17] = [
    b"Normal",
    b"Compatible",
    b"Multiply",
    b"Screen",
    b"Overlay",
    b"Darken",
    b"Lighten",
    b"ColorDodge",
    b"ColorBurn",
    b"HardLight",
    b"SoftLight",
    b"Difference",
    b"Exclusion",
    b"Hue",
    b"Saturation",
    b"Color",
    b"Luminosity",
];
pub const INTENTS: [&[u8]; 4] = [
    b"RelativeColorimetric",
    b"AbsoluteColorimetric",
    b"Perceptual",
    b"Saturation",
];

#[derive(Default)]
struct Tally {
    device: u32,
    transparency: u32,
    groups: u32,
    masks: u32,
}

/// Fixes every graphics state dictionary, and removes transparency for PDF/A-1.
pub fn apply(doc: &mut Document, level: Level, changes: &mut Changes) {
    let mut tally = Tally::default();
    let soft_mask_groups = soft_mask_groups(doc);
    for (id, object) in doc.objects.iter_mut() {
        match object {
            Object::Dictionary(dict) => {
                visit(dict, level, &mut tally);
            }
            Object::Stream(stream) => {
                let dict = &mut stream.dict;
                let image = dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image");
                let form = dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Form");
                if level.part1() {
                    if image
                        && (dict.remove(b"SMask").is_some() | dict.remove(b"SMaskInData").is_some())
                    {
                        tally.masks += 1;
                    }
                    if form && dict.remove(b"Group").is_some() {
                        tally.groups += 1;
                    }
                } else if form && !soft_mask_groups.contains(id) {
                    // A group attribute must say it is a transparency group.
                    let bad = dict.get(b"Group").and_then(Object::as_dict).is_ok_and(|g| {
                        g.get(b"S").and_then(Object::as_name).ok() != Some(b"Transparency")
                    });
                    if bad {
                        dict.remove(b"Group");
                    }
                }
                visit(dict, level, &mut tally);
            }
            _ => {}
        }
    }
    if level.part1() {
        for page in crate::pages::walk(doc).map(|t| t.pages).unwrap_or_default() {
            if let Ok(dict) = doc.get_dictionary_mut(page.id)
                && dict.remove(b"Group").is_some()
            {
                tally.groups += 1;
            }
        }
    }
    if tally.device > 0 {
        changes.note(
            "removed device-dependent graphics state parameters (transfer functions, halftones)",
        );
    }
    let removed = tally.transparency + tally.groups + tally.masks;
    if removed > 0 {
        changes.note(format!(
            "removed transparency (PDF/A-1): {} translucent graphics state{}, {} soft-masked image{}, {} transparency group{}",
            tally.transparency,
            plural(tally.transparency),
            tally.masks,
            plural(tally.masks),
            tally.groups,
            plural(tally.groups),
        ));
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Form XObjects used as a soft mask's group: they keep their /Group.
fn soft_mask_groups(doc: &Document) -> std::collections::HashSet<lopdf::ObjectId> {
    let mut out = std::collections::HashSet::new();
    for object in doc.objects.values() {
        let dict = match object {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &s.dict,
            _ => continue,
        };
        if let Ok(Object::Dictionary(mask)) = dict.get(b"SMask")
            && let Ok(Object::Reference(g)) = mask.get(b"G")
        {
            out.insert(*g);
        }
    }
    out
}

/// Graphics state dictionaries inside `dict` (an /ExtGState resource dictionary holds them
/// as values, directly or by reference: those by reference are visited as objects).
fn visit(dict: &mut Dictionary, level: Level, tally: &mut Tally) {
    if is_ext_g_state(dict) {
        fix(dict, level, tally);
        return;
    }
    if let Ok(Object::Dictionary(states)) = dict.get_mut(b"ExtGState") {
        for (_, state) in states.iter_mut() {
            if let Object::Dictionary(state) = state {
                fix(state, level, tally);
            }
        }
    }
    if let Ok(Object::Dictionary(resources)) = dict.get_mut(b"Resources") {
        visit(resources, level, tally);
    }
}

/// Whether `dict` is a graphics state parameter dictionary.
fn is_ext_g_state(dict: &Dictionary) -> bool {
    dict.has_type(b"ExtGState")
        || (!dict.has(b"Type")
            && !dict.has(b"Subtype")
            && (dict.has(b"CA")
                || dict.has(b"ca")
                || dict.has(b"BM")
                || dict.has(b"SMask")
                || dict.has(b"LW")
                || dict.has(b"TR")
                || dict.has(b"OPM"))
            && !dict.has(b"Rect"))
}

fn fix(state: &mut Dictionary, level: Level, tally: &mut Tally) {
    let mut device = false;
    for key in [
        b"TR".as_slice(),
        b"HTP",
        b"HT",
        b"BG",
        b"BG2",
        b"UCR",
        b"UCR2",
    ] {
        device |= state.remove(key).is_some();
    }
    if state.get(b"TR2").and_then(Object::as_name).ok() != Some(b"Default") {
        device |= state.remove(b"TR2").is_some();
    }
    if device {
        tally.device += 1;
    }
    keep_only(state, &EXT_G_STATE);
    if state
        .get(b"RI")
        .and_then(Object::as_name)
        .is_ok_and(|ri| !INTENTS.contains(&ri))
    {
        state.remove(b"RI");
    }
    if !matches!(state.get(b"OPM"), Ok(Object::Integer(0 | 1)) | Err(_)) {
        state.remove(b"OPM");
    }
    for key in [b"LC".as_slice(), b"LJ"] {
        if !matches!(state.get(key), Ok(Object::Integer(0..=2)) | Err(_)) {
            state.remove(key);
        }
    }
    for key in [b"CA".as_slice(), b"ca"] {
        if let Ok(value) = state.get(key) {
            let v = number(value).unwrap_or(1.0);
            if !(0.0..=1.0).contains(&v) {
                state.set(key, Object::Real(v.clamp(0.0, 1.0) as f32));
            }
        }
    }
    let blend_ok = match state.get(b"BM") {
        Ok(Object::Name(n)) => BLEND_MODES.contains(&n.as_slice()),
        Ok(Object::Array(items)) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|i| i.as_name().is_ok_and(|n| BLEND_MODES.contains(&n)))
        }
        Ok(_) => false,
        Err(_) => true,
    };
    if !blend_ok {
        state.set("BM", Object::Name(b"Normal".to_vec()));
    }
    if level.part1() {
        let mut translucent = false;
        if state.get(b"SMask").and_then(Object::as_name).ok() != Some(b"None")
            && state.has(b"SMask")
        {
            state.set("SMask", Object::Name(b"None".to_vec()));
            translucent = true;
        }
        for key in [b"CA".as_slice(), b"ca"] {
            if state
                .get(key)
                .ok()
                .and_then(number)
                .is_some_and(|v| v != 1.0)
            {
                state.set(key, 1);
                translucent = true;
            }
        }
        let normal =
            matches!(state.get(b"BM"), Ok(Object::Name(n)) if n == b"Normal" || n == b"Compatible");
        if state.has(b"BM") && !normal {
            state.set("BM", Object::Name(b"Normal".to_vec()));
            translucent = true;
        }
        if translucent {
            tally.transparency += 1;
        }
    } else if let Ok(Object::Dictionary(mask)) = state.get(b"SMask") {
        // A soft mask needs a transparency group to draw: without one it is no mask.
        if !mask.has(b"G")
            || !matches!(
                mask.get(b"S").and_then(Object::as_name),
                Ok(b"Alpha" | b"Luminosity")
            )
        {
            state.set("SMask", Object::Name(b"None".to_vec()));
        }
    }
}
