//! zlib at the compressor's level ([`crate::streams::LEVEL`]), stopped as soon as its output
//! reaches a size it must stay under. Most deflates here are candidates that lose: an image's
//! Flate against its JPEG, a stream against the bytes it already has. A loser is known as
//! soon as it is too big, well before its end.

use flate2::{Compress, Compression, FlushCompress, Status};

/// `data` deflated, when that comes to fewer than `limit` bytes. The bytes are those of
/// flate2's writer, whose calls this makes: zlib-rs's output depends on how its input comes
/// in and on the room it has for its output, so each call offers all the input left and the
/// writer's 32 KiB of room, then the stream is finished the same way.
pub fn deflate_under(data: &[u8], limit: usize) -> Option<Vec<u8>> {
    let mut zlib = Compress::new(Compression::new(crate::streams::LEVEL), true);
    let mut out = Vec::with_capacity((data.len() / 4).min(limit));
    let mut room = Vec::with_capacity(ROOM);
    loop {
        let rest = data.get(usize::try_from(zlib.total_in()).ok()?..)?;
        let flush = if rest.is_empty() {
            FlushCompress::Finish
        } else {
            FlushCompress::None
        };
        let status = zlib.compress_vec(rest, &mut room, flush).ok()?;
        out.extend_from_slice(&room);
        room.clear();
        if out.len() >= limit {
            return None;
        }
        if status == Status::StreamEnd {
            return Some(out);
        }
    }
}

/// The room for output flate2's writer gives zlib at each call.
const ROOM: usize = 32 * 1024;

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// What flate2's writer makes of `data`.
    fn written(data: &[u8]) -> Vec<u8> {
        let mut encoder =
            flate2::write::ZlibEncoder::new(Vec::new(), Compression::new(crate::streams::LEVEL));
        encoder.write_all(data).expect("in memory");
        encoder.finish().expect("in memory")
    }

    #[test]
    fn the_bytes_of_the_writer_or_none_past_the_limit() {
        let text: Vec<u8> = (0..300_000u32)
            .flat_map(|i| format!("{} {} l\n", i % 613, i * 7 % 1000).into_bytes())
            .collect();
        let noise: Vec<u8> = (0..200_000u64)
            .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8)
            .collect();
        for data in [&b""[..], b"a", &text, &noise, &text[..70_000]] {
            let reference = written(data);
            assert_eq!(deflate_under(data, usize::MAX).as_ref(), Some(&reference));
            assert_eq!(
                deflate_under(data, reference.len() + 1).as_ref(),
                Some(&reference)
            );
            assert_eq!(deflate_under(data, reference.len()), None);
            assert_eq!(deflate_under(data, reference.len() / 3), None);
        }
    }
}
