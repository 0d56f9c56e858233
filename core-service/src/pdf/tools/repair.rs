//! repair: a damaged PDF rewritten whole. PDFium opens it the way viewers do (it rebuilds a
//! broken or missing cross-reference table by scanning for objects and reads a truncated file
//! up to where it breaks), pages it cannot load are left out, and the document is saved as a
//! complete new file (no incremental update). What was wrong is told from a cheap look at the
//! input's bytes and from lopdf, before anything is written.

use std::path::Path;

use flate2::{Decompress, FlushDecompress, Status};
use lopdf::content::Content;
use lopdf::xref::XrefRecovery;
use lopdf::{
    DEFAULT_MAX_DECOMPRESSED_SIZE, DecompressError, Document, LoadOptions, Object, ObjectId,
};
use pdfium_render::prelude::*;

use crate::pdf::pdfium;
use crate::workers::protocol::{Failure, FailureKind};

/// What repair found and did, in sentences a person reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    pub pages: u32,
    pub findings: Vec<String>,
}

pub const NOTHING_WRONG: &str = "nothing was wrong: the file was rewritten as is";
pub const XREF_DAMAGED: &str = "the cross-reference table was damaged and has been rebuilt";
pub const XREF_MISSING: &str = "the cross-reference table was missing and has been rebuilt";

/// How far from the end of the file `%%EOF`, `startxref` and their offset are looked for.
const TAIL: usize = 4096;

/// Rebuilds a damaged PDF into `output`. A file PDFium cannot open at all fails as
/// [`pdfium::open`] does (InvalidFile, Encrypted); a file none of whose pages can be read
/// fails as InvalidFile; a failure to write is Engine.
pub fn repair(pdfium: &Pdfium, input: &str, output: &Path) -> Result<Repaired, Failure> {
    let opened = pdfium::open(pdfium, input);
    if let Err(failure) = &opened
        && failure.kind != FailureKind::InvalidFile as i32
    {
        return Err(failure.clone());
    }
    let bytes = std::fs::read(input).map_err(|e| {
        Failure::new(
            FailureKind::InvalidFile,
            format!("the PDF cannot be read: {e}"),
        )
    })?;
    let look = Look::at(&bytes);
    // Only a file that may have been cut short has each image's data read to its end.
    let structure = Structure::of(&bytes, look.cut_short() || look.startxref.is_none());
    let no_pages = || {
        Failure::new(
            FailureKind::InvalidFile,
            "no page of the PDF could be recovered: the file is too damaged to repair",
        )
    };
    let key_lost = Failure::new(
        FailureKind::InvalidFile,
        "the PDF is encrypted and the part of the file that says how was lost: it cannot be \
         repaired",
    );
    let (document, rescue) = match opened {
        Ok(document) if !document.pages().is_empty() || structure.orphans.is_none() => {
            let unprotected = matches!(
                document.permissions().security_handler_revision(),
                Ok(PdfSecurityHandlerRevision::Unprotected)
            );
            if unprotected && lost_key_in(&look, &bytes) {
                return Err(key_lost);
            }
            drop(bytes);
            (document, Rescue::None)
        }
        opened => {
            let failure = opened.err().unwrap_or_else(no_pages);
            if lost_key_in(&look, &bytes) {
                return Err(key_lost);
            }
            rescue(pdfium, bytes, &structure).ok_or(failure)?
        }
    };

    let listed = u32::try_from(document.pages().len()).unwrap_or(0);
    let unreadable = unreadable_pages(&document);
    let readable: Vec<u32> = (1..=listed).filter(|p| !unreadable.contains(p)).collect();
    // lopdf's pages, as PDFium numbers them: the same when lopdf counts as many, the pages
    // PDFium can read when lopdf left out those whose objects are lost; in a new tree, the
    // pages found, in order.
    let (lopdf_pages, broken, lost, images) = match (rescue, &structure.orphans) {
        (Rescue::Tree, Some(orphans)) => (
            listed,
            &orphans.broken_content,
            &orphans.lost_content,
            &orphans.cut_images,
        ),
        _ => (
            structure.lopdf_pages,
            &structure.broken_content,
            &structure.lost_content,
            &structure.cut_images,
        ),
    };
    let to_pdfium = |pages: &[u32]| -> Vec<u32> {
        if lopdf_pages == listed {
            pages
                .iter()
                .copied()
                .filter(|p| !unreadable.contains(p))
                .collect()
        } else if lopdf_pages as usize == readable.len() {
            pages
                .iter()
                .filter_map(|p| readable.get(*p as usize - 1).copied())
                .collect()
        } else {
            Vec::new()
        }
    };
    let mut damaged = to_pdfium(broken);
    damaged.extend(to_pdfium(lost));
    damaged.sort_unstable();
    damaged.dedup();
    if readable.is_empty() {
        return Err(no_pages());
    }
    let write_failure = |e: PdfiumError| {
        let _ = std::fs::remove_file(output);
        Failure::new(
            FailureKind::Engine,
            format!("PDFium could not write the repaired PDF: {e}"),
        )
    };
    // PDFium cannot take a page it cannot load out of its page tree (nor walk a tree that
    // holds one), and pages put in a new tree still name their lost parent: the pages that
    // load go into a new document instead.
    let copied = !unreadable.is_empty() || rescue == Rescue::Tree;
    let mut document = if !copied {
        document
    } else {
        readable_copy(pdfium, &document, &readable).map_err(write_failure)?
    };
    // Pages keep their numbers in the input in what is said; in `document` they are now
    // numbered among the readable ones.
    let in_document = |page: &u32| {
        readable
            .iter()
            .position(|r| r == page)
            .map(|i| i as u32 + 1)
    };
    let in_input = |pages: Vec<u32>| -> Vec<u32> {
        pages
            .iter()
            .filter_map(|page| readable.get(*page as usize - 1).copied())
            .collect()
    };
    let damaged: Vec<u32> = damaged.iter().filter_map(in_document).collect();
    let (rewritten, blank) = fix_content(&mut document, &damaged);
    let (rewritten, blank) = (in_input(rewritten), in_input(blank));
    let cut_images: Vec<u32> = to_pdfium(images)
        .into_iter()
        .filter(|page| !blank.contains(page))
        .collect();
    let findings = findings(
        &look,
        &structure,
        Pages {
            listed,
            unreadable: &unreadable,
            rewritten: &rewritten,
            blank: &blank,
            cut_images: &cut_images,
            copied,
        },
        rescue,
    );
    document.save_to_file(output).map_err(write_failure)?;
    let pages = readable.len() as u32;
    Ok(Repaired { pages, findings })
}

