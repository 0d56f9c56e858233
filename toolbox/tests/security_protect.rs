//! Protect, judged by lopdf, poppler and qpdf (the checks that need qpdf skip with a note when
//! it is missing): AES-256 R6 with the permissions asked, both passwords opening, passwords
//! refused before anything is written, a file that needs a password refused.
#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/qpdf.rs"]
mod qpdf;
#[path = "common/security.rs"]
mod security;

use common::load;
use lopdf::Document;
use quire_toolbox::security::{Permissions, protect};
use quire_toolbox::{ToolError, page_count};
use security::{OWNER, PRINT_ONLY, USER, assert_sample, contains, input};

#[test]
fn protect_encrypts_with_aes_256_and_both_passwords_open_it() {
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    let out = dir.path().join("out.pdf");
    assert_eq!(protect(&a, USER, OWNER, PRINT_ONLY, &out).unwrap().pages, 4);

    // Nothing readable is left in the file: the image data, the outline titles, the info.
    let (plain, sealed) = (std::fs::read(&a).unwrap(), std::fs::read(&out).unwrap());
    for text in [b"IMAGE-A2".as_slice(), b"Chapter 1", b"Sample A"] {
        assert!(contains(&plain, text));
        assert!(
            !contains(&sealed, text),
            "{:?} in clear",
            String::from_utf8_lossy(text)
        );
    }

    // lopdf: needs a password; either opens it; one letter's case off does not.
    assert!(Document::load(&out).unwrap().is_encrypted());
    assert!(matches!(page_count(&out), Err(ToolError::Encrypted)));
    for password in [USER, OWNER] {
        assert_sample(
            &Document::load_with_password(&out, password).unwrap(),
            &expected,
        );
    }
    assert!(Document::load_with_password(&out, "User-pw").is_err());

    if !qpdf::available("protect_encrypts_with_aes_256") {
        return;
    }
    assert_eq!(qpdf::requires_password(&out), 0);
    qpdf::assert_clean(&out, USER);
    qpdf::assert_clean(&out, OWNER);
    let shown = qpdf::show_encryption(&out, USER);
    for line in [
        "R = 6",
        "stream encryption method: AESv3",
        "string encryption method: AESv3",
        "file encryption method: AESv3",
    ] {
        assert!(shown.contains(line), "no {line:?} in {shown}");
    }
    assert_eq!(qpdf::role(&out, USER), "user");
    assert_eq!(qpdf::role(&out, OWNER), "owner");
    assert_eq!(qpdf::role(&out, "wrong"), "");
    assert_ne!(qpdf::check(&out, "wrong").0, 0);
    assert_ne!(qpdf::check(&out, "").0, 0);

    // qpdf's decryption gives back the sample's pages.
    let decrypted = dir.path().join("decrypted.pdf");
    qpdf::decrypt(&out, USER, &decrypted);
    assert_sample(&load(&decrypted), &expected);
}

