//! The toolbox forms' fields as each tool's typed options. Only the shape is read here; the
//! core checks the values and the worker checks them against the document.

use quire_proto::{
    ErrorCode,
    v1::{
        MergeOptions, OrganizeOptions, PageSlot, RotateOptions, SplitOptions, ToolOptions,
        page_slot, split_options, tool_options::Tool,
    },
};

use crate::{multipart::Fields, problem::Problem};

/// The tools served at `/tools/{slug}/run`, with the fields each form may carry.
pub fn fields(slug: &str) -> Option<&'static [&'static str]> {
    Some(match slug {
        "merge" => &[],
        "split" => &["mode", "ranges", "every"],
        "rotate" => &["degrees", "pages"],
        "organize" => &["order"],
        _ => return None,
    })
}

pub fn options(slug: &str, fields: &Fields) -> Result<ToolOptions, Problem> {
    let get = |name: &str| fields.get(name).map(|v| v.trim()).unwrap_or_default();
    let tool = match slug {
        "merge" => Tool::Merge(MergeOptions {}),
        "split" => Tool::Split(SplitOptions {
            mode: Some(match get("mode") {
                "" | "ranges" => split_options::Mode::Ranges(get("ranges").to_owned()),
                "every" => split_options::Mode::Every(number("every", get("every"))?),
                "bookmarks" => split_options::Mode::Bookmarks(true),
                other => {
                    return Err(invalid(format!(
                        "mode must be ranges, every or bookmarks, got {other:?}"
                    )));
                }
            }),
        }),
        "rotate" => Tool::Rotate(RotateOptions {
            degrees: match get("degrees") {
                "" => 90,
                value => value.parse().map_err(|_| {
                    invalid(format!("degrees must be 90, 180 or 270, got {value:?}"))
                })?,
            },
            pages: get("pages").to_owned(),
        }),
        "organize" => Tool::Organize(OrganizeOptions {
            slots: get("order")
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|item| {
                    Ok(PageSlot {
                        slot: Some(match item {
                            "blank" => page_slot::Slot::Blank(true),
                            page => page_slot::Slot::Page(number("order", page)?),
                        }),
                    })
                })
                .collect::<Result<_, Problem>>()?,
        }),
        _ => return Err(Problem::new(ErrorCode::NotFound, "no such tool")),
    };
    Ok(ToolOptions { tool: Some(tool) })
}

fn number(field: &str, value: &str) -> Result<u32, Problem> {
    value.parse().map_err(|_| {
        invalid(format!(
            "{field} takes whole numbers of 1 or more, got {value:?}"
        ))
    })
}

fn invalid(message: String) -> Problem {
    Problem::new(ErrorCode::InvalidArgument, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> Fields {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn fields_become_typed_options() {
        let organize = options("organize", &form(&[("order", "3, 1,blank,1")])).unwrap();
        let Some(Tool::Organize(OrganizeOptions { slots })) = organize.tool else {
            panic!("not organize")
        };
        assert_eq!(slots.len(), 4);
        assert_eq!(slots[2].slot, Some(page_slot::Slot::Blank(true)));
        assert!(options("organize", &form(&[("order", "1,x")])).is_err());
        let split = options("split", &form(&[("mode", "every"), ("every", "2")])).unwrap();
        assert_eq!(
            split.tool,
            Some(Tool::Split(SplitOptions {
                mode: Some(split_options::Mode::Every(2))
            }))
        );
        assert!(options("split", &form(&[("mode", "sideways")])).is_err());
        assert!(options("rotate", &form(&[("degrees", "ninety")])).is_err());
        assert!(fields("nope").is_none());
    }
}
