//! Tools that read pages as PDFium draws them: remove blank pages, pages to JPEG or WebP,
//! compare two PDFs, and repair (PDFium reads what a damaged file still holds).

use pdfium_render::prelude::Pdfium;
use quire_proto::v1::{
    CompareOptions, PageImageFormat, PdfToJpgOptions, RemoveBlankOptions, RepairOptions, ToolNote,
    tool_options::Tool as Options,
};
use quire_toolbox::{self as toolbox, Slot};
use serde_json::json;

use super::{Done, Work, failure, json_file};
use crate::{
    pdf::tools::{self as rendered, ImageFormat},
    workers::protocol::{Failure, FailureKind},
};

/// Default share of a page, in percent, that ink must cover for the page not to be blank:
/// a page number or a scanner's speck stays under it, one line of text does not.
const BLANK_PERCENT: f32 = 0.1;
/// Resolution of compare's side-by-side images.
const COMPARE_DPI: u32 = 72;

pub fn run(work: &Work, options: Options, pdfium: &Pdfium) -> Result<Done, Failure> {
    let first = work.first().to_string_lossy().into_owned();
    match options {
        Options::RemoveBlank(RemoveBlankOptions {
            threshold_percent,
            preview,
        }) => {
            let threshold = if threshold_percent > 0.0 {
                threshold_percent
            } else {
                BLANK_PERCENT
            };
            let ink = rendered::ink(pdfium, &first, work.max_pixels)?;
            let blank: Vec<u32> = pages_where(&ink, |share| share * 100.0 < threshold);
            if preview {
                let pages: Vec<_> = ink
                    .iter()
                    .enumerate()
                    .map(|(i, share)| json!({"page": i + 1, "inkPercent": share * 100.0}))
                    .collect();
                return json_file(
                    work,
                    "-ink.json",
                    &json!({"thresholdPercent": threshold, "pages": pages, "blank": blank}),
                );
            }
            let keep: Vec<Slot> = pages_where(&ink, |share| share * 100.0 >= threshold)
                .into_iter()
                .map(Slot::Page)
                .collect();
            if keep.is_empty() {
                return Err(Failure::new(
                    FailureKind::BadOptions,
                    "every page is blank at this threshold: lower it to keep some",
                ));
            }
            let (path, name) = work.output("-no-blank.pdf");
            let written = toolbox::organize(work.first(), &keep, &path).map_err(failure)?;
            let mut done = Done::file(path, name, written.pages);
            done.notes = vec![ToolNote {
                key: "removed pages".to_owned(),
                value: blank
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            }];
            Ok(done)
        }
        Options::PdfToJpg(PdfToJpgOptions {
            dpi,
            quality,
            format,
        }) => {
            let format = match PageImageFormat::try_from(format) {
                Ok(PageImageFormat::Webp) => ImageFormat::Webp,
                _ => ImageFormat::Jpeg,
            };
            let dpi = if dpi == 0 { 150 } else { dpi };
            let quality = if quality == 0 {
                85
            } else {
                quality.min(255) as u8
            };
            let files = rendered::page_images(
                pdfium,
                &first,
                dpi,
                quality,
                format,
                &work.stem,
                &work.dir,
                work.max_pixels,
            )?;
            Ok(Done {
                files,
                notes: Vec::new(),
            })
        }
        Options::Compare(CompareOptions {}) => {
            let second = work.inputs[1].to_string_lossy().into_owned();
            let files = rendered::compare(
                pdfium,
                &first,
                &second,
                COMPARE_DPI,
                &work.dir,
                work.max_pixels,
            )?;
            Ok(Done {
                files,
                notes: Vec::new(),
            })
        }
        Options::Repair(RepairOptions {}) => {
            let (path, name) = work.output("-repaired.pdf");
            let rendered::Repaired { pages, findings } = rendered::repair(pdfium, &first, &path)?;
            let mut done = Done::file(path, name, pages);
            done.notes = findings
                .into_iter()
                .map(|finding| ToolNote {
                    key: "repair".to_owned(),
                    value: finding,
                })
                .collect();
            Ok(done)
        }
        _ => Err(Failure::new(FailureKind::Engine, "not a rendering tool")),
    }
}

/// 1-based pages whose ink share passes `test`.
fn pages_where(ink: &[f32], test: impl Fn(f32) -> bool) -> Vec<u32> {
    ink.iter()
        .enumerate()
        .filter(|(_, share)| test(**share))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}
