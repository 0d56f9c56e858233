//! The limits every PDF is held to before PDFium or lopdf opens it, and the guard that checks
//! them: one cheap pass over the file that decodes each stream's transport filters with a
//! counter (nothing decoded is kept but object streams, parsed for the objects they hold) and
//! counts the objects. A file over a limit is refused before any engine reads it: a 1.5 KB file
//! whose content stream inflates to 512 MiB would otherwise cost a worker its memory.
//!
//! An encrypted file's streams are decrypted first (with the empty user password, with which
//! the engines open it silently, or the password the job carries), and measured the same.
//!
//! Lives in the compressor's crate because it is the lowest one both sides share: the
//! toolbox depends on it, and the core's workers run the guard on every PDF job's input.

mod crypt;
mod decode;
mod scan;
mod syntax;

use std::path::Path;

/// Decoded size one stream may reach. Far above any real content stream, font or image;
/// lopdf's own bound on the object and cross-reference streams it loads is the same.
pub const MAX_STREAM_DECODED: u64 = 256 << 20;
/// Decoded size all of a file's streams may reach together: bounds the guard's own time (it
/// decodes at a few GB/s) and what a file of many streams just under the limit above costs.
pub const MAX_TOTAL_DECODED: u64 = 4 << 30;
/// Objects one file may hold (its headers, those in object streams, and the largest `/Size`
/// its cross-reference sections declare). PDFium's own ceiling is 4 Mi; real files with
/// hundreds of thousands are rare.
pub const MAX_OBJECTS: u64 = 1_000_000;
/// How deep arrays and dictionaries may nest. PDFium stops parsing at 64 levels; lopdf
/// recurses without a bound, and a file of nothing but `[` would overflow its stack.
pub const MAX_NESTING: usize = 256;
/// Pixel data an image whose codec is JPEG, JPEG 2000, CCITT or JBIG2 may declare (width x
/// height x components x bits): those are decoded to what they declare, not measured here.
pub const MAX_IMAGE_BYTES: u64 = 1 << 30;

/// What the guard saw of a file it let through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    pub objects: u64,
    pub streams: u64,
    /// Bytes its transport filters decode to, all streams together.
    pub decoded: u64,
}

/// Why a file is refused: which limit, and the figure in the message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error(
        "the PDF is refused: its stream {0} decodes to more than {mib} MiB, the limit of one \
         stream (a decompression bomb, or a damaged file); if the file is genuine, re-save it \
         from the program that made it, or split it, and send it again",
        mib = MAX_STREAM_DECODED >> 20
    )]
    StreamTooLarge(u32),
    #[error(
        "the PDF is refused: its streams decode to more than {mib} MiB in all, the limit of one \
         file; split it and send the parts",
        mib = MAX_TOTAL_DECODED >> 20
    )]
    TotalTooLarge,
    #[error(
        "the PDF is refused: it holds {0} objects or more, over the limit of {MAX_OBJECTS} per \
         file; split it and send the parts"
    )]
    TooManyObjects(u64),
    #[error(
        "the PDF is refused: its arrays or dictionaries nest more than {MAX_NESTING} levels \
         deep, the limit of one file (a damaged or hostile file); re-save it from the program \
         that made it and send it again"
    )]
    TooDeep,
    #[error(
        "the PDF is refused: its image {object} declares {width} x {height} pixels, more than \
         the {mib} MiB of pixel data one image may hold; use smaller images",
        mib = MAX_IMAGE_BYTES >> 20
    )]
    ImageTooLarge {
        object: u32,
        width: u64,
        height: u64,
    },
    #[error(
        "the PDF is refused: its encryption dictionary cannot be read ({0}), so its content \
         cannot be checked; remove the password protection with the program that made it, or \
         re-save it, and send it again"
    )]
    Unreadable(String),
}

/// Checks the PDF held in `data` against the limits.
pub fn check(data: &[u8]) -> Result<Survey, Refusal> {
    scan::survey(data, None)
}

/// Checks the PDF held in `data`, decrypting it with `password` if the empty password does
/// not open it (a job that carries the password will hand it to the engine).
pub fn check_with_password(data: &[u8], password: &str) -> Result<Survey, Refusal> {
    scan::survey(data, Some(password.as_bytes()))
}

/// Checks the PDF at `path`, with the job's `password` if it carries one; reading it is the
/// only I/O.
pub fn check_file(path: &Path, password: Option<&str>) -> std::io::Result<Result<Survey, Refusal>> {
    let data = std::fs::read(path)?;
    Ok(scan::survey(&data, password.map(str::as_bytes)))
}

#[cfg(test)]
mod tests;
