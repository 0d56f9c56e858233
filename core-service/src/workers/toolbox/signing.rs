//! Tools that write into the document's form: sign, fill a form.

use quire_proto::v1::{
    FillFormOptions, FormValues, SignOptions, SignPlacement, fill_form_options, sign_options,
    tool_options::Tool as Options,
};
use quire_toolbox::{fill_form, sign};
use serde_json::json;

use super::{Done, Work, failure, json_file, note, unicode_font};
use crate::workers::protocol::{Failure, FailureKind};

/// A signature is this share of the page width unless the user sets it.
const SIGNATURE_WIDTH: f32 = 0.3;

pub fn run(work: &Work, options: Options) -> Result<Done, Failure> {
    match options {
        Options::Sign(options) => run_sign(work, options),
        Options::FillForm(FillFormOptions { action }) => match action {
            Some(fill_form_options::Action::Fill(FormValues { values, flatten })) => {
                let (path, name) = work.output("-filled.pdf");
                let mut values: Vec<(String, String)> = values.into_iter().collect();
                values.sort();
                let fill = fill_form::Fill {
                    values,
                    flatten,
                    font: unicode_font(),
                };
                let filled = fill_form::fill_form(work.first(), &fill, &path).map_err(failure)?;
                let mut done = Done::file(path, name, filled.pages);
                done.notes.push(note("filled", filled.filled));
                if filled.flattened {
                    done.notes.push(note("flattened", true));
                }
                done.notes
                    .extend(filled.notes.iter().map(|text| note("note", text)));
                Ok(done)
            }
            _ => {
                let fields = fill_form::list_fields(work.first()).map_err(failure)?;
                let fields: Vec<_> = fields.iter().map(field_json).collect();
                json_file(work, "-fields.json", &json!({ "fields": fields }))
            }
        },
        _ => Err(Failure::new(FailureKind::Engine, "not a form tool")),
    }
}

fn run_sign(
    work: &Work,
    SignOptions {
        appearance,
        placement,
        certificate,
        certificate_password,
        reason,
        location,
        contact,
    }: SignOptions,
) -> Result<Done, Failure> {
    let appearance = match appearance {
        Some(sign_options::Appearance::Image(_)) => {
            Some(sign::Appearance::Image(input(work, 1)?.to_path_buf()))
        }
        Some(sign_options::Appearance::Text(text)) => Some(sign::Appearance::Text {
            text: text.trim().to_owned(),
            font: unicode_font(),
        }),
        None => None,
    };
    let certificate = if certificate {
        let last = work.inputs.len() - 1;
        let pkcs12 = std::fs::read(input(work, last)?)
            .map_err(|e| Failure::new(FailureKind::Engine, format!("certificate not read: {e}")))?;
        Some(sign::Certificate {
            pkcs12,
            password: certificate_password,
        })
    } else {
        None
    };
    let SignPlacement { page, x, y, width } = placement.unwrap_or_default();
    let placement = sign::Placement {
        page,
        x,
        y,
        width: if width == 0.0 { SIGNATURE_WIDTH } else { width },
    };
    let optional = |text: String| Some(text).filter(|t| !t.is_empty());
    let sign = sign::Sign {
        appearance,
        placement,
        certificate,
        reason: optional(reason),
        location: optional(location),
        contact: optional(contact),
    };
    let (path, name) = work.output("-signed.pdf");
    let signed = sign::sign(work.first(), &sign, &path).map_err(failure)?;
    let mut done = Done::file(path, name, signed.pages);
    if let Some(sign::Signer {
        subject,
        issuer,
        not_after,
        algorithm,
    }) = signed.signer
    {
        done.notes.extend([
            note("signer", subject),
            note("issuer", issuer),
            note("valid-until", not_after),
            note("algorithm", algorithm),
        ]);
    }
    Ok(done)
}

fn input(work: &Work, index: usize) -> Result<&std::path::Path, Failure> {
    work.inputs
        .get(index)
        .map(|p| p.as_path())
        .ok_or_else(|| Failure::new(FailureKind::BadOptions, "a file is missing"))
}

/// One field as the page's form builder reads it.
fn field_json(field: &fill_form::Field) -> serde_json::Value {
    let fill_form::Field {
        name,
        kind,
        value,
        options,
        read_only,
        required,
        multiline,
        multi_select,
        max_len,
        tooltip,
        page,
    } = field;
    let kind = match kind {
        fill_form::FieldKind::Text => "text",
        fill_form::FieldKind::Checkbox => "checkbox",
        fill_form::FieldKind::Radio => "radio",
        fill_form::FieldKind::ComboBox => "combo",
        fill_form::FieldKind::ListBox => "list",
        fill_form::FieldKind::PushButton => "button",
        fill_form::FieldKind::Signature => "signature",
    };
    let options: Vec<_> = options
        .iter()
        .map(|o| json!({"export": o.export, "label": o.label}))
        .collect();
    json!({
        "name": name, "kind": kind, "value": value, "options": options,
        "readOnly": read_only, "required": required, "multiline": multiline,
        "multiSelect": multi_select, "maxLength": max_len, "tooltip": tooltip, "page": page,
    })
}
