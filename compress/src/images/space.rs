//! An image's colour space, read far enough to know how its samples become pixels: how many
//! components a sample has, whether they are device-like grey, RGB or CMYK (whose 8-bit values
//! a JPEG or a resampler may carry as they are), or palette indices.

use lopdf::{Document, Object};

/// What the samples of one image mean.
#[derive(Clone, Debug)]
pub enum Space {
    /// Grey, RGB or CMYK components (Device, Cal or ICC-based with that many components):
    /// `object` is the /ColorSpace value to write for them, the original one.
    Device { components: u8, object: Object },
    /// Palette indices into `lookup`, `hival + 1` colours of the base's components each.
    Indexed {
        base: Box<Space>,
        hival: u8,
        lookup: Vec<u8>,
    },
    /// Separation, DeviceN, Lab and the like: samples only re-encoded losslessly as they are.
    Opaque { components: u8 },
}

impl Space {
    /// Components per sample as stored (1 for a palette index).
    pub fn components(&self) -> u8 {
        match self {
            Space::Device { components, .. } | Space::Opaque { components } => *components,
            Space::Indexed { .. } => 1,
        }
    }
}

/// The most components a DeviceN space may have (PDF's own limit is 32).
const MAX_COMPONENTS: usize = 32;

/// Reads `/ColorSpace` (direct, a reference, or a named resource already resolved by the
/// caller); `None` for what is not an image colour space (Pattern, malformed).
pub fn parse(doc: &Document, object: &Object) -> Option<Space> {
    parse_depth(doc, object, 0)
}

fn parse_depth(doc: &Document, object: &Object, depth: u8) -> Option<Space> {
    // An Indexed base cannot itself be Indexed; one level of nesting is all PDF allows.
    if depth > 1 {
        return None;
    }
    let (_, resolved) = doc.dereference(object).ok()?;
    let device = |components| {
        Some(Space::Device {
            components,
            object: object.clone(),
        })
    };
    match resolved {
        Object::Name(name) => match name.as_slice() {
            b"DeviceGray" | b"G" | b"CalGray" => device(1),
            b"DeviceRGB" | b"RGB" | b"CalRGB" => device(3),
            b"DeviceCMYK" | b"CMYK" => device(4),
            _ => None,
        },
        Object::Array(items) => {
            let family = doc.dereference(items.first()?).ok()?.1.as_name().ok()?;
            match family {
                // Cal spaces take their samples in 0..1 like the device ones: a resampled or
                // JPEG-coded sample keeps its meaning under the same space object.
                b"CalGray" => device(1),
                b"CalRGB" => device(3),
                b"ICCBased" => {
                    let (_, profile) = doc.dereference(items.get(1)?).ok()?;
                    let n = profile
                        .as_stream()
                        .ok()?
                        .dict
                        .get(b"N")
                        .ok()?
                        .as_i64()
                        .ok()?;
                    match n {
                        1 | 3 | 4 => device(u8::try_from(n).ok()?),
                        _ => None,
                    }
                }
                b"Indexed" | b"I" => {
                    let base = parse_depth(doc, items.get(1)?, depth + 1)?;
                    if matches!(base, Space::Indexed { .. }) {
                        return None;
                    }
                    let hival =
                        u8::try_from(doc.dereference(items.get(2)?).ok()?.1.as_i64().ok()?).ok()?;
                    let lookup = match doc.dereference(items.get(3)?).ok()?.1 {
                        Object::String(bytes, _) => bytes.clone(),
                        // A lookup stream is small (at most 256 × 32 bytes): anything larger is
                        // not a palette.
                        Object::Stream(stream) => {
                            crate::plain::decode(stream, 256 * MAX_COMPONENTS).ok()?
                        }
                        _ => return None,
                    };
                    let needed = (usize::from(hival) + 1) * usize::from(base.components());
                    // Short palettes are padded by viewers in different ways: left alone.
                    if lookup.len() < needed {
                        return None;
                    }
                    Some(Space::Indexed {
                        base: Box::new(base),
                        hival,
                        lookup: lookup[..needed].to_vec(),
                    })
                }
                b"Separation" => Some(Space::Opaque { components: 1 }),
                b"DeviceN" => {
                    let names = doc.dereference(items.get(1)?).ok()?.1.as_array().ok()?;
                    if names.is_empty() || names.len() > MAX_COMPONENTS {
                        return None;
                    }
                    Some(Space::Opaque {
                        components: u8::try_from(names.len()).ok()?,
                    })
                }
                b"Lab" => Some(Space::Opaque { components: 3 }),
                b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK" if items.len() == 1 => {
                    parse_depth(doc, &items[0], depth)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use lopdf::{Stream, dictionary};

    use super::*;

    #[test]
    fn reads_device_icc_indexed_and_opaque_spaces() {
        let mut doc = Document::with_version("1.7");
        let profile = doc.add_object(Stream::new(dictionary! { "N" => 4 }, vec![0; 8]));
        let icc = Object::Array(vec!["ICCBased".into(), profile.into()]);
        assert!(matches!(
            parse(&doc, &icc),
            Some(Space::Device { components: 4, .. })
        ));
        assert!(matches!(
            parse(&doc, &"DeviceRGB".into()),
            Some(Space::Device { components: 3, .. })
        ));
        let indexed = Object::Array(vec![
            "Indexed".into(),
            "DeviceRGB".into(),
            1.into(),
            Object::string_literal(vec![0, 0, 0, 255, 255, 255]),
        ]);
        let Some(Space::Indexed { hival, lookup, .. }) = parse(&doc, &indexed) else {
            panic!("indexed expected");
        };
        assert_eq!((hival, lookup.len()), (1, 6));
        let separation = Object::Array(vec![
            "Separation".into(),
            "Spot".into(),
            "DeviceCMYK".into(),
            Object::Null,
        ]);
        assert!(matches!(
            parse(&doc, &separation),
            Some(Space::Opaque { components: 1 })
        ));
        // A palette shorter than hival + 1 colours is refused.
        let short = Object::Array(vec![
            "Indexed".into(),
            "DeviceRGB".into(),
            3.into(),
            Object::string_literal(vec![0; 6]),
        ]);
        assert!(parse(&doc, &short).is_none());
    }
}
