//! Downsampling: Catmull-Rom (bicubic) for continuous-tone pixels, as Ghostscript's
//! `/Bicubic` downsample type; subsampling for 1-bit images, as its mono default `/Subsample`,
//! so that they stay 1-bit and keep their /Decode and stencil meaning.

use fast_image_resize::images::{Image, ImageRef};
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};

use super::jpeg::Pixels;

/// Images of at least this many pixels are resampled on all cores.
const PARALLEL_PIXELS: u64 = 1 << 21;
/// Bands each pass is split in: a few per core.
const BANDS: u32 = 8;

/// Resamples 1 to 4-channel pixels to `target` (two are the tints of a two-ink DeviceN).
pub fn bicubic(source: Pixels, target: (u32, u32), resizer: &mut Resizer) -> Option<Pixels> {
    if (source.width, source.height) == target {
        return Some(source);
    }
    let channels = source.channels;
    let pixel_type = match channels {
        1 => PixelType::U8,
        2 => PixelType::U8x2,
        3 => PixelType::U8x3,
        4 => PixelType::U8x4,
        _ => return None,
    };
    let size = (source.width, source.height);
    let data = if u64::from(size.0) * u64::from(size.1) >= PARALLEL_PIXELS
        && size.0 != target.0
        && size.1 != target.1
    {
        in_bands(&source.data, size, target, pixel_type)?
    } else {
        let source = Image::from_vec_u8(size.0, size.1, source.data, pixel_type).ok()?;
        let mut resized = Image::new(target.0, target.1, pixel_type);
        resizer.resize(&source, &mut resized, &options()).ok()?;
        resized.into_vec()
    };
    Some(Pixels {
        data,
        width: target.0,
        height: target.1,
        channels,
    })
}

/// Catmull-Rom, as Ghostscript's /Bicubic. Four channels are CMYK here, and two are tints,
/// never alpha: the resizer would otherwise premultiply by the last (black) and wipe out
/// every pixel with none of that ink.
fn options() -> ResizeOptions {
    ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::CatmullRom))
        .use_alpha(false)
}

/// The resizer's two passes for 8-bit pixels, vertical then horizontal, each split in bands
/// on all cores (resampling a 9000×9000 scan was a tenth of a second on one). Each pass on a
/// crop of whole columns or rows computes what it computes for the whole image, with the same
/// coefficients and the same 8-bit image between the passes: the same pixels.
fn in_bands(
    data: &[u8],
    (width, height): (u32, u32),
    (target_w, target_h): (u32, u32),
    pixel_type: PixelType,
) -> Option<Vec<u8>> {
    let bytes = pixel_type.size();
    let source = ImageRef::new(width, height, data, pixel_type).ok()?;
    // Vertical: bands of columns, each brought to the target height.
    let columns = width.div_ceil(BANDS);
    let parts = width.div_ceil(columns) as usize;
    let tall = crate::parallel::parts(parts, |i| {
        let left = i as u32 * columns;
        let band = columns.min(width - left);
        let mut out = Image::new(band, target_h, pixel_type);
        let crop = options().crop(f64::from(left), 0.0, f64::from(band), f64::from(height));
        Resizer::new().resize(&source, &mut out, &crop).ok()?;
        Some(out.into_vec())
    })?;
    let row = width as usize * bytes;
    let mut between = vec![0u8; row * target_h as usize];
    let mut at = 0;
    for band in tall {
        let band = band?;
        let band_row = band.len() / target_h.max(1) as usize;
        for (y, line) in band.chunks_exact(band_row.max(1)).enumerate() {
            between[y * row + at..y * row + at + band_row].copy_from_slice(line);
        }
        at += band_row;
    }
    // Horizontal: bands of rows of that, each brought to the target width.
    let between = ImageRef::new(width, target_h, &between, pixel_type).ok()?;
    let rows = target_h.div_ceil(BANDS);
    let parts = target_h.div_ceil(rows) as usize;
    let wide = crate::parallel::parts(parts, |i| {
        let top = i as u32 * rows;
        let band = rows.min(target_h - top);
        let mut out = Image::new(target_w, band, pixel_type);
        let crop = options().crop(0.0, f64::from(top), f64::from(width), f64::from(band));
        Resizer::new().resize(&between, &mut out, &crop).ok()?;
        Some(out.into_vec())
    })?;
    wide.into_iter()
        .collect::<Option<Vec<_>>>()
        .map(|bands| bands.concat())
}

