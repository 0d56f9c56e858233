//! Page range specs ("1-3,5,8-"), as split, rotate and the service's option checks read them.

use crate::ToolError;

/// How a spec is written, for the error messages.
const SYNTAX: &str = "write pages and ranges like 1-3,5,8-";

/// Each comma-separated item's pages, 1-based. "8-" runs to the last page, "-3" from the
/// first, "-" is every page; spaces are allowed anywhere and empty items are ignored (a
/// trailing comma). A page out of range or a reversed range names the item and the page count.
pub fn parse_ranges(spec: &str, page_count: u32) -> Result<Vec<Vec<u32>>, ToolError> {
    let mut ranges = Vec::new();
    for raw in spec.split(',') {
        let item = raw.trim();
        if item.is_empty() {
            continue;
        }
        let (first, last) = bounds(item, page_count)?;
        ranges.push((first..=last).collect());
    }
    if ranges.is_empty() {
        return Err(ToolError::BadOptions(format!("no pages given: {SYNTAX}")));
    }
    Ok(ranges)
}

/// The first and last page of one item, checked against the page count.
fn bounds(item: &str, page_count: u32) -> Result<(u32, u32), ToolError> {
    // An en dash is what a word processor makes of "1-3".
    let normalized = item.replace('\u{2013}', "-");
    let (first, last) = match normalized.split_once('-') {
        None => {
            let page = number(item, &normalized)?;
            (page, page)
        }
        Some((first, last)) => {
            let first = match first.trim() {
                "" => 1,
                text => number(item, text)?,
            };
            let last = match last.trim() {
                "" => u64::from(page_count.max(1)),
                text => number(item, text)?,
            };
            (first, last)
        }
    };
    let pages = pages_phrase(page_count);
    for page in [first, last] {
        if page == 0 {
            return Err(ToolError::BadOptions(format!(
                "\"{item}\": pages are numbered from 1 (the document has {pages})"
            )));
        }
        if page > u64::from(page_count) {
            return Err(ToolError::BadOptions(format!(
                "\"{item}\": page {page} is past the last page (the document has {pages})"
            )));
        }
    }
    if first > last {
        return Err(ToolError::BadOptions(format!(
            "\"{item}\" is a reversed range: write it as {last}-{first} (the document has {pages})"
        )));
    }
    // Both are at most page_count, a u32.
    Ok((first as u32, last as u32))
}

/// A page number; digits only, and one too large for any document reads as past the end.
fn number(item: &str, text: &str) -> Result<u64, ToolError> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ToolError::BadOptions(format!(
            "\"{item}\" is not a page or a range of pages: {SYNTAX}"
        )));
    }
    Ok(text.parse().unwrap_or(u64::MAX))
}

fn pages_phrase(count: u32) -> String {
    if count == 1 {
        "1 page".into()
    } else {
        format!("{count} pages")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<Vec<Vec<u32>>, ToolError>) -> String {
        match result {
            Err(ToolError::BadOptions(message)) => message,
            other => panic!("expected BadOptions, got {other:?}"),
        }
    }

    #[test]
    fn items_single_pages_and_open_ends() {
        assert_eq!(
            parse_ranges("1-3,5,8-", 10).ok(),
            Some(vec![vec![1, 2, 3], vec![5], vec![8, 9, 10]])
        );
        assert_eq!(parse_ranges("-3", 10).ok(), Some(vec![vec![1, 2, 3]]));
        assert_eq!(
            parse_ranges(" 2 - 4 , 6 ,", 10).ok(),
            Some(vec![vec![2, 3, 4], vec![6]])
        );
        assert_eq!(parse_ranges("-", 3).ok(), Some(vec![vec![1, 2, 3]]));
        assert_eq!(parse_ranges("10-10", 10).ok(), Some(vec![vec![10]]));
        assert_eq!(parse_ranges("1\u{2013}2", 10).ok(), Some(vec![vec![1, 2]]));
        // Items may repeat and overlap: each is its own output.
        assert_eq!(
            parse_ranges("1-2,2", 2).ok(),
            Some(vec![vec![1, 2], vec![2]])
        );
    }

    #[test]
    fn out_of_range_names_the_item_and_the_page_count() {
        let text = message(parse_ranges("1-3,12", 10));
        assert!(
            text.contains("\"12\"") && text.contains("10 pages"),
            "{text}"
        );
        let text = message(parse_ranges("9-11", 10));
        assert!(
            text.contains("\"9-11\"") && text.contains("page 11"),
            "{text}"
        );
        let text = message(parse_ranges("2", 1));
        assert!(text.contains("1 page)"), "{text}");
        let text = message(parse_ranges("0-2", 10));
        assert!(text.contains("numbered from 1"), "{text}");
        let text = message(parse_ranges("99999999999999999999999", 10));
        assert!(text.contains("past the last page"), "{text}");
    }

    #[test]
    fn reversed_and_malformed_items() {
        let text = message(parse_ranges("5-3", 10));
        assert!(
            text.contains("\"5-3\" is a reversed range") && text.contains("3-5"),
            "{text}"
        );
        for spec in ["a", "1-2-3", "1,x", "1.5", "+2", "1 2"] {
            let text = message(parse_ranges(spec, 10));
            assert!(text.contains("is not a page"), "{spec}: {text}");
        }
        for spec in ["", " ", ",", " , ,"] {
            let text = message(parse_ranges(spec, 10));
            assert!(text.starts_with("no pages given"), "{spec:?}: {text}");
        }
    }

    #[test]
    fn an_open_range_on_an_empty_count_is_out_of_range() {
        assert!(matches!(
            parse_ranges("1-", 0),
            Err(ToolError::BadOptions(_))
        ));
    }
}
