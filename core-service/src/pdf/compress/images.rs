//! Image XObjects: downsampled to the preset's resolution at their largest displayed size and
//! re-encoded as JPEG at the preset's quality; the new stream replaces the old only when it is
//! smaller. Images this cannot handle exactly (masks, /Decode arrays, indexed, CMYK, 16-bit)
//! keep their bytes.

use std::sync::atomic::{AtomicUsize, Ordering};

use fast_image_resize::{PixelType, ResizeAlg, ResizeOptions, Resizer, images::Image};
use lopdf::{Document, Object, ObjectId, Stream};

use super::{
    Preset,
    displayed::DisplayedSizes,
    jpeg::{self, Pixels},
};

/// Downsample only above this multiple of the target resolution, as Ghostscript's
/// `ColorImageDownsampleThreshold` (1.5) does: a small gain is not worth a resampling.
const THRESHOLD: f32 = 1.5;

pub struct ImageReport {
    pub replaced: usize,
    pub skipped: usize,
}

/// Re-encodes the images in parallel, one thread per core (an image-heavy file is mostly
/// decoding, resampling and encoding pixels), then swaps the smaller streams in.
pub fn recompress_images(
    doc: &mut Document,
    sizes: &DisplayedSizes,
    preset: Preset,
    max_pixels: u64,
) -> ImageReport {
    let work: Vec<(ObjectId, (f32, f32))> = sizes.iter().map(|(&id, &shown)| (id, shown)).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(work.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let shared: &Document = doc;
    let replacements: Vec<(ObjectId, Stream)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut resizer = Resizer::new();
                    let mut done = Vec::new();
                    while let Some(&(id, shown)) = work.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let Ok(Object::Stream(stream)) = shared.get_object(id) else {
                            continue;
                        };
                        if let Some(replacement) =
                            reencode(shared, stream, shown, preset, max_pixels, &mut resizer)
                        {
                            done.push((id, replacement));
                        }
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            // A panicking thread loses only its own images, which keep their bytes.
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect()
    });
    let mut report = ImageReport {
        replaced: 0,
        skipped: work.len() - replacements.len(),
    };
    for (id, replacement) in replacements {
        if let Ok(object) = doc.get_object_mut(id) {
            *object = Object::Stream(replacement);
            report.replaced += 1;
        }
    }
    report
}

fn reencode(
    doc: &Document,
    stream: &Stream,
    (shown_w, shown_h): (f32, f32),
    preset: Preset,
    max_pixels: u64,
    resizer: &mut Resizer,
) -> Option<Stream> {
    let dict = &stream.dict;
    let width = u32::try_from(dict.get(b"Width").ok()?.as_i64().ok()?).ok()?;
    let height = u32::try_from(dict.get(b"Height").ok()?.as_i64().ok()?).ok()?;
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > max_pixels {
        return None;
    }
    // Exactness first: anything that changes how samples map to colours is left alone.
    if dict.has(b"Decode") || dict.has(b"Mask") || dict.has(b"SMaskInData") {
        return None;
    }
    if dict
        .get(b"ImageMask")
        .and_then(Object::as_bool)
        .unwrap_or(false)
    {
        return None;
    }
    if dict.get(b"BitsPerComponent").ok()?.as_i64().ok()? != 8 {
        return None;
    }
    let (_, space) = doc.dereference(dict.get(b"ColorSpace").ok()?).ok()?;
    let channels = channels(doc, space)?;
    let filters: Vec<Vec<u8>> = stream
        .filters()
        .ok()?
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    let (target_w, target_h) = target_size(width, height, shown_w, shown_h, preset.dpi());
    let source = match filters.as_slice() {
        [f] if f == b"DCTDecode" => jpeg::decode(
            &stream.content,
            (width, height),
            channels,
            (target_w, target_h),
        )?,
        [f] if f == b"FlateDecode" => {
            let raw = stream
                .decompressed_content_with_limit(
                    (u64::from(width) * u64::from(height) * 3) as usize,
                )
                .ok()?;
            (raw.len() == (width * height) as usize * usize::from(channels)).then_some(Pixels {
                data: raw,
                width,
                height,
                channels,
            })?
        }
        _ => return None,
    };
    let pixels = if (source.width, source.height) == (target_w, target_h) {
        source
    } else {
        resize(source, (target_w, target_h), resizer)?
    };
    let jpeg = jpeg::encode(&pixels, preset.jpeg_quality(), preset.full_chroma())?;
    if jpeg.len() >= stream.content.len() {
        return None;
    }
    let mut replacement = stream.clone();
    replacement.dict.set("Width", i64::from(pixels.width));
    replacement.dict.set("Height", i64::from(pixels.height));
    replacement.dict.set("Filter", "DCTDecode");
    replacement.dict.remove(b"DecodeParms");
    replacement.set_content(jpeg);
    // A soft mask keeps its own size: PDF scales it to the image's unit square either way.
    Some(replacement)
}

