//! Ghostscript's AutoFilter, measured instead of guessed: the encodings worth trying for one
//! image's new pixels. Few colours (line art, charts, screenshots) get an exact palette or
//! 1-bit grey and never JPEG, which would blur them for little gain; other images get JPEG at
//! the preset's quality, and predicted Flate as well when small enough to try; the caller keeps
//! the smallest. Masks get Flate only.

use lopdf::{Dictionary, Object, Stream};

use super::Preset;
use super::jpeg::{self, Pixels};
use super::reencode::Role;
use super::{flate, mono, palette};

/// Colour images up to this many pixels are also tried as predicted Flate against JPEG; larger
/// ones get JPEG only, as best-level deflate of millions of pixels is the slowest step here.
/// Measured on the test corpus and generated files (84 images tried both ways at ebook and
/// printer): Flate won 10 times, on screenshots and images of a few hundred pixels; JPEG won
/// the other 74.
const FLATE_TRIAL_PIXELS: u64 = 4_000_000;

/// JPEG sources are photographs, or carry JPEG's noise, which Flate codes badly: past this
/// size they are not tried as Flate. Measured on the real-world corpus at ebook: the same
/// output to the byte (no JPEG source over it was smaller as Flate) in 7 % less time.
const PHOTO_FLATE_PIXELS: u64 = 250_000;

/// What the caller knows of the image beyond its pixels.
#[derive(Clone, Copy)]
pub struct Trial {
    /// The pixels are the source's samples at their size: their Flate is the exact re-encode,
    /// tried whatever the size (unless a palette takes its place).
    pub exact: bool,
    /// Whether the source was a JPEG.
    pub photo: bool,
    /// Only JPEG may carry these pixels (a four-channel JPEG's inks, whose meaning rides on
    /// the JPEG's Adobe marker).
    pub jpeg_only: bool,
    /// Only lossless encodings may carry these pixels (four tints, which a JPEG would mark as
    /// Adobe CMYK).
    pub lossless: bool,
}

/// Images narrower or lower than this are never made JPEG: it saves a few hundred bytes at
/// most there, and its 8×8 blocks and shared chroma show when the image is drawn enlarged (a
/// 16×16 corpus image fell to 32.9 dB at printer; a 2×2 one lost its four colours).
pub const MIN_JPEG_SIDE: u32 = 64;

/// The encodings worth trying for these pixels: few colours get lossless palettes and
/// never JPEG (it would blur line art and text for little gain); others get JPEG, and
/// predicted Flate too when small enough to try. Masks get Flate only. Each must cost less
/// than `bound` (the best the caller has) to be of use: a Flate that cannot is stopped as soon
/// as it is known, `Err` with its kind. Flate is stopped too once it cannot beat the JPEG,
/// made first for that, though Flate comes first in the list (it wins a tie).
pub fn encodings(
    stream: &Stream,
    pixels: &Pixels,
    space: &Object,
    role: Role,
    preset: Preset,
    trial: Trial,
    bound: usize,
) -> Vec<Result<Stream, &'static str>> {
    let dims = (pixels.width, pixels.height);
    let dict = |filter: &str, parms: Option<Dictionary>, bpc: u8, space: Object| {
        let mut dict = stream.dict.clone();
        dict.set("Width", i64::from(pixels.width));
        dict.set("Height", i64::from(pixels.height));
        dict.set("BitsPerComponent", i64::from(bpc));
        dict.set("ColorSpace", space);
        dict.set("Filter", filter);
        dict.remove(b"Decode");
        dict.remove(b"SMaskInData");
        match parms {
            Some(parms) => dict.set("DecodeParms", parms),
            None => {
                dict.remove(b"DecodeParms");
            }
        }
        dict
    };
    let flate = |data: &[u8], components: u8, bpc: u8, space: Object, bound: usize, kind| {
        let parms = flate::predictor_parms(pixels.width, components, bpc);
        let dict = dict("FlateDecode", Some(parms), bpc, space);
        let limit = bound.saturating_sub(overhead(&dict));
        flate::deflate_predicted_under(data, dims, components, bpc, limit)
            .map(|content| Stream::new(dict, content))
            .ok_or(kind)
    };
    let mut out = Vec::new();
    // Grey always fits 256 levels: a grey palette is only worth it below 8 bits.
    let palette = (!trial.jpeg_only)
        .then(|| palette::palettize(&pixels.data, dims, pixels.channels))
        .flatten()
        .filter(|palette| pixels.channels == 3 || palette.bpc < 8);
    if let Some(palette) = palette {
        if pixels.channels == 1 && palette.colours.iter().all(|&v| v == 0 || v == 255) {
            // Black and white: 1-bit grey, valid for soft masks too.
            let bits: Vec<u8> = pixels.data.iter().map(|&v| v / 255).collect();
            let packed = flate::pack(&bits, pixels.width, 1);
            let mut dict = stream.dict.clone();
            dict.set("ColorSpace", space.clone());
            dict.remove(b"Decode");
            dict.remove(b"SMaskInData");
            out.extend(mono::smallest(&dict, &packed, dims).map(Ok));
            return out;
        }
        if role == Role::Image {
            let hival = palette.colours.len() / usize::from(pixels.channels) - 1;
            let indexed = Object::Array(vec![
                Object::Name(b"Indexed".to_vec()),
                space.clone(),
                Object::Integer(hival as i64),
                Object::String(palette.colours, lopdf::StringFormat::Literal),
            ]);
            let kind = "flate-palette";
            out.push(flate(
                &palette.indices,
                1,
                palette.bpc,
                indexed,
                bound,
                kind,
            ));
            return out;
        }
    }
    let jpeg = (role == Role::Image
        && !trial.lossless
        && pixels.width.min(pixels.height) >= MIN_JPEG_SIDE)
        .then(|| {
            let dict = dict("DCTDecode", None, 8, space.clone());
            let limit = bound.saturating_sub(overhead(&dict));
            faithful_jpeg(pixels, preset, limit).map(|content| Stream::new(dict, content))
        })
        .flatten();
    let area = u64::from(pixels.width) * u64::from(pixels.height);
    let tiny = pixels.width.min(pixels.height) < MIN_JPEG_SIDE;
    let limit = if trial.photo {
        PHOTO_FLATE_PIXELS
    } else {
        FLATE_TRIAL_PIXELS
    };
    if !trial.jpeg_only
        && (trial.exact || trial.lossless || role == Role::SoftMask || tiny || area <= limit)
    {
        let bound = jpeg
            .as_ref()
            .map_or(bound, |jpeg| bound.min(cost(jpeg) + 1));
        out.push(flate(
            &pixels.data,
            pixels.channels,
            8,
            space.clone(),
            bound,
            "flate",
        ));
    }
    out.extend(jpeg.map(Ok));
    out
}

