//! Images of few colours (line art, charts, screenshots, scans of printed pages) as palette
//! indices at the fewest bits that hold them. A large image is read in bands of rows on every
//! core: first each band's colours, merged in band order so that every colour gets the index
//! of its first appearance, as one pass over the whole image gives it; then each band's
//! indices, packed straight into its rows. On a 9000×9000 scan this was the largest single
//! step of the compressor, on one core.

use std::sync::Mutex;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// Images of at least this many pixels are read in bands on all cores; a thread costs more
/// than it saves below.
const PARALLEL_PIXELS: usize = 1 << 20;
/// Bands a large image is read in: a few per core, so that a slow band (a busy part of the
/// page) does not leave the other cores idle at the end.
const BANDS: usize = 8;

/// An image of at most 256 colours as palette indices.
pub struct Palette {
    /// The colours, `channels` bytes each: the /Indexed lookup string.
    pub colours: Vec<u8>,
    /// Indices packed at `bpc` bits, rows byte-aligned.
    pub indices: Vec<u8>,
    pub bpc: u8,
}

/// The image's palette when it has at most 256 distinct colours; `None` as soon as a 257th
/// colour turns up.
pub fn palettize(pixels: &[u8], dims: (u32, u32), channels: u8) -> Option<Palette> {
    let bands = if pixels.len() / usize::from(channels.max(1)) >= PARALLEL_PIXELS {
        BANDS
    } else {
        1
    };
    match channels {
        1 => palettize_in::<1>(pixels, dims, bands),
        2 => palettize_in::<2>(pixels, dims, bands),
        3 => palettize_in::<3>(pixels, dims, bands),
        4 => palettize_in::<4>(pixels, dims, bands),
        _ => None,
    }
}

/// [`palettize`] of `N`-byte pixels in `bands` bands of rows. The indices are not held one
/// byte per pixel in between: that was a third of the memory written.
fn palettize_in<const N: usize>(
    pixels: &[u8],
    (width, height): (u32, u32),
    bands: usize,
) -> Option<Palette> {
    let row = width as usize * N;
    if pixels.len() != row * height as usize {
        return None;
    }
    // Whole rows per band, so that each band packs into rows of its own.
    let band_rows = (height as usize).div_ceil(bands).max(1);
    let chunks: Vec<&[u8]> = pixels.chunks((band_rows * row).max(1)).collect();
    let found: Vec<Vec<u8>> = if chunks.len() > 1 {
        crate::parallel::parts(chunks.len(), |i| colours::<N>(chunks[i]))?
            .into_iter()
            .collect::<Option<_>>()?
    } else {
        vec![colours::<N>(pixels)?]
    };
    // One palette for the image: each band's colours looked up, or added, in band order.
    let mut index_of: HashMap<u32, u8> = HashMap::with_capacity(256);
    let mut colours = Vec::with_capacity(256 * N);
    for colour in found.iter().flat_map(|band| band.chunks_exact(N)) {
        let next = index_of.len();
        if let std::collections::hash_map::Entry::Vacant(entry) = index_of.entry(key(colour)) {
            entry.insert(u8::try_from(next).ok()?);
            colours.extend_from_slice(colour);
        }
    }
    let bpc = match index_of.len() {
        0..=2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        _ => 8,
    };
    let packed_row = super::samples::row_bytes(width, 1, bpc)?;
    let mut indices = vec![0u8; packed_row * height as usize];
    if chunks.len() > 1 {
        let outputs: Vec<Mutex<&mut [u8]>> = indices
            .chunks_mut(band_rows * packed_row)
            .map(Mutex::new)
            .collect();
        crate::parallel::parts(chunks.len(), |i| {
            let mut out = outputs.get(i)?.lock().ok()?;
            pack::<N>(chunks[i], width, bpc, &index_of, &mut out)
        })?
        .into_iter()
        .collect::<Option<()>>()?;
    } else {
        pack::<N>(pixels, width, bpc, &index_of, &mut indices)?;
    }
    Some(Palette {
        colours,
        indices,
        bpc,
    })
}

fn key(pixel: &[u8]) -> u32 {
    pixel.iter().fold(0u32, |k, &b| (k << 8) | u32::from(b))
}

/// The distinct colours of `N`-byte pixels in order of first appearance; `None` past 256.
/// Neighbours are mostly the same colour (paper, flat fills, text strokes): the last colour
/// is compared before any lookup.
fn colours<const N: usize>(pixels: &[u8]) -> Option<Vec<u8>> {
    let mut seen: HashSet<u32> = HashSet::with_capacity(256);
    let mut colours = Vec::with_capacity(256 * N);
    let mut last = None;
    for pixel in pixels.chunks_exact(N) {
        let key = key(pixel);
        if last != Some(key) {
            last = Some(key);
            if seen.insert(key) {
                if seen.len() > 256 {
                    return None;
                }
                colours.extend_from_slice(pixel);
            }
        }
    }
    Some(colours)
}

