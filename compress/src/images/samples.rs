//! Stored samples to 8-bit pixels: 1, 2, 4, 8 and 16-bit components unpacked (rows start on a
//! byte), /Decode arrays applied, palettes expanded and CMYK turned into RGB, so that what comes
//! out means the same colours with no /Decode and no palette.

/// Unpacks `width`×`height` samples of `components` components at `bpc` bits, rows byte-aligned,
/// into one byte per component. Components are scaled to 0..=255 (16-bit ones keep their high
/// byte, what Ghostscript keeps for JPEG output); palette indices (`scale` false) are kept as
/// they are. `None` when `raw` is shorter than the declared image.
pub fn unpack(
    raw: &[u8],
    (width, height): (u32, u32),
    components: u8,
    bpc: u8,
    scale: bool,
) -> Option<Vec<u8>> {
    let per_row = width as usize * usize::from(components);
    let row_bytes = row_bytes(width, components, bpc)?;
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

/// [`unpack`], taking the samples: 8-bit ones are already one byte per component, and are
/// kept rather than copied (a 9000×9000 RGB scan is 243 MB).
pub fn unpack_owned(
    mut raw: Vec<u8>,
    (width, height): (u32, u32),
    components: u8,
    bpc: u8,
    scale: bool,
) -> Option<Vec<u8>> {
    if bpc != 8 {
        return unpack(&raw, (width, height), components, bpc, scale);
    }
    let len = (width as usize)
        .checked_mul(usize::from(components))?
        .checked_mul(height as usize)?;
    if raw.len() < len {
        return None;
    }
    raw.truncate(len);
    Some(raw)
}

/// Bytes in one stored row: rows begin on a byte boundary.
pub fn row_bytes(width: u32, components: u8, bpc: u8) -> Option<usize> {
    let bits = (width as usize)
        .checked_mul(usize::from(components))?
        .checked_mul(usize::from(bpc))?;
    Some(bits.div_ceil(8))
}

/// Applies a /Decode array to components already scaled to 0..=255: each maps linearly onto
/// `[dmin, dmax]` of its range (`[1 0]` inverts). An array of the wrong length is `None`, as the
/// image it came with is then not one this can reproduce.
pub fn apply_decode(data: &mut [u8], components: u8, decode: &[f32]) -> Option<()> {
    if decode.len() != 2 * usize::from(components) {
        return None;
    }
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
    Some(())
}

/// Maps raw palette indices through a /Decode array `[dmin dmax]` over `0..2^bpc - 1`, as
/// PDF decodes indexed images (`[2^bpc-1 0]` reverses the palette).
pub fn decode_indices(indices: &mut [u8], bpc: u8, decode: &[f32]) -> Option<()> {
    let [dmin, dmax] = decode else {
        return None;
    };
    let max = f32::from((1u16 << bpc.min(8)) - 1);
    for index in indices {
        let mapped = dmin + f32::from(*index) * (dmax - dmin) / max;
        *index = mapped.round().clamp(0.0, 255.0) as u8;
    }
    Some(())
}

/// Palette indices to the base's components; indices above `hival` take the last colour, as
/// viewers clamp them.
pub fn expand_indexed(indices: &[u8], base_components: u8, hival: u8, lookup: &[u8]) -> Vec<u8> {
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
        // 1-bit, 3 pixels wide: rows padded to a byte.
        assert_eq!(
            unpack(&[0b1010_0000, 0b0110_0000], (3, 2), 1, 1, true),
            Some(vec![255, 0, 255, 0, 255, 255])
        );
        assert_eq!(
            unpack(&[0b1110_0100], (4, 1), 1, 2, true),
            Some(vec![255, 170, 85, 0])
        );
        assert_eq!(
            unpack(&[0xF0, 0x70], (3, 1), 1, 4, true),
            Some(vec![255, 0, 119])
        );
        // Indices stay indices.
        assert_eq!(
            unpack(&[0xF0, 0x70], (3, 1), 1, 4, false),
            Some(vec![15, 0, 7])
        );
        assert_eq!(
            unpack(&[1, 2, 3, 4, 5, 6], (2, 1), 3, 8, true),
            Some(vec![1, 2, 3, 4, 5, 6])
        );
        // 16-bit keeps the high byte.
        assert_eq!(
            unpack(&[0xAB, 0xCD, 0x12, 0x34], (2, 1), 1, 16, true),
            Some(vec![0xAB, 0x12])
        );
        // Short data and unknown depths are refused.
        assert_eq!(unpack(&[0; 5], (2, 1), 3, 8, true), None);
        assert_eq!(unpack(&[0; 6], (2, 1), 3, 3, true), None);
    }

    #[test]
    fn applies_decode_arrays() {
        let mut grey = vec![0, 255, 51];
        apply_decode(&mut grey, 1, &[1.0, 0.0]).expect("one pair");
        assert_eq!(grey, vec![255, 0, 204]);
        let mut rgb = vec![0, 128, 255];
        apply_decode(&mut rgb, 3, &[0.0, 1.0, 1.0, 0.0, 0.0, 0.5]).expect("three pairs");
        assert_eq!(rgb, vec![0, 127, 128]);
        assert!(apply_decode(&mut rgb, 3, &[0.0, 1.0]).is_none());
        let mut indices = vec![0, 1, 3];
        decode_indices(&mut indices, 2, &[3.0, 0.0]).expect("a pair");
        assert_eq!(indices, vec![3, 2, 0]);
    }

    #[test]
    fn expands_palettes() {
        let lookup = [10, 20, 30, 40, 50, 60];
        assert_eq!(
            expand_indexed(&[1, 0, 7], 3, 1, &lookup),
            vec![40, 50, 60, 10, 20, 30, 40, 50, 60]
        );
    }
}