/// Poppler (pdfinfo, pdftotext) as a second reader that shares no code with qpdf or lopdf.
#[test]
fn poppler_reads_the_protected_file() {
    let poppler = |tool: &str, args: &[&str]| {
        std::process::Command::new(tool)
            .args(args)
            .output()
            .ok()
            .map(|out| {
                (
                    out.status.success(),
                    String::from_utf8_lossy(&out.stdout).into_owned(),
                )
            })
    };
    if poppler("pdfinfo", &["-v"]).is_none() {
        eprintln!(
            "note: poppler's pdfinfo is not installed: poppler_reads_the_protected_file skipped"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = input(dir.path());
    let out = dir.path().join("out.pdf");
    protect(&a, USER, OWNER, PRINT_ONLY, &out).unwrap();
    let out = out.to_str().unwrap();
    for password in [["-upw", USER], ["-opw", OWNER]] {
        let (ok, info) = poppler("pdfinfo", &[password[0], password[1], out]).unwrap();
        assert!(ok, "{info}");
        assert!(
            info.contains("print:yes copy:no change:no addNotes:no algorithm:AES-256"),
            "{info}"
        );
        assert!(
            info.lines()
                .any(|l| l.starts_with("Pages:") && l.ends_with(" 4")),
            "{info}"
        );
        assert!(info.contains("Sample A"), "{info}");
    }
    assert!(!poppler("pdfinfo", &["-upw", "wrong", out]).unwrap().0);
    assert!(!poppler("pdfinfo", &[out]).unwrap().0);
    let (ok, text) = poppler("pdftotext", &["-upw", USER, out, "-"]).unwrap();
    assert!(ok);
    assert_eq!(
        text.split_whitespace().collect::<Vec<_>>(),
        ["A1", "A2", "A3", "A4"]
    );
}

#[test]
fn the_permissions_are_the_ones_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = input(dir.path());
    let check_qpdf = qpdf::available("the_permissions_are_the_ones_asked");
    for bits in 0..8 {
        let asked = Permissions {
            print: bits & 1 != 0,
            copy: bits & 2 != 0,
            modify: bits & 4 != 0,
        };
        let out = dir.path().join(format!("out-{bits}.pdf"));
        // No user password: anyone opens it, and viewers enforce the permissions.
        protect(&a, "", OWNER, asked, &out).unwrap();
        let doc = Document::load(&out).unwrap();
        let p = doc.encryption_state.as_ref().unwrap().permissions();
        assert_eq!(p.contains(lopdf::Permissions::PRINTABLE), asked.print);
        assert_eq!(p.contains(lopdf::Permissions::COPYABLE), asked.copy);
        assert_eq!(p.contains(lopdf::Permissions::MODIFIABLE), asked.modify);
        if !check_qpdf {
            continue;
        }
        let shown = qpdf::show_encryption(&out, "");
        let allowed = |yes: bool| if yes { "allowed" } else { "not allowed" };
        for (what, yes) in [
            ("print low resolution", asked.print),
            ("print high resolution", asked.print),
            ("extract for any purpose", asked.copy),
            ("extract for accessibility", true),
            ("modify document assembly", asked.modify),
            ("modify forms", asked.modify),
            ("modify annotations", asked.modify),
            ("modify other", asked.modify),
            ("modify anything", asked.modify),
        ] {
            let line = format!("{what}: {}", allowed(yes));
            assert!(
                shown.lines().any(|l| l == line),
                "{asked:?}: no {line:?} in {shown}"
            );
        }
    }
}

#[test]
fn an_empty_owner_password_makes_the_user_password_the_owners() {
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    let out = dir.path().join("out.pdf");
    protect(&a, "secret", "", PRINT_ONLY, &out).unwrap();
    // The empty password must not open it as its owner.
    assert!(matches!(page_count(&out), Err(ToolError::Encrypted)));
    assert!(Document::load_with_password(&out, "").is_err());
    assert_sample(
        &Document::load_with_password(&out, "secret").unwrap(),
        &expected,
    );
    if qpdf::available("an_empty_owner_password") {
        assert_eq!(qpdf::requires_password(&out), 0);
        assert_eq!(qpdf::role(&out, "secret"), "user+owner");
        assert_eq!(qpdf::role(&out, ""), "");
        qpdf::assert_clean(&out, "secret");
    }
}

#[test]
fn an_empty_user_password_lets_anyone_open_it() {
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    let out = dir.path().join("out.pdf");
    let nothing = Permissions {
        print: false,
        copy: false,
        modify: false,
    };
    protect(&a, "", OWNER, nothing, &out).unwrap();
    // The other tools open it without a password.
    assert_eq!(page_count(&out).unwrap(), 4);
    assert_sample(&Document::load(&out).unwrap(), &expected);
    assert!(contains(&std::fs::read(&out).unwrap(), b"/Encrypt"));
    if qpdf::available("an_empty_user_password") {
        // 3: encrypted, but opens without a password.
        assert_eq!(qpdf::requires_password(&out), 3);
        assert_eq!(qpdf::role(&out, ""), "user");
        assert_eq!(qpdf::role(&out, OWNER), "owner");
        qpdf::assert_clean(&out, "");
    }
}

#[test]
fn passwords_are_checked_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (a, _) = input(dir.path());
    let out = dir.path().join("out.pdf");
    let refused = |user: &str, owner: &str| {
        let result = protect(&a, user, owner, Permissions::ALL, &out);
        assert!(
            matches!(result, Err(ToolError::BadOptions(_))),
            "{user:?} / {owner:?}: {result:?}"
        );
    };
    match protect(&a, "", "", PRINT_ONLY, &out) {
        Err(ToolError::BadOptions(message)) => assert_eq!(
            message,
            "set a password to open the PDF, or an owner password with restrictions"
        ),
        other => panic!("{other:?}"),
    }
    let long = "x".repeat(128);
    refused(&long, "");
    refused("", &long);
    refused(&"é".repeat(64), OWNER);
    for control in ["a\tb", "line\nbreak", "nul\0", "del\u{7f}", "c1\u{85}"] {
        refused(control, "");
        refused(USER, control);
    }
    // Refused by SASLprep: a private-use character, right-to-left mixed with left-to-right,
    // an emoji (unassigned in Unicode 3.2); the message says which password.
    refused("pw\u{e000}", "");
    refused("abc\u{5d0}", "");
    for (user, owner, which) in [
        ("key🔑", OWNER, "password to open"),
        (USER, "key🔑", "owner"),
    ] {
        match protect(&a, user, owner, Permissions::ALL, &out) {
            Err(ToolError::BadOptions(message)) => {
                assert!(message.starts_with(&format!("the {which}")), "{message}");
                assert!(message.contains("emoji"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(!out.exists(), "an output was written for refused options");
}

#[test]
fn long_and_non_ascii_passwords_open_in_qpdf() {
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    let check_qpdf = qpdf::available("long_and_non_ascii_passwords");
    for password in [
        "x".repeat(127),
        "é".repeat(63),
        "pässwörd 日本語 Ωμέγα".to_string(),
    ] {
        let out = dir.path().join("out.pdf");
        protect(&a, &password, OWNER, Permissions::ALL, &out).unwrap();
        assert_sample(
            &Document::load_with_password(&out, &password).unwrap(),
            &expected,
        );
        if check_qpdf {
            assert_eq!(qpdf::role(&out, &password), "user", "{password:?}");
            qpdf::assert_clean(&out, &password);
        }
    }
}

#[test]
fn protect_refuses_a_file_that_needs_a_password_and_redoes_one_that_does_not() {
    if !qpdf::available("protect_refuses_a_file_that_needs_a_password") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, expected) = input(dir.path());
    let locked = dir.path().join("locked.pdf");
    qpdf::encrypt(&a, &locked, USER, OWNER, &["256"]);
    let out = dir.path().join("out.pdf");
    let result = protect(&locked, "new", "", Permissions::ALL, &out);
    assert!(matches!(result, Err(ToolError::Encrypted)), "{result:?}");

    // Restrictions only (opens without a password): protected anew, with the new password.
    let restricted = dir.path().join("restricted.pdf");
    qpdf::encrypt(
        &a,
        &restricted,
        "",
        OWNER,
        &["128", "--use-aes=y", "--print=none"],
    );
    protect(&restricted, "new", "", Permissions::ALL, &out).unwrap();
    assert_sample(
        &Document::load_with_password(&out, "new").unwrap(),
        &expected,
    );
    assert_eq!(qpdf::role(&out, "new"), "user+owner");
    assert!(qpdf::show_encryption(&out, "new").contains("R = 6"));
    qpdf::assert_clean(&out, "new");
}
