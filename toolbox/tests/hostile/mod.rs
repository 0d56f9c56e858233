//! What the metadata and sanitize tests share: a document holding everything sanitize
//! removes (`fixture`), the corpora, the sanitize options the tests run with (`options`), an
//! output read back and searched for names that must be gone (`search`), and the independent
//! readers: qpdf's view of a file and an interpreter with pikepdf to read metadata (`readers`).
#![allow(dead_code, clippy::unwrap_used)]

mod fixture;
mod options;
mod readers;
mod search;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// Each test binary uses some of these, not all.
#[allow(unused_imports)]
pub use fixture::{Fixture, XMP_TITLE, fixture, fixture_with, xmp_packet};
#[allow(unused_imports)]
pub use options::{EVERYTHING, NOTHING, removed};
#[allow(unused_imports)]
pub use readers::{PIKEPDF_CHECK, pikepdf_check, pikepdf_python, qdf, qpdf};
#[allow(unused_imports)]
pub use search::{FORBIDDEN, all_streams, contains, forbidden_in, forbidden_tokens, load};

/// The corpora's files by name; both directories hold some of the same files.
pub fn corpus() -> BTreeMap<String, PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(".cache");
    let mut files = BTreeMap::new();
    for dir in ["pdf-corpus", "compress-corpus"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|ext| ext == "pdf") {
                let name = entry.file_name().to_string_lossy().into_owned();
                files.entry(name).or_insert(path);
            }
        }
    }
    files
}
