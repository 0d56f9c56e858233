//! Content streams: every operator defined by ISO 32000-1 with operands of its kind, every
//! resource it names present in the stream's own resources (ISO 19005-2 6.2.2), colour
//! that agrees with the output intent, q/Q nesting within the limit, inline images PDF/A
//! allows, and the codes each font shows (for the font checks).

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::super::content::Operand;
use super::super::transparency::INTENTS;
use super::super::walk::{self, Drawn, Event};
use super::Findings;
use super::colour::{self, Resolver};

/// What q saves of the state the checks follow: font, rendering mode, fill and stroke
/// components.
type Saved = (Option<ObjectId>, i64, Option<usize>, Option<usize>);

/// Deepest q nesting (ISO 32000-1 Annex C).
const MAX_Q: usize = 28;

/// What text each font shows: strings, split into visible and invisible (mode 3).
#[derive(Default)]
pub struct Shown {
    pub visible: HashSet<Vec<u8>>,
    pub invisible: HashSet<Vec<u8>>,
}

/// A font reached from content, with the strings it shows.
pub struct FontUse {
    pub dict: Dictionary,
    pub label: String,
    pub shown: Shown,
}

/// Every font in the walked resources, by object (direct fonts get numbers of their own).
#[derive(Default)]
pub struct Fonts {
    pub fonts: HashMap<ObjectId, FontUse>,
    next_direct: u32,
}

impl Fonts {
    fn key(&mut self, doc: &Document, value: &Object, name: &[u8]) -> Option<ObjectId> {
        match value {
            Object::Reference(id) => {
                if !self.fonts.contains_key(id) {
                    let dict = doc.get_dictionary(*id).ok()?.clone();
                    self.fonts.insert(
                        *id,
                        FontUse {
                            dict,
                            label: format!("font {} {}", id.0, id.1),
                            shown: Shown::default(),
                        },
                    );
                }
                Some(*id)
            }
            Object::Dictionary(dict) => {
                self.next_direct += 1;
                let id = (u32::MAX - self.next_direct, 0);
                self.fonts.insert(
                    id,
                    FontUse {
                        dict: dict.clone(),
                        label: format!("font /{}", String::from_utf8_lossy(name)),
                        shown: Shown::default(),
                    },
                );
                Some(id)
            }
            _ => None,
        }
    }
}

/// Walks every content stream; returns the fonts reached and what they show.
pub fn check(doc: &Document, intent: Option<[u8; 4]>, f: &mut Findings) -> Fonts {
    let (fonts, painted) = walk_all(doc, intent, f);
    colour::unpainted_images(doc, intent, &painted, f);
    fonts
}

fn walk_all(
    doc: &Document,
    intent: Option<[u8; 4]>,
    f: &mut Findings,
) -> (Fonts, HashSet<ObjectId>) {
    let mut fonts = Fonts::default();
    let mut painted: HashSet<ObjectId> = HashSet::new();
    walk::walk(doc, |event| match event {
        Event::Unreadable { label, message, .. } => {
            f.add("6.1.2-1", "6.2.2-1", format!("{label}: {message}"));
        }
        Event::Stream(drawn) => stream(doc, &drawn, intent, f, &mut fonts, &mut painted),
    });
    (fonts, painted)
}

