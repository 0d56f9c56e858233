//! Stored samples to 8-bit grey or RGB pixels: 1, 2, 4, 8 and 16-bit components unpacked
//! (rows start on a byte), /Decode arrays applied, palettes expanded and CMYK turned into RGB
//! naively, so that what comes out means the same colours with no /Decode and no palette.

use super::space::{Device, Space};

/// 8-bit pixels ready for PNG.
pub struct Pixels {
    pub data: Vec<u8>,
    /// 1 (grey) or 3 (RGB).
    pub channels: u8,
}

/// Converts `raw` (at least the declared image's bytes) to pixels; `None` when the depth does
/// not fit the space or the data is short.
pub fn convert(
    raw: &[u8],
    size: (u32, u32),
    space: &Space,
    bpc: u8,
    decode: Option<&[f32]>,
) -> Option<Pixels> {
    match space {
        Space::Device(device) => {
            let components = device.components();
            let mut data = unpack(raw, size, components, bpc, true)?;
            if let Some(decode) = decode.filter(|d| d.len() == 2 * usize::from(components)) {
                apply_decode(&mut data, components, decode);
            }
            Some(to_output(data, *device))
        }
        Space::Indexed {
            base,
            hival,
            lookup,
        } => {
            if bpc > 8 {
                return None;
            }
            let mut indices = unpack(raw, size, 1, bpc, false)?;
            if let Some([dmin, dmax]) = decode {
                decode_indices(&mut indices, bpc, *dmin, *dmax);
            }
            let colours = expand_indexed(&indices, base.components(), *hival, lookup);
            Some(to_output(colours, *base))
        }
    }
}

/// Grey and RGB as they are; CMYK as r = 255·(1−c)(1−k) and so on, with no colour profile.
fn to_output(data: Vec<u8>, device: Device) -> Pixels {
    match device {
        Device::Gray => Pixels { data, channels: 1 },
        Device::Rgb => Pixels { data, channels: 3 },
        Device::Cmyk => Pixels {
            data: cmyk_to_rgb(&data),
            channels: 3,
        },
    }
}

/// Naive CMYK to RGB, rounded: (255 − ink)(255 − k) / 255 per channel.
pub fn cmyk_to_rgb(cmyk: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(cmyk.len() / 4 * 3);
    for pixel in cmyk.chunks_exact(4) {
        let white = 255 - u32::from(pixel[3]);
        for &ink in &pixel[..3] {
            let value = ((255 - u32::from(ink)) * white + 127) / 255;
            out.push(value as u8);
        }
    }
    out
}

/// Unpacks `width`×`height` samples of `components` components at `bpc` bits, rows
/// byte-aligned, into one byte per component. With `scale`, components are scaled to 0..=255
/// (16-bit ones keep their high byte); without, palette indices are kept as they are. `None`
/// when `raw` is shorter than the declared image or the depth is not a PDF one.
pub fn unpack(
    raw: &[u8],
    (width, height): (u32, u32),
    components: u8,
    bpc: u8,
    scale: bool,
) -> Option<Vec<u8>> {
    let per_row = (width as usize).checked_mul(usize::from(components))?;
    let row_bytes = row_bytes(width, components, bpc)?;
    if row_bytes == 0 {
        return None;
    }
    let rows = raw.get(..row_bytes.checked_mul(height as usize)?)?;
    let mut out = Vec::with_capacity(per_row.checked_mul(height as usize)?);
    match bpc {
        8 => {
            for row in rows.chunks_exact(row_bytes) {
                out.extend_from_slice(&row[..per_row]);
            }
        }
        16 => {
            for row in rows.chunks_exact(row_bytes) {
                out.extend(row.chunks_exact(2).map(|pair| pair[0]));
            }
        }
        1 | 2 | 4 => {
            let max = (1u16 << bpc) - 1;
            let per_byte = 8 / usize::from(bpc);
            for row in rows.chunks_exact(row_bytes) {
                for i in 0..per_row {
                    let byte = row[i / per_byte];
                    let shift = 8 - usize::from(bpc) * (i % per_byte + 1);
                    let value = (u16::from(byte) >> shift) & max;
                    out.push(if scale {
                        (value * 255 / max) as u8
                    } else {
                        value as u8
                    });
                }
            }
        }
        _ => return None,
    }
    Some(out)
}

