//! Image XObjects: decoded whatever their filters, downsampled to the preset's resolution at
//! their largest displayed size as Ghostscript's `-dPDFSETTINGS` do, and re-encoded as JPEG,
//! Flate with PNG predictors, or a Flate palette, whichever is smallest (Ghostscript's
//! AutoFilter, measured rather than guessed). The new stream replaces the old only when it is
//! smaller. Soft masks and stencil masks are resampled on their own by their parent's displayed
//! size (PDF stretches a mask over the image's unit square whatever its size). Fax images
//! (CCITT Group 4, one-dimensional Group 3) are 1-bit images like others. Images this cannot
//! reproduce exactly (JBIG2, two-dimensional Group 3, /SMaskInData, colour-keyed images that
//! would need resampling, four-channel JPEGs without Adobe's marker) keep their bytes; a
//! colour key beside a soft mask, which no viewer applies, is dropped (`keys`). Palettes over
//! Separation or DeviceN are resampled in their tints (`tint`). CMYK stays CMYK at printer
//! and prepress; Adobe CMYK JPEGs keep their inks there, and in an ICC-based space at every
//! preset (see `reencode`).

use std::collections::HashMap;

use fast_image_resize::Resizer;
use lopdf::{Document, Object, ObjectId, Stream};

mod autofilter;
pub(crate) mod ccitt;
mod cmyk;
pub(crate) mod decode;
pub(crate) mod flate;
pub(crate) mod jpeg;
mod jpeg_kept;
mod jpx;
mod keys;
mod matte;
mod mono;
mod palette;
mod reencode;
mod resize;
mod samples;
pub(crate) mod space;
#[cfg(test)]
mod tests;
mod tint;

use reencode::Role;

use super::{Preset, displayed::DisplayedSizes};

/// The preset's image settings.
impl Preset {
    /// Resolution colour and grey images are brought down to (Ghostscript: 72, 150, 300, 300).
    fn dpi(self) -> f32 {
        match self {
            Preset::Screen => 72.0,
            Preset::Ebook => 150.0,
            Preset::Printer | Preset::Prepress => 300.0,
        }
    }

    /// Resolution 1-bit images are brought down to (Ghostscript's MonoImageResolution: 300 for
    /// screen and ebook, 1200 for printer and prepress).
    fn mono_dpi(self) -> f32 {
        match self {
            Preset::Screen | Preset::Ebook => 300.0,
            Preset::Printer | Preset::Prepress => 1200.0,
        }
    }

    /// Whether CMYK images become RGB: screen and ebook, which Ghostscript converts to sRGB.
    /// Printer and prepress keep CMYK images as they are.
    fn cmyk_to_rgb(self) -> bool {
        matches!(self, Preset::Screen | Preset::Ebook)
    }

    /// Whether re-encoded colour keeps its chroma at full resolution (4:4:4): prepress only,
    /// the highest quality. The others halve it both ways (4:2:0), as cameras store photos;
    /// for printer that is chroma at 150 dpi. Ghostscript's printer keeps 4:4:4, which measured
    /// 35 % slower and 17 % larger here for +0.6 dB.
    fn full_chroma(self) -> bool {
        self == Preset::Prepress
    }

    /// The least image-level PSNR a JPEG re-encode must keep to be used: printer and prepress
    /// promise pages within 35 dB of the input, so JPEG that strays further (line art, small
    /// detailed images) gives way to Flate, or the image keeps its bytes. Screen and ebook
    /// trade fidelity for size, as Ghostscript's do.
    fn min_jpeg_psnr(self) -> f64 {
        match self {
            Preset::Screen | Preset::Ebook => 0.0,
            Preset::Printer | Preset::Prepress => 35.0,
        }
    }

    /// JPEG quality of re-encoded images: strong for screen, highest for prepress.
    fn jpeg_quality(self) -> u8 {
        match self {
            Preset::Screen => 40,
            Preset::Ebook => 75,
            Preset::Printer => 80,
            Preset::Prepress => 92,
        }
    }
}

/// Downsample only above this multiple of the target resolution, as Ghostscript's
/// `ColorImageDownsampleThreshold` (1.5) does: a small gain is not worth a resampling.
const THRESHOLD: f32 = 1.5;

