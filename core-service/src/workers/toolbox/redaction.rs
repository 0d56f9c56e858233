//! Redact: the hits of a search as a JSON report to review, or the areas and searches applied
//! and checked (pdf::redact), with notes that say what was removed and what was verified.

use pdfium_render::prelude::Pdfium;
use quire_proto::v1::{
    RedactApply, RedactArea, RedactOptions, RedactPreset, RedactSearch, redact_options::Action,
};
use quire_toolbox::redact::Redacted;
use serde_json::json;

use super::{Done, Work, json_file, note, stamp::rgb};
use crate::{
    ocr::tesseract::Tesseract,
    pdf::redact::{self, Engines, Frame, Hit, Outcome, Preset, Request, Search},
    workers::protocol::{Failure, FailureKind},
};

pub fn run(
    work: &Work,
    RedactOptions { action }: RedactOptions,
    pdfium: &Pdfium,
    tesseract: &mut Tesseract,
) -> Result<Done, Failure> {
    match action {
        Some(Action::Find(search)) => {
            let (hits, frames) = redact::find(pdfium, work.first(), &compile(&search)?)?;
            json_file(work, "-hits.json", &report(&hits, &frames))
        }
        Some(Action::Apply(apply)) => applied(work, apply, pdfium, tesseract),
        None => Err(Failure::new(
            FailureKind::BadOptions,
            "choose find to list what a search hits, or apply to redact",
        )),
    }
}

fn compile(
    RedactSearch {
        terms,
        patterns,
        presets,
    }: &RedactSearch,
) -> Result<Search, Failure> {
    let presets = presets
        .iter()
        .filter_map(|p| match RedactPreset::try_from(*p) {
            Ok(RedactPreset::Email) => Some(Preset::Email),
            Ok(RedactPreset::IpAddress) => Some(Preset::IpAddress),
            Ok(RedactPreset::Account) => Some(Preset::Account),
            Ok(RedactPreset::HostName) => Some(Preset::HostName),
            _ => None,
        })
        .collect();
    Search::new(terms, patterns, presets)
}

/// The hits with their places as displayed (shares of the page from its top-left corner),
/// as the page draws them for review.
fn report(hits: &[Hit], frames: &[Frame]) -> serde_json::Value {
    let pages: Vec<_> = frames
        .iter()
        .enumerate()
        .map(|(i, frame)| {
            let (width, height) = frame.displayed();
            json!({"page": i + 1, "width": width, "height": height})
        })
        .collect();
    let hits: Vec<_> = hits
        .iter()
        .map(|hit| {
            let frame = frames.get(hit.page as usize - 1);
            let areas: Vec<_> = hit
                .rects
                .iter()
                .filter_map(|rect| frame.map(|f| f.shares(rect)))
                .map(|[x, y, width, height]| json!({"x": x, "y": y, "width": width, "height": height}))
                .collect();
            json!({"page": hit.page, "text": hit.text, "by": hit.by, "areas": areas})
        })
        .collect();
    json!({"pages": pages, "hits": hits})
}

