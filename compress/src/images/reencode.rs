//! One image's re-encoding: what it is, what may be done to it exactly, and the smallest of
//! the encodings that keep it looking the same (JPEG only where a lossy re-encode is the point).

use fast_image_resize::Resizer;
use lopdf::{Document, Object, Stream};

use super::decode::{self, Declared, Decoded};
use super::jpeg::Pixels;
use super::space::{self, Space};
use super::{
    Preset, autofilter, cmyk, flate, jpeg_kept, keys, mono, resize, samples, target_size, tint,
};

/// How an image stream is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Drawn by `Do`.
    Image,
    /// Another image's /SMask: grey, and lossless encodings only (JPEG ringing would show as
    /// haloes on the edges it cuts out).
    SoftMask,
    /// Another image's /Mask stream: a stencil, 1-bit.
    Stencil,
}

pub struct Job<'a> {
    pub doc: &'a Document,
    /// Largest displayed size, in points.
    pub shown: (f32, f32),
    pub role: Role,
    pub preset: Preset,
    pub max_pixels: u64,
}

impl Job<'_> {
    /// The smaller replacement for `stream`, or `None` to keep it.
    pub fn run(&self, stream: &Stream, resizer: &mut Resizer) -> Option<Stream> {
        if let Some(unkeyed) = keys::without_ignored_key(self.doc, stream) {
            return self.run(&unkeyed, resizer);
        }
        let dict = &stream.dict;
        let number = |key: &[u8]| {
            dict.get(key)
                .ok()
                .and_then(|o| self.resolve(o).as_i64().ok())
        };
        let width = u32::try_from(number(b"Width")?).ok()?;
        let height = u32::try_from(number(b"Height")?).ok()?;
        if width == 0 || height == 0 || u64::from(width) * u64::from(height) > self.max_pixels {
            return None;
        }
        // Alpha inside the JPX data: this would have to split it out; kept.
        if number(b"SMaskInData").unwrap_or(0) != 0 {
            return None;
        }
        let filters = decode::filters(stream)?;
        if filters.iter().any(|f| decode::is_kept_filter(f)) {
            return None;
        }
        let jpx = filters.last().is_some_and(|f| f == b"JPXDecode");
        let image_mask = dict
            .get(b"ImageMask")
            .ok()
            .and_then(|o| self.resolve(o).as_bool().ok())
            .unwrap_or(false);
        if self.role == Role::Stencil && !image_mask {
            return None;
        }
        if image_mask {
            if jpx {
                return None;
            }
            return mono::reencode(stream, &filters, (width, height), self.shown, self.preset);
        }
        let (space, tints) = match dict.get(b"ColorSpace") {
            Ok(object) => {
                let parsed = space::parse(self.doc, object)?;
                let (space, tints) = tint::as_components(self.doc, object, parsed, false);
                (Some(space), tints)
            }
            // Only JPX may leave the space to its own data.
            Err(_) if jpx => (None, None),
            Err(_) => return None,
        };
        // JPX ignores /BitsPerComponent; 16 bounds its data generously.
        let bpc = match number(b"BitsPerComponent") {
            Some(bpc) if !jpx => u8::try_from(bpc).ok()?,
            _ if jpx => 16,
            _ => return None,
        };
        let components = space.as_ref().map_or(4, Space::components);
        if !jpx && bpc == 1 && components == 1 {
            // 1-bit samples keep their values through subsampling: palette, /Decode and
            // colour key stay right as they are.
            return mono::reencode(stream, &filters, (width, height), self.shown, self.preset);
        }
        let decode_array = match dict.get(b"Decode") {
            Ok(object) => Some(numbers(self.resolve(object))?),
            Err(_) => None,
        };
        // A colour key may sit behind a reference like any array.
        let colour_key = dict
            .get(b"Mask")
            .is_ok_and(|m| matches!(self.resolve(m), Object::Array(_)));
        let target = target_size(width, height, self.shown.0, self.shown.1, self.preset.dpi());
        let declared = Declared {
            width,
            height,
            components,
            bpc,
            at_least: target,
        };
        // A JPEG shown at its own size that its quality and chroma leave nothing to gain on.
        if self.role == Role::Image
            && target == (width, height)
            && matches!(components, 1 | 3)
            && let Some(data) = decode::jpeg_input(stream, &filters, &declared)
            && let Some(kept) = jpeg_kept::lossless_only(stream, &filters, &data, self.preset)
        {
            tracing::debug!(
                width,
                height,
                chosen = if kept.is_some() {
                    "jpeg-optimized"
                } else {
                    "kept"
                },
                "image encodings"
            );
            return kept;
        }
        let decoded = decode::decode(stream, &filters, &declared)?;
        // 8-bit device samples kept at their size, with nothing to apply: the pixels below are
        // the samples themselves, so their Flate there is the exact re-encode, and a palette
        // found there (fewer bits) is not first beaten to it by deflating every sample: on a
        // 9000×9000 scan that was 0.8 s of deflate for a candidate 2.7× the palette's size.
        let same_pixels = matches!(decoded, Decoded::Samples(_))
            && !colour_key
            && target == (width, height)
            && bpc == 8
            && decode_array.is_none()
            && (components != 4 || !self.preset.cmyk_to_rgb())
            && matches!(space, Some(Space::Device { .. }));
        let photo = filters.last().is_some_and(|f| f == b"DCTDecode");
        let inks_to_rgb = match &space {
            Some(Space::Device { object, .. }) => {
                cmyk::jpeg_to_rgb(self.doc, object, (width, height), self.preset)
            }
            _ => false,
        };
        let trial = autofilter::Trial {
            exact: same_pixels,
            photo,
            // A four-channel JPEG's inks kept stay JPEG: see `pixels`.
            jpeg_only: photo && components == 4 && !inks_to_rgb,
            // Four tints would make an Adobe-marked JPEG, which some viewers read inverted.
            lossless: tints == Some(4),
        };
        let mut choice = autofilter::Choice::new(stream);
        // The samples as they are, Flate-coded again: exact for any colour space, palette,
        // /Decode and colour key, at the original size.
        if let Decoded::Samples(raw) = &decoded
            && !same_pixels
            && (colour_key || target == (width, height) || !convertible(space.as_ref()))
        {
            let bound = choice.bound();
            choice.offer(lossless(
                stream,
                raw,
                (width, height),
                components,
                bpc,
                bound,
            ));
        }
        // A colour key names exact samples: nothing resampled or lossy may carry it.
        if !colour_key
            && let Some((pixels, object)) = self.pixels(
                decoded,
                ((width, height), bpc),
                space.as_ref(),
                decode_array.as_deref(),
                jpx,
            )
            && let Some(pixels) = resize::bicubic(pixels, target, resizer)
        {
            let (role, preset, bound) = (self.role, self.preset, choice.bound());
            for candidate in
                autofilter::encodings(stream, &pixels, &object, role, preset, trial, bound)
            {
                choice.offer(candidate);
            }
        }
        tracing::debug!(
            width,
            height,
            role = ?self.role,
            original = autofilter::cost(stream),
            tried = ?choice.tried,
            chosen = choice.best.as_ref().map_or("kept", autofilter::kind),
            "image encodings"
        );
        choice.best
    }

    /// 8-bit pixels meaning what the image means, with no /Decode and no palette, and the
    /// /ColorSpace they are in; CMYK becomes RGB where the preset converts it.
    fn pixels(
        &self,
        decoded: Decoded,
        (dims, bpc): ((u32, u32), u8),
        space: Option<&Space>,
        decode_array: Option<&[f32]>,
        jpx: bool,
    ) -> Option<(Pixels, Object)> {
        let jpeg = matches!(decoded, Decoded::Pixels(..)) && !jpx;
        let (mut pixels, object) = match decoded {
            Decoded::Samples(raw) => to_pixels(raw, dims, bpc, space?, decode_array)?,
            Decoded::Pixels(mut pixels, own_icc) => {
                let object = match space {
                    Some(Space::Device { components, object })
                        if *components == pixels.channels =>
                    {
                        object.clone()
                    }
                    Some(_) => return None,
                    None if own_icc => return None,
                    None => Object::Name(device_name(pixels.channels)?.to_vec()),
                };
                // JPX ignores /Decode (outside stencil masks); JPEG applies it.
                if !jpx && let Some(decode_array) = decode_array {
                    samples::apply_decode(&mut pixels.data, pixels.channels, decode_array)?;
                }
                (pixels, object)
            }
        };
        // Four tints of DeviceN are no CMYK: written back as they are.
        if pixels.channels == 4 && !tint::is_tint(self.doc, &object) {
            if self.role != Role::Image {
                return None;
            }
            // An Adobe CMYK JPEG kept in its inks is written as a JPEG with the same marker,
            // which a viewer reading Adobe inks inverted (as Photoshop writes them) then
            // reads as it read the source. Turned into RGB (see `cmyk::jpeg_to_rgb`) it is
            // read as PDF says, the inks as decoded with /Decode applied.
            if jpeg && !cmyk::jpeg_to_rgb(self.doc, &object, dims, self.preset) {
                return cmyk::inks_as_stored(decode_array).then_some((pixels, object));
            }
            // Printer and prepress keep the inks, as exact values (Flate) or a JPEG that
            // holds the preset's fidelity.
            if !self.preset.cmyk_to_rgb() {
                return Some((pixels, object));
            }
            pixels.data = cmyk::cmyk_to_rgb(&pixels.data);
            pixels.channels = 3;
            return Some((pixels, Object::Name(b"DeviceRGB".to_vec())));
        }
        if self.role == Role::SoftMask && pixels.channels != 1 {
            return None;
        }
        Some((pixels, object))
    }

    fn resolve<'o>(&'o self, object: &'o Object) -> &'o Object {
        self.doc.dereference(object).map_or(object, |(_, o)| o)
    }
}

