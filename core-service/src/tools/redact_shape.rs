//! The shape of redact's options: counts, lengths, shares of a page. Patterns are compiled and
//! areas placed on their pages by the worker, which has the document.

use quire_proto::v1::{
    RedactApply, RedactArea, RedactOptions, RedactPreset, RedactSearch, redact_options::Action,
};

use crate::error::{ApiError, ApiResult};

/// Areas in one request: far above a real review, far below a runaway list.
const MAX_AREAS: usize = 20_000;
/// Terms and patterns in one search, and the terms an apply checks for.
const MAX_TERMS: usize = 1_000;
const MAX_TERM_CHARS: usize = 500;
const MAX_LABEL_CHARS: usize = 100;

pub fn redact(RedactOptions { action }: &RedactOptions) -> ApiResult<()> {
    match action {
        None => Err(ApiError::invalid(
            "choose find to list what a search hits, or apply to redact",
        )),
        Some(Action::Find(search)) => {
            search_shape(search)?;
            if is_empty(search) {
                return Err(ApiError::invalid(
                    "the search is empty: give words, patterns or presets to look for",
                ));
            }
            Ok(())
        }
        Some(Action::Apply(RedactApply {
            areas,
            search,
            terms,
            fill: _,
            label,
            clean_document: _,
        })) => {
            if let Some(search) = search {
                search_shape(search)?;
            }
            if areas.is_empty() && search.as_ref().is_none_or(is_empty) {
                return Err(ApiError::invalid(
                    "nothing to redact: mark areas on the pages, or search for text",
                ));
            }
            if areas.len() > MAX_AREAS {
                return Err(ApiError::invalid(format!(
                    "at most {MAX_AREAS} areas, got {}",
                    areas.len()
                )));
            }
            for area in areas {
                area_shape(area)?;
            }
            strings(terms, "terms")?;
            if label.chars().count() > MAX_LABEL_CHARS {
                return Err(ApiError::invalid(format!(
                    "the label takes at most {MAX_LABEL_CHARS} characters"
                )));
            }
            let lower = label.to_lowercase();
            if let Some(term) = terms
                .iter()
                .find(|t| !t.trim().is_empty() && lower.contains(&t.trim().to_lowercase()))
            {
                return Err(ApiError::invalid(format!(
                    "the label holds the removed term {term:?}: choose another label"
                )));
            }
            Ok(())
        }
    }
}

fn is_empty(search: &RedactSearch) -> bool {
    search.terms.iter().all(|t| t.trim().is_empty())
        && search.patterns.iter().all(|p| p.trim().is_empty())
        && search.presets.is_empty()
}

fn search_shape(
    RedactSearch {
        terms,
        patterns,
        presets,
    }: &RedactSearch,
) -> ApiResult<()> {
    strings(terms, "terms")?;
    strings(patterns, "patterns")?;
    for preset in presets {
        match RedactPreset::try_from(*preset) {
            Ok(RedactPreset::Unspecified) | Err(_) => {
                return Err(ApiError::invalid(format!(
                    "unknown preset {preset}: e-mail (1), IP address (2), account (3), host name (4)"
                )));
            }
            Ok(_) => {}
        }
    }
    Ok(())
}

fn strings(list: &[String], what: &str) -> ApiResult<()> {
    if list.len() > MAX_TERMS {
        return Err(ApiError::invalid(format!(
            "at most {MAX_TERMS} {what}, got {}",
            list.len()
        )));
    }
    if list.iter().any(|t| t.chars().count() > MAX_TERM_CHARS) {
        return Err(ApiError::invalid(format!(
            "each of the {what} takes at most {MAX_TERM_CHARS} characters"
        )));
    }
    Ok(())
}

fn area_shape(
    RedactArea {
        page,
        x,
        y,
        width,
        height,
    }: &RedactArea,
) -> ApiResult<()> {
    let share = |v: &f32| (0.0..=1.0).contains(v);
    if *page == 0
        || ![x, y, width, height].into_iter().all(share)
        || *width <= 0.0
        || *height <= 0.0
        || x + width > 1.0001
        || y + height > 1.0001
    {
        return Err(ApiError::invalid(format!(
            "an area is given by its page (from 1) and its place in shares of the page from 0 to \
             1, inside the page; got page {page}, x {x}, y {y}, width {width}, height {height}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(areas: Vec<RedactArea>, terms: &[&str], label: &str) -> RedactOptions {
        RedactOptions {
            action: Some(Action::Apply(RedactApply {
                areas,
                search: None,
                terms: terms.iter().map(|t| (*t).to_owned()).collect(),
                fill: String::new(),
                label: label.to_owned(),
                clean_document: false,
            })),
        }
    }

    fn area(page: u32, x: f32, y: f32, width: f32, height: f32) -> RedactArea {
        RedactArea {
            page,
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn areas_are_shares_inside_the_page() {
        assert!(redact(&apply(vec![area(1, 0.1, 0.1, 0.5, 0.1)], &[], "")).is_ok());
        assert!(redact(&apply(vec![area(0, 0.1, 0.1, 0.5, 0.1)], &[], "")).is_err());
        assert!(redact(&apply(vec![area(1, 0.8, 0.1, 0.5, 0.1)], &[], "")).is_err());
        assert!(redact(&apply(vec![area(1, 0.1, 0.1, 0.0, 0.1)], &[], "")).is_err());
        assert!(redact(&apply(vec![], &[], "")).is_err());
    }

    #[test]
    fn a_label_may_not_hold_a_removed_term() {
        let one = vec![area(1, 0.1, 0.1, 0.2, 0.1)];
        assert!(redact(&apply(one.clone(), &["Secret"], "SECRET PART")).is_err());
        assert!(redact(&apply(one, &["Secret"], "REDACTED")).is_ok());
    }

    #[test]
    fn a_search_needs_something_to_look_for() {
        let find = |search| RedactOptions {
            action: Some(Action::Find(search)),
        };
        assert!(redact(&find(RedactSearch::default())).is_err());
        assert!(
            redact(&find(RedactSearch {
                presets: vec![RedactPreset::Email as i32],
                ..RedactSearch::default()
            }))
            .is_ok()
        );
        assert!(
            redact(&find(RedactSearch {
                presets: vec![9],
                ..RedactSearch::default()
            }))
            .is_err()
        );
    }
}
