//! The real-world PDFs the setup fetches (`.cache/pdf-corpus`, `.cache/compress-corpus`), for
//! the corpus tests of every tool.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The corpora's files by name; both directories hold some of the same files. Empty when the
/// setup has not fetched them.
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