/// How a file PDFium could not open (or found no page in) was opened after all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rescue {
    /// PDFium opened the file as it is.
    None,
    /// The trailer was lost (a file cut short loses it first): given one that names the
    /// catalog lopdf found by scanning, PDFium reads what is left.
    Trailer,
    /// The catalog or the page tree was lost too: the pages lopdf found go into a new tree,
    /// in the order of their object numbers (the order producers write them in).
    Tree,
}

/// Opens `bytes` with what [`Structure`] wrote to append to it, first a trailer, then a new
/// page tree, until PDFium finds a page it can read.
fn rescue<'a>(
    pdfium: &'a Pdfium,
    bytes: Vec<u8>,
    structure: &Structure,
) -> Option<(PdfDocument<'a>, Rescue)> {
    let candidates = [
        (structure.trailer.as_deref(), Rescue::Trailer),
        (
            structure.orphans.as_ref().map(|o| &o.tail[..]),
            Rescue::Tree,
        ),
    ];
    for (tail, rescue) in candidates {
        let Some(tail) = tail else {
            continue;
        };
        let patched = [&bytes[..], &closing(&bytes), tail].concat();
        if let Ok(document) = pdfium.load_pdf_from_byte_vec(patched, None) {
            let pages = document.pages();
            if (0..pages.len()).any(|index| pages.page_size(index).is_ok()) {
                return Some((document, rescue));
            }
        }
    }
    None
}

/// The 1-based numbers of the pages PDFium lists but cannot read (their objects were
/// lost), found without parsing any page's content.
fn unreadable_pages(document: &PdfDocument) -> Vec<u32> {
    let pages = document.pages();
    (0..pages.len())
        .filter(|&index| pages.page_size(index).is_err())
        .map(|index| index as u32 + 1)
        .collect()
}

/// Pages (1-based) whose content is damaged or lost: PDFium writes anew the content of those
/// it parsed some of, leaving out what it could not (first list), and the others, of which
/// it parsed nothing, become blank pages of the same size (second list).
fn fix_content(document: &mut PdfDocument, pages: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (mut rewritten, mut blank) = (Vec::new(), Vec::new());
    for &page in pages {
        let index = page as PdfPageIndex - 1;
        let Ok(mut loaded) = document.pages().get(index) else {
            continue;
        };
        if loaded.objects().is_empty() {
            drop(loaded);
            if blank_page(document, index).is_ok() {
                blank.push(page);
            }
        } else if rewrite(&mut loaded) {
            rewritten.push(page);
        }
    }
    (rewritten, blank)
}

/// Has PDFium write the page's content anew from what it parsed. It writes again only the
/// content streams whose objects changed: every object is moved by nothing first.
fn rewrite(page: &mut PdfPage) -> bool {
    page.set_content_regeneration_strategy(PdfPageContentRegenerationStrategy::Manual);
    let mut touched = false;
    for mut object in page.objects().iter() {
        touched |= object.translate(PdfPoints::ZERO, PdfPoints::ZERO).is_ok();
    }
    touched && page.regenerate_content().is_ok()
}

