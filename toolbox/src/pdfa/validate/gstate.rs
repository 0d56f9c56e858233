//! Graphics state parameter dictionaries (ISO 19005-1 6.2.8 and 6.4, ISO 19005-2 6.2.5 and
//! 6.2.10): no transfer functions or halftone phases, known rendering intents and blend
//! modes, soft masks that are transparency groups, and no transparency in PDF/A-1.

use lopdf::{Dictionary, Document, Object};

use super::super::annots::number;
use super::super::transparency::INTENTS;
use super::Findings;

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

pub fn ext_g_state(doc: &Document, state: &Dictionary, f: &mut Findings) {
    let part1 = f.level.part1();
    if state.has(b"TR") {
        f.add(
            "6.2.8-1",
            "6.2.5-1",
            "a graphics state has a transfer function (/TR)",
        );
    }
    if state
        .get(b"TR2")
        .is_ok_and(|v| v.as_name().ok() != Some(b"Default"))
    {
        f.add(
            "6.2.8-2",
            "6.2.5-2",
            "a graphics state has /TR2 other than /Default",
        );
    }
    if state.has(b"HTP") {
        f.add("6.2.8-1", "6.2.5-3", "a graphics state has /HTP");
    }
    if let Ok(intent) = state.get(b"RI")
        && !intent.as_name().is_ok_and(|i| INTENTS.contains(&i))
    {
        f.add(
            "6.2.9-1",
            "6.2.6-1",
            "a graphics state has an unknown rendering intent",
        );
    }
    let blend = match state.get(b"BM") {
        Ok(Object::Name(n)) => vec![n.clone()],
        Ok(Object::Array(items)) => items
            .iter()
            .map(|i| i.as_name().map(<[u8]>::to_vec).unwrap_or_default())
            .collect(),
        Ok(_) => vec![Vec::new()],
        Err(_) => Vec::new(),
    };
    for mode in &blend {
        let allowed = if part1 {
            &BLEND_MODES[..2]
        } else {
            &BLEND_MODES[..]
        };
        if !allowed.contains(&mode.as_slice()) {
            f.add(
                "6.4-4",
                "6.2.10-1",
                format!(
                    "a graphics state has the blend mode {}",
                    String::from_utf8_lossy(mode)
                ),
            );
        }
    }
    for key in [b"CA".as_slice(), b"ca"] {
        if let Ok(value) = state.get(key) {
            let v = number(value);
            if v.is_none_or(|v| !(0.0..=1.0).contains(&v)) || (part1 && v != Some(1.0)) {
                f.add(
                    "6.4-5",
                    "6.2.10-1",
                    format!(
                        "a graphics state has /{} {:?}",
                        String::from_utf8_lossy(key),
                        v
                    ),
                );
            }
        }
    }
    match state.get(b"SMask") {
        Ok(Object::Name(n)) if n == b"None" => {}
        Ok(mask) if part1 => {
            let _ = mask;
            f.add("6.4-1", "6.4-1", "a graphics state has a soft mask");
        }
        Ok(mask) => {
            let ok = doc
                .dereference(mask)
                .ok()
                .and_then(|(_, m)| m.as_dict().ok())
                .is_some_and(|m| {
                    matches!(
                        m.get(b"S").and_then(Object::as_name),
                        Ok(b"Alpha" | b"Luminosity")
                    ) && m
                        .get(b"G")
                        .and_then(Object::as_reference)
                        .ok()
                        .and_then(|g| doc.get_object(g).ok())
                        .and_then(|g| g.as_stream().ok())
                        .is_some_and(|g| {
                            g.dict
                                .get(b"Group")
                                .ok()
                                .and_then(|gr| doc.dereference(gr).ok())
                                .and_then(|(_, gr)| gr.as_dict().ok())
                                .is_some_and(|gr| {
                                    gr.get(b"S").and_then(Object::as_name).ok()
                                        == Some(b"Transparency")
                                })
                        })
                });
            if !ok {
                f.add(
                    "6.4-1",
                    "6.2.10-1",
                    "a graphics state's soft mask is not a transparency group",
                );
            }
        }
        Err(_) => {}
    }
}