#[derive(Debug, Default)]
pub struct ImageReport {
    pub replaced: usize,
    pub skipped: usize,
    /// Masks (soft or stencil) among `replaced`.
    pub masks: usize,
    /// Bytes the replaced streams lost.
    pub saved: u64,
}

/// Re-encodes the images in parallel, one thread per core (an image-heavy file is mostly
/// decoding, resampling and encoding pixels), then swaps the smaller streams in.
pub fn recompress_images(
    doc: &mut Document,
    sizes: &DisplayedSizes,
    preset: Preset,
    max_pixels: u64,
) -> ImageReport {
    let work = work_list(doc, sizes);
    let pairs = matte::pairs(doc, work.iter().map(|&(id, _, _)| id));
    let shared: &Document = doc;
    let replacements: Vec<(ObjectId, Role, Stream)> =
        crate::parallel::map(&work, Resizer::new, |resizer, &(id, shown, role)| {
            let Ok(Object::Stream(stream)) = shared.get_object(id) else {
                return None;
            };
            let job = reencode::Job {
                doc: shared,
                shown,
                role,
                preset,
                max_pixels,
            };
            job.run(stream, resizer)
                .map(|replacement| (id, role, replacement))
        });
    let replacements = matte::same_sizes(&pairs, replacements, doc);
    let mut report = ImageReport {
        skipped: work.len() - replacements.len(),
        ..ImageReport::default()
    };
    for (id, role, replacement) in replacements {
        if let Ok(object) = doc.get_object_mut(id) {
            if let Object::Stream(old) = object {
                report.saved += old.content.len().saturating_sub(replacement.content.len()) as u64;
            }
            *object = Object::Stream(replacement);
            report.replaced += 1;
            report.masks += usize::from(role != Role::Image);
        }
    }
    report
}

/// Every displayed image, and the soft and stencil masks of those images at their parent's
/// largest displayed size (a mask is drawn through its image, never by `Do`). An object used
/// both ways is treated as a mask, the stricter.
fn work_list(doc: &Document, sizes: &DisplayedSizes) -> Vec<(ObjectId, (f32, f32), Role)> {
    let mut work: HashMap<ObjectId, ((f32, f32), Role)> = HashMap::new();
    let mut add = |id: ObjectId, shown: (f32, f32), role: Role| {
        let entry = work.entry(id).or_insert((shown, role));
        entry.0 = (entry.0.0.max(shown.0), entry.0.1.max(shown.1));
        if role != Role::Image {
            entry.1 = role;
        }
    };
    for (&id, &shown) in sizes {
        add(id, shown, Role::Image);
        let Ok(Object::Stream(stream)) = doc.get_object(id) else {
            continue;
        };
        if let Ok(mask) = stream.dict.get(b"SMask").and_then(Object::as_reference) {
            add(mask, shown, Role::SoftMask);
        }
        if let Ok(mask) = stream.dict.get(b"Mask").and_then(Object::as_reference) {
            add(mask, shown, Role::Stencil);
        }
    }
    // A mask with /Matte holds premultiplied colour: its image is drawn at the mask's size
    // (the largest of its images'), so that both get the same target and are resampled alike.
    for (image, mask) in matte::pairs(doc, work.keys().copied()) {
        if let Some(&(shown, _)) = work.get(&mask)
            && let Some(entry) = work.get_mut(&image)
        {
            entry.0 = shown;
        }
    }
    let mut work: Vec<_> = work
        .into_iter()
        .map(|(id, (shown, role))| (id, shown, role))
        .collect();
    // Largest first, so that the last thread to finish does not start on the biggest image.
    work.sort_by_key(|&(id, _, _)| std::cmp::Reverse(pixels(doc, id)));
    work
}

fn pixels(doc: &Document, id: ObjectId) -> u64 {
    let Ok(Object::Stream(stream)) = doc.get_object(id) else {
        return 0;
    };
    let side = |key: &[u8]| {
        stream
            .dict
            .get(key)
            .and_then(Object::as_i64)
            .map_or(0, |v| u64::try_from(v).unwrap_or(0))
    };
    side(b"Width").saturating_mul(side(b"Height"))
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

#[cfg(test)]
mod target_tests {
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
