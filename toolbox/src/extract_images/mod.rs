//! Extract images: every image XObject the pages use, written once each as a file of its own.
//!
//! JPEG and JPEG 2000 data is copied as stored (no quality lost, no decoding), everything
//! else decodable is written as an 8-bit PNG. Images are found through the pages' resources
//! (see `walk`), content streams unread: inline images are not extracted. Soft masks are
//! not merged into their images; on request they are written beside them.

mod decode;
mod fingerprint;
mod pixels;
mod space;
mod walk;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lopdf::{Document, Object, ObjectId, Stream};

use crate::{ToolError, io, pages};
use decode::Skip;

/// One image written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The file name, `<stem>-p<first page>-<n>.<ext>` (`-mask` before the extension for a
    /// mask).
    pub name: String,
    pub path: PathBuf,
    /// 1-based pages it is drawn on (from the pages' resources, Form XObjects included,
    /// recursively, cycle-guarded), ascending; for a byte-identical copy stored as several
    /// objects, the pages of all of them. A mask has the pages of its image.
    pub pages: Vec<u32>,
    pub width: u32,
    pub height: u32,
}

/// Images not written, by reason. Each image object reachable from the pages counts once,
/// either as written or under one reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skipped {
    /// CCITT fax, JBIG2, Lab/Separation/DeviceN colour, damaged data, ...; with
    /// `include_masks`, a mask that cannot be written counts here too.
    pub undecodable: u32,
    /// Smaller than `min_side` pixels on both sides.
    pub small: u32,
    /// More than `max_pixels` pixels to decode (a mask too, with `include_masks`).
    pub too_large: u32,
    /// Objects byte-identical (data and dictionary) to an image met before: its file covers
    /// them, their pages added to its pages.
    pub duplicates: u32,
}

/// Every image XObject reachable from the pages (not inline images), once each, written into
/// `out_dir` (created if missing) as `<stem>-p<first page>-<n>.<ext>`, `n` counting from 1
/// the files named after that page, in the order the images are met (pages in order, each
/// page's own resources before those of its forms):
///
/// - DCTDecode (alone, or after ASCII85/ASCIIHex/Flate wrappers only): the JPEG bytes as
///   stored, `.jpg` (an Adobe CMYK JPEG stays a CMYK JPEG, and /Decode is not applied);
/// - JPXDecode (same wrappers): the JPEG 2000 data as stored, `.jp2` for a JP2 file, `.j2k`
///   for a raw codestream;
/// - anything else with Flate, LZW, RunLength and ASCII filters (PNG and TIFF predictors),
///   grey, RGB or CMYK colour (Device, Cal, ICC-based by its /N; CMYK converted naively,
///   r = 255·(1−c)(1−k)), palettes over those, 1, 2, 4, 8 or 16 bits (the high byte kept),
///   stencil masks (painted samples black), /Decode applied: an 8-bit grey or RGB PNG;
/// - CCITT fax, JBIG2 and anything else: skipped as undecodable.
///
/// Images smaller than `min_side` on both sides are skipped as small. An image to decode with
/// more than `max_pixels` pixels is skipped as too large before anything is decoded (JPEG and
/// JPEG 2000 data, copied, is not held to it). With `include_masks`, each written image's soft
/// mask (or, without one, its stencil /Mask) is written as `<its name>-mask.<ext>` by the same
/// rules (not held to `min_side`), once however many images share it (a mask the pages also
/// draw as an image is written as that image only).
///
/// Images are found through the resources of the pages, of their annotations' normal
/// appearances, and of the forms, tiling patterns and Type 3 fonts these name, recursively
/// (see `walk`): an image listed but never drawn is extracted too, one on a hidden layer as
/// well. Data shorter than the image (at least one row) is padded with zeros, as MuPDF shows
/// it. A file with no images gives an empty list; a password-protected one is
/// [`ToolError::Encrypted`], an unreadable one [`ToolError::InvalidFile`]. An image that
/// fails to decode is counted, never an error.
pub fn extract_images(
    input: &Path,
    stem: &str,
    out_dir: &Path,
    min_side: u32,
    include_masks: bool,
    max_pixels: u64,
) -> Result<(Vec<Extracted>, Skipped), ToolError> {
    let doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    let found = walk::images(&doc, &tree);
    let mut skipped = Skipped::default();
    // A mask that is also drawn as an image of its own is written (or counted) as that image.
    let drawn: HashSet<ObjectId> = found.iter().map(|image| image.id).collect();
    let unique = deduplicate(&doc, found, &mut skipped);
    let mut writer = Writer {
        doc: &doc,
        stem,
        out_dir,
        max_pixels,
        counters: HashMap::new(),
        masks: HashMap::new(),
        written: Vec::new(),
        skipped,
    };
    for image in unique {
        let Some(stream) = stream(&doc, image.id) else {
            writer.skipped.undecodable += 1;
            continue;
        };
        let Some((width, height)) = size(&doc, stream) else {
            writer.skipped.undecodable += 1;
            continue;
        };
        if width < min_side && height < min_side {
            writer.skipped.small += 1;
            continue;
        }
        let Some(name) = writer.image(stream, (width, height), &image.pages)? else {
            continue;
        };
        if include_masks
            && let Some(mask) = mask_of(&doc, stream)
            && !drawn.contains(&mask)
        {
            writer.mask(mask, &name, &image.pages)?;
        }
    }
    tracing::debug!(written = writer.written.len(), skipped = ?writer.skipped, "images extracted");
    Ok((writer.written, writer.skipped))
}

