//! Downsampling: Catmull-Rom (bicubic) for continuous-tone pixels, as Ghostscript's
//! `/Bicubic` downsample type; subsampling for 1-bit images, as its mono default `/Subsample`,
//! so that they stay 1-bit and keep their /Decode and stencil meaning.

use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer, images::Image};

use super::jpeg::Pixels;

/// Resamples 1, 3 or 4-channel pixels to `target`.
pub fn bicubic(source: Pixels, target: (u32, u32), resizer: &mut Resizer) -> Option<Pixels> {
    if (source.width, source.height) == target {
        return Some(source);
    }
    let channels = source.channels;
    let pixel_type = match channels {
        1 => PixelType::U8,
        3 => PixelType::U8x3,
        4 => PixelType::U8x4,
        _ => return None,
    };
    let source = Image::from_vec_u8(source.width, source.height, source.data, pixel_type).ok()?;
    let mut resized = Image::new(target.0, target.1, pixel_type);
    // Four channels are CMYK here, never alpha: the resizer would otherwise premultiply by
    // the fourth (black) and wipe out every pixel with no black ink.
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::CatmullRom))
        .use_alpha(false);
    resizer.resize(&source, &mut resized, &options).ok()?;
    Some(Pixels {
        data: resized.into_vec(),
        width: target.0,
        height: target.1,
        channels,
    })
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
