//! 1-bit images (stencil masks, 1-bit grey or palettes, Separation): subsampled, never
//! smoothed, above Ghostscript's mono resolution (300 dpi screen and ebook, 1200 printer and
//! prepress) so that each sample keeps its exact value, and with it the image's /Decode,
//! palette and colour key; then coded losslessly as CCITT G4 or Flate, whichever is smaller.
//! Fax images come here too (one-dimensional Group 3 becomes Group 4, often a third of its
//! size); JBIG2 images never do: they keep their bytes.

use lopdf::{Dictionary, Object, Stream};

use super::decode::{self, Declared, Decoded};
use super::{Preset, ccitt, flate, resize, samples, target_size};

pub fn reencode(
    stream: &Stream,
    filters: &[Vec<u8>],
    (width, height): (u32, u32),
    (shown_w, shown_h): (f32, f32),
    preset: Preset,
) -> Option<Stream> {
    let target = target_size(width, height, shown_w, shown_h, preset.mono_dpi());
    // Group 4 at its own size is already coded as well as here: a new code saved 3 % of
    // ocrmypdf's 2550×3300 scan for twenty times the time (66 ms). Group 3 is recoded.
    if target == (width, height) && decode::is_group4(stream, filters) {
        return None;
    }
    let declared = Declared {
        width,
        height,
        components: 1,
        bpc: 1,
        at_least: target,
    };
    let Decoded::Samples(raw) = decode::decode(stream, filters, &declared)? else {
        return None;
    };
    let packed = if target == (width, height) {
        raw
    } else {
        let bits = samples::unpack(&raw, (width, height), 1, 1, false)?;
        let kept = resize::subsample(&bits, (width, height), target)?;
        flate::pack(&kept, target.0, 1)
    };
    let replacement = smallest(&stream.dict, &packed, target)?;
    (super::autofilter::cost(&replacement) < super::autofilter::cost(stream)).then_some(replacement)
}

/// 1-bit samples in the smallest of CCITT G4 (scans, text), predicted Flate (art with
/// repeated rows) and plain Flate (noise), with `dict`'s other entries.
pub fn smallest(dict: &Dictionary, packed: &[u8], (width, height): (u32, u32)) -> Option<Stream> {
    let mut dict = dict.clone();
    dict.set("Width", i64::from(width));
    dict.set("Height", i64::from(height));
    dict.set("BitsPerComponent", 1);
    let mut best: Option<(Vec<u8>, &[u8], Option<Dictionary>)> = None;
    let mut offer = |content: Option<Vec<u8>>, filter: &'static [u8], parms: Option<Dictionary>| {
        if let Some(content) = content
            && best
                .as_ref()
                .is_none_or(|(b, _, _)| content.len() < b.len())
        {
            best = Some((content, filter, parms));
        }
    };
    // CCITT first, as it is made in any case: the deflates then stop once they cannot be
    // chosen. The offers stay in their order (the first of equal sizes wins): predicted,
    // plain, CCITT.
    let ccitt = ccitt::encode(packed, (width, height));
    let ccitt_len = ccitt.as_ref().map_or(usize::MAX, Vec::len);
    let predicted =
        flate::deflate_predicted_under(packed, (width, height), 1, 1, ccitt_len.saturating_add(1));
    let plain_limit = predicted
        .as_ref()
        .map_or(usize::MAX, Vec::len)
        .min(ccitt_len.saturating_add(1));
    let plain = crate::zlib::deflate_under(packed, plain_limit);
    offer(
        predicted,
        b"FlateDecode",
        Some(flate::predictor_parms(width, 1, 1)),
    );
    offer(plain, b"FlateDecode", None);
    offer(ccitt, b"CCITTFaxDecode", Some(ccitt::parms(width, height)));
    let (content, filter, parms) = best?;
    dict.set("Filter", Object::Name(filter.to_vec()));
    match parms {
        Some(parms) => dict.set("DecodeParms", parms),
        None => {
            dict.remove(b"DecodeParms");
        }
    }
    Some(Stream::new(dict, content))
}