fn stream(
    doc: &Document,
    drawn: &Drawn<'_>,
    intent: Option<[u8; 4]>,
    f: &mut Findings,
    fonts: &mut Fonts,
    painted: &mut HashSet<ObjectId>,
) {
    let part1 = f.level.part1();
    let here = drawn.label.as_str();
    let resources = drawn.resources;
    let explicit = !drawn.borrowed || part1;
    let category = |key: &[u8]| resources.and_then(|r| walk::category(doc, r, key));
    let spaces = category(b"ColorSpace");
    let resolver = Resolver {
        doc,
        intent,
        spaces,
        inline: false,
    };
    let lookup = |f: &mut Findings, key: &[u8], name: &[u8]| -> Option<Object> {
        if !explicit {
            f.add(
                "6.2.2-1",
                "6.2.2-2",
                format!(
                    "{here}: /{} is not in the stream's own resources",
                    String::from_utf8_lossy(name)
                ),
            );
            return None;
        }
        let found = category(key).and_then(|c| c.get(name).ok()).cloned();
        if found.is_none() {
            f.add(
                "6.2.2-1",
                "6.2.2-2",
                format!(
                    "{here}: the {} /{} is not in the resources",
                    String::from_utf8_lossy(key),
                    String::from_utf8_lossy(name)
                ),
            );
        }
        found
    };
    let type3_glyph = here.starts_with("Type 3 glyph");
    let mut depth = 0usize;
    let mut in_text = false;
    let mut compat = 0usize;
    let mut font: Option<ObjectId> = None;
    let mut mode: i64 = 0;
    let mut fill: Option<usize> = Some(1);
    let mut stroke: Option<usize> = Some(1);
    let mut saved: Vec<Saved> = Vec::new();
    let mut font_keys: HashMap<Vec<u8>, Option<ObjectId>> = HashMap::new();
    for op in drawn.ops {
        let operator = op.operator.as_slice();
        let Some(sig) = super::operators::signature(operator) else {
            if compat == 0 {
                f.add(
                    "6.2.10-1",
                    "6.2.2-1",
                    format!(
                        "{here}: the operator {} is not defined in PDF",
                        String::from_utf8_lossy(operator)
                    ),
                );
            }
            continue;
        };
        if !super::operators::matches_signature(sig, &op.operands) {
            f.add(
                "6.2.10-1",
                "6.2.2-1",
                format!(
                    "{here}: the operator {} has operands of the wrong kind",
                    String::from_utf8_lossy(operator)
                ),
            );
            continue;
        }
        for operand in &op.operands {
            super::inline::operand_limits(operand, f, here);
        }
        let name = op
            .operands
            .first()
            .and_then(Operand::name)
            .map(<[u8]>::to_vec)
            .unwrap_or_default();
        match operator {
            b"q" => {
                saved.push((font, mode, fill, stroke));
                depth += 1;
                if depth > MAX_Q {
                    f.add(
                        "6.1.12-8",
                        "6.1.13-8",
                        format!("{here}: q nests deeper than {MAX_Q}"),
                    );
                }
            }
            b"Q" => match saved.pop() {
                Some(state) => {
                    (font, mode, fill, stroke) = state;
                    depth -= 1;
                }
                None => f.add("6.1.2-1", "6.2.2-1", format!("{here}: Q without q")),
            },
            b"BT" => {
                if in_text {
                    f.add("6.1.2-1", "6.2.2-1", format!("{here}: BT inside BT"));
                }
                in_text = true;
            }
            b"ET" => {
                if !in_text {
                    f.add("6.1.2-1", "6.2.2-1", format!("{here}: ET without BT"));
                }
                in_text = false;
            }
            b"BX" => compat += 1,
            b"EX" => {
                if compat == 0 {
                    f.add("6.1.2-1", "6.2.2-1", format!("{here}: EX without BX"));
                }
                compat = compat.saturating_sub(1);
            }
            b"d0" | b"d1" if !type3_glyph => {
                f.add(
                    "6.1.2-1",
                    "6.2.2-1",
                    format!(
                        "{here}: {} outside a Type 3 glyph",
                        String::from_utf8_lossy(operator)
                    ),
                );
            }
            b"ri" if !INTENTS.contains(&name.as_slice()) => {
                f.add(
                    "6.2.9-1",
                    "6.2.6-1",
                    format!(
                        "{here}: the rendering intent {}",
                        String::from_utf8_lossy(&name)
                    ),
                );
            }
            b"gs" => {
                lookup(f, b"ExtGState", &name);
            }
            b"Tf" => {
                let key = match font_keys.get(&name) {
                    Some(key) => *key,
                    None => {
                        let key = lookup(f, b"Font", &name).and_then(|v| fonts.key(doc, &v, &name));
                        font_keys.insert(name.clone(), key);
                        key
                    }
                };
                font = key;
            }
            b"Tr" => mode = op.operands.first().and_then(Operand::number).unwrap_or(0.0) as i64,
            b"Td" | b"TD" | b"Tm" | b"T*" if !in_text => {
                f.add(
                    "6.1.2-1",
                    "6.2.2-1",
                    format!(
                        "{here}: {} outside BT/ET",
                        String::from_utf8_lossy(operator)
                    ),
                );
            }
            b"Tj" | b"TJ" | b"'" | b"\"" => {
                if !in_text {
                    f.add(
                        "6.1.2-1",
                        "6.2.2-1",
                        format!("{here}: text shown outside BT/ET"),
                    );
                    continue;
                }
                let Some(key) = font else {
                    f.add(
                        "6.1.2-1",
                        "6.2.2-1",
                        format!("{here}: text shown with no font selected"),
                    );
                    continue;
                };
                let Some(font_use) = fonts.fonts.get_mut(&key) else {
                    continue;
                };
                let shown = if mode == 3 {
                    &mut font_use.shown.invisible
                } else {
                    &mut font_use.shown.visible
                };
                for operand in &op.operands {
                    match operand {
                        Operand::Str(bytes) => {
                            shown.insert(bytes.clone());
                        }
                        Operand::Array(items) => {
                            for item in items {
                                match item {
                                    Operand::Str(bytes) => {
                                        shown.insert(bytes.clone());
                                    }
                                    Operand::Int(_) | Operand::Real(_) => {}
                                    _ => f.add("6.1.2-1", "6.2.2-1", format!("{here}: a TJ array holds something else than strings and numbers")),
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            b"g" | b"G" | b"rg" | b"RG" | b"k" | b"K" => {
                let family: &[u8] = match operator {
                    b"g" | b"G" => b"DeviceGray",
                    b"rg" | b"RG" => b"DeviceRGB",
                    _ => b"DeviceCMYK",
                };
                let n = resolver.resolve(&Object::Name(family.to_vec()), f, here);
                if operator[0].is_ascii_lowercase() {
                    fill = n;
                } else {
                    stroke = n;
                }
            }
            b"cs" | b"CS" => {
                let n = resolver.resolve(&Object::Name(name.clone()), f, here);
                if operator == b"cs" {
                    fill = n;
                } else {
                    stroke = n;
                }
            }
            b"sc" | b"scn" | b"SC" | b"SCN" => {
                let pattern = matches!(op.operands.last(), Some(Operand::Name(_)));
                if pattern {
                    if let Some(Operand::Name(p)) = op.operands.last() {
                        lookup(f, b"Pattern", p);
                    }
                    continue;
                }
                let expected = if operator[0].is_ascii_lowercase() {
                    fill
                } else {
                    stroke
                };
                let all_numbers = op.operands.iter().all(|o| o.number().is_some());
                if !all_numbers
                    || op.operands.is_empty()
                    || expected.is_some_and(|n| n != op.operands.len())
                {
                    f.add(
                        "6.1.2-1",
                        "6.2.2-1",
                        format!(
                            "{here}: {} does not match its colour space",
                            String::from_utf8_lossy(operator)
                        ),
                    );
                }
            }
            b"sh" => {
                lookup(f, b"Shading", &name);
            }
            b"Do" => {
                let Some(xobject) = lookup(f, b"XObject", &name) else {
                    continue;
                };
                let Ok(id) = xobject.as_reference() else {
                    f.add(
                        "6.1.2-1",
                        "6.2.2-1",
                        format!(
                            "{here}: the XObject /{} is not a stream object",
                            String::from_utf8_lossy(&name)
                        ),
                    );
                    continue;
                };
                let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
                    f.add(
                        "6.1.2-1",
                        "6.2.2-1",
                        format!(
                            "{here}: the XObject /{} is not a stream",
                            String::from_utf8_lossy(&name)
                        ),
                    );
                    continue;
                };
                match stream.dict.get(b"Subtype").and_then(Object::as_name).ok() {
                    Some(b"Image") => {
                        painted.insert(id);
                        colour::image(
                            &resolver,
                            &stream.dict,
                            f,
                            &format!("{here}: image {} {}", id.0, id.1),
                        );
                    }
                    Some(b"Form") => {}
                    _ => f.add(
                        "6.2.7-1",
                        "6.2.9-3",
                        format!(
                            "{here}: the XObject /{} is neither an image nor a form",
                            String::from_utf8_lossy(&name)
                        ),
                    ),
                }
            }
            b"BDC" | b"DP" => {
                if part1 && name == b"OC" {
                    f.add(
                        "6.1.13-1",
                        "6.1.13-1",
                        format!("{here}: optional content (BDC /OC)"),
                    );
                }
                if let Some(Operand::Name(properties)) = op.operands.get(1) {
                    lookup(f, b"Properties", properties);
                }
            }
            b"BI" => super::inline::inline_image(&resolver, op, f, here),
            _ => {}
        }
    }
    if in_text {
        f.add("6.1.2-1", "6.2.2-1", format!("{here}: BT without ET"));
    }
}
