//! The independent verifiers: pdfsig, pyHanko, qpdf and pdftotext, each run on a file.
//! A missing tool skips the test with a message, except under CI, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python of the project's venv, with pyHanko.
fn python() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/venv/bin/python")
}

/// Whether every tool `needs` is there; under CI (env CI set) a missing one fails the test.
pub fn available(test: &str, needs: &[&str]) -> bool {
    let missing: Vec<&str> = needs
        .iter()
        .copied()
        .filter(|tool| !present(tool))
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: {missing:?} missing (install poppler-utils, qpdf, openssl, and pyHanko in \
         .cache/venv)"
    );
    eprintln!("skipping {test}: {missing:?} not installed");
    false
}

fn present(tool: &str) -> bool {
    match tool {
        "pyhanko" => Command::new(python())
            .args(["-c", "import pyhanko, pyhanko_certvalidator"])
            .output()
            .is_ok_and(|o| o.status.success()),
        _ => Command::new(tool).arg("-v").output().is_ok(),
    }
}

/// pdfsig's report.
pub fn pdfsig(file: &Path) -> String {
    let output = Command::new("pdfsig")
        .arg(file)
        .output()
        .expect("pdfsig runs");
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// One signature as pyHanko validates it against the test CA.
#[derive(Debug, serde::Deserialize)]
pub struct Validated {
    pub field: String,
    pub intact: bool,
    pub valid: bool,
    pub trusted: bool,
    pub coverage: String,
    pub subfilter: String,
    pub md: String,
    pub signer: String,
    pub summary: String,
}

const VALIDATE: &str = r#"
import json, sys
from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko_certvalidator import ValidationContext

context = ValidationContext(trust_roots=[load_cert_from_pemder(sys.argv[2])])
out = []
with open(sys.argv[1], "rb") as f:
    reader = PdfFileReader(f)
    for sig in reader.embedded_signatures:
        status = validate_pdf_signature(sig, context)
        out.append({
            "field": sig.field_name,
            "intact": bool(status.intact),
            "valid": bool(status.valid),
            "trusted": bool(status.trusted),
            "coverage": status.coverage.name,
            "subfilter": str(sig.sig_object.get("/SubFilter")),
            "md": str(status.md_algorithm),
            "signer": status.signing_cert.subject.human_friendly,
            "summary": status.summary(),
        })
print(json.dumps(out))
"#;

/// Every signature of `file` as pyHanko sees it, or the error pyHanko raised.
pub fn pyhanko(file: &Path, ca: &Path) -> Result<Vec<Validated>, String> {
    let output = Command::new(python())
        .args(["-c", VALIDATE])
        .arg(file)
        .arg(ca)
        .output()
        .expect("python runs");
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())
}

/// `qpdf --check`: its exit code and report.
pub fn qpdf_check(file: &Path) -> (i32, String) {
    let output = Command::new("qpdf")
        .arg("--check")
        .arg(file)
        .output()
        .expect("qpdf runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

/// The text of one page, as pdftotext reads it.
pub fn page_text(file: &Path, page: u32) -> String {
    let page = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-f", &page, "-l", &page, "-layout"])
        .arg(file)
        .arg("-")
        .output()
        .expect("pdftotext runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}
