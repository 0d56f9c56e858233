//! A file cut before its trailer: what closes a stream it ends inside, and a stand-in page
//! tree and catalog built from the page objects lopdf finds, so PDFium can read the rest.

use super::*;

/// An encrypted file whose trailer is lost or damaged: what named its encryption dictionary
/// may be gone, and PDFium would take the encrypted streams for plain ones.
pub(super) fn lost_key_in(look: &Look, bytes: &[u8]) -> bool {
    (look.startxref != Some(true) || look.cut_short()) && encryption_dictionary(bytes)
}

/// Whether the file holds an encryption dictionary (`/Filter /Standard`, or a public-key
/// handler's).
pub(super) fn encryption_dictionary(bytes: &[u8]) -> bool {
    find_all(bytes, b"/Filter").any(|at| {
        let rest = &bytes[at + b"/Filter".len()..];
        let rest = &rest[rest.iter().take_while(|b| is_space(**b)).count()..];
        rest.starts_with(b"/Standard") || rest.starts_with(b"/Adobe.PubSec")
    })
}

/// Most filler [`closing`] adds to finish a stream cut short.
pub(super) const MAX_FILLER: usize = 64 << 20;

/// What closes a stream `bytes` end inside, to go before what is appended: filler up to the
/// length its dictionary gives (PDFium skips that many bytes of data, past anything appended
/// sooner), then `endstream endobj`. Empty when the file does not end inside a stream.
pub(super) fn closing(bytes: &[u8]) -> Vec<u8> {
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
pub(super) fn declared_length(bytes: &[u8], at: usize) -> Option<usize> {
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
pub(super) const STAND_IN: (u32, u32) = (999_998, 999_999);

/// A page tree of every page object in the file (found by lopdf's scan, object streams
/// included), in the order of their numbers, with a catalog and a trailer naming it, to
/// append to the file; None without pages or when the file is encrypted.
pub(super) fn orphans(bytes: &[u8], check_images: bool) -> Option<Orphans> {
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
