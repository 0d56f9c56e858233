//! 1-bit images (stencil masks, 1-bit grey or palettes, Separation): subsampled, never
//! smoothed, above Ghostscript's mono resolution (300 dpi screen and ebook, 1200 printer and
//! prepress) so that each sample keeps its exact value, and with it the image's /Decode,
//! palette and colour key; otherwise Flate-coded again losslessly. CCITT and JBIG2 images never
//! get here: they keep their bytes.

use lopdf::Stream;

use super::decode::{self, Declared, Decoded};
use super::{Preset, flate, resize, samples, target_size};

pub fn reencode(
    stream: &Stream,
    filters: &[Vec<u8>],
    (width, height): (u32, u32),
    (shown_w, shown_h): (f32, f32),
    preset: Preset,
) -> Option<Stream> {
    let target = target_size(width, height, shown_w, shown_h, preset.mono_dpi());
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
    // Predictors help 1-bit art with repeated rows; plain deflate wins on noise: both tried.
    let predicted = flate::deflate_predicted(&packed, target, 1, 1)?;
    let plain = flate::deflate(&packed)?;
    let mut dict = stream.dict.clone();
    dict.set("Width", i64::from(target.0));
    dict.set("Height", i64::from(target.1));
    dict.set("Filter", "FlateDecode");
    let content = if predicted.len() < plain.len() {
        dict.set("DecodeParms", flate::predictor_parms(target.0, 1, 1));
        predicted
    } else {
        dict.remove(b"DecodeParms");
        plain
    };
    let replacement = Stream::new(dict, content);
    (super::autofilter::cost(&replacement) < super::autofilter::cost(stream)).then_some(replacement)
}
