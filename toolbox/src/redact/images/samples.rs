//! Painting covered pixels in an image's own samples: the value each component takes (the
//! fill colour in the image's colour space, through its /Decode), written at any bit depth.
//! What the painted pixels held is gone; their colour matters little, as the box covers them.

use quire_compress::redaction::Space;

use super::cover::Cover;

/// What the painted pixels become.
#[derive(Clone, Copy)]
pub enum Target {
    /// The fill colour, as near as the colour space allows.
    Fill([u8; 3]),
    /// The decoded value 1 in every component: a stencil mask's "leave unchanged", a soft
    /// mask's "opaque".
    One,
}

/// Sample values (0 ..= 2^bpc - 1) of the painted pixels, one per stored component.
pub fn values(space: Option<&Space>, bpc: u8, decode: Option<&[f64]>, target: Target) -> Vec<u32> {
    let max = ((1u64 << bpc) - 1) as f64;
    // Decoded values wanted, and the default /Decode of each component.
    let (wanted, defaults): (Vec<f64>, Vec<(f64, f64)>) = match (space, target) {
        (_, Target::One) => (vec![1.0], vec![(0.0, 1.0)]),
        (
            Some(Space::Indexed {
                base,
                hival,
                lookup,
            }),
            Target::Fill(rgb),
        ) => {
            let index = nearest(base, *hival, lookup, rgb);
            (vec![f64::from(index)], vec![(0.0, max)])
        }
        (Some(Space::Device { components, .. }), Target::Fill(rgb)) => (
            device(*components, rgb),
            vec![(0.0, 1.0); usize::from(*components)],
        ),
        (Some(Space::Opaque { components }), Target::Fill(_)) => {
            let n = usize::from(*components);
            (vec![0.0; n], vec![(0.0, 1.0); n])
        }
        (None, Target::Fill(rgb)) => (device(1, rgb), vec![(0.0, 1.0)]),
    };
    wanted
        .iter()
        .zip(&defaults)
        .enumerate()
        .map(|(c, (&value, &default))| {
            let (d0, d1) = decode
                .and_then(|d| Some((*d.get(2 * c)?, *d.get(2 * c + 1)?)))
                .unwrap_or(default);
            let share = if (d1 - d0).abs() < 1e-12 {
                0.0
            } else {
                (value - d0) / (d1 - d0)
            };
            (share * max).round().clamp(0.0, max) as u32
        })
        .collect()
}

/// The fill colour as grey, RGB or CMYK components in 0..1.
fn device(components: u8, [r, g, b]: [u8; 3]) -> Vec<f64> {
    let [r, g, b] = [r, g, b].map(|c| f64::from(c) / 255.0);
    match components {
        1 => vec![0.299 * r + 0.587 * g + 0.114 * b],
        4 => {
            let k = 1.0 - r.max(g).max(b);
            if k >= 1.0 {
                vec![0.0, 0.0, 0.0, 1.0]
            } else {
                let ink = |c: f64| (1.0 - c - k) / (1.0 - k);
                vec![ink(r), ink(g), ink(b), k]
            }
        }
        n => {
            let mut out = vec![r, g, b];
            out.resize(usize::from(n), 0.0);
            out
        }
    }
}

/// The palette entry nearest the fill colour (entries of a space that is not grey, RGB or
/// CMYK all count as equally far: the first wins).
fn nearest(base: &Space, hival: u8, lookup: &[u8], rgb: [u8; 3]) -> u8 {
    let Space::Device { components, .. } = base else {
        return 0;
    };
    let n = usize::from(*components);
    let distance = |entry: &[u8]| -> f64 {
        let shown: [f64; 3] = match entry {
            [g] => [f64::from(*g); 3],
            [c, m, y, k] => {
                let ink =
                    |v: u8| 255.0 * (1.0 - f64::from(v) / 255.0) * (1.0 - f64::from(*k) / 255.0);
                [ink(*c), ink(*m), ink(*y)]
            }
            [r, g, b, ..] => [f64::from(*r), f64::from(*g), f64::from(*b)],
            _ => [0.0; 3],
        };
        shown
            .iter()
            .zip(rgb)
            .map(|(a, b)| (a - f64::from(b)).powi(2))
            .sum()
    };
    (0..=hival)
        .min_by(|&a, &b| {
            let entry = |i: u8| {
                lookup
                    .get(usize::from(i) * n..(usize::from(i) + 1) * n)
                    .unwrap_or_default()
            };
            distance(entry(a)).total_cmp(&distance(entry(b)))
        })
        .unwrap_or(0)
}