/// Whether the pixel path can take this space at all (else only the lossless re-encode).
fn convertible(space: Option<&Space>) -> bool {
    let device = match space {
        Some(Space::Indexed { base, .. }) => base.as_ref(),
        Some(space) => space,
        None => return true,
    };
    matches!(device, Space::Device { .. })
}

/// Samples to pixels through their colour space: scaled components with /Decode applied, or
/// palette indices (decoded too) looked up in the palette.
fn to_pixels(
    raw: Vec<u8>,
    (width, height): (u32, u32),
    bpc: u8,
    space: &Space,
    decode_array: Option<&[f32]>,
) -> Option<(Pixels, Object)> {
    let (data, channels, object) = match space {
        Space::Device { components, object } => {
            let mut data = samples::unpack_owned(raw, (width, height), *components, bpc, true)?;
            if let Some(decode_array) = decode_array {
                samples::apply_decode(&mut data, *components, decode_array)?;
            }
            (data, *components, object.clone())
        }
        Space::Indexed {
            base,
            hival,
            lookup,
        } => {
            let Space::Device { components, object } = base.as_ref() else {
                return None;
            };
            let mut indices = samples::unpack(&raw, (width, height), 1, bpc, false)?;
            if let Some(decode_array) = decode_array {
                samples::decode_indices(&mut indices, bpc, decode_array)?;
            }
            let data = samples::expand_indexed(&indices, *components, *hival, lookup);
            (data, *components, object.clone())
        }
        Space::Opaque { .. } => return None,
    };
    Some((
        Pixels {
            data,
            width,
            height,
            channels,
        },
        object,
    ))
}

