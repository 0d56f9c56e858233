//! What content streams hold besides operators: operands within PDF/A's implementation
//! limits (ISO 19005-2 6.1.13), and inline images PDF/A allows (6.2.8).

use lopdf::{Dictionary, Object};

use super::super::content::{Op, Operand};
use super::super::transparency::INTENTS;
use super::Findings;
use super::colour::Resolver;

pub fn operand_limits(operand: &Operand, f: &mut Findings, here: &str) {
    let part1 = f.level.part1();
    match operand {
        Operand::Int(i) if *i < -(1 << 31) || *i > (1 << 31) - 1 => {
            f.add(
                "6.1.12-1",
                "6.1.13-1",
                format!("{here}: the integer {i} is out of range"),
            );
        }
        Operand::Real(r) if part1 && r.abs() > 32767.0 => {
            f.add(
                "6.1.12-2",
                "6.1.13-2",
                format!("{here}: the real {r} is larger than 32767"),
            );
        }
        Operand::Real(r)
            if !part1 && (r.abs() > 3.403e38 || (*r != 0.0 && r.abs() < 1.175e-38)) =>
        {
            f.add(
                "",
                "6.1.13-2",
                format!("{here}: the real {r} is out of range"),
            );
        }
        Operand::Str(s) if s.len() > if part1 { 65535 } else { 32767 } => {
            f.add(
                "6.1.12-3",
                "6.1.13-3",
                format!("{here}: a string is too long"),
            );
        }
        Operand::Name(n) if n.len() > 127 => {
            f.add(
                "6.1.12-4",
                "6.1.13-5",
                format!("{here}: a name is too long"),
            );
        }
        Operand::Array(items) => {
            if part1 && items.len() > 8191 {
                f.add(
                    "6.1.12-5",
                    "6.1.12-5",
                    format!("{here}: an array is too long"),
                );
            }
            items.iter().for_each(|i| operand_limits(i, f, here));
        }
        Operand::Dict(entries) => entries.iter().for_each(|(_, v)| operand_limits(v, f, here)),
        _ => {}
    }
}

pub fn inline_image(resolver: &Resolver<'_>, op: &Op, f: &mut Findings, here: &str) {
    let part1 = f.level.part1();
    let Some(Operand::Dict(entries)) = op.operands.first() else {
        return;
    };
    let get = |keys: &[&[u8]]| {
        entries
            .iter()
            .find(|(k, _)| keys.contains(&k.as_slice()))
            .map(|(_, v)| v)
    };
    if get(&[b"L", b"Length"]).is_some() {
        f.add(
            "6.1.2-1",
            "6.2.2-1",
            format!("{here}: an inline image with a length (/L)"),
        );
    }
    let filters: Vec<&[u8]> = match get(&[b"F", b"Filter"]) {
        Some(Operand::Name(n)) => vec![n.as_slice()],
        Some(Operand::Array(items)) => items.iter().filter_map(Operand::name).collect(),
        _ => Vec::new(),
    };
    for filter in filters {
        if matches!(filter, b"LZW" | b"LZWDecode" | b"Crypt") {
            f.add(
                "6.1.10-2",
                "6.1.10-1",
                format!(
                    "{here}: an inline image encoded with {}",
                    String::from_utf8_lossy(filter)
                ),
            );
        }
    }
    if matches!(get(&[b"I", b"Interpolate"]), Some(Operand::Bool(true))) {
        f.add(
            "6.2.4-3",
            "6.2.8-3",
            format!("{here}: an inline image asks for interpolation"),
        );
    }
    if let Some(intent) = get(&[b"Intent"])
        && !intent.name().is_some_and(|i| INTENTS.contains(&i))
    {
        f.add(
            "6.2.9-1",
            "6.2.6-1",
            format!("{here}: an inline image's rendering intent"),
        );
    }
    let mask = matches!(get(&[b"IM", b"ImageMask"]), Some(Operand::Bool(true)));
    let bits = get(&[b"BPC", b"BitsPerComponent"])
        .and_then(Operand::number)
        .map(|b| b as i64);
    if mask {
        if bits.is_some_and(|b| b != 1) {
            f.add(
                "6.2.4-5",
                "6.2.8-5",
                format!("{here}: an inline image mask of more than 1 bit"),
            );
        }
        return;
    }
    let allowed: &[i64] = if part1 {
        &[1, 2, 4, 8]
    } else {
        &[1, 2, 4, 8, 16]
    };
    if !bits.is_some_and(|b| allowed.contains(&b)) {
        f.add(
            "6.2.4-4",
            "6.2.8-4",
            format!("{here}: an inline image's bits per component"),
        );
    }
    let Some(space) = get(&[b"CS", b"ColorSpace"]) else {
        f.add(
            "6.2.3-1",
            "6.2.4-1",
            format!("{here}: an inline image without a colour space"),
        );
        return;
    };
    let inline = Resolver {
        doc: resolver.doc,
        intent: resolver.intent,
        spaces: resolver.spaces,
        inline: true,
    };
    inline.resolve(&to_object(space), f, &format!("{here}: inline image"));
}

/// An operand as a PDF object, for the colour resolver.
fn to_object(operand: &Operand) -> Object {
    match operand {
        Operand::Int(i) => Object::Integer(*i),
        Operand::Real(r) => Object::Real(*r as f32),
        Operand::Bool(b) => Object::Boolean(*b),
        Operand::Null => Object::Null,
        Operand::Name(n) => Object::Name(n.clone()),
        Operand::Str(s) => Object::String(s.clone(), lopdf::StringFormat::Literal),
        Operand::Array(items) => Object::Array(items.iter().map(to_object).collect()),
        Operand::Dict(entries) => {
            let mut dict = Dictionary::new();
            for (k, v) in entries {
                dict.set(k.clone(), to_object(v));
            }
            Object::Dictionary(dict)
        }
    }
}
