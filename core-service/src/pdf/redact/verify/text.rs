//! The text check: the search run again on PDFium's text of each page, and no character left
//! inside an area.

use std::collections::BTreeSet;

use pdfium_render::prelude::*;
use quire_toolbox::redact::Rect;

use super::{Checked, Expect};
use crate::pdf::redact::search::{self, PageText, Search};
use crate::workers::protocol::Failure;

pub(super) fn text(
    output: &PdfDocument,
    expect: &Expect,
    checked: &mut Checked,
) -> Result<(), Failure> {
    // The search that found the hits, run again on the output: a term read across two words
    // ("internal structures" for "internals") is no leak, and refusing it would picture pages
    // for nothing. A glyph of a term left inside an area is the next check's to find.
    let search = Search::new(expect.terms, &[], Vec::new())?;
    let label: BTreeSet<char> = expect.label.chars().flat_map(char::to_lowercase).collect();
    for (index, page) in output.pages().iter().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let page_text = PageText::read(&page)?;
        for (start, end, by) in search::matches(&page_text.text, &search) {
            checked.fail(
                number,
                format!(
                    "PDFium still reads {:?} ({by:?})",
                    &page_text.text[start..end]
                ),
            );
        }
        let areas: Vec<&Rect> = expect
            .areas
            .iter()
            .filter(|(p, _)| *p == number)
            .map(|(_, r)| r)
            .collect();
        let inside: String = page_text
            .chars
            .iter()
            .zip(page_text.text.chars())
            .filter(|((_, rect), c)| {
                !c.is_whitespace()
                    && rect.is_some_and(|r| {
                        let (x, y) = ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
                        areas
                            .iter()
                            .any(|a| a.x0 < x && x < a.x1 && a.y0 < y && y < a.y1)
                    })
            })
            .map(|(_, c)| c)
            .filter(|c| !c.to_lowercase().all(|l| label.contains(&l)))
            .collect();
        if !inside.is_empty() {
            checked.fail(
                number,
                format!(
                    "PDFium reads {} characters inside an area",
                    inside.chars().count()
                ),
            );
        }
    }
    Ok(())
}