/// Puts a blank page of the same boxes and rotation in place of the page at `index`: PDFium
/// cannot drop content streams it parsed nothing from.
fn blank_page(document: &mut PdfDocument, index: PdfPageIndex) -> Result<(), PdfiumError> {
    let page = document.pages().get(index)?;
    // An inherited media box is not the page's own: the box the page shows then.
    let boundaries = page.boundaries();
    let media = boundaries
        .media()
        .or_else(|_| boundaries.bounding())?
        .bounds;
    let crop = boundaries.crop().ok().map(|crop| crop.bounds);
    let rotation = page.rotation()?;
    page.delete()?;
    let size = PdfPagePaperSize::Custom(media.width(), media.height());
    let mut blank = document.pages_mut().create_page_at_index(size, index)?;
    blank.boundaries_mut().set_media(media)?;
    if let Some(crop) = crop {
        blank.boundaries_mut().set_crop(crop)?;
    }
    blank.set_rotation(rotation);
    Ok(())
}

/// A new document of the `pages` (1-based) of `document`, in order.
fn readable_copy<'a>(
    pdfium: &'a Pdfium,
    document: &PdfDocument,
    pages: &[u32],
) -> Result<PdfDocument<'a>, PdfiumError> {
    let mut ranges = Vec::new();
    let mut rest = pages;
    while let [first, ..] = rest {
        let run = rest
            .iter()
            .zip(*first..)
            .take_while(|(p, n)| **p == *n)
            .count();
        let last = rest[run - 1];
        ranges.push(if run == 1 {
            first.to_string()
        } else {
            format!("{first}-{last}")
        });
        rest = &rest[run..];
    }
    let mut copy = pdfium.create_new_pdf()?;
    copy.pages_mut()
        .copy_pages_from_document(document, &ranges.join(","), 0)?;
    Ok(copy)
}

/// What the bytes of the file say, without parsing it.
#[derive(Debug, Default)]
struct Look {
    /// `%%EOF` markers in the file.
    eof_markers: usize,
    /// The first-page trailer of a linearized file ends with a `%%EOF` of its own.
    linearized: bool,
    /// Bytes after the last `%%EOF` other than white space.
    trailing: usize,
    /// The bytes after the last `%%EOF` look like an unfinished update (objects, a table).
    trailing_objects: bool,
    /// `startxref` near the end, and whether its offset points at a cross-reference table
    /// or stream.
    startxref: Option<bool>,
    /// When `startxref` points at a classic table: whether every entry in use in it points
    /// at its object.
    table: Option<bool>,
}

impl Look {
    fn at(bytes: &[u8]) -> Self {
        let eofs: Vec<usize> = find_all(bytes, b"%%EOF").collect();
        let head = &bytes[..bytes.len().min(1024)];
        let linearized = find_all(head, b"/Linearized").next().is_some();
        let (trailing, trailing_objects) = match eofs.last() {
            Some(&at) => {
                let rest = &bytes[at + b"%%EOF".len()..];
                let trailing = rest.iter().filter(|b| !is_space(**b)).count();
                let objects = find_all(rest, b" obj").next().is_some()
                    || find_all(rest, b"xref").next().is_some();
                (trailing, objects)
            }
            None => (0, false),
        };
        // The last `startxref` before the last `%%EOF` (stray data may follow that).
        let end = eofs.last().map_or(bytes.len(), |&at| at);
        let from = end.saturating_sub(TAIL);
        let offset = rfind(&bytes[from..end], b"startxref")
            .map(|at| parse_offset(&bytes[from + at + b"startxref".len()..]));
        Self {
            eof_markers: eofs.len(),
            linearized,
            trailing,
            trailing_objects,
            startxref: offset.map(|offset| offset.is_some_and(|at| points_at_xref(bytes, at))),
            table: offset
                .flatten()
                .and_then(|at| table_entries_hold(bytes, at)),
        }
    }

    /// Incremental updates in the file: one per `%%EOF` after the first, the linearized
    /// first-page section aside.
    fn updates(&self) -> usize {
        self.eof_markers
            .saturating_sub(1 + usize::from(self.linearized && self.eof_markers > 1))
    }

    fn cut_short(&self) -> bool {
        self.eof_markers == 0 || self.trailing_objects
    }
}

/// Every start of `needle` in `hay`.
fn find_all<'a>(hay: &'a [u8], needle: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    let first = needle[0];
    let mut at = 0;
    std::iter::from_fn(move || {
        while at + needle.len() <= hay.len() {
            let found = hay[at..].iter().position(|&b| b == first)? + at;
            if found + needle.len() > hay.len() {
                return None;
            }
            at = found + 1;
            if &hay[found..found + needle.len()] == needle {
                return Some(found);
            }
        }
        None
    })
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// The decimal number after white space at the start of `bytes`.
fn parse_offset(bytes: &[u8]) -> Option<usize> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let digits = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > 15 {
        return None;
    }
    std::str::from_utf8(&bytes[start..start + digits])
        .ok()?
        .parse()
        .ok()
}