/// Bytes in one stored row: rows begin on a byte boundary.
pub fn row_bytes(width: u32, components: u8, bpc: u8) -> Option<usize> {
    let bits = (width as usize)
        .checked_mul(usize::from(components))?
        .checked_mul(usize::from(bpc))?;
    Some(bits.div_ceil(8))
}

/// Applies a /Decode array (one pair per component) to components already scaled to 0..=255:
/// each maps linearly onto `[dmin, dmax]` of its range (`[1 0]` inverts).
fn apply_decode(data: &mut [u8], components: u8, decode: &[f32]) {
    let tables: Vec<[u8; 256]> = decode
        .chunks_exact(2)
        .map(|pair| {
            let mut table = [0u8; 256];
            for (value, slot) in table.iter_mut().enumerate() {
                let mapped = pair[0] + value as f32 / 255.0 * (pair[1] - pair[0]);
                *slot = (mapped.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
            table
        })
        .collect();
    for pixel in data.chunks_exact_mut(usize::from(components)) {
        for (sample, table) in pixel.iter_mut().zip(&tables) {
            *sample = table[usize::from(*sample)];
        }
    }
}

/// Maps raw palette indices through a /Decode pair `[dmin dmax]` over `0..2^bpc - 1`, as PDF
/// decodes indexed images (`[2^bpc-1 0]` reverses the palette).
fn decode_indices(indices: &mut [u8], bpc: u8, dmin: f32, dmax: f32) {
    let max = f32::from((1u16 << bpc.min(8)) - 1);
    for index in indices {
        let mapped = dmin + f32::from(*index) * (dmax - dmin) / max;
        *index = mapped.round().clamp(0.0, 255.0) as u8;
    }
}

/// Palette indices to the base's components; indices above `hival` take the last colour, as
/// viewers clamp them.
fn expand_indexed(indices: &[u8], base_components: u8, hival: u8, lookup: &[u8]) -> Vec<u8> {
    let n = usize::from(base_components);
    let mut out = Vec::with_capacity(indices.len() * n);
    for &index in indices {
        let start = usize::from(index.min(hival)) * n;
        match lookup.get(start..start + n) {
            Some(colour) => out.extend_from_slice(colour),
            None => out.extend(std::iter::repeat_n(0, n)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpacks_every_depth() {
        assert_eq!(
            unpack(&[0b1010_0000, 0b0110_0000], (3, 2), 1, 1, true),
            Some(vec![255, 0, 255, 0, 255, 255])
        );
        assert_eq!(
            unpack(&[0b1110_0100], (4, 1), 1, 2, true),
            Some(vec![255, 170, 85, 0])
        );
        assert_eq!(
            unpack(&[0xF0, 0x70], (3, 1), 1, 4, false),
            Some(vec![15, 0, 7])
        );
        assert_eq!(
            unpack(&[0xAB, 0xCD, 0x12, 0x34], (2, 1), 1, 16, true),
            Some(vec![0xAB, 0x12])
        );
        assert_eq!(unpack(&[0; 5], (2, 1), 3, 8, true), None);
        assert_eq!(unpack(&[0; 6], (2, 1), 3, 3, true), None);
    }

    #[test]
    fn decodes_inverts_and_converts() {
        let space = Space::Device(Device::Gray);
        let pixels = convert(&[0b1000_0000], (2, 1), &space, 1, Some(&[1.0, 0.0])).expect("ok");
        assert_eq!((pixels.data, pixels.channels), (vec![0, 255], 1));
        assert_eq!(
            cmyk_to_rgb(&[0, 255, 128, 0, 0, 0, 0, 255]),
            [255, 0, 127, 0, 0, 0]
        );
        let palette = Space::Indexed {
            base: Device::Rgb,
            hival: 1,
            lookup: vec![10, 20, 30, 40, 50, 60],
        };
        // Indices 1 then 0.
        let pixels = convert(&[0b0100_0000], (2, 1), &palette, 2, None).expect("ok");
        assert_eq!(pixels.data, [40, 50, 60, 10, 20, 30]);
        // Reversed by /Decode.
        let pixels = convert(&[0b0000_0000], (1, 1), &palette, 1, Some(&[1.0, 0.0])).expect("ok");
        assert_eq!(pixels.data, [40, 50, 60]);
    }
}
