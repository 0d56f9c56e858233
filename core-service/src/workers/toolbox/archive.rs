//! PDF/A: the document converted to the level asked for, its output checked against that
//! level's rules before it is handed back (the engine refuses rather than hand back a file that
//! claims PDF/A and is not) and drawn beside the input, page by page (`seen`: a page that would
//! look different is pictured), with notes that say what was changed and which fonts were
//! embedded.

mod seen;

use pdfium_render::prelude::Pdfium;
use quire_proto::v1::{PdfaLevel, PdfaOptions};
use quire_toolbox::pdfa::{self, Converted, Level};

use super::{Done, Work, failure, note};
use crate::workers::protocol::{Failure, FailureKind};

pub fn run(
    work: &Work,
    PdfaOptions { level }: PdfaOptions,
    pdfium: &Pdfium,
) -> Result<Done, Failure> {
    let (level, name) = match PdfaLevel::try_from(level) {
        Ok(PdfaLevel::A1b) => (Level::A1b, "PDF/A-1b"),
        Ok(PdfaLevel::A3b) => (Level::A3b, "PDF/A-3b"),
        _ => (Level::A2b, "PDF/A-2b"),
    };
    let suffix = format!("-{}.pdf", name.to_lowercase().replace('/', ""));
    let (path, file_name) = work.output(&suffix);
    let converted = pdfa::convert(work.first(), level, &path).map_err(failure)?;
    let (
        Converted {
            pages,
            fonts_embedded,
            changes,
            ..
        },
        pictured,
    ) = seen::keep(work, level, &path, converted, pdfium)?;
    // The engine checked its output already; checking the file as written here keeps the
    // promise even if the engine's own check were skipped.
    let verdict = pdfa::validate(&path, level).map_err(failure)?;
    if !verdict.passed {
        let _ = std::fs::remove_file(&path);
        return Err(Failure::new(
            FailureKind::CheckFailed,
            format!(
                "this PDF could not be made to conform to {name}: {}",
                verdict.findings.join("; ")
            ),
        ));
    }
    let mut done = Done::file(path, file_name, pages);
    done.notes.push(note(
        "validation",
        format!("conforms to {name}: every check of Quire's validator passed"),
    ));
    for (missing, embedded) in fonts_embedded {
        done.notes.push(note(
            &format!("font {missing}"),
            format!("not embedded in the input: embedded {embedded} instead"),
        ));
    }
    for change in changes {
        done.notes.push(note("changed", change));
    }
    for (page, why) in pictured {
        done.notes.push(note(
            &format!("page {page}"),
            format!(
                "drawn as a picture of the input's page, its words kept as invisible text: {why}"
            ),
        ));
    }
    Ok(done)
}