/// Whether `offset` starts a classic table (`xref`) or a cross-reference stream
/// (`12 0 obj << /Type /XRef ...`).
fn points_at_xref(bytes: &[u8], offset: usize) -> bool {
    let Some(rest) = bytes.get(offset..) else {
        return false;
    };
    let start = rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let rest = &rest[start..];
    if rest.starts_with(b"xref") {
        return true;
    }
    // `N G obj`, then the stream's dictionary up to `stream`.
    let mut words = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    let number = words
        .next()
        .is_some_and(|w| w.iter().all(u8::is_ascii_digit));
    let generation = words
        .next()
        .is_some_and(|w| w.iter().all(u8::is_ascii_digit));
    let obj = words.next().is_some_and(|w| w.starts_with(b"obj"));
    if !(number && generation && obj) {
        return false;
    }
    let window = &rest[..rest.len().min(TAIL)];
    let dict_end = find_all(window, b"stream").next().unwrap_or(window.len());
    find_all(&window[..dict_end], b"/XRef").next().is_some()
}

/// Most entries of a table looked at: enough for any real file, bounded for a hostile one.
const MAX_ENTRIES: usize = 1 << 22;

/// Reads the classic table at `offset` (None when there is none) and tells whether every
/// entry in use points at the start of its object (`12 0 obj`); a table that does not parse
/// does not hold.
fn table_entries_hold(bytes: &[u8], offset: usize) -> Option<bool> {
    let mut tokens = Tokens { bytes, at: offset };
    if tokens.next()? != b"xref" {
        return None;
    }
    let mut checked = 0;
    loop {
        let Some(word) = tokens.next() else {
            return Some(false);
        };
        if word.starts_with(b"trailer") {
            return Some(true);
        }
        let (Some(first), Some(count)) = (number(word), tokens.next().and_then(number)) else {
            return Some(false);
        };
        for object in first..first.saturating_add(count) {
            let (Some(at), Some(generation), Some(kind)) = (
                tokens.next().and_then(number),
                tokens.next().and_then(number),
                tokens.next(),
            ) else {
                return Some(false);
            };
            checked += 1;
            if checked > MAX_ENTRIES {
                return Some(true);
            }
            match kind {
                b"n" if !object_at(bytes, at, object, generation) => return Some(false),
                b"n" | b"f" => {}
                _ => return Some(false),
            }
        }
    }
}

/// White-space separated words from `at` on.
struct Tokens<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..)?;
        let start = rest.iter().position(|b| !is_space(*b))?;
        let len = rest[start..]
            .iter()
            .position(|b| is_space(*b))
            .unwrap_or(rest.len() - start);
        self.at += start + len;
        Some(&rest[start..start + len])
    }
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | 0)
}

fn number(word: &[u8]) -> Option<usize> {
    if word.is_empty() || word.len() > 15 || !word.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(word).ok()?.parse().ok()
}

/// Whether `12 0 obj` starts at `at` (white space before it allowed).
fn object_at(bytes: &[u8], at: usize, object: usize, generation: usize) -> bool {
    let mut tokens = Tokens { bytes, at };
    if bytes
        .get(at)
        .is_none_or(|b| b.is_ascii_digit() && at > 0 && bytes[at - 1].is_ascii_digit())
    {
        return false;
    }
    tokens.next().and_then(number) == Some(object)
        && tokens.next().and_then(number) == Some(generation)
        && tokens.next().is_some_and(|word| word.starts_with(b"obj"))
}

/// What lopdf makes of the file: whether its strict reader loads it, how its lenient reader
/// had to repair the cross-reference data, how many pages the page tree declares, which
/// pages' content cannot be parsed, and a trailer naming the catalog for when the file's own
/// trailer is lost.
#[derive(Debug, Default)]
struct Structure {
    strict: Strict,
    recovery: Option<XrefRecovery>,
    declared_pages: Option<u32>,
    /// Pages lopdf finds in the page tree.
    lopdf_pages: u32,
    /// 1-based pages whose content streams do not decode or parse.
    broken_content: Vec<u32>,
    /// `trailer << /Root .. >> startxref 0 %%EOF`, to append to the file.
    trailer: Option<Vec<u8>>,
    /// When no page tree is left: a new one of the page objects found, a catalog and a
    /// trailer naming it, to append to the file.
    orphans: Option<Orphans>,
    /// 1-based pages whose content streams were lost (the pages are left blank).
    lost_content: Vec<u32>,
    /// 1-based pages with an image whose data stops short (looked for in a file that may
    /// have been cut short).
    cut_images: Vec<u32>,
    /// The catalog or the trailer holds more than the pages: bookmarks, a form, names,
    /// page labels, document properties.
    beyond_pages: bool,
}

/// A page tree for the page objects found in a file that lost its own.
#[derive(Debug, Default)]
struct Orphans {
    /// The tree, a catalog and a trailer naming it, to append to the file.
    tail: Vec<u8>,
    /// 1-based pages (in the new tree) whose content streams were lost.
    lost_content: Vec<u32>,
    /// 1-based pages (in the new tree) whose content does not decode or parse.
    broken_content: Vec<u32>,
    /// 1-based pages (in the new tree) with an image whose data stops short.
    cut_images: Vec<u32>,
}

