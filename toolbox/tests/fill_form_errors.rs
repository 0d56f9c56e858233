//! Values the fill-form tool refuses, each with a message that names what is wrong; nothing
//! is written for them.
#![allow(clippy::unwrap_used)]

mod filling;

use std::process::Command;

use quire_toolbox::ToolError;
use quire_toolbox::fill_form::fill_form;

use filling::fill;
use filling::fixture::{self, Variant};

/// The BadOptions message filling `values` gives, checked that no output was written.
fn refused(values: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(dir.path(), "form.pdf", Variant::default());
    let out = dir.path().join("out.pdf");
    match fill_form(&pdf, &fill(values), &out) {
        Err(ToolError::BadOptions(message)) => {
            assert!(!out.exists(), "an output was written for {values:?}");
            message
        }
        other => panic!("{values:?}: expected BadOptions, got {other:?}"),
    }
}

#[test]
fn an_unknown_name_is_named() {
    let message = refused(&[("name", "ok"), ("nmae", "typo")]);
    assert!(message.contains("\"nmae\""), "{message}");
    assert!(
        !message.contains("address"),
        "lists other fields: {message}"
    );
}

#[test]
fn a_read_only_field_is_refused() {
    let message = refused(&[("locked", "changed")]);
    assert!(
        message.contains("locked") && message.contains("read-only"),
        "{message}"
    );
}

#[test]
fn a_value_outside_a_choice_fields_options_lists_them() {
    let message = refused(&[("country", "Spain")]);
    assert!(message.contains("\"Spain\""), "{message}");
    assert!(
        message.contains("Germany") && message.contains("\"fr\""),
        "{message}"
    );
    let message = refused(&[("toppings", "Ham\nPineapple")]);
    assert!(
        message.contains("Pineapple") && message.contains("Olives"),
        "{message}"
    );
    let message = refused(&[("color", "Purple")]);
    assert!(
        message.contains("Purple") && message.contains("Blue"),
        "{message}"
    );
    let message = refused(&[("agree", "maybe")]);
    assert!(message.contains("true"), "{message}");
}

#[test]
fn an_editable_combo_box_takes_any_text() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(dir.path(), "form.pdf", Variant::default());
    fill_form(
        &pdf,
        &fill(&[("fruit", "Durian")]),
        &dir.path().join("out.pdf"),
    )
    .unwrap();
}

#[test]
fn text_longer_than_max_len_is_refused() {
    let message = refused(&[("tiny", "123456")]);
    assert!(
        message.contains("tiny") && message.contains('5'),
        "{message}"
    );
    let message = refused(&[("code", "ABCDEFG")]);
    assert!(message.contains("at most 6"), "{message}");
    let message = refused(&[("name", "two\nlines")]);
    assert!(message.contains("one line"), "{message}");
}

#[test]
fn buttons_and_signatures_hold_no_value() {
    let message = refused(&[("submit", "x")]);
    assert!(message.contains("push button"), "{message}");
    let message = refused(&[("sig", "x")]);
    assert!(message.contains("signature"), "{message}");
}

#[test]
fn an_encrypted_form_needs_unlocking() {
    if !filling::qpdf() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(dir.path(), "form.pdf", Variant::default());
    let locked = dir.path().join("locked.pdf");
    let status = Command::new("qpdf")
        .args(["--encrypt", "user", "owner", "256", "--"])
        .arg(&pdf)
        .arg(&locked)
        .status()
        .unwrap();
    assert!(status.success());
    let result = fill_form(
        &locked,
        &fill(&[("name", "x")]),
        &dir.path().join("out.pdf"),
    );
    assert!(matches!(result, Err(ToolError::Encrypted)), "{result:?}");
    let listed = quire_toolbox::fill_form::list_fields(&locked);
    assert!(matches!(listed, Err(ToolError::Encrypted)), "{listed:?}");
}
