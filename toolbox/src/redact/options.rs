//! The options checked against the document, with a sentence the user understands for each
//! mistake, and turned into the plan the engine follows.

use std::collections::BTreeMap;

use super::Redaction;
use super::clean::Terms;
use crate::ToolError;
use crate::geometry::Rect;
use crate::stamp::font::Font;

/// More areas than any review marks; past it the request is refused rather than slow.
const MAX_AREAS: usize = 100_000;
/// A label longer than this cannot fit a box.
const MAX_LABEL: usize = 200;
/// Below this side (points) an area covers nothing.
const MIN_SIDE: f64 = 0.01;

pub struct Plan {
    /// Areas by 0-based page index.
    pub pages: BTreeMap<usize, Vec<Rect>>,
    pub fill: [u8; 3],
    pub label: Option<(String, Font)>,
    pub terms: Terms,
    pub clean: bool,
}

/// Checks what does not depend on the document: the label and the areas' shapes.
pub fn check(redaction: &Redaction) -> Result<(), ToolError> {
    let terms = Terms::new(&redaction.terms);
    let cleans = redaction.clean_document && !terms.is_empty();
    if redaction.areas.is_empty() && !cleans {
        return Err(ToolError::BadOptions(
            "there is no area to redact: mark at least one area on a page".into(),
        ));
    }
    if redaction.areas.len() > MAX_AREAS {
        return Err(ToolError::BadOptions(format!(
            "{} areas are too many: redact at most {MAX_AREAS} at once",
            redaction.areas.len()
        )));
    }
    for (n, area) in redaction.areas.iter().enumerate() {
        let r = area.rect;
        if ![r.x0, r.y0, r.x1, r.y1].iter().all(|v| v.is_finite()) {
            return Err(ToolError::BadOptions(format!(
                "area {} has a coordinate that is not a number",
                n + 1
            )));
        }
        if (r.x1 - r.x0).abs() < MIN_SIDE || (r.y1 - r.y0).abs() < MIN_SIDE {
            return Err(ToolError::BadOptions(format!(
                "area {} on page {} has no size: give it a width and a height",
                n + 1,
                area.page
            )));
        }
    }
    if let Some(label) = &redaction.label
        && label.chars().count() > MAX_LABEL
    {
        return Err(ToolError::BadOptions(format!(
            "the label is {} characters long: use at most {MAX_LABEL}",
            label.chars().count()
        )));
    }
    Ok(())
}

/// The plan for a document of `page_count` pages.
pub fn plan(redaction: &Redaction, page_count: usize) -> Result<Plan, ToolError> {
    check(redaction)?;
    let mut pages: BTreeMap<usize, Vec<Rect>> = BTreeMap::new();
    for (n, area) in redaction.areas.iter().enumerate() {
        let index = (area.page as usize).wrapping_sub(1);
        if area.page == 0 || index >= page_count {
            let pages = if page_count == 1 { "page" } else { "pages" };
            return Err(ToolError::BadOptions(format!(
                "area {} is on page {}, but the PDF has {page_count} {pages}",
                n + 1,
                area.page
            )));
        }
        let r = area.rect;
        pages.entry(index).or_default().push([
            r.x0.min(r.x1),
            r.y0.min(r.y1),
            r.x0.max(r.x1),
            r.y0.max(r.y1),
        ]);
    }
    let label = match redaction.label.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => {
            let font = Font::for_text(text, None).map_err(|e| match e {
                ToolError::BadOptions(why) => ToolError::BadOptions(format!("label: {why}")),
                other => other,
            })?;
            Some((text.to_string(), font))
        }
        _ => None,
    };
    Ok(Plan {
        pages,
        fill: redaction.fill,
        label,
        terms: Terms::new(&redaction.terms),
        clean: redaction.clean_document,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::{Area, Rect as Box};

    fn redaction(areas: Vec<Area>) -> Redaction {
        Redaction {
            areas,
            fill: [0, 0, 0],
            label: None,
            terms: Vec::new(),
            clean_document: false,
        }
    }

    fn area(page: u32, x1: f64) -> Area {
        Area {
            page,
            rect: Box {
                x0: x1,
                y0: 10.0,
                x1: 10.0,
                y1: 20.0,
            },
        }
    }

    fn message(result: Result<Plan, ToolError>) -> String {
        match result {
            Err(ToolError::BadOptions(why)) => why,
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("accepted"),
        }
    }

    #[test]
    fn mistakes_are_told_in_words() {
        assert_eq!(
            message(plan(&redaction(vec![area(12, 50.0)]), 10)),
            "area 1 is on page 12, but the PDF has 10 pages"
        );
        assert!(message(plan(&redaction(vec![area(0, 50.0)]), 10)).contains("page 0"));
        assert!(message(plan(&redaction(Vec::new()), 10)).contains("no area"));
        assert!(message(plan(&redaction(vec![area(1, 10.0)]), 10)).contains("no size"));
        assert!(message(plan(&redaction(vec![area(1, f64::NAN)]), 10)).contains("not a number"));
        let mut labelled = redaction(vec![area(1, 50.0)]);
        labelled.label = Some("Ч".into());
        assert!(message(plan(&labelled, 10)).starts_with("label: "));
        // Corners in any order are normalised.
        let plan = plan(&redaction(vec![area(2, 50.0)]), 10).expect("valid");
        assert_eq!(plan.pages[&1], vec![[10.0, 10.0, 50.0, 20.0]]);
        // Terms alone clean the document.
        let mut terms_only = redaction(Vec::new());
        terms_only.terms = vec!["x".into()];
        terms_only.clean_document = true;
        assert!(check(&terms_only).is_ok());
    }
}
