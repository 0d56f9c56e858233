//! The forms' fields as typed options.

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

#[test]
fn every_listed_tool_builds_its_options_from_an_empty_form() {
    for slug in [
        "merge",
        "split",
        "rotate",
        "organize",
        "protect",
        "unlock",
        "metadata",
        "sanitize",
        "watermark",
        "page-numbers",
        "remove-blank",
        "pdf-to-jpg",
        "compare",
        "images-to-pdf",
        "extract-images",
        "flatten",
        "repair",
        "crop",
        "sign",
        "fill-form",
        "office-to-pdf",
        "html-to-pdf",
        "redact",
        "pdfa",
    ] {
        assert!(fields(slug).is_some(), "{slug}");
        assert!(options(slug, &Fields::new()).is_ok(), "{slug}");
    }
}

#[test]
fn checkboxes_numbers_and_positions() {
    let protect = options(
        "protect",
        &form(&[("userPassword", " secret "), ("allowPrint", "on")]),
    )
    .unwrap();
    let Some(Tool::Protect(p)) = protect.tool else {
        panic!("not protect")
    };
    assert_eq!(p.user_password, " secret ", "passwords are taken as typed");
    assert!(p.allow_print && !p.allow_copy);
    let mark = options(
        "watermark",
        &form(&[("opacity", "0,5"), ("position", "tiled")]),
    )
    .unwrap();
    let Some(Tool::Watermark(w)) = mark.tool else {
        panic!("not watermark")
    };
    assert_eq!(w.opacity, 0.5);
    assert_eq!(w.position, quire_proto::v1::StampPosition::Tiled as i32);
    assert!(options("watermark", &form(&[("position", "upside-down")])).is_err());
    assert!(options("pdf-to-jpg", &form(&[("format", "gif")])).is_err());
    let edit = options("metadata", &form(&[("action", "edit"), ("title", "")])).unwrap();
    let Some(Tool::Metadata(MetadataOptions {
        action: Some(Action::Edit(edit)),
    })) = edit.tool
    else {
        panic!("not an edit")
    };
    assert_eq!(
        edit.title.as_deref(),
        Some(""),
        "a blank field sent removes the entry"
    );
    assert_eq!(edit.author, None, "a field not sent keeps the entry");
}

#[test]
fn redaction_reads_its_json_fields() {
    use quire_proto::v1::{PdfaLevel, RedactPreset, redact_options};
    let apply = options(
        "redact",
        &form(&[
            ("action", "apply"),
            (
                "areas",
                r#"[{"page":2,"x":0.1,"y":0.2,"width":0.3,"height":0.05}]"#,
            ),
            ("removedTerms", r#"["Jane Doe"]"#),
            ("terms", r#"["Jane Doe"]"#),
            ("presetEmail", "on"),
            ("label", "REDACTED"),
            ("cleanDocument", "on"),
        ]),
    )
    .unwrap();
    let Some(Tool::Redact(redact)) = apply.tool else {
        panic!("not redact")
    };
    let Some(redact_options::Action::Apply(apply)) = redact.action else {
        panic!("not an apply")
    };
    assert_eq!(apply.areas.len(), 1);
    assert_eq!(apply.areas[0].page, 2);
    assert_eq!(apply.terms, ["Jane Doe"]);
    assert!(apply.clean_document);
    assert!(
        apply.search.is_none(),
        "a reviewed search is not applied again"
    );
    let find = options(
        "redact",
        &form(&[("terms", r#"["a", "b"]"#), ("presetEmail", "on")]),
    )
    .unwrap();
    let Some(Tool::Redact(redact)) = find.tool else {
        panic!("not redact")
    };
    let Some(redact_options::Action::Find(search)) = redact.action else {
        panic!("not a find")
    };
    assert_eq!(search.terms, ["a", "b"]);
    assert_eq!(search.presets, [RedactPreset::Email as i32]);
    assert!(options("redact", &form(&[("action", "apply"), ("areas", "[{]")])).is_err());
    assert!(options("redact", &form(&[("terms", "Jane")])).is_err());
    let pdfa = options("pdfa", &form(&[("level", "1B")])).unwrap();
    assert_eq!(
        pdfa.tool,
        Some(Tool::Pdfa(quire_proto::v1::PdfaOptions {
            level: PdfaLevel::A1b as i32
        }))
    );
    assert!(options("pdfa", &form(&[("level", "4u")])).is_err());
}