/// Why lopdf's strict reader refused the file.
#[derive(Debug, Default, PartialEq, Eq)]
enum Strict {
    #[default]
    Loads,
    /// The cross-reference data or the trailer.
    Xref,
    /// The `%PDF-1.x` line.
    Header,
    /// Anything else, in lopdf's words.
    Other(String),
}

impl Strict {
    fn of(err: &lopdf::Error) -> Self {
        use lopdf::{Error, ParseError};
        match err {
            Error::Xref(_)
            | Error::MissingXrefEntry
            | Error::Parse(ParseError::InvalidXref | ParseError::InvalidTrailer) => Self::Xref,
            Error::Parse(ParseError::InvalidFileHeader) => Self::Header,
            // lopdf's own limits, not faults of the file.
            Error::Decryption(_)
            | Error::InvalidPassword
            | Error::UnsupportedSecurityHandler(_)
            | Error::Unimplemented(_) => Self::Loads,
            other => Self::Other(other.to_string()),
        }
    }
}

impl Structure {
    fn of(bytes: &[u8], check_images: bool) -> Self {
        let strict = LoadOptions {
            strict: true,
            ..LoadOptions::default()
        };
        let (strict, document) = match Document::load_mem_with_options(bytes, strict) {
            Ok(document) => (Strict::Loads, Some(document)),
            Err(err) => (Strict::of(&err), Document::load_mem(bytes).ok()),
        };
        let Some(document) = document else {
            return Self {
                strict,
                orphans: orphans(bytes, check_images),
                ..Self::default()
            };
        };
        let pages: Vec<_> = document.page_iter().collect();
        let declared_pages = declared_pages(&document);
        let beyond_pages = document.trailer.has(b"Info")
            || document.catalog().is_ok_and(|catalog| {
                [&b"Outlines"[..], b"AcroForm", b"Names", b"PageLabels"]
                    .iter()
                    .any(|key| catalog.has(key))
            });
        Self {
            beyond_pages,
            strict,
            recovery: document.xref_recovery,
            orphans: declared_pages
                .is_none()
                .then(|| orphans(bytes, check_images))
                .flatten(),
            declared_pages,
            lopdf_pages: u32::try_from(pages.len()).unwrap_or(u32::MAX),
            lost_content: lost_content(&document, &pages),
            broken_content: broken_content(&document, &pages),
            cut_images: if check_images {
                cut_images(&document, &pages)
            } else {
                Vec::new()
            },
            trailer: trailer(&document),
        }
    }
}

/// Which of `pages` (1-based, in that order) have content that does not decode or parse.
fn broken_content(document: &Document, pages: &[ObjectId]) -> Vec<u32> {
    pages
        .iter()
        .enumerate()
        .filter(|(_, page)| !content_parses(document, **page))
        .map(|(index, _)| index as u32 + 1)
        .collect()
}

/// Which of `pages` (1-based, in that order) show an image whose data stops short: a JPEG
/// without its end marker, a deflate stream that does not end, an image lopdf could not read
/// at all. PDFium draws what there is.
fn cut_images(document: &Document, pages: &[ObjectId]) -> Vec<u32> {
    let cut = |id: &ObjectId| match document.objects.get(id) {
        None => true,
        Some(Object::Stream(stream)) => {
            let image = stream
                .dict
                .get(b"Subtype")
                .and_then(Object::as_name)
                .is_ok_and(|name| name == b"Image");
            let filters = stream.filters().unwrap_or_default();
            let data = &stream.content;
            match filters.first() {
                Some(&b"DCTDecode") if image => {
                    let end = data
                        .iter()
                        .rposition(|b| !is_space(*b))
                        .map_or(0, |at| at + 1);
                    !data[..end].ends_with(&[0xFF, 0xD9])
                }
                Some(&b"FlateDecode") if image => !deflate_ends(data),
                _ => false,
            }
        }
        Some(_) => false,
    };
    pages
        .iter()
        .enumerate()
        .filter(|(_, page)| xobjects(document, **page).iter().any(cut))
        .map(|(index, _)| index as u32 + 1)
        .collect()
}

/// The objects the page's resources name as XObjects.
fn xobjects(document: &Document, page: ObjectId) -> Vec<ObjectId> {
    let Ok((direct, referenced)) = document.get_page_resources(page) else {
        return Vec::new();
    };
    direct
        .into_iter()
        .chain(
            referenced
                .iter()
                .filter_map(|id| document.get_dictionary(*id).ok()),
        )
        .filter_map(|resources| resources.get(b"XObject").ok())
        .filter_map(|xobjects| match xobjects {
            Object::Reference(id) => document.get_dictionary(*id).ok(),
            other => other.as_dict().ok(),
        })
        .flat_map(|xobjects| xobjects.iter().filter_map(|(_, v)| v.as_reference().ok()))
        .collect()
}