/// 1 (grey) or 3 (RGB) for the colour spaces whose samples JPEG carries as they are.
fn channels(doc: &Document, space: &Object) -> Option<u8> {
    let grey_or_rgb = |n: i64| match n {
        1 => Some(1),
        3 => Some(3),
        _ => None,
    };
    match space {
        Object::Name(name) if name == b"DeviceGray" => Some(1),
        Object::Name(name) if name == b"DeviceRGB" => Some(3),
        Object::Array(items) => match items.first()?.as_name().ok()? {
            b"CalGray" => Some(1),
            b"CalRGB" => Some(3),
            // The profile stays; only the samples' encoding changes.
            b"ICCBased" => {
                let (_, profile) = doc.dereference(items.get(1)?).ok()?;
                grey_or_rgb(
                    profile
                        .as_stream()
                        .ok()?
                        .dict
                        .get(b"N")
                        .ok()?
                        .as_i64()
                        .ok()?,
                )
            }
            _ => None,
        },
        _ => None,
    }
}

/// Pixels for the image at the preset's resolution, or the current size if it is not above
/// the threshold. Never upsampled.
fn target_size(width: u32, height: u32, shown_w: f32, shown_h: f32, dpi: f32) -> (u32, u32) {
    if shown_w <= 0.0 || shown_h <= 0.0 {
        return (width, height);
    }
    let want_w = shown_w / 72.0 * dpi;
    let want_h = shown_h / 72.0 * dpi;
    // The image's resolution along its less-scaled axis decides, as in Ghostscript.
    let ratio = (width as f32 / want_w).min(height as f32 / want_h);
    if ratio <= THRESHOLD {
        return (width, height);
    }
    let scale = 1.0 / ratio;
    let w = ((width as f32 * scale).round() as u32).clamp(1, width);
    let h = ((height as f32 * scale).round() as u32).clamp(1, height);
    (w, h)
}

/// Resamples to `target` with Catmull-Rom, as Ghostscript's bicubic downsampling does.
fn resize(source: Pixels, target: (u32, u32), resizer: &mut Resizer) -> Option<Pixels> {
    let channels = source.channels;
    let pixel_type = if channels == 1 {
        PixelType::U8
    } else {
        PixelType::U8x3
    };
    let source = Image::from_vec_u8(source.width, source.height, source.data, pixel_type).ok()?;
    let mut resized = Image::new(target.0, target.1, pixel_type);
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(
        fast_image_resize::FilterType::CatmullRom,
    ));
    resizer.resize(&source, &mut resized, &options).ok()?;
    Some(Pixels {
        data: resized.into_vec(),
        width: target.0,
        height: target.1,
        channels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downsamples_only_above_the_threshold_and_never_up() {
        // 3000 px over 10 inches (720 pt) is 300 dpi.
        assert_eq!(target_size(3000, 1500, 720.0, 360.0, 150.0), (1500, 750));
        assert_eq!(target_size(3000, 1500, 720.0, 360.0, 72.0), (720, 360));
        // 300 dpi for printer: 1x, kept.
        assert_eq!(target_size(3000, 1500, 720.0, 360.0, 300.0), (3000, 1500));
        // 1.4x the target: under the threshold, kept.
        assert_eq!(target_size(2100, 1050, 720.0, 360.0, 200.0), (2100, 1050));
        assert_eq!(target_size(100, 100, 720.0, 720.0, 300.0), (100, 100));
    }
}
