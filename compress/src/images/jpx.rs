//! JPEG 2000 (JPXDecode) decoding with `hayro-jpeg2000`, pure Rust: the codestream or JP2 file
//! becomes 8-bit grey, RGB or CMYK pixels. Its alpha channel, if any, is dropped: a PDF uses it
//! only with /SMaskInData, and those images are kept as they are by the caller.

use hayro_jpeg2000::{ColorSpace, DecodeSettings, DecoderContext, Image};

use super::jpeg::Pixels;

/// Decodes a JPX image whose PDF dictionary says `width`×`height`; `None` when the data
/// disagrees, is damaged, or holds something other than 1, 3 or 4 colour components. With the
/// pixels comes whether the file carries its own ICC profile, which only matters when the PDF
/// gives no /ColorSpace (the PDF's space overrides the file's).
pub fn decode(data: &[u8], (width, height): (u32, u32)) -> Option<(Pixels, bool)> {
    let settings = DecodeSettings::default();
    let image = Image::new(data, &settings).ok()?;
    if (image.width(), image.height()) != (width, height) {
        return None;
    }
    let (colours, icc) = match image.color_space() {
        ColorSpace::Gray => (1, false),
        ColorSpace::RGB => (3, false),
        ColorSpace::CMYK => (4, false),
        ColorSpace::Icc { num_channels, .. } if matches!(num_channels, 1 | 3 | 4) => {
            (*num_channels, true)
        }
        ColorSpace::Icc { .. } | ColorSpace::Unknown { .. } => return None,
    };
    let stride = usize::from(colours) + usize::from(image.has_alpha());
    let mut context = DecoderContext::default();
    let decoded = image.decode(&mut context).ok()?;
    let data = decoded.data_u8();
    let pixels = width as usize * height as usize;
    if data.len() != pixels * stride {
        return None;
    }
    let data = if stride == usize::from(colours) {
        data
    } else {
        data.chunks_exact(stride)
            .flat_map(|pixel| pixel[..usize::from(colours)].iter().copied())
            .collect()
    };
    Some((
        Pixels {
            data,
            width,
            height,
            channels: colours,
        },
        icc,
    ))
}
