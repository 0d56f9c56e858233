//! Unlock, judged by lopdf and by qpdf (the checks that need qpdf skip with a note when it is
//! missing): pages unchanged through protect and unlock, every handler unlocked with either
//! password, a wrong password told from one lopdf cannot use, bad input refused.
#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/qpdf.rs"]
mod qpdf;
#[path = "common/security.rs"]
mod security;

use common::load;
use lopdf::Document;
use quire_toolbox::ToolError;
use quire_toolbox::security::{Permissions, protect, unlock};
use security::{OWNER, PRINT_ONLY, USER, assert_sample, input, is_wrong_password};

#[test]
fn protect_then_unlock_gives_back_the_same_pages() {
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    let sealed = dir.path().join("sealed.pdf");
    protect(&a, USER, OWNER, PRINT_ONLY, &sealed).unwrap();
    let check_qpdf = qpdf::available("protect_then_unlock");
    for password in [USER, OWNER] {
        let out = dir.path().join("out.pdf");
        assert_eq!(unlock(&sealed, password, &out).unwrap().pages, 4);
        let doc = load(&out);
        assert!(!doc.is_encrypted() && doc.encryption_state.is_none());
        assert_sample(&doc, &expected);
        if check_qpdf {
            assert_eq!(qpdf::is_encrypted(&out), 2);
            qpdf::assert_clean(&out, "");
        }
    }
    let out = dir.path().join("wrong.pdf");
    assert!(is_wrong_password(unlock(&sealed, "user-PW", &out)));
    assert!(is_wrong_password(unlock(&sealed, "", &out)));
    assert!(!out.exists());
}

#[test]
fn unlock_opens_every_handler_with_either_password() {
    if !qpdf::available("unlock_opens_every_handler") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    for how in [
        &["256"][..],
        &["256", "--force-R5"],
        &["128", "--use-aes=y"],
        &["128"],
        &["128", "--force-V4"],
        &["40"],
    ] {
        let locked = dir.path().join("locked.pdf");
        qpdf::encrypt(&a, &locked, USER, OWNER, how);
        for password in [USER, OWNER] {
            let out = dir.path().join("out.pdf");
            let written = unlock(&locked, password, &out);
            assert_eq!(written.unwrap().pages, 4, "{how:?} with {password}");
            assert_sample(&load(&out), &expected);
            assert_eq!(qpdf::is_encrypted(&out), 2, "{how:?}");
            qpdf::assert_clean(&out, "");
        }
        let out = dir.path().join("wrong.pdf");
        for wrong in ["wrong", "", "USER-PW"] {
            assert!(is_wrong_password(unlock(&locked, wrong, &out)), "{how:?}");
        }
    }
}

#[test]
fn unlock_removes_restrictions_with_the_owner_or_the_empty_password() {
    if !qpdf::available("unlock_removes_restrictions") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    // The older handlers hash the file identifier into the password check.
    for how in [
        &["256", "--print=none"][..],
        &["128", "--modify=none"],
        &["40"],
    ] {
        let locked = dir.path().join("locked.pdf");
        qpdf::encrypt(&a, &locked, "", OWNER, how);
        for password in [OWNER, ""] {
            let out = dir.path().join("out.pdf");
            unlock(&locked, password, &out).unwrap();
            assert_sample(&load(&out), &expected);
            assert_eq!(qpdf::is_encrypted(&out), 2);
        }
        let out = dir.path().join("wrong.pdf");
        assert!(is_wrong_password(unlock(&locked, "nope", &out)), "{how:?}");
    }
}

