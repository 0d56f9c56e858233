//! Protect and unlock, judged by lopdf and by qpdf (the checks that need qpdf skip with a
//! note when it is missing): AES-256 R6 with the permissions asked, both passwords opening,
//! pages unchanged through the round trip, every handler unlocked, bad input refused.
#![allow(clippy::unwrap_used)]

mod common;
#[path = "common/qpdf.rs"]
mod qpdf;

use std::path::{Path, PathBuf};

use common::{Variant, load, sample};
use lopdf::Document;
use quire_toolbox::security::{Permissions, protect, unlock};
use quire_toolbox::{ToolError, page_count};

const USER: &str = "user-pw";
const OWNER: &str = "Owner-PW";
const PRINT_ONLY: Permissions = Permissions {
    print: true,
    copy: false,
    modify: false,
};
const WRONG: &str =
    "this password does not open the PDF: check it (passwords are case-sensitive) and try again";

/// The sample of tests/common, and what each of its pages draws (decoded content streams).
fn input(dir: &Path) -> (PathBuf, Vec<Vec<u8>>) {
    let path = sample(dir, "A", Variant::default());
    let contents = contents(&load(&path));
    (path, contents)
}

fn contents(doc: &Document) -> Vec<Vec<u8>> {
    common::page_ids(doc)
        .into_iter()
        .map(|id| doc.get_page_content(id))
        .collect()
}

fn title(doc: &Document) -> Vec<u8> {
    let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
    let info = doc.get_dictionary(info).unwrap();
    info.get(b"Title").unwrap().as_str().unwrap().to_vec()
}

/// Asserts that `doc` is the sample: same pages, outline, links, form and info.
fn assert_sample(doc: &Document, expected: &[Vec<u8>]) {
    assert_eq!(common::labels(doc), ["A1", "A2", "A3", "A4"]);
    assert_eq!(contents(doc), expected);
    assert_eq!(common::outline_entries(doc).len(), 4);
    assert_eq!(common::links(doc, 0), [Some(2)]);
    assert_eq!(common::field_names(doc), ["name", "choice"]);
    assert_eq!(title(doc), b"Sample A");
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn is_wrong_password(result: Result<quire_toolbox::Written, ToolError>) -> bool {
    matches!(result, Err(ToolError::WrongPassword(message)) if message == WRONG)
}

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

/// The encrypted files of the corpus (pikepdf's and pypdf's test resources), with their
/// passwords: `(name, user, owner)`, None where it has none of its own.
const CORPUS: &[(&str, &str, Option<&str>)] = &[
    (
        "pikepdf__tests__resources__graph-encrypted.pdf",
        "user",
        Some("owner"),
    ),
    (
        "pypdf__resources__crazyones-encrypted-256.pdf",
        "password",
        None,
    ),
    ("pypdf__resources__encrypted-file.pdf", "test", None),
    (
        "pypdf__resources__encryption__r2-empty-password.pdf",
        "",
        None,
    ),
    (
        "pypdf__resources__encryption__r2-owner-password.pdf",
        "",
        Some("asdfzxcv"),
    ),
    (
        "pypdf__resources__encryption__r2-user-password.pdf",
        "asdfzxcv",
        None,
    ),
    (
        "pypdf__resources__encryption__r3-empty-password.pdf",
        "",
        None,
    ),
    (
        "pypdf__resources__encryption__r3-user-password.pdf",
        "asdfzxcv",
        None,
    ),
    (
        "pypdf__resources__encryption__r4-aes-user-password.pdf",
        "asdfzxcv",
        None,
    ),
    (
        "pypdf__resources__encryption__r4-aes-v2-no-key-length.pdf",
        "",
        None,
    ),
    (
        "pypdf__resources__encryption__r4-owner-password.pdf",
        "",
        Some("asdfzxcv"),
    ),
    (
        "pypdf__resources__encryption__r4-user-password.pdf",
        "asdfzxcv",
        None,
    ),
    (
        "pypdf__resources__encryption__r5-empty-password.pdf",
        "",
        None,
    ),
    (
        "pypdf__resources__encryption__r5-owner-password.pdf",
        "",
        Some("asdfzxcv"),
    ),
    (
        "pypdf__resources__encryption__r5-user-password.pdf",
        "asdfzxcv",
        None,
    ),
    (
        "pypdf__resources__encryption__r6-both-passwords.pdf",
        "foo",
        Some("bar"),
    ),
    (
        "pypdf__resources__encryption__r6-cleartext-metadata.pdf",
        "foo",
        Some("bar"),
    ),
    (
        "pypdf__resources__encryption__r6-empty-password.pdf",
        "",
        None,
    ),
    (
        "pypdf__resources__encryption__r6-owner-password.pdf",
        "",
        Some("asdfzxcv"),
    ),
    (
        "pypdf__resources__encryption__r6-user-password.pdf",
        "asdfzxcv",
        None,
    ),
    (
        "pypdf__resources__libreoffice-writer-password.pdf",
        "openpassword",
        None,
    ),
];

#[test]
fn the_corpus_encrypted_files_unlock_as_qpdf_decrypts_them() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/pdf-corpus");
    if !corpus.is_dir() {
        eprintln!("note: no corpus at {}: skipped", corpus.display());
        return;
    }
    if !qpdf::available("the_corpus_encrypted_files") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut seen = 0;
    for &(name, user, owner) in CORPUS {
        let file = corpus.join(name);
        if !file.exists() {
            eprintln!("note: {name} is not in the corpus: skipped");
            continue;
        }
        seen += 1;
        let by_qpdf = dir.path().join("qpdf.pdf");
        qpdf::decrypt(&file, user, &by_qpdf);
        let expected = contents(&load(&by_qpdf));
        assert_eq!(expected.len(), qpdf::pages(&file, user), "{name}");
        let qpdf_clean = qpdf::check(&file, user).0 == 0;
        for password in std::iter::once(user).chain(owner) {
            let out = dir.path().join("out.pdf");
            let written = unlock(&file, password, &out);
            let written = written.unwrap_or_else(|e| panic!("{name} with {password:?}: {e:?}"));
            assert_eq!(written.pages as usize, expected.len(), "{name}");
            assert_eq!(
                contents(&load(&out)),
                expected,
                "{name}: pages differ from qpdf's"
            );
            assert_eq!(qpdf::is_encrypted(&out), 2, "{name}");
            if qpdf_clean {
                qpdf::assert_clean(&out, "");
            }
        }
        let out = dir.path().join("wrong.pdf");
        assert!(
            is_wrong_password(unlock(&file, "not-the-password", &out)),
            "{name}"
        );
        // Protect wants a file that opens without a password.
        let needs_password = qpdf::requires_password(&file) == 0;
        let result = protect(&file, "new", "", Permissions::ALL, &out);
        if needs_password {
            assert!(
                matches!(result, Err(ToolError::Encrypted)),
                "{name}: {result:?}"
            );
        } else {
            assert_eq!(result.unwrap().pages as usize, expected.len(), "{name}");
            assert_eq!(qpdf::role(&out, "new"), "user+owner", "{name}");
        }
    }
    // No /ID, which the RC4 key is made from: qpdf takes it as empty, lopdf cannot.
    let no_id = corpus.join("pypdf__resources__encrypted_doc_no_id.pdf");
    if no_id.exists() {
        let out = dir.path().join("out.pdf");
        let result = unlock(&no_id, "", &out);
        assert!(
            matches!(&result, Err(ToolError::InvalidFile(m)) if m.contains("/ID")),
            "{result:?}"
        );
    }
    let plain = corpus.join("pypdf__resources__encryption__unencrypted.pdf");
    if plain.exists() {
        let out = dir.path().join("out.pdf");
        assert!(matches!(
            unlock(&plain, "", &out),
            Err(ToolError::BadOptions(_))
        ));
    }
    eprintln!("{seen} encrypted corpus files unlocked");
}

