//! A JPEG that a re-encode cannot make smaller without making it worse keeps its coefficients:
//! shown at its own size (nothing to downsample), at or under the preset's quality already,
//! and with chroma no finer than the preset's (or far under its quality). Re-encoding it would decode every block, blur
//! it once more and, at a higher quality than its own, mostly grow it; Ghostscript copies such
//! a JPEG as it is. Here only its Huffman tables are optimized, by libjpeg-turbo's lossless
//! transform (no IDCT, no colour conversion, the same pixels), and used when that is smaller.

use lopdf::{Object, Stream};
use turbojpeg::{Decompressor, Subsamp, Transform};

use super::Preset;

/// The IJG's luminance table at quality 50, which its quality setting scales.
const STANDARD_LUMA: [u32; 64] = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113,
    92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/// Quality points under the preset's at which a source's finer chroma no longer matters.
const FAR_UNDER: u32 = 20;

/// What to do with a JPEG source shown at its own size, whose JPEG data (under any general
/// filters of its chain `filters`) is `data`: `None` when the pixel path decides (it may gain), `Some(None)` to keep
/// it, `Some(Some(stream))` for the same image with optimized Huffman tables, smaller, as a
/// plain `/DCTDecode` stream.
pub fn lossless_only(
    stream: &Stream,
    filters: &[Vec<u8>],
    data: &[u8],
    preset: Preset,
) -> Option<Option<Stream>> {
    let header = Decompressor::new().ok()?.read_header(data).ok()?;
    if header.is_lossless || !ends_whole(data) {
        return None;
    }
    let chroma_no_finer = match header.subsamp {
        Subsamp::Gray | Subsamp::Sub2x2 => true,
        Subsamp::None => preset.full_chroma(),
        _ => false,
    };
    let quality = estimated_quality(data)?;
    let preset_quality = u32::from(preset.jpeg_quality());
    // Chroma finer than the preset's could be halved for a gain, unless the source is so far
    // under the preset's quality that its luminance at the preset's alone outweighs it
    // (ocrmypdf's masks.pdf: a quality-38 4:4:4 scan became 2.4x larger at printer's 80).
    let far_under = quality + FAR_UNDER <= preset_quality;
    if quality > preset_quality || !(chroma_no_finer || far_under) {
        return None;
    }
    let mut transform = Transform::default();
    transform.optimize = true;
    let Ok(optimized) = turbojpeg::transform(&transform, data) else {
        return Some(None);
    };
    if optimized.len() >= stream.content.len() {
        return Some(None);
    }
    // The JPEG's own parameters (/ColorTransform) stay, read as the decoder reads them; the
    // general filters' go with them. Parameters that cannot be read keep the image as it is.
    let count = filters.len();
    let Some(own) = super::decode::filter_parms(stream, count.saturating_sub(1), count) else {
        return Some(None);
    };
    let mut dict = stream.dict.clone();
    dict.set("Filter", Object::Name(b"DCTDecode".to_vec()));
    match own {
        Some(own) => dict.set("DecodeParms", own.clone()),
        None => {
            dict.remove(b"DecodeParms");
        }
    }
    Some(Some(Stream::new(dict, optimized.to_vec())))
}

/// The IJG quality (1 to 100) whose luminance table is nearest this JPEG's first table, by
/// the sum of its entries: the scale libjpeg applied to the standard table.
fn estimated_quality(data: &[u8]) -> Option<u32> {
    let table = super::jpeg::segments(data)
        .find(|(marker, _)| *marker == 0xDB)
        .and_then(|(_, payload)| first_table(payload))?;
    let sum: u32 = table.iter().sum();
    let scale = f64::from(sum) * 100.0 / f64::from(STANDARD_LUMA.iter().sum::<u32>());
    let quality = if scale <= 100.0 {
        (200.0 - scale) / 2.0
    } else {
        5000.0 / scale
    };
    Some(quality.round().clamp(1.0, 100.0) as u32)
}

/// The 64 entries of a DQT segment's first table (8 or 16 bits each).
fn first_table(payload: &[u8]) -> Option<Vec<u32>> {
    let (&info, rest) = payload.split_first()?;
    let table = match info >> 4 {
        0 => rest.get(..64)?.iter().map(|&v| u32::from(v)).collect(),
        1 => rest
            .get(..128)?
            .chunks_exact(2)
            .map(|p| u32::from(u16::from_be_bytes([p[0], p[1]])))
            .collect(),
        _ => return None,
    };
    Some(table)
}

