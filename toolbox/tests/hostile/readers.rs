//! The independent readers: qpdf (a file in its decoded QDF form) and pikepdf (metadata, and
//! whether an XMP packet still parses).

use std::path::{Path, PathBuf};
use std::process::Command;

/// qpdf, where it is installed.
pub fn qpdf() -> Option<&'static Path> {
    let qpdf = Path::new("/usr/bin/qpdf");
    qpdf.exists().then_some(qpdf)
}

/// `path` as qpdf writes it in QDF form (every stream decoded, no object streams), or the
/// reason it could not; qpdf's exit 3 is "done, with warnings".
pub fn qdf(qpdf: &Path, path: &Path, work: &Path) -> Result<Vec<u8>, String> {
    let out = work.join("qdf.pdf");
    let status = Command::new(qpdf)
        .args(["--qdf", "--object-streams=disable"])
        .arg(path)
        .arg(&out)
        .output()
        .map_err(|e| e.to_string())?;
    match status.status.code() {
        Some(0 | 3) => std::fs::read(&out).map_err(|e| e.to_string()),
        _ => Err(String::from_utf8_lossy(&status.stderr).into_owned()),
    }
}

/// A Python interpreter that imports pikepdf: the project's cache venv, then /tmp/pyv.
pub fn pikepdf_python() -> Option<PathBuf> {
    let candidates = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/venv/bin/python"),
        PathBuf::from("/tmp/pyv/bin/python"),
    ];
    candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import pikepdf"])
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// Checks edited files with pikepdf: argv is the expected title and author, then pairs of
/// (input, output). For each pair it prints `OK <output>` or `FAIL <output>: <problems>`: the
/// output's /Info must hold the title and author, its XMP (where the input had one, and only
/// then) dc:title and dc:creator too, and an XMP packet lxml parsed before must still parse.
pub const PIKEPDF_CHECK: &str = r#"
import sys, pikepdf
from lxml import etree

title, author = sys.argv[1], sys.argv[2]
pairs = sys.argv[3:]

def packet(pdf):
    return pdf.Root.Metadata.read_bytes() if "/Metadata" in pdf.Root else None

def parses(raw):
    try:
        etree.fromstring(raw, etree.XMLParser(recover=False, resolve_entities=False))
        return True
    except Exception:
        return False

for src, out in zip(pairs[0::2], pairs[1::2]):
    problems = []
    try:
        before, before_ok = None, False
        try:
            with pikepdf.open(src) as pdf:
                before = packet(pdf)
                before_ok = before is not None and parses(before)
        except Exception:
            before = "unknown"
        with pikepdf.open(out) as pdf:
            info = pdf.docinfo
            if str(info.get("/Title")) != title:
                problems.append("Info title %r" % str(info.get("/Title")))
            if str(info.get("/Author")) != author:
                problems.append("Info author %r" % str(info.get("/Author")))
            after = packet(pdf)
            if before is None and after is not None:
                problems.append("an XMP packet was added")
            if before is not None and before != "unknown" and after is None:
                problems.append("the XMP packet was lost")
            if after is not None:
                if before_ok and not parses(after):
                    problems.append("the XMP packet no longer parses")
                if parses(after):
                    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False, strict=True) as meta:
                        if meta.get("dc:title") != title:
                            problems.append("XMP title %r" % meta.get("dc:title"))
                        if list(meta.get("dc:creator") or []) != [author]:
                            problems.append("XMP creator %r" % meta.get("dc:creator"))
    except Exception as e:
        problems.append(repr(e))
    print(("FAIL %s: %s" % (out, "; ".join(problems))) if problems else "OK %s" % out)
"#;

/// Runs [`PIKEPDF_CHECK`] over `pairs`; the lines that did not pass.
pub fn pikepdf_check(
    python: &Path,
    title: &str,
    author: &str,
    pairs: &[(PathBuf, PathBuf)],
) -> Vec<String> {
    let mut command = Command::new(python);
    command.args(["-c", PIKEPDF_CHECK, title, author]);
    for (input, output) in pairs {
        command.arg(input).arg(output);
    }
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "pikepdf check failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().count(),
        pairs.len(),
        "pikepdf check: {stdout}"
    );
    stdout
        .lines()
        .filter(|line| !line.starts_with("OK "))
        .map(String::from)
        .collect()
}