fn applied(
    work: &Work,
    RedactApply {
        areas,
        search,
        terms,
        fill,
        label,
        clean_document,
    }: RedactApply,
    pdfium: &Pdfium,
    tesseract: &mut Tesseract,
) -> Result<Done, Failure> {
    let frames = redact::frames(pdfium, work.first())?;
    let mut request = Request {
        areas: Vec::new(),
        terms: terms.into_iter().filter(|t| !t.trim().is_empty()).collect(),
        fill: rgb(&fill, [0, 0, 0])?,
        label: label.trim().to_owned(),
        clean_document,
    };
    for RedactArea {
        page,
        x,
        y,
        width,
        height,
    } in areas
    {
        let frame = frames.get((page as usize).wrapping_sub(1)).ok_or_else(|| {
            Failure::new(
                FailureKind::BadOptions,
                format!(
                    "an area is on page {page}, but the PDF has {} pages",
                    frames.len()
                ),
            )
        })?;
        let rect = frame.user_rect(
            f64::from(x),
            f64::from(y),
            f64::from(width),
            f64::from(height),
        );
        request.areas.push((page, rect));
    }
    let mut searched = 0;
    if let Some(search) = search.map(|s| compile(&s)).transpose()?
        && !search.is_empty()
    {
        let (hits, _) = redact::find(pdfium, work.first(), &search)?;
        searched = hits.len();
        for Hit {
            page, text, rects, ..
        } in hits
        {
            request.areas.extend(rects.into_iter().map(|r| (page, r)));
            if !request.terms.contains(&text) {
                request.terms.push(text);
            }
        }
    }
    if request.areas.is_empty() {
        return Err(Failure::new(
            FailureKind::BadOptions,
            "nothing to redact: mark areas on the pages, or search for text that the document holds",
        ));
    }
    let (path, name) = work.output("-redacted.pdf");
    let scratch = work.dir.join(".redact-first-pass.pdf");
    let engines = Engines {
        pdfium,
        tesseract,
        max_pixels: work.max_pixels,
    };
    let outcome = redact::apply(engines, work.first(), &request, &scratch, &path)?;
    let _ = std::fs::remove_file(&scratch);
    let pages = outcome.redacted.pages;
    let mut done = Done::file(path, name, pages);
    done.notes = notes(&outcome, searched, request.areas.len());
    Ok(done)
}

/// What was removed, which pages became pictures, and what the checks found.
fn notes(
    Outcome {
        redacted,
        rasterized,
        checked,
    }: &Outcome,
    searched: usize,
    areas: usize,
) -> Vec<quire_proto::v1::ToolNote> {
    let Redacted {
        pages: _,
        glyphs_removed,
        images_redacted,
        paths_removed,
        paths_covered,
        annotations_removed,
        fields_cleared,
        bookmarks_cleaned,
        metadata_cleaned,
        attachments_removed,
        destinations_renamed,
        actions_removed,
        names_cleaned,
        unsafe_pages: _,
        unsafe_reasons: _,
        glyph_boxes: _,
    } = redacted;
    let mut notes = vec![note("areas", areas)];
    if searched > 0 {
        notes.push(note("search hits redacted", searched));
    }
    for (key, count) in [
        ("characters removed", *glyphs_removed),
        ("images redacted", u64::from(*images_redacted)),
        ("paths removed", u64::from(*paths_removed)),
        ("paths under a box", u64::from(*paths_covered)),
        ("annotations removed", u64::from(*annotations_removed)),
        ("form fields cleared", u64::from(*fields_cleared)),
        ("bookmarks cleaned", u64::from(*bookmarks_cleaned)),
        ("metadata entries cleaned", u64::from(*metadata_cleaned)),
        ("attachments removed", u64::from(*attachments_removed)),
        ("destinations renamed", u64::from(*destinations_renamed)),
        ("actions removed", u64::from(*actions_removed)),
        ("field and font names cleaned", u64::from(*names_cleaned)),
    ] {
        if count > 0 {
            notes.push(note(key, count));
        }
    }
    for (page, why) in rasterized {
        notes.push(note(
            &format!("page {page} redacted as a picture"),
            format!("{why}; its text layer is Tesseract's reading of the rest of the page"),
        ));
    }
    notes.push(note(
        "check: text",
        "PDFium reads none of the removed terms and no character inside an area",
    ));
    notes.push(note(
        "check: bytes",
        format!(
            "no removed term in the {} decompressed streams and the strings the pages use",
            checked.streams_searched
        ),
    ));
    notes.push(note(
        "check: rendering",
        format!(
            "outside the areas every page is drawn as before: at most {} pixels of a page at \
             50 dpi differ beyond antialiasing (limit: 1 in {}){}",
            checked.most_changed,
            redact::MAX_CHANGED_SHARE,
            checked
                .worst_psnr
                .map(|psnr| format!(", lowest PSNR {psnr:.1} dB"))
                .unwrap_or_default()
        ),
    ));
    for leak in &checked.document_leaks {
        notes.push(note(
            "left outside the pages",
            format!("{leak} (turn on cleaning the document to remove it)"),
        ));
    }
    notes
}