/// Whether the data ends with the end-of-image marker (a few padding bytes allowed): a JPEG
/// cut short keeps its bytes, as the lossless transform would fill in what is missing.
fn ends_whole(data: &[u8]) -> bool {
    let tail = &data[data.len().saturating_sub(32)..];
    tail.windows(2).any(|w| w == [0xFF, 0xD9])
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::super::{
        decode,
        jpeg::{self, Pixels},
    };
    use super::*;

    /// `lossless_only` at printer, with the stream's own filter chain.
    fn printer(stream: &Stream, data: &[u8]) -> Option<Option<Stream>> {
        let filters = decode::filters(stream).expect("filters");
        lossless_only(stream, &filters, data, Preset::Printer)
    }

    fn photo(quality: u8) -> Vec<u8> {
        let (width, height) = (320u32, 240u32);
        let mut data = Vec::with_capacity((width * height * 3) as usize);
        for y in 0..height {
            for x in 0..width {
                let noise = ((x * 7919 + y * 104_729) % 61) as u8;
                data.extend_from_slice(&[(x % 256) as u8 ^ noise, (y % 256) as u8, noise * 4]);
            }
        }
        let pixels = Pixels {
            data,
            width,
            height,
            channels: 3,
        };
        jpeg::encode(&pixels, quality, false).expect("encodes")
    }

    #[test]
    fn the_quality_is_read_back_from_the_tables() {
        for quality in [30u8, 50, 75, 80, 92] {
            let estimated = estimated_quality(&photo(quality)).expect("a table");
            assert!(
                estimated.abs_diff(u32::from(quality)) <= 1,
                "{quality} read as {estimated}"
            );
        }
    }

    #[test]
    fn a_jpeg_at_or_under_the_preset_keeps_its_pixels() {
        let data = photo(60);
        let stream =
            |data: &[u8]| Stream::new(dictionary! { "Filter" => "DCTDecode" }, data.to_vec());
        // Its Huffman tables are optimized already: kept as it is.
        assert!(matches!(printer(&stream(&data), &data), Some(None)));
        // Above the preset's quality: the pixel path decides.
        let fine = photo(95);
        assert!(printer(&stream(&fine), &fine).is_none());
        // Cut short: the pixel path decides (and keeps it).
        let cut = &data[..data.len() / 2];
        assert!(printer(&stream(cut), cut).is_none());
    }

    /// A quality-60 JPEG with the standard (unoptimized) Huffman tables.
    fn standard_tables() -> Vec<u8> {
        let pixels = jpeg::decode(&photo(60), (320, 240), 3, (320, 240)).expect("decodes");
        let mut compressor = turbojpeg::Compressor::new().expect("compressor");
        compressor.set_quality(60).expect("quality");
        compressor
            .set_subsamp(Subsamp::Sub2x2)
            .expect("subsampling");
        compressor
            .compress_to_vec(turbojpeg::Image {
                pixels: pixels.data.as_slice(),
                width: 320,
                pitch: 320 * 3,
                height: 240,
                format: turbojpeg::PixelFormat::RGB,
            })
            .expect("encodes")
    }

    #[test]
    fn the_jpegs_own_parameters_are_read_as_the_decoder_reads_them() {
        let plain = standard_tables();
        let own = || Object::Dictionary(dictionary! { "ColorTransform" => 0 });
        // A one-filter array with a lone dictionary: the dictionary is the JPEG's.
        let lone = Stream::new(
            dictionary! { "Filter" => vec![Object::from("DCTDecode")], "DecodeParms" => own() },
            plain.clone(),
        );
        let Some(Some(smaller)) = printer(&lone, &plain) else {
            panic!("standard tables not optimized")
        };
        assert_eq!(smaller.dict.get(b"DecodeParms").expect("kept"), &own());
        // A general filter's lone dictionary before a JPEG: parameters no decoder can place.
        let misplaced = Stream::new(
            dictionary! {
                "Filter" => vec![Object::from("FlateDecode"), Object::from("DCTDecode")],
                "DecodeParms" => own(),
            },
            plain.clone(),
        );
        assert!(matches!(printer(&misplaced, &plain), Some(None)));
    }

    #[test]
    fn standard_tables_are_optimized_and_the_pixels_stay() {
        let plain = standard_tables();
        // Under a Flate layer, as ocrmypdf's masks.pdf stores its JPEGs: a plain JPEG comes
        // back, with the JPEG's own parameters.
        let dict = dictionary! {
            "Filter" => vec![Object::from("FlateDecode"), Object::from("DCTDecode")],
            "DecodeParms" => vec![
                Object::Null,
                Object::Dictionary(dictionary! { "ColorTransform" => 1 }),
            ],
        };
        let layered = Stream::new(dict, plain.clone());
        let Some(Some(smaller)) = printer(&layered, &plain) else {
            panic!("standard tables not optimized")
        };
        assert!(smaller.content.len() < plain.len());
        assert_eq!(
            smaller.dict.get(b"Filter").expect("filter"),
            &Object::from("DCTDecode")
        );
        let parms = smaller.dict.get(b"DecodeParms").expect("parms");
        let parms = parms.as_dict().expect("dict");
        assert_eq!(
            parms.get(b"ColorTransform").expect("kept"),
            &Object::Integer(1)
        );
        let decoded = |data: &[u8]| {
            jpeg::decode(data, (320, 240), 3, (320, 240))
                .expect("decodes")
                .data
        };
        assert_eq!(decoded(&smaller.content), decoded(&plain));
    }
}
