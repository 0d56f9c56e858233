//! What lopdf finds in the file: the page tree, broken or lost content, images cut short.

use super::*;

/// What lopdf makes of the file: whether its strict reader loads it, how its lenient reader
/// had to repair the cross-reference data, how many pages the page tree declares, which
/// pages' content cannot be parsed, and a trailer naming the catalog for when the file's own
/// trailer is lost.
#[derive(Debug, Default)]
pub(super) struct Structure {
    pub(super) strict: Strict,
    pub(super) recovery: Option<XrefRecovery>,
    pub(super) declared_pages: Option<u32>,
    /// Pages lopdf finds in the page tree.
    pub(super) lopdf_pages: u32,
    /// 1-based pages whose content streams do not decode or parse.
    pub(super) broken_content: Vec<u32>,
    /// `trailer << /Root .. >> startxref 0 %%EOF`, to append to the file.
    pub(super) trailer: Option<Vec<u8>>,
    /// When no page tree is left: a new one of the page objects found, a catalog and a
    /// trailer naming it, to append to the file.
    pub(super) orphans: Option<Orphans>,
    /// 1-based pages whose content streams were lost (the pages are left blank).
    pub(super) lost_content: Vec<u32>,
    /// 1-based pages with an image whose data stops short (looked for in a file that may
    /// have been cut short).
    pub(super) cut_images: Vec<u32>,
    /// The catalog or the trailer holds more than the pages: bookmarks, a form, names,
    /// page labels, document properties.
    pub(super) beyond_pages: bool,
}

/// A page tree for the page objects found in a file that lost its own.
#[derive(Debug, Default)]
pub(super) struct Orphans {
    /// The tree, a catalog and a trailer naming it, to append to the file.
    pub(super) tail: Vec<u8>,
    /// 1-based pages (in the new tree) whose content streams were lost.
    pub(super) lost_content: Vec<u32>,
    /// 1-based pages (in the new tree) whose content does not decode or parse.
    pub(super) broken_content: Vec<u32>,
    /// 1-based pages (in the new tree) with an image whose data stops short.
    pub(super) cut_images: Vec<u32>,
}

/// Why lopdf's strict reader refused the file.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) enum Strict {
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
    pub(super) fn of(err: &lopdf::Error) -> Self {
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
    pub(super) fn of(bytes: &[u8], check_images: bool) -> Self {
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
pub(super) fn broken_content(document: &Document, pages: &[ObjectId]) -> Vec<u32> {
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
pub(super) fn cut_images(document: &Document, pages: &[ObjectId]) -> Vec<u32> {
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
pub(super) fn xobjects(document: &Document, page: ObjectId) -> Vec<ObjectId> {
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
pub(super) fn content_parses(document: &Document, page: ObjectId) -> bool {
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
pub(super) fn deflate_ends(data: &[u8]) -> bool {
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

/// Which of `pages` (1-based, in that order) name content the file no longer has: every
/// object `/Contents` points at is missing, null or not a stream (a stream cut before its
/// data).
pub(super) fn lost_content(document: &Document, pages: &[ObjectId]) -> Vec<u32> {
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
pub(super) fn declared_pages(document: &Document) -> Option<u32> {
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
pub(super) fn trailer(document: &Document) -> Option<Vec<u8>> {
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