/// The smallest of the encodings offered one after the other, the first of equal ones, when
/// smaller than the image as it is; and what each came to, for the debug log AutoFilter is
/// measured from (`None`: stopped once it could not be chosen).
pub struct Choice {
    kept: usize,
    pub best: Option<Stream>,
    pub tried: Vec<(&'static str, Option<usize>)>,
}

impl Choice {
    pub fn new(original: &Stream) -> Self {
        Choice {
            kept: cost(original),
            best: None,
            tried: Vec::new(),
        }
    }

    /// What an encoding must cost less than to be chosen.
    pub fn bound(&self) -> usize {
        self.best.as_ref().map_or(self.kept, cost)
    }

    pub fn offer(&mut self, candidate: Result<Stream, &'static str>) {
        match candidate {
            Ok(candidate) => {
                let cost = cost(&candidate);
                self.tried.push((kind(&candidate), Some(cost)));
                if cost < self.bound() {
                    self.best = Some(candidate);
                }
            }
            Err(kind) => self.tried.push((kind, None)),
        }
    }
}

/// The preset's JPEG of these pixels, if it keeps the preset's fidelity. Where halved chroma
/// loses too much (fine colour detail, or CMYK whose inks vary apart), full chroma is tried
/// before giving up on JPEG: on a CMYK photo at printer, 33.7 dB became 40.3 dB for 43 % more
/// bytes, still a 20th of its Flate.
///
/// `None` too for a JPEG of `limit` bytes or more, which cannot be chosen, when no other JPEG
/// is left to try: then its fidelity (a decode of the whole image) is not measured.
fn faithful_jpeg(pixels: &Pixels, preset: Preset, limit: usize) -> Option<Vec<u8>> {
    let quality = preset.jpeg_quality();
    let floor = preset.min_jpeg_psnr();
    let content = jpeg::encode(pixels, quality, preset.full_chroma())?;
    let last_try = preset.full_chroma() || pixels.channels == 1;
    if last_try && content.len() >= limit {
        return None;
    }
    let faithful =
        |jpeg: &[u8]| floor <= 0.0 || jpeg::fidelity(jpeg, pixels).is_some_and(|db| db >= floor);
    if faithful(&content) {
        return Some(content);
    }
    if last_try {
        return None;
    }
    jpeg::encode(pixels, quality, true).filter(|content| content.len() < limit && faithful(content))
}

/// A short name for an encoding, for the log.
pub fn kind(stream: &Stream) -> &'static str {
    let dict = &stream.dict;
    let filter = dict.get(b"Filter").and_then(Object::as_name).unwrap_or(b"");
    let indexed = dict.get(b"ColorSpace").is_ok_and(|c| {
        c.as_array()
            .ok()
            .and_then(|a| a.first())
            .is_some_and(|n| n.as_name().is_ok_and(|n| n == b"Indexed"))
    });
    match (filter, indexed) {
        (b"DCTDecode", _) => "jpeg",
        (_, true) => "flate-palette",
        _ if dict
            .get(b"BitsPerComponent")
            .and_then(Object::as_i64)
            .is_ok_and(|b| b == 1) =>
        {
            "flate-1bit"
        }
        _ => "flate",
    }
}

/// Bytes a stream costs in the file: its content, and what its dictionary carries beyond the
/// keys every image has (a direct palette, predictor parameters). A palette that saves 100
/// content bytes but writes a 300-byte lookup string is no saving.
pub fn cost(stream: &Stream) -> usize {
    stream.content.len() + overhead(&stream.dict)
}

/// What [`cost`] counts beyond the content.
pub fn overhead(dict: &Dictionary) -> usize {
    let parms = if dict.has(b"DecodeParms") { 70 } else { 0 };
    let palette = match dict.get(b"ColorSpace") {
        Ok(Object::Array(items)) => {
            24 + items
                .iter()
                .map(|item| match item {
                    // Binary bytes written as a literal string: about one byte each, a few
                    // escaped.
                    Object::String(bytes, _) => bytes.len() + bytes.len() / 16,
                    _ => 12,
                })
                .sum::<usize>()
        }
        _ => 0,
    };
    parms + palette
}
