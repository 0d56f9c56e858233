//! What a tool's options must look like before a worker is asked: the shape only (counts,
//! allowed values). What depends on the document, such as a page past the end, is the
//! worker's to check.

use quire_proto::v1::{
    MergeOptions, OrganizeOptions, RotateOptions, SplitOptions, ToolOptions, split_options,
    tool_options::Tool,
};

use crate::error::{ApiError, ApiResult};

/// Pages an organized document may hold: far above any real use, far below a runaway list.
const MAX_SLOTS: usize = 10_000;

/// What the result is made of.
pub struct Shape {
    /// The files go back in a ZIP (split), rather than as the one PDF written.
    pub zip: bool,
    /// The slug, for logs and metrics.
    pub slug: &'static str,
}

pub fn check(options: &ToolOptions, files: usize) -> ApiResult<Shape> {
    let Some(tool) = &options.tool else {
        return Err(ApiError::invalid(
            "the options name no tool: set one of merge, split, rotate, organize",
        ));
    };
    let (slug, inputs) = match tool {
        Tool::Merge(MergeOptions {}) => ("merge", 2..=super::intake::MAX_FILES),
        Tool::Split(_) => ("split", 1..=1),
        Tool::Rotate(_) => ("rotate", 1..=1),
        Tool::Organize(_) => ("organize", 1..=1),
    };
    if !inputs.contains(&files) {
        return Err(ApiError::invalid(match slug {
            "merge" => format!("merge takes 2 to {} PDFs, got {files}", inputs.end()),
            _ => format!("{slug} takes one PDF, got {files}"),
        }));
    }
    match tool {
        Tool::Merge(_) => {}
        Tool::Split(SplitOptions { mode }) => match mode {
            None => {
                return Err(ApiError::invalid(
                    "choose how to split: page ranges, every N pages, or at each bookmark",
                ));
            }
            Some(split_options::Mode::Ranges(ranges)) if ranges.trim().is_empty() => {
                return Err(ApiError::invalid(
                    "page ranges are empty: write them like 1-3,5,8-",
                ));
            }
            Some(split_options::Mode::Every(0)) => {
                return Err(ApiError::invalid(
                    "split every N pages needs N of 1 or more",
                ));
            }
            Some(split_options::Mode::Bookmarks(false)) => {
                return Err(ApiError::invalid(
                    "bookmarks must be true to split at bookmarks",
                ));
            }
            Some(_) => {}
        },
        Tool::Rotate(RotateOptions { degrees, pages: _ }) => {
            if ![90, 180, 270].contains(degrees) {
                return Err(ApiError::invalid(format!(
                    "rotation must be 90, 180 or 270 degrees clockwise, got {degrees}"
                )));
            }
        }
        Tool::Organize(OrganizeOptions { slots }) => {
            if slots.is_empty() {
                return Err(ApiError::invalid(
                    "the new page order is empty: keep at least one page",
                ));
            }
            if slots.len() > MAX_SLOTS {
                return Err(ApiError::invalid(format!(
                    "at most {MAX_SLOTS} pages in the new order, got {}",
                    slots.len()
                )));
            }
        }
    }
    Ok(Shape {
        zip: slug == "split",
        slug,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_proto::v1::{PageSlot, page_slot};

    fn options(tool: Tool) -> ToolOptions {
        ToolOptions { tool: Some(tool) }
    }

    #[test]
    fn counts_and_values_are_checked() {
        assert!(check(&ToolOptions::default(), 1).is_err());
        assert!(check(&options(Tool::Merge(MergeOptions {})), 1).is_err());
        assert!(check(&options(Tool::Merge(MergeOptions {})), 2).is_ok());
        let rotate = |degrees| {
            options(Tool::Rotate(RotateOptions {
                degrees,
                pages: String::new(),
            }))
        };
        assert!(check(&rotate(90), 1).is_ok());
        assert!(check(&rotate(45), 1).is_err());
        assert!(check(&rotate(90), 2).is_err());
        let split = |mode| options(Tool::Split(SplitOptions { mode: Some(mode) }));
        assert!(check(&split(split_options::Mode::Every(0)), 1).is_err());
        assert!(check(&split(split_options::Mode::Ranges(" ".into())), 1).is_err());
        assert!(check(&split(split_options::Mode::Every(2)), 1).unwrap().zip);
        let organize = |slots| options(Tool::Organize(OrganizeOptions { slots }));
        assert!(check(&organize(vec![]), 1).is_err());
        let page = PageSlot {
            slot: Some(page_slot::Slot::Page(1)),
        };
        assert!(!check(&organize(vec![page]), 1).unwrap().zip);
    }
}
