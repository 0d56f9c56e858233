//! Page numbers and Bates numbers: a format with placeholders, printed at a position of each
//! page from the first numbered one on, in one font shared by every page.

use std::path::Path;

use super::Numbering;
use super::content::{self, Resource, Stamper};
use super::font::Font;
use super::geometry::{self, Frame};
use crate::{ToolError, Written, io, pages};

/// The widest zero padding: 20 digits hold any number printed.
const MAX_WIDTH: usize = 20;

pub fn number_pages(
    input: &Path,
    numbering: &Numbering,
    output: &Path,
) -> Result<Written, ToolError> {
    let format = Format::parse(&numbering.format)?;
    let size = super::text_size(numbering.size)?;
    if !(0.0..=500.0).contains(&numbering.margin) {
        return Err(ToolError::BadOptions(format!(
            "the margin is {}: use a distance from 0 to 500 points",
            numbering.margin
        )));
    }
    if numbering.first_page == 0 {
        return Err(ToolError::BadOptions(
            "the first numbered page is 0: pages are numbered from 1".into(),
        ));
    }
    // Every character any page will show: the literal text and the digits.
    let font = Font::for_text(
        &format!("{}0123456789", format.literal()),
        numbering.font.as_deref(),
    )?;
    let mut doc = io::open(input)?;
    let mut tree = pages::walk(&doc)?;
    content::flatten(&mut doc, &mut tree)?;
    let count = crate::count(tree.pages.len());
    if numbering.first_page > count {
        return Err(ToolError::BadOptions(format!(
            "numbering is to start on page {}, but the document has {count} page{}: choose a \
             first page from 1 to {count}",
            numbering.first_page,
            if count == 1 { "" } else { "s" },
        )));
    }
    let first = numbering.first_page as usize - 1;
    let start = u64::from(numbering.start);
    let total = start + u64::from(count - numbering.first_page);
    let font_id = font.add_to(&mut doc);
    let resources = [Resource {
        category: b"Font",
        name: "QuireNumber",
        object: font_id,
    }];
    let (ascent, descent) = font.vertical();
    let height = (ascent - descent) * size;
    let mut stamper = Stamper::new();
    for (offset, page) in tree.pages[first..].iter().enumerate() {
        let text = format.render(start + offset as u64, total);
        let frame = Frame::of(&doc, page);
        let names = stamper.add_resources(&mut doc, page, &resources);
        let width = font.width(&text) * size;
        let (x, y) = geometry::place(
            &frame,
            numbering.position,
            width,
            height,
            numbering.margin.into(),
        );
        let operators = super::text_operators(
            &names[0],
            size,
            numbering.rgb,
            (x, y - descent * size),
            &font.show(&text),
        );
        let stream = format!("q\n{}{operators}Q\n", geometry::cm(&frame));
        stamper.add_content(&mut doc, page.id, stream, false);
    }
    io::save(&mut doc, output)?;
    Ok(Written { pages: count })
}

#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    /// The page's number, zero-padded to a width.
    Number(usize),
    Total(usize),
}

/// A parsed numbering format.
#[derive(Debug, PartialEq)]
struct Format(Vec<Piece>);

impl Format {
    fn parse(format: &str) -> Result<Format, ToolError> {
        const HOW: &str = "write {n} for the number, {n:6} for one padded to 6 digits, \
                           {total} for the last page's number";
        let mut pieces = Vec::new();
        let mut rest = format;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_string()));
            }
            let Some(close) = rest[open..].find('}') else {
                return Err(ToolError::BadOptions(format!(
                    "the format has a \"{{\" without its \"}}\": {HOW}"
                )));
            };
            let inner = &rest[open + 1..open + close];
            let (key, width) = match inner.split_once(':') {
                Some((key, width)) => (key, width.trim().parse::<usize>().ok()),
                None => (inner, Some(0)),
            };
            let width = width.filter(|&w| w <= MAX_WIDTH);
            pieces.push(match (key.trim(), width) {
                ("n", Some(width)) => Piece::Number(width),
                ("total", Some(width)) => Piece::Total(width),
                _ => {
                    return Err(ToolError::BadOptions(format!(
                        "\"{{{inner}}}\" is not a placeholder: {HOW} (padded to at most \
                         {MAX_WIDTH} digits)"
                    )));
                }
            });
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_string()));
        }
        if !pieces.iter().any(|piece| matches!(piece, Piece::Number(_))) {
            return Err(ToolError::BadOptions(format!(
                "the format has no {{n}} for the page number: {HOW}, as in \"Page {{n}} of {{total}}\""
            )));
        }
        Ok(Format(pieces))
    }

    /// The literal text of the format.
    fn literal(&self) -> String {
        self.0
            .iter()
            .filter_map(|piece| match piece {
                Piece::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    fn render(&self, n: u64, total: u64) -> String {
        self.0
            .iter()
            .map(|piece| match piece {
                Piece::Text(text) => text.clone(),
                Piece::Number(width) => format!("{n:0width$}"),
                Piece::Total(width) => format!("{total:0width$}"),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(format: &str, n: u64, total: u64) -> String {
        Format::parse(format).expect("a format").render(n, total)
    }

    fn refused(format: &str) -> String {
        match Format::parse(format) {
            Err(ToolError::BadOptions(message)) => message,
            other => panic!("{format:?} gave {other:?}"),
        }
    }

    #[test]
    fn placeholders_and_literal_text() {
        assert_eq!(rendered("{n}", 3, 5), "3");
        assert_eq!(rendered("{n} / {total}", 3, 5), "3 / 5");
        assert_eq!(rendered("Page {n} of {total}", 3, 5), "Page 3 of 5");
        assert_eq!(rendered("ACME-{n:6}", 7, 9), "ACME-000007");
        assert_eq!(rendered("{n:2}", 1234, 9), "1234");
        assert_eq!(rendered("[{ n }] {total:3}", 1, 12), "[1] 012");
        assert_eq!(Format::parse("a}b{n}").expect("a format").literal(), "a}b");
    }

    #[test]
    fn formats_without_a_number_or_with_unknown_placeholders() {
        assert!(refused("Page").contains("no {n}"));
        assert!(refused("{total}").contains("no {n}"));
        assert!(refused("{N}").contains("\"{N}\" is not a placeholder"));
        assert!(refused("{n:x}").contains("not a placeholder"));
        assert!(refused("{n:21}").contains("not a placeholder"));
        assert!(refused("Page {n").contains("without its"));
    }
}
