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
