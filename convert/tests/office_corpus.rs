//! Real-world documents (scripts/corpus/office.sh: the test files of python-docx, python-pptx
//! and odfpy) through one warm engine: each converts to a readable PDF or is refused as
//! unreadable; none panics, hangs past its limits or breaks the engine.

mod office_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use office_support::{office, pdf_pages};
use quire_convert::{ConvertError, Limits};

const MAX_FILES: usize = 30;

/// `QUIRE_OFFICE_CORPUS`, else the workspace's .cache/office-corpus.
fn corpus_dir() -> PathBuf {
    std::env::var_os("QUIRE_OFFICE_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/office-corpus"),
        PathBuf::from,
    )
}

/// Up to `MAX_FILES` files, taken in turn from each extension so every format is in.
fn pick(dir: &Path) -> Vec<PathBuf> {
    let mut by_extension: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("corpus dir").flatten() {
        let path = entry.path();
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        by_extension.entry(extension).or_default().push(path);
    }
    let mut lists: Vec<_> = by_extension.into_values().collect();
    for list in &mut lists {
        list.sort();
    }
    let mut picked = Vec::new();
    let mut round = 0;
    while picked.len() < MAX_FILES && lists.iter().any(|list| round < list.len()) {
        for list in &lists {
            if let Some(path) = list.get(round)
                && picked.len() < MAX_FILES
            {
                picked.push(path.clone());
            }
        }
        round += 1;
    }
    picked
}

#[test]
fn real_world_documents_convert_or_are_refused() {
    let dir = corpus_dir();
    let explicit = std::env::var_os("QUIRE_OFFICE_CORPUS").is_some();
    if !dir.is_dir() {
        assert!(
            !explicit,
            "QUIRE_OFFICE_CORPUS={} is no directory",
            dir.display()
        );
        eprintln!(
            "note: no office corpus at {} (scripts/corpus/office.sh fills it): skipped",
            dir.display()
        );
        return;
    }
    let files = pick(&dir);
    assert!(
        !files.is_empty(),
        "the office corpus {} is empty",
        dir.display()
    );

    let work = tempfile::tempdir().expect("temp dir");
    let mut office = office(work.path());
    office.start().expect("pre-warm");
    let limits = Limits {
        time: Duration::from_secs(60),
        memory: 2 << 30,
    };
    let (mut converted, mut refused, mut over) = (0, 0, 0);
    for (n, input) in files.iter().enumerate() {
        let output = work.path().join(format!("{n}.pdf"));
        let started = Instant::now();
        let result = office.convert(input, &output, limits);
        let name = input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match result {
            Ok(done) => {
                let pages = pdf_pages(&output);
                assert!(pages >= 1, "{name}: an empty PDF");
                converted += 1;
                eprintln!(
                    "{name}: {} -> {pages} pages in {:?}",
                    done.kind,
                    started.elapsed()
                );
            }
            Err(ConvertError::Unreadable(message)) => {
                refused += 1;
                eprintln!("{name}: refused: {message}");
            }
            Err(ConvertError::OverLimit(message)) => {
                over += 1;
                eprintln!("{name}: over its limits: {message}");
            }
            Err(other) => panic!("{name}: {other:?}"),
        }
        assert!(
            started.elapsed() < limits.time + Duration::from_secs(10),
            "{name} overran"
        );
    }
    eprintln!("{converted} converted, {refused} refused, {over} over their limits");
    // These are valid documents from the libraries' own tests: nearly all must convert.
    assert!(
        converted * 10 >= files.len() * 8,
        "only {converted} of {} converted",
        files.len()
    );
}