#[test]
fn unlock_tells_a_right_password_lopdf_cannot_use_from_a_wrong_one() {
    if !qpdf::available("unlock_tells_a_right_password") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    let out = dir.path().join("out.pdf");
    // qpdf hashes a password as typed; lopdf applies SASLprep first, which refuses emoji.
    let locked = dir.path().join("emoji-user.pdf");
    qpdf::encrypt(&a, &locked, "key🔑", OWNER, &["256"]);
    match unlock(&locked, "key🔑", &out) {
        Err(ToolError::InvalidFile(message)) => assert!(message.contains("emoji"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(is_wrong_password(unlock(&locked, "key🗝", &out)));
    unlock(&locked, OWNER, &out).unwrap();
    assert_sample(&load(&out), &expected);
    // Restrictions only, under an emoji owner password: the file opens without it.
    let restricted = dir.path().join("emoji-owner.pdf");
    qpdf::encrypt(&a, &restricted, "", "key🔑", &["256"]);
    unlock(&restricted, "key🔑", &out).unwrap();
    assert_sample(&load(&out), &expected);
    assert!(is_wrong_password(unlock(&restricted, "key🗝", &out)));
}

#[test]
fn unlock_refuses_a_pdf_without_a_password() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = input(dir.path());
    let out = dir.path().join("out.pdf");
    match unlock(&a, "anything", &out) {
        Err(ToolError::BadOptions(message)) => {
            assert_eq!(message, "this PDF has no password to remove");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = input(dir.path());
    let sealed = dir.path().join("sealed.pdf");
    protect(&a, USER, OWNER, PRINT_ONLY, &sealed).unwrap();
    let out = dir.path().join("out.pdf");

    let missing = dir.path().join("missing.pdf");
    assert!(matches!(
        protect(&missing, USER, "", Permissions::ALL, &out),
        Err(ToolError::Io(_))
    ));
    assert!(matches!(
        unlock(&missing, USER, &out),
        Err(ToolError::Io(_))
    ));

    let mut broken = vec![
        ("empty", Vec::new()),
        ("garbage", b"this is not a PDF at all\n".repeat(40)),
        ("header only", b"%PDF-1.7\n%%EOF\n".to_vec()),
    ];
    for source in [&a, &sealed] {
        let bytes = std::fs::read(source).unwrap();
        for cut in [bytes.len() / 2, 200, 20] {
            broken.push(("truncated", bytes[..cut].to_vec()));
        }
    }
    for (i, (what, bytes)) in broken.into_iter().enumerate() {
        let file = dir.path().join(format!("broken-{i}.pdf"));
        std::fs::write(&file, bytes).unwrap();
        // A lenient load may recover a truncated file; what it writes must then open.
        // Anything else is InvalidFile (not Io, not a wrong password).
        match protect(&file, USER, "", Permissions::ALL, &out) {
            Ok(_) if what == "truncated" => {
                Document::load_with_password(&out, USER).unwrap();
            }
            Err(ToolError::InvalidFile(_)) => {}
            other => panic!("{what}: protect: {other:?}"),
        }
        match unlock(&file, USER, &out) {
            Ok(_) if what == "truncated" => {
                load(&out);
            }
            Err(ToolError::InvalidFile(_)) => {}
            other => panic!("{what}: unlock: {other:?}"),
        }
    }
}

/// `locked` with the trailer's `/Encrypt N 0 R` replaced by the dictionary object N holds, as
/// older Acrobat wrote it (pdfminer's encryption samples).
fn with_encryption_in_the_trailer(locked: &std::path::Path) -> Vec<u8> {
    let bytes = std::fs::read(locked).unwrap();
    let find = |from: usize, what: &[u8]| {
        from + bytes[from..]
            .windows(what.len())
            .position(|w| w == what)
            .unwrap()
    };
    let trailer = bytes.windows(7).rposition(|w| w == b"trailer").unwrap();
    let at = find(trailer, b"/Encrypt ");
    let reference = find(at, b" R") + 2;
    let id = std::str::from_utf8(&bytes[at + 9..reference - 4]).unwrap();
    let start = find(0, format!("\n{id} 0 obj").as_bytes()) + id.len() + 7;
    let end = find(start, b"endobj");
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(b"/Encrypt ");
    out.extend_from_slice(bytes[start..end].trim_ascii());
    out.extend_from_slice(&bytes[reference..]);
    out
}

/// lopdf's `is_encrypted` missed such a file: the tools took it as decrypted and unlock said it
/// had no password. Now the tools refuse it as encrypted and unlock says what it cannot do.
#[test]
fn a_file_with_its_encryption_in_the_trailer_is_refused_in_words() {
    if !qpdf::available("encryption_in_the_trailer") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = input(dir.path());
    let locked = dir.path().join("locked.pdf");
    qpdf::encrypt(&a, &locked, USER, OWNER, &["40"]);
    let inline = dir.path().join("inline.pdf");
    std::fs::write(&inline, with_encryption_in_the_trailer(&locked)).unwrap();
    assert!(matches!(
        quire_toolbox::page_count(&inline),
        Err(ToolError::Encrypted)
    ));
    let out = dir.path().join("out.pdf");
    match unlock(&inline, USER, &out) {
        Err(ToolError::InvalidFile(message)) => assert!(message.contains("trailer"), "{message}"),
        other => panic!("unlock: {other:?}"),
    }
    assert!(!out.exists());
}
