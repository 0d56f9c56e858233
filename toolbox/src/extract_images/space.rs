//! An image's colour space, read far enough to turn its samples into grey or RGB pixels: grey,
//! RGB and CMYK (Device, Cal, or ICC-based by its /N), and palettes over those. Lab,
//! Separation and DeviceN need colour functions this does not evaluate: such images are
//! skipped as undecodable.

use lopdf::{Document, Object};

/// Components of a colour, before conversion to grey or RGB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Gray,
    Rgb,
    Cmyk,
}

impl Device {
    pub fn components(self) -> u8 {
        match self {
            Device::Gray => 1,
            Device::Rgb => 3,
            Device::Cmyk => 4,
        }
    }

    fn from_components(n: i64) -> Option<Device> {
        match n {
            1 => Some(Device::Gray),
            3 => Some(Device::Rgb),
            4 => Some(Device::Cmyk),
            _ => None,
        }
    }
}

/// What the samples of one image mean.
#[derive(Clone, Debug)]
pub enum Space {
    Device(Device),
    /// Palette indices into `lookup`: `hival + 1` colours of the base's components each
    /// (a short palette padded with zeros).
    Indexed {
        base: Device,
        hival: u8,
        lookup: Vec<u8>,
    },
}

impl Space {
    /// Components per stored sample (1 for a palette index).
    pub fn components(&self) -> u8 {
        match self {
            Space::Device(device) => device.components(),
            Space::Indexed { .. } => 1,
        }
    }
}

/// The largest palette: 256 colours of 4 components.
const MAX_LOOKUP: usize = 256 * 4;

/// Reads a /ColorSpace value; `None` for what this cannot convert.
pub fn parse(doc: &Document, object: &Object) -> Option<Space> {
    let (_, resolved) = doc.dereference(object).ok()?;
    if let Some(device) = device(doc, resolved, 0) {
        return Some(Space::Device(device));
    }
    let items = resolved.as_array().ok()?;
    let family = doc.dereference(items.first()?).ok()?.1.as_name().ok()?;
    if !matches!(family, b"Indexed" | b"I") {
        return None;
    }
    let base = device(doc, items.get(1)?, 0)?;
    let hival = doc.dereference(items.get(2)?).ok()?.1.as_i64().ok()?;
    // Past 255 no index can reach the extra colours (indices are at most 8 bits).
    let hival = u8::try_from(hival.clamp(0, 255)).ok()?;
    let mut lookup = match doc.dereference(items.get(3)?).ok()?.1 {
        Object::String(bytes, _) => bytes.clone(),
        Object::Stream(stream) => stream.decompressed_content_with_limit(MAX_LOOKUP).ok()?,
        _ => return None,
    };
    let needed = (usize::from(hival) + 1) * usize::from(base.components());
    lookup.resize(needed, 0);
    Some(Space::Indexed {
        base,
        hival,
        lookup,
    })
}

/// A grey, RGB or CMYK space, or `None`.
fn device(doc: &Document, object: &Object, depth: u8) -> Option<Device> {
    // An ICC profile's /Alternate may name another ICC profile; two levels are plenty.
    if depth > 2 {
        return None;
    }
    let (_, resolved) = doc.dereference(object).ok()?;
    match resolved {
        Object::Name(name) => match name.as_slice() {
            b"DeviceGray" | b"G" | b"CalGray" => Some(Device::Gray),
            b"DeviceRGB" | b"RGB" | b"CalRGB" => Some(Device::Rgb),
            b"DeviceCMYK" | b"CMYK" => Some(Device::Cmyk),
            _ => None,
        },
        Object::Array(items) => {
            let family = doc.dereference(items.first()?).ok()?.1.as_name().ok()?;
            match family {
                b"CalGray" => Some(Device::Gray),
                b"CalRGB" => Some(Device::Rgb),
                b"ICCBased" => {
                    let (_, profile) = doc.dereference(items.get(1)?).ok()?;
                    let dict = &profile.as_stream().ok()?.dict;
                    match dict.get(b"N").and_then(Object::as_i64) {
                        Ok(n) => Device::from_components(n),
                        // No /N: what its alternate says.
                        Err(_) => device(doc, dict.get(b"Alternate").ok()?, depth + 1),
                    }
                }
                b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK" if items.len() == 1 => {
                    device(doc, &items[0], depth + 1)
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
    fn reads_device_icc_and_indexed_spaces() {
        let mut doc = Document::with_version("1.7");
        let profile = doc.add_object(Stream::new(dictionary! { "N" => 4 }, vec![0; 8]));
        let icc = Object::Array(vec!["ICCBased".into(), profile.into()]);
        assert!(matches!(
            parse(&doc, &icc),
            Some(Space::Device(Device::Cmyk))
        ));
        let indexed = Object::Array(vec![
            "Indexed".into(),
            icc,
            2.into(),
            Object::string_literal(vec![1, 2, 3, 4]),
        ]);
        let Some(Space::Indexed {
            base,
            hival,
            lookup,
        }) = parse(&doc, &indexed)
        else {
            panic!("indexed expected");
        };
        // A short palette is padded.
        assert_eq!((base, hival, lookup.len()), (Device::Cmyk, 2, 12));
        let separation = Object::Array(vec![
            "Separation".into(),
            "Spot".into(),
            "DeviceCMYK".into(),
            Object::Null,
        ]);
        assert!(parse(&doc, &separation).is_none());
    }
}
