//! What the security tests share: the sample with what its pages draw, the passwords, and
//! the checks that a file is the sample again. Included with `#[path]` by tests/security_*.rs
//! (common/mod.rs does not declare it), after `mod common;`.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use lopdf::Document;
use quire_toolbox::ToolError;
use quire_toolbox::security::Permissions;

use crate::common::{self, Variant, load, sample};

pub const USER: &str = "user-pw";
pub const OWNER: &str = "Owner-PW";
pub const PRINT_ONLY: Permissions = Permissions {
    print: true,
    copy: false,
    modify: false,
};
const WRONG: &str =
    "this password does not open the PDF: check it (passwords are case-sensitive) and try again";

/// The sample of tests/common, and what each of its pages draws (decoded content streams).
pub fn input(dir: &Path) -> (PathBuf, Vec<Vec<u8>>) {
    let path = sample(dir, "A", Variant::default());
    let contents = contents(&load(&path));
    (path, contents)
}

pub fn contents(doc: &Document) -> Vec<Vec<u8>> {
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
pub fn assert_sample(doc: &Document, expected: &[Vec<u8>]) {
    assert_eq!(common::labels(doc), ["A1", "A2", "A3", "A4"]);
    assert_eq!(contents(doc), expected);
    assert_eq!(common::outline_entries(doc).len(), 4);
    assert_eq!(common::links(doc, 0), [Some(2)]);
    assert_eq!(common::field_names(doc), ["name", "choice"]);
    assert_eq!(title(doc), b"Sample A");
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

pub fn is_wrong_password(result: Result<quire_toolbox::Written, ToolError>) -> bool {
    matches!(result, Err(ToolError::WrongPassword(message)) if message == WRONG)
}