/// Copies merged: the first object met of each set of byte-identical ones, with the pages of
/// all of them.
fn deduplicate(doc: &Document, found: Vec<walk::Found>, skipped: &mut Skipped) -> Vec<walk::Found> {
    let mut unique: Vec<walk::Found> = Vec::new();
    let mut by_print: HashMap<u64, Vec<usize>> = HashMap::new();
    for image in found {
        let Some(data) = stream(doc, image.id) else {
            unique.push(image);
            continue;
        };
        let print = fingerprint::fingerprint(doc, data);
        let candidates = by_print.entry(print).or_default();
        let same = candidates.iter().copied().find(|&i| {
            stream(doc, unique[i].id).is_some_and(|other| fingerprint::same_bytes(data, other))
        });
        match same {
            Some(i) => {
                skipped.duplicates += 1;
                merge_pages(&mut unique[i].pages, &image.pages);
            }
            None => {
                candidates.push(unique.len());
                unique.push(image);
            }
        }
    }
    unique
}

/// Adds `more` to the ascending page list `pages`.
fn merge_pages(pages: &mut Vec<u32>, more: &[u32]) {
    pages.extend_from_slice(more);
    pages.sort_unstable();
    pages.dedup();
}

/// Writes images and masks, naming them and keeping the counts.
struct Writer<'a> {
    doc: &'a Document,
    stem: &'a str,
    out_dir: &'a Path,
    max_pixels: u64,
    /// Files named after each first page so far.
    counters: HashMap<u32, u32>,
    /// Masks tried, by object, with their index in `written` if written.
    masks: HashMap<ObjectId, Option<usize>>,
    written: Vec<Extracted>,
    skipped: Skipped,
}

impl Writer<'_> {
    /// Writes one image; its name without extension, or `None` when it was skipped.
    fn image(
        &mut self,
        stream: &Stream,
        size: (u32, u32),
        pages: &[u32],
    ) -> Result<Option<String>, ToolError> {
        let Some(encoded) = self.encode(stream, size) else {
            return Ok(None);
        };
        let first = pages.first().copied().unwrap_or(0);
        let n = self.counters.entry(first).or_insert(0);
        *n += 1;
        let base = format!("{}-p{first}-{n}", self.stem);
        self.write(&base, encoded, size, pages)?;
        Ok(Some(base))
    }

    /// Writes the mask `id` of the image named `base`, or adds `pages` to it if written.
    fn mask(&mut self, id: ObjectId, base: &str, pages: &[u32]) -> Result<(), ToolError> {
        match self.masks.get(&id) {
            Some(Some(i)) => {
                merge_pages(&mut self.written[*i].pages, pages);
                return Ok(());
            }
            // Counted once, when it failed.
            Some(None) => return Ok(()),
            None => {}
        }
        self.masks.insert(id, None);
        let doc = self.doc;
        let Some((stream, size)) = stream(doc, id).and_then(|s| Some((s, size(doc, s)?))) else {
            self.skipped.undecodable += 1;
            return Ok(());
        };
        let Some(encoded) = self.encode(stream, size) else {
            return Ok(());
        };
        self.masks.insert(id, Some(self.written.len()));
        self.write(&format!("{base}-mask"), encoded, size, pages)
    }

    /// The image's file, or `None` with the reason counted.
    fn encode(&mut self, stream: &Stream, size: (u32, u32)) -> Option<decode::Encoded> {
        match decode::encode(self.doc, stream, size, self.max_pixels) {
            Ok(encoded) => Some(encoded),
            Err(Skip::TooLarge) => {
                self.skipped.too_large += 1;
                None
            }
            Err(Skip::Undecodable(why)) => {
                tracing::debug!(why, "image skipped");
                self.skipped.undecodable += 1;
                None
            }
        }
    }

    fn write(
        &mut self,
        base: &str,
        encoded: decode::Encoded,
        (width, height): (u32, u32),
        pages: &[u32],
    ) -> Result<(), ToolError> {
        let name = format!("{base}.{}", encoded.ext);
        let path = self.out_dir.join(&name);
        std::fs::create_dir_all(self.out_dir)
            .and_then(|()| std::fs::write(&path, &encoded.bytes))
            .map_err(|e| ToolError::Io(format!("cannot write {name}: {e}")))?;
        self.written.push(Extracted {
            name,
            path,
            pages: pages.to_vec(),
            width,
            height,
        });
        Ok(())
    }
}

fn stream(doc: &Document, id: ObjectId) -> Option<&Stream> {
    doc.get_object(id).ok()?.as_stream().ok()
}

/// /Width and /Height, both positive.
fn size(doc: &Document, stream: &Stream) -> Option<(u32, u32)> {
    let side = |key: &[u8]| {
        let value = doc.dereference(stream.dict.get(key).ok()?).ok()?.1;
        // Some writers store sizes as reals ("100.0").
        let value = value.as_i64().ok().or_else(|| {
            let real = value.as_float().ok()?;
            (real.fract() == 0.0).then_some(real as i64)
        })?;
        u32::try_from(value).ok().filter(|&v| v > 0)
    };
    Some((side(b"Width")?, side(b"Height")?))
}

/// The image's soft mask, or its stencil mask when it has no soft mask (a /Mask array is a
/// colour key, no image).
fn mask_of(doc: &Document, image: &Stream) -> Option<ObjectId> {
    [b"SMask".as_slice(), b"Mask"]
        .into_iter()
        .find_map(|key| match image.dict.get(key) {
            Ok(Object::Reference(id)) if stream(doc, *id).is_some() => Some(*id),
            _ => None,
        })
}