/// The samples Flate-coded again with a PNG predictor, everything else of the image kept;
/// stopped once it cannot cost less than `bound`.
fn lossless(
    stream: &Stream,
    raw: &[u8],
    dims: (u32, u32),
    components: u8,
    bpc: u8,
    bound: usize,
) -> Result<Stream, &'static str> {
    let mut dict = stream.dict.clone();
    dict.set("Filter", "FlateDecode");
    dict.set(
        "DecodeParms",
        flate::predictor_parms(dims.0, components, bpc),
    );
    let limit = bound.saturating_sub(autofilter::overhead(&dict));
    flate::deflate_predicted_under(raw, dims, components, bpc, limit)
        .map(|content| Stream::new(dict, content))
        .ok_or("flate")
}

fn device_name(channels: u8) -> Option<&'static [u8]> {
    match channels {
        1 => Some(b"DeviceGray"),
        3 => Some(b"DeviceRGB"),
        4 => Some(b"DeviceCMYK"),
        _ => None,
    }
}

/// A /Decode array's numbers.
fn numbers(object: &Object) -> Option<Vec<f32>> {
    object
        .as_array()
        .ok()?
        .iter()
        .map(|o| o.as_float().ok())
        .collect()
}

/// Reads an image the way [`Job::run`] does, at full size: for tests to compare what an image
/// shows before and after.
#[cfg(test)]
pub fn read(doc: &Document, stream: &Stream, preset: Preset) -> Option<(Pixels, Object)> {
    let job = Job {
        doc,
        shown: (0.0, 0.0),
        role: Role::Image,
        preset,
        max_pixels: u64::MAX,
    };
    let dict = &stream.dict;
    let width = u32::try_from(dict.get(b"Width").ok()?.as_i64().ok()?).ok()?;
    let height = u32::try_from(dict.get(b"Height").ok()?.as_i64().ok()?).ok()?;
    let filters = decode::filters(stream)?;
    let jpx = filters.last().is_some_and(|f| f == b"JPXDecode");
    let space = dict.get(b"ColorSpace").ok().and_then(|object| {
        let parsed = space::parse(doc, object)?;
        Some(tint::as_components(doc, object, parsed, true).0)
    });
    let bpc = u8::try_from(dict.get(b"BitsPerComponent").ok()?.as_i64().ok()?).ok()?;
    let declared = Declared {
        width,
        height,
        components: space.as_ref().map_or(4, Space::components),
        bpc,
        at_least: (width, height),
    };
    let decoded = decode::decode(stream, &filters, &declared)?;
    let decode_array = dict.get(b"Decode").ok().and_then(numbers);
    job.pixels(
        decoded,
        ((width, height), bpc),
        space.as_ref(),
        decode_array.as_deref(),
        jpx,
    )
}
