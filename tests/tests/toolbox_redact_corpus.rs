//! Redaction of a chosen word in real-world PDFs (.cache/compress-corpus: pdfTeX, LibreOffice,
//! Word, cairo, Acrobat, Skia and other producers), over real gRPC with the workers: after it,
//! neither PDFium nor poppler's pdftotext finds the word on any page, and the other words of
//! the first page are still there.

use std::{collections::HashMap, path::PathBuf, process::Command, time::Duration};

use futures::StreamExt;
use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack,
    pdf_check::facts,
    toolbox::{Toolbox, reason},
    v1,
};
use tonic::Code;
use v1::{redact_options::Action, tool_options::Tool};

/// Far above any single file's time with the per-job limit; reaching it means a hang.
const HANG: Duration = Duration::from_secs(240);
/// Of the first page's other words, at least this share must remain.
const KEPT: f64 = 0.9;

fn corpus() -> Vec<PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/compress-corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} missing ({e}): run scripts/setup.sh", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pdf"))
        .collect();
    files.sort();
    assert!(files.len() >= 50, "the corpus holds {} PDFs", files.len());
    files
}

/// The words of a text, lowercased: runs of ASCII letters.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The longest word of at least six letters on the page (the first of equals).
fn chosen(text: &str) -> Option<String> {
    let mut best: Option<String> = None;
    for word in words(text).into_iter().filter(|w| w.len() >= 6) {
        if best.as_ref().is_none_or(|b| word.len() > b.len()) {
            best = Some(word);
        }
    }
    best
}

/// Lowercased, without the marks that break a word in an extractor's text but not for a
/// reader (soft hyphens, which PDFium reports as U+FFFE, zero-width spaces).
fn read_as_words(text: &str) -> String {
    text.chars()
        .filter(|c| {
            !matches!(
                c,
                '\u{2}' | '\u{AD}' | '\u{FFFE}' | '\u{FFFF}' | '\u{200B}' | '\u{FEFF}'
            )
        })
        .flat_map(char::to_lowercase)
        .collect()
}

fn pdftotext(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext is installed by scripts/setup.sh");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn counts(words: &[String]) -> HashMap<&str, usize> {
    let mut map = HashMap::new();
    for w in words {
        *map.entry(w.as_str()).or_default() += 1;
    }
    map
}

enum Outcome {
    Redacted { rasterized: bool },
    Skipped,
    Refused,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chosen_word_is_gone_from_real_world_pdfs_and_the_rest_stays() {
    let stack = Stack::start(Db::Sqlite).await;
    let toolbox = Toolbox::open(&stack, "redact-corpus@example.com").await;
    quire_core::auth::accounts::set_plan(&stack.core.db, "redact-corpus@example.com", Plan::Pro)
        .await
        .unwrap();
    let outcomes: Vec<Result<Outcome, String>> = futures::stream::iter(corpus())
        .map(|file| {
            let mut toolbox = Toolbox {
                client: toolbox.client.clone(),
                session: toolbox.session.clone(),
            };
            async move {
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                let bytes = std::fs::read(&file).unwrap();
                let Ok(before) = facts(bytes.clone()).await else {
                    return Ok(Outcome::Skipped);
                };
                let Some(first) = before.pages.first() else {
                    return Ok(Outcome::Skipped);
                };
                let Some(word) = chosen(&first.text) else {
                    return Ok(Outcome::Skipped);
                };
                let tool = Tool::Redact(v1::RedactOptions {
                    action: Some(Action::Apply(v1::RedactApply {
                        search: Some(v1::RedactSearch {
                            terms: vec![word.clone()],
                            ..Default::default()
                        }),
                        clean_document: true,
                        ..Default::default()
                    })),
                });
                let what = format!("{name} ({word:?})");
                let answer = tokio::time::timeout(HANG, toolbox.run(tool, &[(&name, bytes)]))
                    .await
                    .map_err(|_| format!("{what}: no answer within {HANG:?}"))?;
                let (summary, out) = match answer {
                    Ok(done) => done,
                    Err(status) if matches!(status.code(), Code::Internal | Code::Unknown) => {
                        return Err(format!(
                            "{what}: internal error {}: {}",
                            reason(&status),
                            status.message()
                        ));
                    }
                    Err(status) => {
                        println!("{what}: refused: {}", status.message());
                        return Ok(Outcome::Refused);
                    }
                };
                // QUIRE_REDACT_KEEP=DIR keeps every result, to look at one that failed.
                if let Some(dir) = std::env::var_os("QUIRE_REDACT_KEEP") {
                    let _ = std::fs::write(std::path::Path::new(&dir).join(&name), &out);
                }
                let after = facts(out.clone())
                    .await
                    .map_err(|e| format!("{what}: the result does not open: {e}"))?;
                for (index, page) in after.pages.iter().enumerate() {
                    if read_as_words(&page.text).contains(&word) {
                        return Err(format!(
                            "{what}: PDFium still reads it on page {}",
                            index + 1
                        ));
                    }
                }
                if read_as_words(&pdftotext(&out)).contains(&word) {
                    return Err(format!("{what}: pdftotext still reads it"));
                }
                let before_words: Vec<String> = words(&first.text)
                    .into_iter()
                    .filter(|w| *w != word)
                    .collect();
                let after_words = words(&after.pages[0].text);
                let after_counts = counts(&after_words);
                let kept = counts(&before_words)
                    .iter()
                    .map(|(w, n)| (*n).min(after_counts.get(w).copied().unwrap_or(0)))
                    .sum::<usize>();
                let share = kept as f64 / before_words.len().max(1) as f64;
                if share < KEPT {
                    return Err(format!(
                        "{what}: only {:.0} % of the first page's other words remain",
                        share * 100.0
                    ));
                }
                let rasterized = summary.notes.iter().any(|n| n.key.contains("as a picture"));
                Ok(Outcome::Redacted { rasterized })
            }
        })
        .buffer_unordered(2)
        .collect()
        .await;
    let failures: Vec<&String> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    let tally = |f: fn(&Outcome) -> bool| outcomes.iter().flatten().filter(|o| f(o)).count();
    println!(
        "{} files: {} redacted ({} with a page drawn as a picture), {} refused, {} without a \
         word to choose, {} failures",
        outcomes.len(),
        tally(|o| matches!(o, Outcome::Redacted { .. })),
        tally(|o| matches!(o, Outcome::Redacted { rasterized: true })),
        tally(|o| matches!(o, Outcome::Refused)),
        tally(|o| matches!(o, Outcome::Skipped)),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    // A refusal keeps a file from leaking but leaves the user without a result: most files
    // with a word to remove must come back redacted.
    let redacted = tally(|o| matches!(o, Outcome::Redacted { .. }));
    let tried = redacted + tally(|o| matches!(o, Outcome::Refused));
    assert!(
        redacted * 10 >= tried * 9,
        "only {redacted} of {tried} files came back redacted"
    );
}
