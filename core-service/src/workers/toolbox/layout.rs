//! Crop and page size: margins off, trimmed to the content (found by PDFium), fitted onto a
//! paper size, several pages per sheet.

use pdfium_render::prelude::Pdfium;
use quire_proto::v1::{
    CropAuto, CropMargins, CropOptions, NUp, Paper, crop_options::Mode,
    tool_options::Tool as Options,
};
use quire_toolbox::layout::{self, Margins, Paper as Sheet};

use super::{Done, Work, failure};
use crate::{
    pdf::tools as rendered,
    workers::protocol::{Failure, FailureKind},
};

/// Points kept around the marks when trimming to the content: a trimmed page should not
/// touch its text.
const PADDING: f32 = 12.0;

pub fn run(work: &Work, options: Options, pdfium: &Pdfium) -> Result<Done, Failure> {
    let Options::Crop(CropOptions { mode }) = options else {
        return Err(Failure::new(FailureKind::Engine, "not a layout tool"));
    };
    let (path, name) = work.output("-cropped.pdf");
    let written = match mode {
        Some(Mode::Margins(CropMargins {
            top,
            right,
            bottom,
            left,
            pages,
        })) => {
            let margins = Margins {
                top,
                right,
                bottom,
                left,
            };
            let pages = Some(pages.as_str()).filter(|p| !p.trim().is_empty());
            layout::crop(work.first(), margins, pages, &path)
        }
        Some(Mode::Auto(CropAuto { padding })) => {
            let padding = if padding > 0.0 { padding } else { PADDING };
            let input = work.first().to_string_lossy();
            let boxes = rendered::content_boxes(pdfium, &input, padding, work.max_pixels)?;
            layout::crop_to_boxes(work.first(), &boxes, &path)
        }
        Some(Mode::Fit(paper)) => layout::fit_to_paper(work.first(), sheet(paper), &path),
        Some(Mode::NUp(NUp { per_sheet, paper })) => {
            layout::n_up(work.first(), per_sheet, sheet(paper), &path)
        }
        None => return Err(Failure::new(FailureKind::BadOptions, "no crop mode")),
    }
    .map_err(failure)?;
    Ok(Done::file(path, name, written.pages))
}

fn sheet(paper: i32) -> Sheet {
    match Paper::try_from(paper) {
        Ok(Paper::Letter) => Sheet::Letter,
        _ => Sheet::A4,
    }
}