/// Whether every content stream of `page` decodes and their operators parse (lopdf's strict
/// content parser finds what `qpdf --check` warns about: an unclosed array or dictionary,
/// an inline image without its end).
fn content_parses(document: &Document, page: ObjectId) -> bool {
    let mut content = Vec::new();
    for id in document.get_page_contents(page) {
        let Ok(stream) = document.get_object(id).and_then(Object::as_stream) else {
            continue;
        };
        // lopdf keeps what a deflate stream cut short decodes to; `qpdf --check` does not.
        let flate = stream
            .filters()
            .is_ok_and(|filters| filters == [b"FlateDecode".as_slice()]);
        if flate && !deflate_ends(&stream.content) {
            return false;
        }
        match stream.decompressed_content_with_limit(DEFAULT_MAX_DECOMPRESSED_SIZE) {
            Ok(data) => content.extend_from_slice(&data),
            // Too large to look at is not damage.
            Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
                return true;
            }
            Err(_) => return false,
        }
        content.push(b'\n');
    }
    Content::decode_strict(&content).is_ok()
}

/// Whether zlib data runs to the end of its deflate stream.
fn deflate_ends(data: &[u8]) -> bool {
    let mut inflate = Decompress::new(true);
    let mut out = vec![0; 1 << 16];
    loop {
        let (read, written) = (inflate.total_in(), inflate.total_out());
        let rest = &data[(read as usize).min(data.len())..];
        match inflate.decompress(rest, &mut out, FlushDecompress::None) {
            Ok(Status::StreamEnd) => return true,
            Ok(_) if inflate.total_in() == read && inflate.total_out() == written => return false,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

/// An encrypted file whose trailer is lost or damaged: what named its encryption dictionary
/// may be gone, and PDFium would take the encrypted streams for plain ones.
fn lost_key_in(look: &Look, bytes: &[u8]) -> bool {
    (look.startxref != Some(true) || look.cut_short()) && encryption_dictionary(bytes)
}

/// Whether the file holds an encryption dictionary (`/Filter /Standard`, or a public-key
/// handler's).
fn encryption_dictionary(bytes: &[u8]) -> bool {
    find_all(bytes, b"/Filter").any(|at| {
        let rest = &bytes[at + b"/Filter".len()..];
        let rest = &rest[rest.iter().take_while(|b| is_space(**b)).count()..];
        rest.starts_with(b"/Standard") || rest.starts_with(b"/Adobe.PubSec")
    })
}

/// Most filler [`closing`] adds to finish a stream cut short.
const MAX_FILLER: usize = 64 << 20;

/// What closes a stream `bytes` end inside, to go before what is appended: filler up to the
/// length its dictionary gives (PDFium skips that many bytes of data, past anything appended
/// sooner), then `endstream endobj`. Empty when the file does not end inside a stream.
fn closing(bytes: &[u8]) -> Vec<u8> {
    let last_end = rfind(bytes, b"endstream");
    let last_start = find_all(bytes, b"stream")
        .filter(|&at| at < 3 || &bytes[at - 3..at] != b"end")
        .last();
    let start = match (last_start, last_end) {
        (Some(start), end) if end.is_none_or(|end| end < start) => start,
        _ => return Vec::new(),
    };
    let mut data = start + b"stream".len();
    if bytes.get(data) == Some(&b'\r') {
        data += 1;
    }
    if bytes.get(data) == Some(&b'\n') {
        data += 1;
    }
    let missing = declared_length(bytes, start).map_or(0, |length| {
        length.saturating_sub(bytes.len().saturating_sub(data))
    });
    let mut closing = if missing <= MAX_FILLER {
        vec![b' '; missing]
    } else {
        Vec::new()
    };
    closing.extend_from_slice(b"\nendstream\nendobj\n");
    closing
}

/// The direct `/Length` in the dictionary of the stream whose `stream` keyword is at `at`.
fn declared_length(bytes: &[u8], at: usize) -> Option<usize> {
    let from = at.saturating_sub(TAIL);
    let head = &bytes[from..at];
    let object = rfind(head, b"obj")?;
    let dictionary = &head[object..];
    let key = rfind(dictionary, b"/Length")?;
    let mut words = Tokens {
        bytes: dictionary,
        at: key + b"/Length".len(),
    };
    let length = number(words.next()?.split(|b| *b == b'/' || *b == b'>').next()?)?;
    // `12 0 R`: the length is another object's.
    let indirect = words.next().is_some_and(|w| number(w).is_some())
        && words.next().is_some_and(|w| w.starts_with(b"R"));
    (!indirect).then_some(length)
}

/// Object numbers of a stand-in page tree and catalog: lopdf's scan of a file whose own
/// were lost finds no catalog to read the file from without them. The highest numbers it
/// accepts, above those of real files.
const STAND_IN: (u32, u32) = (999_998, 999_999);

/// A page tree of every page object in the file (found by lopdf's scan, object streams
/// included), in the order of their numbers, with a catalog and a trailer naming it, to
/// append to the file; None without pages or when the file is encrypted.
fn orphans(bytes: &[u8], check_images: bool) -> Option<Orphans> {
    let (tree, catalog) = STAND_IN;
    let stand_in = format!(
        "\n{tree} 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n{catalog} 0 obj\n\
         << /Type /Catalog /Pages {tree} 0 R >>\nendobj\n"
    );
    let probe = [bytes, stand_in.as_bytes()].concat();
    let options = LoadOptions {
        force_reconstruct: true,
        ..LoadOptions::default()
    };
    let document = Document::load_mem_with_options(&probe, options).ok()?;
    if document.trailer.has(b"Encrypt") {
        return None;
    }
    let found: Vec<ObjectId> = document
        .objects
        .iter()
        .filter(|(_, object)| {
            object
                .as_dict()
                .and_then(|dict| dict.get(b"Type"))
                .and_then(Object::as_name)
                .is_ok_and(|name| name == b"Page")
        })
        .map(|(id, _)| *id)
        .collect();
    if found.is_empty() {
        return None;
    }
    let kids: Vec<String> = found
        .iter()
        .map(|(number, generation)| format!("{number} {generation} R"))
        .collect();
    // Above every object header the scan saw, those of objects that did not load included.
    let last = document
        .reference_table
        .entries
        .keys()
        .chain(document.objects.keys().map(|(number, _)| number))
        .copied()
        .filter(|number| *number < tree)
        .max()
        .unwrap_or(0);
    let (pages, catalog) = (last + 1, last + 2);
    let tail = format!(
        "\n{pages} 0 obj\n<< /Type /Pages /Kids [{}] /Count {} >>\nendobj\n{catalog} 0 obj\n\
         << /Type /Catalog /Pages {pages} 0 R >>\nendobj\ntrailer\n<< /Root {catalog} 0 R \
         /Size {} >>\nstartxref\n0\n%%EOF\n",
        kids.join(" "),
        kids.len(),
        catalog + 1
    );
    Some(Orphans {
        tail: tail.into_bytes(),
        lost_content: lost_content(&document, &found),
        broken_content: broken_content(&document, &found),
        cut_images: if check_images {
            cut_images(&document, &found)
        } else {
            Vec::new()
        },
    })
}

/// Which of `pages` (1-based, in that order) name content the file no longer has: every
/// object `/Contents` points at is missing, null or not a stream (a stream cut before its
/// data).
fn lost_content(document: &Document, pages: &[ObjectId]) -> Vec<u32> {
    let lost = |page: &ObjectId| {
        let Ok(contents) = document
            .get_dictionary(*page)
            .and_then(|d| d.get(b"Contents"))
        else {
            return false;
        };
        let gone = |id: &ObjectId| !matches!(document.objects.get(id), Some(Object::Stream(_)));
        match contents {
            Object::Reference(id) => match document.objects.get(id) {
                Some(Object::Array(parts)) => {
                    !parts.is_empty()
                        && parts
                            .iter()
                            .all(|part| part.as_reference().is_ok_and(|id| gone(&id)))
                }
                _ => gone(id),
            },
            Object::Array(parts) => {
                !parts.is_empty()
                    && parts
                        .iter()
                        .all(|part| part.as_reference().is_ok_and(|id| gone(&id)))
            }
            _ => false,
        }
    };
    pages
        .iter()
        .enumerate()
        .filter(|(_, page)| lost(page))
        .map(|(index, _)| index as u32 + 1)
        .collect()
}

/// The `/Count` of the root of the page tree.
fn declared_pages(document: &Document) -> Option<u32> {
    let pages = document.catalog().ok()?.get(b"Pages").ok()?;
    let pages = match pages {
        Object::Reference(id) => document.get_dictionary(*id).ok()?,
        Object::Dictionary(dict) => dict,
        _ => return None,
    };
    let count = pages.get(b"Count").ok()?.as_i64().ok()?;
    u32::try_from(count).ok()
}

/// A trailer of the catalog (and document information) lopdf found, unless the file is
/// encrypted: its key is in the lost trailer.
fn trailer(document: &Document) -> Option<Vec<u8>> {
    if document.trailer.has(b"Encrypt") {
        return None;
    }
    let reference = |key: &[u8]| match document.trailer.get(key) {
        Ok(Object::Reference((number, generation))) => Some(format!(
            "/{} {number} {generation} R",
            String::from_utf8_lossy(key)
        )),
        _ => None,
    };
    let root = reference(b"Root")?;
    let info = reference(b"Info").unwrap_or_default();
    let size = document.max_id.saturating_add(1);
    Some(format!("\ntrailer\n<< {root} {info} /Size {size} >>\nstartxref\n0\n%%EOF\n").into_bytes())
}

/// What became of the pages PDFium lists (1-based numbers).
struct Pages<'a> {
    listed: u32,
    unreadable: &'a [u32],
    rewritten: &'a [u32],
    /// Pages whose content streams were lost.
    blank: &'a [u32],
    /// Pages with an image whose data stops short.
    cut_images: &'a [u32],
    /// The pages were copied into a new document.
    copied: bool,
}

fn findings(look: &Look, structure: &Structure, pages: Pages, rescue: Rescue) -> Vec<String> {
    let mut findings = Vec::new();
    if look.startxref.is_none() || rescue != Rescue::None {
        findings.push(XREF_MISSING.to_owned());
    } else if look.startxref == Some(false)
        || look.table == Some(false)
        || structure.recovery.is_some()
        || structure.strict == Strict::Xref
    {
        findings.push(XREF_DAMAGED.to_owned());
    }
    if structure.strict == Strict::Header {
        findings.push("the header line of the file was malformed and has been rewritten".into());
    }
    let recovered = pages.listed - pages.unreadable.len() as u32;
    let declared = structure.declared_pages.unwrap_or(0).max(pages.listed);
    let at_end = pages
        .unreadable
        .iter()
        .rev()
        .zip((1..=pages.listed).rev())
        .all(|(page, last)| *page == last);
    if rescue == Rescue::Tree {
        findings.push(format!(
            "the page tree was lost: {} found in the file {} put back in the order {} stored \
             in",
            count(recovered, "page"),
            if recovered == 1 { "was" } else { "were" },
            if recovered == 1 {
                "it was"
            } else {
                "they were"
            },
        ));
        if look.cut_short() {
            findings.push(format!(
                "the file was cut short: {} recovered, how many it had was lost with its page \
                 tree",
                count(recovered, "page")
            ));
        }
    } else if declared > recovered && (look.cut_short() || at_end) {
        findings.push(format!(
            "the file was cut short: {recovered} of the {declared} pages it declares {} \
             recovered",
            if recovered == 1 { "was" } else { "were" }
        ));
    } else if !pages.unreadable.is_empty() {
        findings.push(format!(
            "{} could not be read and {} left out",
            page_list(pages.unreadable),
            if pages.unreadable.len() == 1 {
                "was"
            } else {
                "were"
            }
        ));
    } else if look.cut_short() {
        findings.push(match recovered {
            1 => "the file was cut short, but its only page was recovered".to_owned(),
            n => format!("the file was cut short, but all {n} of its pages were recovered"),
        });
    }
    if !pages.rewritten.is_empty() {
        let one = pages.rewritten.len() == 1;
        findings.push(format!(
            "the content of {} was damaged: {} that could be read {} kept",
            page_list(pages.rewritten),
            if one { "the part" } else { "the parts" },
            if one { "was" } else { "were" }
        ));
    }
    if !pages.blank.is_empty() {
        let one = pages.blank.len() == 1;
        findings.push(format!(
            "the content of {} could not be read: {} left blank",
            page_list(pages.blank),
            if one { "it is" } else { "they are" }
        ));
    }
    if !pages.cut_images.is_empty() {
        findings.push(format!(
            "the data of images on {} was cut short: they show only in part, if at all",
            page_list(pages.cut_images)
        ));
    }
    if pages.copied && structure.beyond_pages {
        findings.push(
            "the document's bookmarks, form and properties could not be kept: only its pages \
             were recovered"
                .to_owned(),
        );
    }
    match look.updates() {
        0 => {}
        1 => findings.push("an incremental update was merged in".to_owned()),
        n => findings.push(format!("{n} incremental updates were merged in")),
    }
    if look.trailing > 0 && !look.trailing_objects {
        findings.push(format!(
            "{} bytes of stray data after the end of the file were dropped",
            look.trailing
        ));
    }
    if findings.is_empty()
        && let Strict::Other(err) = &structure.strict
    {
        findings.push(format!(
            "the file did not follow the PDF format strictly ({err}); it was rewritten in a \
             form that does"
        ));
    }
    if findings.is_empty() {
        findings.push(NOTHING_WRONG.to_owned());
    }
    findings
}

/// "1 page", "3 pages".
fn count(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// "page 3", "pages 3 and 5", "pages 3, 5 and 9 to 12": runs of three or more as ranges.
fn page_list(pages: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = pages;
    while let [first, ..] = rest {
        let run = rest
            .iter()
            .zip(*first..)
            .take_while(|(page, expected)| **page == *expected)
            .count();
        if run >= 3 {
            parts.push(format!("{first} to {}", rest[run - 1]));
            rest = &rest[run..];
        } else {
            parts.push(first.to_string());
            rest = &rest[1..];
        }
    }
    match parts.as_slice() {
        [] => String::new(),
        [one] if pages.len() == 1 => format!("page {one}"),
        [one] => format!("pages {one}"),
        [head @ .., last] => format!("pages {} and {last}", head.join(", ")),
    }
}

#[cfg(test)]
#[path = "repair_tests.rs"]
mod tests;
