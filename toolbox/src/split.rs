//! Splitting: which pages go in each part and what each part is called; extract writes them.

use std::collections::HashSet;
use std::path::Path;

use crate::dests::Target;
use crate::extract::{self, Slot};
use crate::outline::{self, Item};
use crate::source::Source;
use crate::{Part, SplitMode, ToolError, io};

/// How long a bookmark title may make a part's name.
const MAX_TITLE_CHARS: usize = 60;

pub fn split(
    input: &Path,
    mode: &SplitMode,
    stem: &str,
    out_dir: &Path,
) -> Result<Vec<Part>, ToolError> {
    let mut src = Source::open(input)?;
    let count = crate::count(src.pages.len());
    let planned = match mode {
        SplitMode::Ranges(spec) => crate::parse_ranges(spec, count)?
            .into_iter()
            .map(|pages| (range_name(stem, &pages), pages))
            .collect(),
        SplitMode::Every(0) => {
            return Err(ToolError::BadOptions(
                "a part needs at least one page".into(),
            ));
        }
        SplitMode::Every(n) => (1..=count)
            .collect::<Vec<u32>>()
            .chunks(*n as usize)
            .map(|pages| (range_name(stem, pages), pages.to_vec()))
            .collect(),
        SplitMode::Bookmarks => by_bookmarks(&src.outline, count, stem)?,
    };
    let mut parts = Vec::with_capacity(planned.len());
    let mut used = HashSet::new();
    for (name, pages) in planned {
        let name = unique(name, &mut used);
        let slots: Vec<Slot> = pages
            .iter()
            .map(|&page| Slot::Page(page as usize - 1))
            .collect();
        let mut doc = extract::extract(&mut src, &slots, false)?;
        let path = out_dir.join(&name);
        io::save(&mut doc, &path)?;
        parts.push(Part { name, path, pages });
    }
    Ok(parts)
}

/// "<stem>-page-5.pdf", "<stem>-pages-1-3.pdf".
fn range_name(stem: &str, pages: &[u32]) -> String {
    match (pages.first(), pages.last()) {
        (Some(first), Some(last)) if first != last => format!("{stem}-pages-{first}-{last}.pdf"),
        (Some(page), _) => format!("{stem}-page-{page}.pdf"),
        _ => format!("{stem}.pdf"),
    }
}

/// The same range asked for twice still makes two ZIP entries: the second gets "-2".
fn unique(name: String, used: &mut HashSet<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while !used.insert(candidate.clone()) {
        let stem = name.strip_suffix(".pdf").unwrap_or(&name);
        candidate = format!("{stem}-{n}.pdf");
        n += 1;
    }
    candidate
}

/// One part per top-level bookmark, from its page to the page before the next one's. A
/// bookmark that leads nowhere takes its first child's page; bookmarks are taken in page order,
/// and one on a page an earlier one starts adds no part. Pages before the first form a part
/// of their own, called "start".
fn by_bookmarks(
    outline: &[Item],
    count: u32,
    stem: &str,
) -> Result<Vec<(String, Vec<u32>)>, ToolError> {
    if outline.is_empty() {
        return Err(ToolError::BadOptions(
            "this PDF has no bookmarks: split by ranges instead".into(),
        ));
    }
    let mut starts: Vec<(u32, String)> = outline
        .iter()
        .filter_map(|item| Some((crate::count(first_page(item)?), outline::title(item))))
        .collect();
    if starts.is_empty() {
        return Err(ToolError::BadOptions(
            "this PDF's bookmarks lead to none of its pages: split by ranges instead".into(),
        ));
    }
    starts.sort_by_key(|(page, _)| *page);
    starts.dedup_by_key(|(page, _)| *page);
    if starts[0].0 > 0 {
        starts.insert(0, (0, "start".into()));
    }
    let width = starts.len().to_string().len().max(2);
    let mut parts = Vec::with_capacity(starts.len());
    for (i, (first, title)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(count, |(next, _)| *next);
        let pages = (first + 1..=end).collect();
        let name = format!("{stem}-{:0width$}-{}.pdf", i + 1, safe_title(title));
        parts.push((name, pages));
    }
    Ok(parts)
}

/// The page an entry leads to, or its first descendant's.
fn first_page(item: &Item) -> Option<usize> {
    match item.target {
        Target::Page(page) => Some(page),
        _ => item.children.iter().find_map(first_page),
    }
}

/// A title as part of a file name: letters and digits (of any script) kept, every run of
/// anything else one "-", at most 60 characters.
fn safe_title(title: &str) -> String {
    let mut safe = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() || c == '_' {
            safe.push(c);
        } else if !safe.is_empty() && !safe.ends_with('-') {
            safe.push('-');
        }
    }
    let safe: String = safe.chars().take(MAX_TITLE_CHARS).collect();
    let safe = safe.trim_end_matches('-');
    if safe.is_empty() {
        "bookmark".into()
    } else {
        safe.into()
    }
}

#[cfg(test)]
mod tests {
    use lopdf::{Dictionary, Object};

    use super::*;

    fn item(title: &str, target: Target, children: Vec<Item>) -> Item {
        let mut dict = Dictionary::new();
        dict.set("Title", Object::string_literal(title));
        Item {
            dict,
            open: false,
            target,
            children,
        }
    }

    #[test]
    fn titles_become_safe_names() {
        assert_eq!(
            safe_title("Chapter 1: Intro/Overview"),
            "Chapter-1-Intro-Overview"
        );
        assert_eq!(safe_title("  Введение — часть 2 "), "Введение-часть-2");
        assert_eq!(safe_title("../.."), "bookmark");
        assert_eq!(safe_title(&"x".repeat(100)).len(), 60);
        assert_eq!(safe_title(&format!("{} b", "a".repeat(59))), "a".repeat(59));
    }

    #[test]
    fn bookmark_parts_cover_every_page_once() {
        let outline = vec![
            item("Two", Target::Page(3), vec![]),
            item("One", Target::Page(1), vec![]),
            item(
                "Heading",
                Target::NotAPage,
                vec![item("Inner", Target::Page(5), vec![])],
            ),
            item("Also one", Target::Page(1), vec![]),
            item("Broken", Target::Unresolved, vec![]),
        ];
        let parts = by_bookmarks(&outline, 8, "doc").expect("parts");
        let expected = vec![
            ("doc-01-start.pdf".to_string(), vec![1]),
            ("doc-02-One.pdf".to_string(), vec![2, 3]),
            ("doc-03-Two.pdf".to_string(), vec![4, 5]),
            ("doc-04-Heading.pdf".to_string(), vec![6, 7, 8]),
        ];
        assert_eq!(parts, expected);
    }

    #[test]
    fn bookmarks_that_lead_nowhere_are_bad_options() {
        let outline = vec![item("x", Target::NotAPage, vec![])];
        assert!(matches!(
            by_bookmarks(&outline, 3, "d"),
            Err(ToolError::BadOptions(_))
        ));
        let Err(ToolError::BadOptions(message)) = by_bookmarks(&[], 3, "d") else {
            panic!("no outline accepted")
        };
        assert_eq!(
            message,
            "this PDF has no bookmarks: split by ranges instead"
        );
    }

    #[test]
    fn repeated_names_are_numbered() {
        let mut used = HashSet::new();
        assert_eq!(unique("a-page-1.pdf".into(), &mut used), "a-page-1.pdf");
        assert_eq!(unique("a-page-1.pdf".into(), &mut used), "a-page-1-2.pdf");
        assert_eq!(unique("a-page-1.pdf".into(), &mut used), "a-page-1-3.pdf");
    }
}
