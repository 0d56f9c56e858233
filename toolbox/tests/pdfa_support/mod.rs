//! What the PDF/A tests share: the judge (pikepdf's allowlist PDF/A validator, run by the
//! venv's python), poppler's pdftotext for the text, and the generated documents.
#![allow(dead_code, clippy::unwrap_used)]

pub mod fixture;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The python with pikepdf: `QUIRE_TEST_PYTHON`, else the venv the setup makes.
pub fn python() -> Option<String> {
    let python = std::env::var("QUIRE_TEST_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/venv/bin/python")
        });
    let found = Command::new(&python)
        .args(["-c", "import pikepdf.pdfa"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        eprintln!(
            "note: no python with pikepdf.pdfa ({}): the judge is skipped",
            python.display()
        );
    }
    found.then(|| python.to_string_lossy().into_owned())
}

/// pikepdf's verdict on a written file.
#[derive(Debug, Clone)]
pub struct Judged {
    /// "pass", "fail" (a violation) or "not_checked" (only constructs it does not check).
    pub verdict: String,
    /// "[kind] rule at where: message", one per finding.
    pub findings: Vec<String>,
}

impl Judged {
    pub fn passed(&self) -> bool {
        self.verdict == "pass"
    }
}

const JUDGE: &str = r#"
import sys, pikepdf.pdfa
for path in sys.argv[2:]:
    r = pikepdf.pdfa.validate_written(path, sys.argv[1])
    print("FILE\t" + path + "\t" + r.verdict)
    for f in r.findings:
        print("F\t" + str(f).replace("\n", " "))
"#;

/// Runs the judge on each of `paths` for `flavour` ("1b", "2b", "3b").
pub fn judge(python: &str, flavour: &str, paths: &[&Path]) -> Vec<Judged> {
    let mut command = Command::new(python);
    command.args(["-c", JUDGE, flavour]);
    for path in paths {
        command.arg(path);
    }
    let out = command.output().expect("python runs");
    assert!(
        out.status.success(),
        "the judge failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut judged: Vec<Judged> = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(rest) = line.strip_prefix("FILE\t") {
            let verdict = rest.rsplit('\t').next().unwrap_or("").to_string();
            judged.push(Judged {
                verdict,
                findings: Vec::new(),
            });
        } else if let Some(finding) = line.strip_prefix("F\t")
            && let Some(last) = judged.last_mut()
        {
            last.findings.push(finding.to_string());
        }
    }
    assert_eq!(judged.len(), paths.len(), "one verdict per file");
    judged
}

/// The level's flavour name for the judge.
pub fn flavour(level: quire_toolbox::pdfa::Level) -> &'static str {
    match level {
        quire_toolbox::pdfa::Level::A1b => "1b",
        quire_toolbox::pdfa::Level::A2b => "2b",
        quire_toolbox::pdfa::Level::A3b => "3b",
    }
}

/// The text pdftotext reads, or `None` when poppler-utils is missing or the file does not
/// read.
pub fn text(path: &Path) -> Option<String> {
    let out = Command::new("pdftotext")
        .args(["-q", "-layout"])
        .arg(path)
        .arg("-")
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Text for comparison: white space runs made one space (a substitute font's spaces may fall
/// a column off in the layout mode's padding).
pub fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Page count by lopdf.
pub fn pages(path: &Path) -> usize {
    lopdf::Document::load(path)
        .map(|d| d.get_pages().len())
        .unwrap_or(0)
}

/// Encrypts `input` into `output` with pikepdf: an empty user password, an owner password,
/// and the given revision and cipher.
pub fn encrypt(python: &str, input: &Path, output: &Path, revision: u8, aes: bool) {
    let script = format!(
        "import pikepdf,sys\npdf=pikepdf.open(sys.argv[1])\npdf.save(sys.argv[2], encryption=pikepdf.Encryption(owner='owner', user='', R={revision}, aes={aes}, metadata={aes}))",
        aes = if aes { "True" } else { "False" }
    );
    let out = Command::new(python)
        .args(["-c", &script])
        .arg(input)
        .arg(output)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "encrypting failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Encrypts with a user password, so that the file does not open without it.
pub fn encrypt_with_password(python: &str, input: &Path, output: &Path) {
    let script = "import pikepdf,sys\npdf=pikepdf.open(sys.argv[1])\npdf.save(sys.argv[2], encryption=pikepdf.Encryption(owner='owner', user='secret', R=6))";
    let out = Command::new(python)
        .args(["-c", script])
        .arg(input)
        .arg(output)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