/// Picks, for each target pixel, the source pixel at its centre: one byte per pixel in, one
/// byte per pixel out (values untouched, so 1-bit samples stay 0 or 1).
pub fn subsample(plain: &[u8], (width, height): (u32, u32), target: (u32, u32)) -> Option<Vec<u8>> {
    if plain.len() != width as usize * height as usize || target.0 == 0 || target.1 == 0 {
        return None;
    }
    let mut out = Vec::with_capacity(target.0 as usize * target.1 as usize);
    let column =
        |x: u32| ((u64::from(x) * 2 + 1) * u64::from(width) / (2 * u64::from(target.0))) as usize;
    let columns: Vec<usize> = (0..target.0).map(column).collect();
    for y in 0..target.1 {
        let row = ((u64::from(y) * 2 + 1) * u64::from(height) / (2 * u64::from(target.1))) as usize;
        let start = row * width as usize;
        let source = plain.get(start..start + width as usize)?;
        out.extend(columns.iter().map(|&x| source[x]));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsampling_picks_centres() {
        let plain: Vec<u8> = (0..16).collect();
        assert_eq!(subsample(&plain, (4, 4), (2, 2)), Some(vec![5, 7, 13, 15]));
        assert_eq!(subsample(&plain, (4, 4), (4, 4)), Some(plain.clone()));
    }

    #[test]
    fn bicubic_handles_every_channel_count() {
        let mut resizer = Resizer::new();
        for channels in [1u8, 3, 4] {
            let source = Pixels {
                data: vec![200; 8 * 6 * usize::from(channels)],
                width: 8,
                height: 6,
                channels,
            };
            let out = bicubic(source, (4, 3), &mut resizer).expect("resizes");
            assert_eq!(out.data, vec![200; 4 * 3 * usize::from(channels)]);
        }
    }

    /// Resampled in bands on several threads, a large image comes out as the resizer makes
    /// it in one call.
    #[test]
    fn bands_resample_as_one_call() {
        for (channels, pixel_type) in [
            (1u8, PixelType::U8),
            (3, PixelType::U8x3),
            (4, PixelType::U8x4),
        ] {
            let (width, height) = (1501u32, 1399u32);
            let data: Vec<u8> = (0..width as usize * height as usize * usize::from(channels))
                .map(|i| ((i * 31) ^ (i / 977)) as u8)
                .collect();
            for target in [(377u32, 350u32), (1000, 933), (95, 1)] {
                let whole =
                    Image::from_vec_u8(width, height, data.clone(), pixel_type).expect("an image");
                let mut out = Image::new(target.0, target.1, pixel_type);
                Resizer::new()
                    .resize(&whole, &mut out, &options())
                    .expect("resized");
                assert!(
                    in_bands(&data, (width, height), target, pixel_type) == Some(out.into_vec()),
                    "{channels} channels to {target:?}"
                );
            }
        }
    }

    #[test]
    fn a_fourth_channel_is_an_ink_not_alpha() {
        // Magenta ink and no black: a resizer taking black for alpha makes it transparent.
        let source = Pixels {
            data: [0u8, 255, 0, 0].repeat(8 * 6),
            width: 8,
            height: 6,
            channels: 4,
        };
        let out = bicubic(source, (4, 3), &mut Resizer::new()).expect("resizes");
        assert_eq!(out.data, [0u8, 255, 0, 0].repeat(4 * 3));
    }
}
