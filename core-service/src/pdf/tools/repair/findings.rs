//! The sentences a person reads: what was found and done.

use super::*;

/// What became of the pages PDFium lists (1-based numbers).
pub(super) struct Pages<'a> {
    pub(super) listed: u32,
    pub(super) unreadable: &'a [u32],
    pub(super) rewritten: &'a [u32],
    /// Pages whose content streams were lost.
    pub(super) blank: &'a [u32],
    /// Pages with an image whose data stops short.
    pub(super) cut_images: &'a [u32],
    /// The pages were copied into a new document.
    pub(super) copied: bool,
}

pub(super) fn findings(
    look: &Look,
    structure: &Structure,
    pages: Pages,
    rescue: Rescue,
) -> Vec<String> {
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
pub(super) fn count(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// "page 3", "pages 3 and 5", "pages 3, 5 and 9 to 12": runs of three or more as ranges.
pub(super) fn page_list(pages: &[u32]) -> String {
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
