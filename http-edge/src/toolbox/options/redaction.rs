//! The options of redact and PDF/A: the page sends its search, the areas drawn on its page
//! previews and the accepted hits as JSON, since they come from the page's script.

use quire_proto::v1::{
    PdfaLevel, PdfaOptions, RedactApply, RedactArea, RedactOptions, RedactPreset, RedactSearch,
    redact_options::Action,
};
use serde::Deserialize;

use super::fields::{Form, invalid};
use crate::problem::Problem;

/// The form fields of redact.
pub const REDACT_FIELDS: &[&str] = &[
    "action",
    "terms",
    "patterns",
    "presetEmail",
    "presetIp",
    "presetAccount",
    "presetHost",
    "searchAll",
    "areas",
    "removedTerms",
    "fill",
    "label",
    "cleanDocument",
];

/// `action` is `find` (the default: the hits as JSON) or `apply`. `terms`, `patterns` and
/// `removedTerms` are JSON arrays of strings; `areas` a JSON array of `{page, x, y, width,
/// height}` in shares of the displayed page. With `searchAll`, apply redacts every hit of
/// the search too, without review.
pub fn redact(form: &Form) -> Result<RedactOptions, Problem> {
    let search = RedactSearch {
        terms: strings(form, "terms")?,
        patterns: strings(form, "patterns")?,
        presets: [
            ("presetEmail", RedactPreset::Email),
            ("presetIp", RedactPreset::IpAddress),
            ("presetAccount", RedactPreset::Account),
            ("presetHost", RedactPreset::HostName),
        ]
        .into_iter()
        .filter(|(name, _)| form.flag(name))
        .map(|(_, preset)| preset as i32)
        .collect(),
    };
    let action = match form.text("action").as_str() {
        "" | "find" => Action::Find(search),
        "apply" => Action::Apply(RedactApply {
            areas: areas(form)?,
            search: form.flag("searchAll").then_some(search),
            terms: strings(form, "removedTerms")?,
            fill: form.text("fill"),
            label: form.text("label"),
            clean_document: form.flag("cleanDocument"),
        }),
        other => {
            return Err(invalid(format!(
                "action must be find or apply, got {other:?}"
            )));
        }
    };
    Ok(RedactOptions {
        action: Some(action),
    })
}

/// `level` is `1b`, `2b` (the default) or `3b`.
pub fn pdfa(form: &Form) -> Result<PdfaOptions, Problem> {
    let level = match form.text("level").to_lowercase().as_str() {
        "" | "2b" => PdfaLevel::A2b,
        "1b" => PdfaLevel::A1b,
        "3b" => PdfaLevel::A3b,
        other => {
            return Err(invalid(format!(
                "level must be 1b, 2b or 3b, got {other:?}"
            )));
        }
    };
    Ok(PdfaOptions {
        level: level as i32,
    })
}

fn strings(form: &Form, name: &str) -> Result<Vec<String>, Problem> {
    let raw = form.raw(name);
    if raw.trim().is_empty() {
        return Ok(Vec::new());
    }
    serde_json::from_str(&raw)
        .map_err(|e| invalid(format!("{name} must be a JSON array of strings: {e}")))
}

#[derive(Deserialize)]
struct Area {
    page: u32,
    x: f32,
    y: f32,
    width: f32,
    height: f32,
}

fn areas(form: &Form) -> Result<Vec<RedactArea>, Problem> {
    let raw = form.raw("areas");
    if raw.trim().is_empty() {
        return Ok(Vec::new());
    }
    let areas: Vec<Area> = serde_json::from_str(&raw).map_err(|e| {
        invalid(format!(
            "areas must be a JSON array of {{page, x, y, width, height}}: {e}"
        ))
    })?;
    Ok(areas
        .into_iter()
        .map(
            |Area {
                 page,
                 x,
                 y,
                 width,
                 height,
             }| RedactArea {
                page,
                x,
                y,
                width,
                height,
            },
        )
        .collect())
}
