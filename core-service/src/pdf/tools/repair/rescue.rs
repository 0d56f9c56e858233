//! PDFium reading what it can: pages it cannot load left out or blanked, content rewritten.

use super::*;

/// How a file PDFium could not open (or found no page in) was opened after all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rescue {
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
pub(super) fn rescue<'a>(
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
pub(super) fn unreadable_pages(document: &PdfDocument) -> Vec<u32> {
    let pages = document.pages();
    (0..pages.len())
        .filter(|&index| pages.page_size(index).is_err())
        .map(|index| index as u32 + 1)
        .collect()
}

/// Pages (1-based) whose content is damaged or lost: PDFium writes anew the content of those
/// it parsed some of, leaving out what it could not (first list), and the others, of which
/// it parsed nothing, become blank pages of the same size (second list).
pub(super) fn fix_content(document: &mut PdfDocument, pages: &[u32]) -> (Vec<u32>, Vec<u32>) {
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
pub(super) fn rewrite(page: &mut PdfPage) -> bool {
    page.set_content_regeneration_strategy(PdfPageContentRegenerationStrategy::Manual);
    let mut touched = false;
    for mut object in page.objects().iter() {
        touched |= object.translate(PdfPoints::ZERO, PdfPoints::ZERO).is_ok();
    }
    touched && page.regenerate_content().is_ok()
}

/// Puts a blank page of the same boxes and rotation in place of the page at `index`: PDFium
/// cannot drop content streams it parsed nothing from.
pub(super) fn blank_page(
    document: &mut PdfDocument,
    index: PdfPageIndex,
) -> Result<(), PdfiumError> {
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
pub(super) fn readable_copy<'a>(
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
