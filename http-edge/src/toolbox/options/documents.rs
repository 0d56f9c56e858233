//! The options of the tools that write into a document: sign and fill a form.

use std::collections::HashMap;

use quire_proto::v1::{
    FillFormOptions, FormValues, SignOptions, SignPlacement, fill_form_options, sign_options,
};

use super::fields::{Form, invalid};
use crate::problem::Problem;

/// `appearance` is `image` (the file after the PDF), `text` (the typed `text`) or `none`; the
/// `certificate` checkbox says the last file is a PKCS#12 to sign with.
pub fn sign(form: &Form) -> Result<SignOptions, Problem> {
    let appearance = match form.text("appearance").as_str() {
        "" | "none" => None,
        "image" => Some(sign_options::Appearance::Image(true)),
        "text" => Some(sign_options::Appearance::Text(form.text("text"))),
        other => {
            return Err(invalid(format!(
                "appearance must be image, text or none, got {other:?}"
            )));
        }
    };
    Ok(SignOptions {
        appearance,
        placement: Some(SignPlacement {
            page: form.number("page")?,
            x: form.decimal("x")?,
            y: form.decimal("y")?,
            width: form.decimal("width")?,
        }),
        certificate: form.flag("certificate"),
        certificate_password: form.raw("certificatePassword"),
        reason: form.text("reason"),
        location: form.text("location"),
        contact: form.text("contact"),
    })
}

/// `action` is `list` (the default) or `fill`; `values` a JSON object of field names to
/// values (strings, or booleans for check boxes), as the page builds it.
pub fn fill_form(form: &Form) -> Result<FillFormOptions, Problem> {
    let action = match form.text("action").as_str() {
        "" | "list" => fill_form_options::Action::List(true),
        "fill" => fill_form_options::Action::Fill(FormValues {
            values: values(&form.raw("values"))?,
            flatten: form.flag("flatten"),
        }),
        other => {
            return Err(invalid(format!(
                "action must be list or fill, got {other:?}"
            )));
        }
    };
    Ok(FillFormOptions {
        action: Some(action),
    })
}

fn values(json: &str) -> Result<HashMap<String, String>, Problem> {
    if json.trim().is_empty() {
        return Ok(HashMap::new());
    }
    let object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| {
            invalid(format!(
                "values must be a JSON object of field names to values: {e}"
            ))
        })?;
    object
        .into_iter()
        .map(|(name, value)| {
            let value = match value {
                serde_json::Value::String(text) => text,
                serde_json::Value::Bool(on) => on.to_string(),
                serde_json::Value::Number(number) => number.to_string(),
                serde_json::Value::Array(items) => items
                    .iter()
                    .map(|item| {
                        item.as_str()
                            .map(str::to_owned)
                            .unwrap_or_else(|| item.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
                other => {
                    return Err(invalid(format!(
                        "the value of {name:?} must be text, true/false or a list, got {other}"
                    )));
                }
            };
            Ok((name, value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multipart::Fields;

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn fill_values_come_from_json() {
        let f = fields(&[
            ("action", "fill"),
            (
                "values",
                r#"{"name":"Ada","agree":true,"langs":["fr","en"]}"#,
            ),
            ("flatten", "on"),
        ]);
        let options = fill_form(&Form(&f)).unwrap();
        let Some(fill_form_options::Action::Fill(FormValues { values, flatten })) = options.action
        else {
            panic!("not a fill")
        };
        assert!(flatten);
        assert_eq!(values["name"], "Ada");
        assert_eq!(values["agree"], "true");
        assert_eq!(values["langs"], "fr\nen");
        let bad = fields(&[("action", "fill"), ("values", "[1,2]")]);
        assert!(fill_form(&Form(&bad)).is_err());
    }

    #[test]
    fn sign_reads_its_appearance() {
        let f = fields(&[("appearance", "text"), ("text", " Ada L. "), ("page", "2")]);
        let options = sign(&Form(&f)).unwrap();
        assert_eq!(
            options.appearance,
            Some(sign_options::Appearance::Text("Ada L.".into()))
        );
        assert_eq!(options.placement.map(|p| p.page), Some(2));
        assert!(sign(&Form(&fields(&[("appearance", "drawn")]))).is_err());
    }
}
