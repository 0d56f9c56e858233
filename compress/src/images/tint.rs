//! Palettes over Separation or DeviceN. Their entries are tints, each byte the 0..1 amount of
//! one colorant as an 8-bit sample of the base space gives it (ISO 32000 8.6.6.3), so an image
//! over one expands through its palette to tint components that resample like device ones,
//! and is written under the same base space, or a new palette over it: the base's tint
//! transform and alternate space are kept as they are, never evaluated here.

use lopdf::{Document, Object};

use super::space::Space;

/// `space` (the parse of `object`, an image's /ColorSpace) with the base of a palette over
/// Separation or DeviceN read as device-like components, carrying the base's own /ColorSpace
/// value; with `plain`, a Separation or DeviceN space itself too (for reading images back).
/// Also the number of tint components when it did either.
pub fn as_components(
    doc: &Document,
    object: &Object,
    space: Space,
    plain: bool,
) -> (Space, Option<u8>) {
    match space {
        Space::Indexed {
            base,
            hival,
            lookup,
        } => match (*base, indexed_base(doc, object)) {
            (Space::Opaque { components }, Some(base)) if is_tint(doc, base) => (
                Space::Indexed {
                    base: Box::new(Space::Device {
                        components,
                        object: base.clone(),
                    }),
                    hival,
                    lookup,
                },
                Some(components),
            ),
            (base, _) => (
                Space::Indexed {
                    base: Box::new(base),
                    hival,
                    lookup,
                },
                None,
            ),
        },
        Space::Opaque { components } if plain && is_tint(doc, object) => (
            Space::Device {
                components,
                object: object.clone(),
            },
            Some(components),
        ),
        space => (space, None),
    }
}

/// Whether `object` is a Separation or DeviceN colour space.
pub fn is_tint(doc: &Document, object: &Object) -> bool {
    family(doc, object).is_some_and(|f| matches!(f, b"Separation" | b"DeviceN"))
}

/// The base entry of an /Indexed array, as written (a reference stays one).
fn indexed_base<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    let items = doc.dereference(object).ok()?.1.as_array().ok()?;
    matches!(family(doc, object)?, b"Indexed" | b"I").then_some(items.get(1))?
}

/// The name an array colour space starts with.
fn family<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a [u8]> {
    let items = doc.dereference(object).ok()?.1.as_array().ok()?;
    doc.dereference(items.first()?).ok()?.1.as_name().ok()
}
