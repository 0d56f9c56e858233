//! Protect and unlock on the real-world PDFs of the corpora: the encrypted ones unlocked as
//! qpdf decrypts them, every one protected and unlocked again to the same pages. Skips (saying
//! so) when the corpora or qpdf are not there.
#![allow(clippy::unwrap_used)]

mod common;
mod corpus_files;
#[path = "common/qpdf.rs"]
mod qpdf;
#[path = "common/security.rs"]
mod security;

use std::path::Path;

use common::load;
use lopdf::Document;
use quire_toolbox::ToolError;
use quire_toolbox::security::{Permissions, protect, unlock};
use security::{OWNER, PRINT_ONLY, USER, contents, is_wrong_password};

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
    let files = corpus_files::corpus();
    if files.is_empty() {
        eprintln!("note: no corpus under .cache (scripts/setup.sh --tests fetches it): skipped");
        return;
    }
    let check_qpdf = qpdf::available("every_corpus_pdf_survives_protect_then_unlock");
    let dir = tempfile::tempdir().unwrap();
    let (sealed, out) = (dir.path().join("sealed.pdf"), dir.path().join("out.pdf"));
    let mut failures = Vec::new();
    let (mut done, mut refused) = (0, 0);
    for (name, file) in &files {
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
