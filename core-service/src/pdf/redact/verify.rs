//! The checks every redacted file passes before it is handed back, each by a reader other than
//! the engine that wrote it:
//! - text: the search, run on PDFium's text of each page, finds none of the removed terms, and
//!   no character's box has its centre inside an area (but the label's own letters);
//! - bytes: no removed term in any decompressed content stream, form, appearance or string that
//!   a page reaches; bookmarks, metadata and attachments too when they were to be cleaned;
//! - rendering: each page drawn by PDFium matches the input's outside the areas (and the
//!   removed glyphs, which may reach past them).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use lopdf::{Document, Object, ObjectId};
use pdfium_render::prelude::*;
use quire_toolbox::redact::Rect;

use super::{
    frame::Frame,
    search::{self, PageText, Search},
};
use crate::{
    pdf::render::{self, Pixels},
    workers::protocol::{Failure, FailureKind},
};

/// Pages are compared at this resolution: a removed word is dozens of pixels, a shifted line
/// hundreds.
const COMPARE_DPI: u32 = 50;
/// Pixels around each area left out of the comparison (antialiased edges, glyphs cut by it).
const MARGIN_PX: f64 = 2.0;
/// The share of a page's pixels outside the areas (at 50 dpi) that may differ from the input
/// beyond antialiasing before the page counts as having lost something: 1 in 2,000, 117
/// pixels on a Letter page, where a word of body text is 100 to 200. Glyphs whose accents or
/// swashes reach past the box the engine measured them by stay under it.
pub const MAX_CHANGED_SHARE: u64 = 2_000;
/// A pixel differs when no pixel next to it in the other render is within this many levels:
/// antialiasing, a half-pixel shift and a JPEG's noise (a page drawn as a picture) stay under.
const PIXEL_TOLERANCE: u8 = 64;
/// Terms shorter than this (spaces left out) are not looked for in raw bytes: two letters
/// occur by chance in any binary stream.
const MIN_BYTE_TERM: usize = 3;

/// What the checks found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Pages where a check failed, with why; a page may fail more than one check.
    pub failing: BTreeMap<u32, Vec<String>>,
    /// Removed terms still found outside the pages (bookmarks, metadata, attachments).
    pub document_leaks: Vec<String>,
    pub streams_searched: usize,
    /// The lowest PSNR outside the areas, over all pages (None: every page identical).
    pub worst_psnr: Option<f64>,
    /// The most pixels of a page, outside the areas, that differ beyond antialiasing.
    pub most_changed: u64,
}

impl Checked {
    fn fail(&mut self, page: u32, why: String) {
        self.failing.entry(page).or_default().push(why);
    }
}

/// What was asked: the areas per page in user space, the terms, the label; and the boxes of
/// the glyphs the engine removed, which may reach past their areas.
pub struct Expect<'a> {
    pub areas: &'a [(u32, Rect)],
    pub terms: &'a [String],
    pub label: &'a str,
    pub removed: &'a [(u32, Rect)],
    /// Pages replaced by a picture of themselves.
    pub pictured: &'a [u32],
}

pub fn verify(
    input: &PdfDocument,
    output: &PdfDocument,
    output_path: &std::path::Path,
    expect: &Expect,
    max_pixels: u64,
) -> Result<Checked, Failure> {
    let mut checked = Checked::default();
    text(output, expect, &mut checked)?;
    bytes(output_path, expect, &mut checked)?;
    let masked: Vec<(u32, Rect)> = expect.areas.iter().chain(expect.removed).copied().collect();
    rendering(
        input,
        output,
        &masked,
        expect.pictured,
        max_pixels,
        &mut checked,
    )?;
    Ok(checked)
}

