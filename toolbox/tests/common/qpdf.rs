//! qpdf as the independent judge of the security tests: it makes encrypted fixtures and reads
//! the outputs back. Included with `#[path]` by tests/security_*.rs (common/mod.rs does not
//! declare it).
#![allow(dead_code, clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// Whether qpdf runs here; when it does not, the caller skips its checks with a note.
pub fn available(test: &str) -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    let found = *FOUND.get_or_init(|| {
        Command::new("qpdf")
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    });
    if !found {
        eprintln!("note: qpdf is not installed: {test} skips its qpdf checks");
    }
    found
}

/// Runs qpdf; its exit code and everything it printed.
pub fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new("qpdf").args(args).output().unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn password_arg(password: &str) -> String {
    format!("--password={password}")
}

/// `qpdf --encrypt user owner <how...> -- input output`; RC4 handlers need
/// --allow-weak-crypto, which is passed always.
pub fn encrypt(input: &Path, output: &Path, user: &str, owner: &str, how: &[&str]) {
    let mut args = vec!["--allow-weak-crypto", "--encrypt", user, owner];
    args.extend_from_slice(how);
    args.extend_from_slice(&["--", path(input), path(output)]);
    let (code, text) = run(&args);
    assert_eq!(code, 0, "qpdf could not encrypt: {text}");
}

/// `qpdf --requires-password`: 0 needs a password, 2 not encrypted, 3 encrypted but opens
/// without one.
pub fn requires_password(file: &Path) -> i32 {
    run(&["--requires-password", path(file)]).0
}

/// `qpdf --is-encrypted`: 0 encrypted, 2 not.
pub fn is_encrypted(file: &Path) -> i32 {
    run(&["--is-encrypted", path(file)]).0
}

/// `qpdf --check` with a password: exit code and report.
pub fn check(file: &Path, password: &str) -> (i32, String) {
    run(&[&password_arg(password), "--check", path(file)])
}

/// Asserts that qpdf finds nothing wrong with `file`.
pub fn assert_clean(file: &Path, password: &str) {
    let (code, text) = check(file, password);
    assert_eq!(code, 0, "qpdf --check failed on {}: {text}", file.display());
    assert!(
        text.contains("No syntax or stream encoding errors found"),
        "qpdf --check: {text}"
    );
}

/// `qpdf --show-encryption` with a password.
pub fn show_encryption(file: &Path, password: &str) -> String {
    let (code, text) = run(&[&password_arg(password), "--show-encryption", path(file)]);
    assert_eq!(code, 0, "qpdf --show-encryption failed: {text}");
    text
}

/// What the password is to qpdf: "user", "owner", "user+owner", or "" when it opens nothing.
pub fn role(file: &Path, password: &str) -> String {
    let text = show_encryption(file, password);
    let mut roles = Vec::new();
    for role in ["user", "owner"] {
        if text.contains(&format!("Supplied password is {role} password")) {
            roles.push(role);
        }
    }
    roles.join("+")
}

/// `qpdf --show-npages` with a password (3: with warnings, printed after the count).
pub fn pages(file: &Path, password: &str) -> usize {
    let (code, text) = run(&[&password_arg(password), "--show-npages", path(file)]);
    assert!(code == 0 || code == 3, "qpdf --show-npages failed: {text}");
    text.lines().next().unwrap().trim().parse().unwrap()
}

/// `qpdf --decrypt`: `file` decrypted by qpdf, for comparing with the crate's output.
pub fn decrypt(file: &Path, password: &str, output: &Path) {
    let (code, text) = run(&[
        &password_arg(password),
        "--decrypt",
        path(file),
        path(output),
    ]);
    assert!(
        code == 0 || code == 3,
        "qpdf --decrypt failed on {}: {text}",
        file.display()
    );
}