/// Writes `values` into every covered pixel of `samples` (rows of `row_bytes` bytes,
/// `values.len()` components of `bpc` bits each per pixel).
pub fn paint(samples: &mut [u8], row_bytes: usize, bpc: u8, values: &[u32], cover: &Cover) {
    let n = values.len();
    for &(row, first, last) in &cover.runs {
        let start = row as usize * row_bytes;
        let Some(line) = samples.get_mut(start..start + row_bytes) else {
            continue;
        };
        for column in first as usize..=last as usize {
            for (c, &value) in values.iter().enumerate() {
                set(line, column * n + c, bpc, value);
            }
        }
    }
}

/// Sets sample `index` of a row.
fn set(line: &mut [u8], index: usize, bpc: u8, value: u32) {
    match bpc {
        8 => {
            if let Some(byte) = line.get_mut(index) {
                *byte = value as u8;
            }
        }
        16 => {
            if let Some(pair) = line.get_mut(2 * index..2 * index + 2) {
                pair.copy_from_slice(&(value as u16).to_be_bytes());
            }
        }
        1 | 2 | 4 => {
            let bits = usize::from(bpc);
            let offset = index * bits;
            let shift = 8 - bits - offset % 8;
            let mask = (((1u16 << bits) - 1) as u8) << shift;
            if let Some(byte) = line.get_mut(offset / 8) {
                *byte = (*byte & !mask) | (((value as u8) << shift) & mask);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use lopdf::Object;

    use super::*;

    #[test]
    fn values_follow_space_depth_and_decode() {
        let rgb = Space::Device {
            components: 3,
            object: Object::Name(b"DeviceRGB".to_vec()),
        };
        assert_eq!(
            values(Some(&rgb), 8, None, Target::Fill([255, 0, 0])),
            [255, 0, 0]
        );
        assert_eq!(
            values(
                Some(&rgb),
                8,
                Some(&[1.0, 0.0, 1.0, 0.0, 1.0, 0.0]),
                Target::Fill([255, 0, 0])
            ),
            [0, 255, 255]
        );
        let grey = Space::Device {
            components: 1,
            object: Object::Name(b"DeviceGray".to_vec()),
        };
        assert_eq!(values(Some(&grey), 1, None, Target::Fill([0, 0, 0])), [0]);
        // A stencil mask with the default /Decode: 1 leaves the page alone.
        assert_eq!(values(None, 1, None, Target::One), [1]);
        assert_eq!(values(None, 1, Some(&[1.0, 0.0]), Target::One), [0]);
        let palette = Space::Indexed {
            base: Box::new(rgb),
            hival: 2,
            lookup: vec![255, 255, 255, 10, 10, 10, 200, 0, 0],
        };
        assert_eq!(
            values(Some(&palette), 4, None, Target::Fill([0, 0, 0])),
            [1]
        );
    }

    #[test]
    fn painting_at_every_depth() {
        let cover = Cover {
            runs: vec![(0, 1, 2)],
        };
        let mut bits = vec![0b1111_1111, 0];
        paint(&mut bits, 1, 1, &[0], &cover);
        assert_eq!(bits, [0b1001_1111, 0]);
        let mut nibbles = vec![0x12, 0x34];
        paint(&mut nibbles, 2, 4, &[0xF], &cover);
        assert_eq!(nibbles, [0x1F, 0xF4]);
        let mut wide = vec![0u8; 12];
        paint(&mut wide, 12, 16, &[1, 2], &cover);
        assert_eq!(wide, [0, 0, 0, 0, 0, 1, 0, 2, 0, 1, 0, 2]);
    }
}