/// Each pixel's palette index, packed at `bpc` bits into `out`'s rows (zeroed, each padded to
/// a byte), as [`flate::pack`](super::flate::pack) packs them.
fn pack<const N: usize>(
    pixels: &[u8],
    width: u32,
    bpc: u8,
    index_of: &HashMap<u32, u8>,
    out: &mut [u8],
) -> Option<()> {
    let bits = u32::from(bpc);
    let packed_row = (width as usize * usize::from(bpc)).div_ceil(8);
    let mut last: Option<(u32, u8)> = None;
    // The row above and what it packed to: a row like it (blank paper) packs the same.
    let mut above: Option<&[u8]> = None;
    let mut above_packed = vec![0u8; packed_row];
    for (row, out) in pixels
        .chunks_exact((width as usize * N).max(1))
        .zip(out.chunks_exact_mut(packed_row.max(1)))
    {
        if above == Some(row) {
            out.copy_from_slice(&above_packed);
            continue;
        }
        above = Some(row);
        // The byte and bit the next index goes to, counted rather than divided out.
        let (mut at, mut shift) = (0, 8 - bits);
        for pixel in row.chunks_exact(N) {
            let key = key(pixel);
            let index = match last {
                Some((last_key, index)) if last_key == key => index,
                _ => {
                    let index = *index_of.get(&key)?;
                    last = Some((key, index));
                    index
                }
            };
            out[at] |= index << shift;
            if shift == 0 {
                (at, shift) = (at + 1, 8 - bits);
            } else {
                shift -= bits;
            }
        }
        above_packed.copy_from_slice(out);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::flate;
    use crate::images::samples::unpack;

    #[test]
    fn palettes_pack_to_the_fewest_bits() {
        let pixels = [0, 0, 0, 255, 255, 255, 0, 0, 0];
        let palette = palettize(&pixels, (3, 1), 3).expect("two colours");
        assert_eq!(palette.bpc, 1);
        assert_eq!(palette.colours, vec![0, 0, 0, 255, 255, 255]);
        assert_eq!(palette.indices, vec![0b0100_0000]);
        assert_eq!(
            unpack(&palette.indices, (3, 1), 1, 1, false),
            Some(vec![0, 1, 0])
        );
        let many: Vec<u8> = (0..=255u8).chain([7]).flat_map(|v| [v, 0, 0]).collect();
        assert_eq!(palettize(&many, (257, 1), 3).map(|p| p.bpc), Some(8));
        let too_many: Vec<u8> = (0..300u32)
            .flat_map(|v| [(v % 256) as u8, (v / 256) as u8, 0])
            .collect();
        assert!(palettize(&too_many, (300, 1), 3).is_none());
        assert!(palettize(&[], (0, 0), 3).is_some_and(|p| p.indices.is_empty()));
    }

    /// Bands give the palette and indices of one plain pass: colours numbered in order of
    /// first appearance, whichever band a colour first turns up in, indices packed as
    /// `flate::pack` packs them, and no palette past 256 colours even when no band alone
    /// has that many.
    #[test]
    fn bands_give_what_one_pass_gives() {
        let (width, height) = (37u32, 50u32);
        for (count, channels) in [(3u32, 3u8), (14, 1), (200, 4), (256, 3), (257, 3), (5, 2)] {
            let pixels: Vec<u8> = (0..width * height)
                .flat_map(|i| {
                    // Later rows bring colours of their own, earlier ones come back.
                    let colour = (i * 7 + i / width) % count;
                    let bytes = [(colour % 256) as u8, (colour / 256) as u8, 9, 1];
                    bytes[..usize::from(channels)].to_vec()
                })
                .collect();
            let n = usize::from(channels);
            let mut order: Vec<&[u8]> = Vec::new();
            for pixel in pixels.chunks_exact(n) {
                if !order.contains(&pixel) {
                    order.push(pixel);
                }
            }
            let plain: Vec<u8> = pixels
                .chunks_exact(n)
                .map(|p| order.iter().position(|o| *o == p).unwrap_or(0) as u8)
                .collect();
            let bpc = match order.len() {
                0..=2 => 1,
                3..=4 => 2,
                5..=16 => 4,
                _ => 8,
            };
            let expected = (order.len() <= 256)
                .then(|| (order.concat(), flate::pack(&plain, width, bpc), bpc));
            for bands in [1, 2, 3, 8, 50, 80] {
                let palette = match channels {
                    1 => palettize_in::<1>(&pixels, (width, height), bands),
                    2 => palettize_in::<2>(&pixels, (width, height), bands),
                    3 => palettize_in::<3>(&pixels, (width, height), bands),
                    _ => palettize_in::<4>(&pixels, (width, height), bands),
                };
                assert_eq!(
                    palette.map(|p| (p.colours, p.indices, p.bpc)),
                    expected,
                    "{count} colours, {bands} bands"
                );
            }
        }
    }
}
