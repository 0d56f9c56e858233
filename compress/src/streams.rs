//! Stream-level savings: Flate streams (and LZW, ASCII85, ASCIIHex, RunLength chains)
//! recompressed as Flate, plain streams compressed, and byte-identical streams merged into one object.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use foldhash::{HashMap, HashMapExt, HashSet};
use lopdf::{Document, Object, ObjectId, Stream};

use super::{CompressError, Preset};
use crate::content::minify::{Numbers, content_streams, minify};
use crate::plain::Undecodable;

/// Decoded size one stream may reach: the limit every PDF is held to before an engine opens
/// it ([`crate::pdf_limits`]). A stream over it is a decompression bomb, and the job stops
/// there rather than skip it, so the answer says the file is hostile (422) instead of quietly
/// handing it back.
pub const MAX_DECODED: usize = crate::pdf_limits::MAX_STREAM_DECODED as usize;

/// The zlib level of every Flate stream written: zlib's default. Level 9 measured 0.1 % smaller
/// on the real-world corpus at ebook (16.45 against 16.48 MB) for 1.8x the time (15.1 against
/// 8.5 s); deflate's longest-match search was half of all the time spent.
pub const LEVEL: u32 = 6;

/// Filters lopdf decodes; a stream made only of these can be re-encoded as plain Flate.
const TRANSPORT: [&[u8]; 5] = [
    b"FlateDecode",
    b"LZWDecode",
    b"ASCII85Decode",
    b"ASCIIHexDecode",
    b"RunLengthDecode",
];

/// The content streams, written again with fewer bytes as they are packed, and how.
pub struct Contents {
    ids: HashSet<ObjectId>,
    numbers: Numbers,
}

impl Contents {
    pub fn of(doc: &Document, preset: Preset) -> Self {
        let numbers = match preset {
            Preset::Screen | Preset::Ebook => Numbers::Rounded,
            Preset::Printer | Preset::Prepress => Numbers::Exact,
        };
        Contents {
            ids: content_streams(doc),
            numbers,
        }
    }

    fn numbers(&self, id: ObjectId) -> Option<Numbers> {
        self.ids.contains(&id).then_some(self.numbers)
    }
}

/// Recompresses Flate and unfiltered streams (content streams minified first); keeps
/// whichever encoding is smaller. A stream `ahead` already packed, unchanged since, takes that
/// result.
pub fn recompress_streams(
    doc: &mut Document,
    ahead: &Ahead,
    contents: &Contents,
) -> Result<usize, CompressError> {
    let work: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, object)| matches!(object, Object::Stream(stream) if recompressible(stream)))
        .map(|(&id, _)| id)
        .collect();
    let shared: &Document = doc;
    // Deflate dominates here (a seventh of the compressor's instructions on a text-heavy
    // manual): one thread per core, each stream on its own.
    let packed = crate::parallel::map(
        &work,
        || (),
        |(), &id| {
            let Ok(Object::Stream(stream)) = shared.get_object(id) else {
                return None;
            };
            let packed = ahead.take(id, stream);
            match packed.unwrap_or_else(|| pack(stream, contents.numbers(id))) {
                Packed::Kept => None,
                Packed::Smaller(packed) => Some(Ok((id, packed))),
                Packed::Bomb => Some(Err(bomb())),
            }
        },
    );
    let mut changed = 0;
    for outcome in packed {
        let (id, packed) = outcome?;
        if let Ok(Object::Stream(stream)) = doc.get_object_mut(id) {
            stream.dict.set("Filter", "FlateDecode");
            stream.dict.remove(b"DecodeParms");
            stream.set_content(packed);
            changed += 1;
        }
    }
    Ok(changed)
}

/// What recompressing one stream comes to.
enum Packed {
    /// Flate at [`LEVEL`] is no smaller, or the stream cannot be decoded: it stays.
    Kept,
    Smaller(Vec<u8>),
    /// It decodes past [`MAX_DECODED`].
    Bomb,
}

fn pack(stream: &Stream, numbers: Option<Numbers>) -> Packed {
    let plain = if crate::plain::is_unfiltered(stream) {
        std::borrow::Cow::Borrowed(&stream.content)
    } else {
        match crate::plain::decode(stream, MAX_DECODED) {
            Ok(plain) => std::borrow::Cow::Owned(plain),
            Err(Undecodable::Bomb) => return Packed::Bomb,
            // A damaged stream is kept as it is: its partial bytes would replace what
            // viewers recover from it.
            Err(_) => return Packed::Kept,
        }
    };
    let minified = numbers.and_then(|numbers| minify(&plain, numbers));
    let plain = minified.as_deref().unwrap_or(&plain);
    // Kept only when smaller than what the stream has: stopped once it is not.
    match crate::zlib::deflate_under(plain, stream.content.len()) {
        Some(packed) => Packed::Smaller(packed),
        None => Packed::Kept,
    }
}

