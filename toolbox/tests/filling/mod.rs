//! What the fill-form tests share: the test form (`fixture`), and the independent readers of
//! the outputs: pikepdf (the venv's python) for the fields' values, poppler's pdftotext for
//! what the appearances show, qpdf --check for the file's syntax.
#![allow(dead_code, clippy::unwrap_used)]

pub mod fixture;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use quire_toolbox::fill_form::Fill;

/// The venv interpreter with pikepdf, if the setup made it.
pub fn python() -> Option<String> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/venv/bin/python");
    let found = Command::new(&python)
        .args(["-c", "import pikepdf"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        eprintln!("note: the venv's pikepdf is missing: pikepdf checks skipped");
    }
    found.then(|| python.to_string_lossy().into_owned())
}

/// Walks the AcroForm with pikepdf: one line per terminal field, "name\tV\tAS,AS,..."
/// (V as str() gives it; the widgets' /AS names, "-" when absent), then "FORM\t<count of
/// /Fields>\t<NeedAppearances>\t<XFA present>" (or "FORM\tnone").
const PIKEPDF_FIELDS: &str = r#"
import sys, pikepdf
pdf = pikepdf.open(sys.argv[1])
form = pdf.Root.get("/AcroForm")
out = []
def walk(node, parent):
    name = parent
    if "/T" in node:
        name = (parent + "." if parent else "") + str(node.T)
    kids = node.get("/Kids")
    widgets = []
    if kids is not None:
        for kid in kids:
            if "/T" in kid or "/Kids" in kid:
                walk(kid, name)
            else:
                widgets.append(kid)
    else:
        widgets.append(node)
    if widgets and ("/T" in node or parent):
        v = node.get("/V")
        p = node
        while v is None and "/Parent" in p:
            p = p.Parent
            v = p.get("/V")
        if v is None:
            value = ""
        elif isinstance(v, pikepdf.Array):
            value = "|".join(str(x) for x in v)
        else:
            value = str(v)
        states = ",".join(str(w.get("/AS", "-")) for w in widgets)
        out.append(name + "\t" + value.replace("\n", "\\n") + "\t" + states)
if form is None:
    out.append("FORM\tnone")
else:
    for field in form.get("/Fields", []):
        walk(field, "")
    out.append("FORM\t%d\t%s\t%s" % (len(form.get("/Fields", [])), bool(form.get("/NeedAppearances", False)), "/XFA" in form))
print("\n".join(out))
"#;

/// What pikepdf reads of a filled file's form.
pub struct Read {
    /// name -> (value, widget states)
    pub fields: BTreeMap<String, (String, Vec<String>)>,
    /// None: no /AcroForm. Some((fields, NeedAppearances, XFA)).
    pub form: Option<(usize, bool, bool)>,
}

pub fn pikepdf_fields(python: &str, pdf: &Path) -> Read {
    let out = Command::new(python)
        .args(["-c", PIKEPDF_FIELDS])
        .arg(pdf)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pikepdf failed on {}: {}",
        pdf.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut fields = BTreeMap::new();
    let mut form = None;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        match parts.as_slice() {
            ["FORM", "none"] => form = None,
            ["FORM", count, need, xfa] => {
                form = Some((count.parse().unwrap(), *need == "True", *xfa == "True"))
            }
            [name, value, states] => {
                fields.insert(
                    name.to_string(),
                    (
                        value.to_string(),
                        states.split(',').map(str::to_string).collect(),
                    ),
                );
            }
            _ => panic!("unexpected pikepdf line {line:?}"),
        }
    }
    Read { fields, form }
}

/// Whether poppler's pdftotext runs here.
pub fn poppler() -> bool {
    let found = Command::new("pdftotext").arg("-v").output().is_ok();
    if !found {
        eprintln!("note: poppler-utils not installed: pdftotext checks skipped");
    }
    found
}

/// pdftotext's text of the whole file (raw order: one string per drawn line).
pub fn text(pdf: &Path) -> String {
    let out = Command::new("pdftotext")
        .arg("-raw")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pdftotext failed on {}",
        pdf.display()
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether qpdf runs here.
pub fn qpdf() -> bool {
    let found = Command::new("qpdf").arg("--version").output().is_ok();
    if !found {
        eprintln!("note: qpdf not installed: qpdf checks skipped");
    }
    found
}

/// qpdf --check's verdict: Ok, or its report.
pub fn qpdf_check(pdf: &Path) -> Result<(), String> {
    let out = Command::new("qpdf")
        .arg("--check")
        .arg(pdf)
        .output()
        .unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.code() == Some(0) && report.contains("No syntax or stream encoding errors") {
        Ok(())
    } else {
        Err(report)
    }
}

/// A fill of `values`, not flattened, without a fallback font.
pub fn fill(values: &[(&str, &str)]) -> Fill {
    Fill {
        values: values
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect(),
        flatten: false,
        font: None,
    }
}

pub const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

pub fn dejavu() -> Option<&'static str> {
    let found = Path::new(DEJAVU).exists();
    if !found {
        eprintln!("note: {DEJAVU} not installed: Unicode checks skipped");
    }
    found.then_some(DEJAVU)
}