/// Lowercase, with every space left out: PDFium puts spaces and line breaks of its own
/// between words.
fn squeeze(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !super::search::ignorable(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

fn text(output: &PdfDocument, expect: &Expect, checked: &mut Checked) -> Result<(), Failure> {
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

fn bytes(path: &std::path::Path, expect: &Expect, checked: &mut Checked) -> Result<(), Failure> {
    let needles: Vec<(String, Vec<Vec<u8>>)> = expect
        .terms
        .iter()
        .filter(|t| squeeze(t).chars().count() >= MIN_BYTE_TERM)
        .map(|t| {
            let lower = t
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            let utf16 = |s: &str| {
                s.encode_utf16()
                    .flat_map(u16::to_be_bytes)
                    .collect::<Vec<u8>>()
            };
            let forms = vec![
                lower.as_bytes().to_vec(),
                utf16(&lower),
                utf16(&lower.to_uppercase()),
            ];
            (t.clone(), forms)
        })
        .collect();
    if needles.is_empty() {
        return Ok(());
    }
    let doc = Document::load(path).map_err(|e| {
        Failure::new(
            FailureKind::Engine,
            format!("the redacted file cannot be read back: {e}"),
        )
    })?;
    let owners = page_owners(&doc);
    let skipped = binary_streams(&doc);
    for (id, object) in &doc.objects {
        let haystacks: Vec<Vec<u8>> = match object {
            Object::Stream(stream) => {
                if skipped.contains(id) {
                    continue;
                }
                checked.streams_searched += 1;
                let content = stream
                    .decompressed_content()
                    .unwrap_or_else(|_| stream.content.clone());
                vec![content]
            }
            other => strings(other),
        };
        for haystack in haystacks {
            let lower = haystack.to_ascii_lowercase();
            for (term, forms) in &needles {
                let found = forms
                    .iter()
                    .any(|f| lower.windows(f.len()).any(|w| w == f.as_slice()));
                if !found {
                    continue;
                }
                match owners.get(id) {
                    Some(pages) => {
                        for page in pages {
                            checked
                                .fail(*page, format!("the bytes of object {} hold {term:?}", id.0));
                        }
                    }
                    // Outside the pages: a failure when the document was to be cleaned, a
                    // note when the user kept bookmarks, metadata and attachments as they are.
                    None => {
                        let leak =
                            format!("{term:?} is still in object {} outside the pages", id.0);
                        if !checked.document_leaks.contains(&leak) {
                            checked.document_leaks.push(leak);
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The strings of a non-stream object, nested ones included.
fn strings(object: &Object) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut stack = vec![object];
    while let Some(object) = stack.pop() {
        match object {
            Object::String(bytes, _) => out.push(bytes.clone()),
            Object::Array(items) => stack.extend(items),
            Object::Dictionary(dict) => stack.extend(dict.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    out
}

/// Streams of pixels, font programs, colour profiles and CMaps: data where a term is not text
/// a reader sees (a CMap's `%%Version` header is not the word "version" on a page), and where
/// short byte runs match by chance. The text a CMap maps is checked through PDFium instead.
fn binary_streams(doc: &Document) -> BTreeSet<ObjectId> {
    let mut skipped = BTreeSet::new();
    for (id, object) in &doc.objects {
        let Ok(dict) = object
            .as_dict()
            .or_else(|_| object.as_stream().map(|s| &s.dict))
        else {
            continue;
        };
        if let Ok(stream) = object.as_stream()
            && (stream.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image")
                || stream.dict.has(b"N") && !stream.dict.has(b"Type"))
        {
            skipped.insert(*id);
        }
        if let Ok(stream) = object.as_stream()
            && stream.dict.get(b"Type").and_then(Object::as_name).ok() == Some(b"CMap")
        {
            skipped.insert(*id);
        }
        for key in [
            b"FontFile".as_slice(),
            b"FontFile2",
            b"FontFile3",
            b"ToUnicode",
            b"Encoding",
        ] {
            if let Ok(reference) = dict.get(key).and_then(Object::as_reference) {
                skipped.insert(reference);
            }
        }
    }
    skipped
}

/// For each object a page reaches (contents, resources, forms, annotations and their
/// appearances), the pages that reach it. Links to other pages and the page tree are not
/// followed.
fn page_owners(doc: &Document) -> HashMap<ObjectId, BTreeSet<u32>> {
    const NOT_FOLLOWED: [&[u8]; 9] = [
        b"Parent",
        b"P",
        b"Dest",
        b"A",
        b"D",
        b"Next",
        b"Prev",
        b"Pg",
        b"StructParent",
    ];
    let mut owners: HashMap<ObjectId, BTreeSet<u32>> = HashMap::new();
    for (number, page_id) in doc.get_pages() {
        let mut stack = vec![page_id];
        let mut seen = BTreeSet::new();
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            owners.entry(id).or_default().insert(number);
            let Ok(object) = doc.get_object(id) else {
                continue;
            };
            let dict = match object {
                Object::Dictionary(d) => d,
                Object::Stream(s) => &s.dict,
                _ => continue,
            };
            let is_other_page =
                id != page_id && dict.get(b"Type").and_then(Object::as_name).ok() == Some(b"Page");
            if is_other_page {
                continue;
            }
            let mut values: Vec<&Object> = dict
                .iter()
                .filter(|(k, _)| !NOT_FOLLOWED.contains(&k.as_slice()))
                .map(|(_, v)| v)
                .collect();
            while let Some(value) = values.pop() {
                match value {
                    Object::Reference(r) => stack.push(*r),
                    Object::Array(items) => values.extend(items),
                    Object::Dictionary(d) => values.extend(
                        d.iter()
                            .filter(|(k, _)| !NOT_FOLLOWED.contains(&k.as_slice()))
                            .map(|(_, v)| v),
                    ),
                    _ => {}
                }
            }
        }
    }
    owners
}

fn rendering(
    input: &PdfDocument,
    output: &PdfDocument,
    areas: &[(u32, Rect)],
    pictured: &[u32],
    max_pixels: u64,
    checked: &mut Checked,
) -> Result<(), Failure> {
    let scale = f64::from(COMPARE_DPI) / 72.0;
    for (index, (before, after)) in input.pages().iter().zip(output.pages().iter()).enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let page_index = u32::try_from(index).unwrap_or(u32::MAX);
        let a = render::render(&before, page_index, COMPARE_DPI, max_pixels, true)?;
        let b = render::render(&after, page_index, COMPARE_DPI, max_pixels, true)?;
        let frame = Frame::of(&after);
        let on_page: Vec<Rect> = areas
            .iter()
            .filter(|(p, _)| *p == number)
            .map(|(_, r)| *r)
            .collect();
        // An annotation that reaches into an area is removed whole, and its appearance (a
        // link's border, a note's icon) may reach past the area.
        let removed_annotations: Vec<Rect> = before
            .annotations()
            .iter()
            .filter_map(|annotation| annotation.bounds().ok())
            .map(|b| Rect {
                x0: f64::from(b.left().value),
                y0: f64::from(b.bottom().value),
                x1: f64::from(b.right().value),
                y1: f64::from(b.top().value),
            })
            .filter(|r| {
                on_page
                    .iter()
                    .any(|a| a.x0 < r.x1 && r.x0 < a.x1 && a.y0 < r.y1 && r.y0 < a.y1)
            })
            .collect();
        let masks: Vec<[f64; 4]> = on_page
            .iter()
            .chain(&removed_annotations)
            .map(|r| {
                let p = frame.to_pixels(r.x0, r.y0, scale);
                let q = frame.to_pixels(r.x1, r.y1, scale);
                [
                    p.0.min(q.0) - MARGIN_PX,
                    p.1.min(q.1) - MARGIN_PX,
                    p.0.max(q.0) + MARGIN_PX,
                    p.1.max(q.1) + MARGIN_PX,
                ]
            })
            .collect();
        match psnr_outside(&a, &b, &masks) {
            None => checked.fail(number, "the page's size changed".to_owned()),
            Some(psnr) => {
                let changed = changed_outside(&a, &b, &masks);
                let limit = u64::from(a.width) * u64::from(a.height) / MAX_CHANGED_SHARE;
                // A page drawn as a picture is the input's own rendering with the areas painted
                // over: only its resolution differs, which this check is not about.
                if changed > limit && !pictured.contains(&number) {
                    checked.fail(
                        number,
                        format!(
                            "outside the areas {changed} pixels of the page drawn differ from the \
                             input ({psnr:.1} dB)"
                        ),
                    );
                }
                if !pictured.contains(&number) {
                    checked.most_changed = checked.most_changed.max(changed);
                }
                if psnr.is_finite() {
                    checked.worst_psnr =
                        Some(checked.worst_psnr.map_or(psnr, |w: f64| w.min(psnr)));
                }
            }
        }
    }
    Ok(())
}

/// Pixels outside the masks that differ by more than antialiasing: a pixel of one render with
/// no pixel within PIXEL_TOLERANCE levels among its 3x3 neighbours in the other, either way
/// (ink lost, ink added). Both renders have the same size.
pub fn changed_outside(a: &Pixels, b: &Pixels, masks: &[[f64; 4]]) -> u64 {
    let (w, h) = (a.width as usize, a.height as usize);
    let near = |x: &Pixels, y: &Pixels, cx: usize, cy: usize| {
        let v = x.data[cy * w + cx];
        (cy.saturating_sub(1)..=(cy + 1).min(h - 1)).any(|ny| {
            (cx.saturating_sub(1)..=(cx + 1).min(w - 1))
                .any(|nx| v.abs_diff(y.data[ny * w + nx]) <= PIXEL_TOLERANCE)
        })
    };
    let mut changed = 0;
    for cy in 0..h {
        let fy = cy as f64 + 0.5;
        for cx in 0..w {
            let fx = cx as f64 + 0.5;
            if masks
                .iter()
                .any(|m| m[0] <= fx && fx <= m[2] && m[1] <= fy && fy <= m[3])
            {
                continue;
            }
            if !near(a, b, cx, cy) || !near(b, a, cx, cy) {
                changed += 1;
            }
        }
    }
    changed
}

/// PSNR of two grey renders over the pixels outside the masks (infinite when equal); None
/// when their sizes differ.
pub fn psnr_outside(a: &Pixels, b: &Pixels, masks: &[[f64; 4]]) -> Option<f64> {
    if (a.width, a.height) != (b.width, b.height) {
        return None;
    }
    let mut sum = 0u64;
    let mut count = 0u64;
    for y in 0..a.height as usize {
        let fy = y as f64 + 0.5;
        for x in 0..a.width as usize {
            let fx = x as f64 + 0.5;
            if masks
                .iter()
                .any(|m| m[0] <= fx && fx <= m[2] && m[1] <= fy && fy <= m[3])
            {
                continue;
            }
            let at = y * a.width as usize + x;
            let d = u64::from(a.data[at].abs_diff(b.data[at]));
            sum += d * d;
            count += 1;
        }
    }
    if sum == 0 || count == 0 {
        return Some(f64::INFINITY);
    }
    let mse = sum as f64 / count as f64;
    Some(10.0 * (255.0f64 * 255.0 / mse).log10())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grey(width: u32, height: u32, data: Vec<u8>) -> Pixels {
        Pixels {
            width,
            height,
            channels: 1,
            data,
        }
    }

    #[test]
    fn differences_inside_a_mask_do_not_count() {
        let a = grey(4, 1, vec![0, 0, 0, 0]);
        let b = grey(4, 1, vec![255, 0, 0, 0]);
        assert_eq!(
            psnr_outside(&a, &b, &[[0.0, 0.0, 1.0, 1.0]]),
            Some(f64::INFINITY)
        );
        let outside = psnr_outside(&a, &b, &[]).expect("same size");
        assert!(
            (outside - 10.0 * (4.0f64).log10()).abs() < 1e-9,
            "{outside}"
        );
        assert_eq!(psnr_outside(&a, &grey(2, 2, vec![0; 4]), &[]), None);
    }

    #[test]
    fn a_shift_of_a_pixel_is_not_a_change_but_a_lost_mark_is() {
        // A vertical line at x = 2, then the same line one pixel to the right, then gone.
        let line = |x: usize| {
            let mut data = vec![255; 25];
            for y in 0..5 {
                data[y * 5 + x] = 0;
            }
            grey(5, 5, data)
        };
        assert_eq!(changed_outside(&line(2), &line(3), &[]), 0);
        assert_eq!(
            changed_outside(&line(2), &grey(5, 5, vec![255; 25]), &[]),
            5
        );
        assert_eq!(
            changed_outside(
                &line(2),
                &grey(5, 5, vec![255; 25]),
                &[[2.0, 0.0, 3.0, 5.0]]
            ),
            0
        );
    }

    #[test]
    fn terms_are_compared_without_case_or_spaces() {
        assert_eq!(squeeze("Jane \r\n DOE"), "janedoe");
        assert_eq!(squeeze("archi\u{FFFE}tecture"), "architecture");
    }
}