/// The recompression worked out ahead, on copies of the streams, while the rest of the job
/// reads and rewrites the document: the survey and the fonts run on one core, and deflate
/// was a fifth of a job's time after them. A stream changed in the meantime is recompressed
/// again at the end; the others take the result worked out here.
pub struct Ahead {
    copies: Vec<(ObjectId, Stream, Option<Numbers>)>,
    at: HashMap<ObjectId, usize>,
    next: AtomicUsize,
    packed: Vec<Mutex<Option<Packed>>>,
}

impl Ahead {
    /// Copies of the streams to recompress, but font programs: those the fonts rewrite would
    /// be packed for nothing, and the others are packed at the end.
    pub fn new(doc: &Document, contents: &Contents) -> Self {
        let programs: HashSet<ObjectId> = crate::fonts::programs(doc)
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        let copies: Vec<(ObjectId, Stream, Option<Numbers>)> = doc
            .objects
            .iter()
            .filter_map(|(&id, object)| match object {
                Object::Stream(stream) if recompressible(stream) && !programs.contains(&id) => {
                    Some((id, stream.clone(), contents.numbers(id)))
                }
                _ => None,
            })
            .collect();
        Ahead {
            at: copies
                .iter()
                .enumerate()
                .map(|(i, (id, _, _))| (*id, i))
                .collect(),
            packed: copies.iter().map(|_| Mutex::new(None)).collect(),
            copies,
            next: AtomicUsize::new(0),
        }
    }

    /// Packs copies until none is left.
    pub fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let (Some((_, stream, numbers)), Some(slot)) = (self.copies.get(i), self.packed.get(i))
            else {
                return;
            };
            let packed = pack(stream, *numbers);
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(packed);
            }
        }
    }

    /// The copies left, packed on every core.
    pub fn finish(&self) {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        crate::parallel::parts(cores, |_| self.work());
    }

    /// The result for stream `id`, when its copy was packed and it has not changed since.
    fn take(&self, id: ObjectId, stream: &Stream) -> Option<Packed> {
        let &i = self.at.get(&id)?;
        let (_, copy, _) = self.copies.get(i)?;
        if copy.content != stream.content || copy.dict != stream.dict {
            return None;
        }
        self.packed.get(i)?.lock().ok()?.take()
    }
}

/// Whether a stream is Flate-coded again: not images (handled with their own codecs), not
/// metadata (stays readable as XML), and only behind filters lopdf decodes (Flate with
/// predictors, LZW, ASCII85, ASCIIHex, RunLength), which become one Flate layer.
fn recompressible(stream: &Stream) -> bool {
    let kind = stream.dict.get(b"Type").and_then(Object::as_name).ok();
    let subtype = stream.dict.get(b"Subtype").and_then(Object::as_name).ok();
    if matches!(kind, Some(b"Metadata" | b"XRef" | b"ObjStm")) || subtype == Some(b"Image") {
        return false;
    }
    crate::plain::filter_names(stream)
        .is_ok_and(|names| names.iter().all(|f| TRANSPORT.contains(&f.as_slice())))
}

pub fn bomb() -> CompressError {
    CompressError::OverLimit(format!(
        "a stream of the PDF decodes to more than {} MiB (a decompression bomb): it cannot be compressed",
        MAX_DECODED >> 20
    ))
}

/// Points every reference to a duplicate stream at its first copy; the copies are then
/// unreferenced and dropped with the other unused objects. Hashes every stream's bytes, so
/// with foldhash rather than SipHash (several times faster on megabytes of image data).
pub fn merge_duplicate_streams(doc: &mut Document) -> usize {
    let mut first: HashMap<(String, &[u8]), ObjectId> = HashMap::new();
    let mut replace: HashMap<ObjectId, ObjectId> = HashMap::new();
    for (&id, object) in &doc.objects {
        if let Object::Stream(stream) = object {
            let key = (format!("{:?}", stream.dict), stream.content.as_slice());
            match first.get(&key) {
                Some(&original) => {
                    replace.insert(id, original);
                }
                None => {
                    first.insert(key, id);
                }
            }
        }
    }
    if !replace.is_empty() {
        redirect(doc, |id| replace.get(id).copied());
    }
    replace.len()
}

/// Points every reference `to_original` maps at the object it names instead; the objects
/// left unreferenced are dropped with the other unused objects.
pub fn redirect(doc: &mut Document, to_original: impl Fn(&ObjectId) -> Option<ObjectId>) {
    doc.traverse_objects(|object| {
        if let Object::Reference(id) = object
            && let Some(original) = to_original(id)
        {
            *id = original;
        }
    });
}