/// Every PDF of the corpora (`.cache/pdf-corpus`, `.cache/compress-corpus`) protected, checked
/// by qpdf where qpdf finds the input clean, and unlocked again to the same page content.
#[test]
fn every_corpus_pdf_survives_protect_then_unlock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache");
    let mut files = std::collections::BTreeMap::new();
    for corpus in ["pdf-corpus", "compress-corpus"] {
        let Ok(entries) = std::fs::read_dir(root.join(corpus)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|ext| ext == "pdf") {
                files.entry(entry.file_name()).or_insert(path);
            }
        }
    }
    if files.is_empty() {
        eprintln!("note: no corpus under {}: skipped", root.display());
        return;
    }
    let check_qpdf = qpdf::available("every_corpus_pdf_survives_protect_then_unlock");
    let dir = tempfile::tempdir().unwrap();
    let (sealed, out) = (dir.path().join("sealed.pdf"), dir.path().join("out.pdf"));
    let mut failures = Vec::new();
    let (mut done, mut refused) = (0, 0);
    for (name, file) in &files {
        let name = name.to_string_lossy();
        let written = match protect(file, USER, OWNER, PRINT_ONLY, &sealed) {
            Ok(written) => written,
            Err(ToolError::InvalidFile(_) | ToolError::Encrypted) => {
                refused += 1;
                continue;
            }
            Err(other) => {
                failures.push(format!("{name}: protect: {other:?}"));
                continue;
            }
        };
        done += 1;
        if check_qpdf && qpdf::check(file, "").0 == 0 {
            let (code, text) = qpdf::check(&sealed, USER);
            if code != 0 {
                failures.push(format!(
                    "{name}: qpdf --check of the protected file: {text}"
                ));
            }
        }
        match unlock(&sealed, USER, &out) {
            Ok(again) if again == written => {}
            other => {
                failures.push(format!("{name}: unlock: {other:?}, {written:?} protected"));
                continue;
            }
        }
        if contents(&Document::load(file).unwrap()) != contents(&load(&out)) {
            failures.push(format!("{name}: the pages differ after the round trip"));
        }
    }
    eprintln!("{done} corpus files protected and unlocked, {refused} refused");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
