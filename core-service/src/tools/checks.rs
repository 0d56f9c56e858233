//! What a tool's options must look like before a worker is asked: the shape only (counts,
//! allowed values). What depends on the document, such as a page past the end, is the
//! worker's to check.

use quire_proto::v1::{
    CropMargins, CropOptions, FillFormOptions, HtmlToPdfOptions, ImagesToPdfOptions,
    MetadataOptions, NUp, OrganizeOptions, Paper, PdfToJpgOptions, PdfaLevel, PdfaOptions,
    ProtectOptions, RemoveBlankOptions, RotateOptions, SignOptions, SignPlacement, SplitOptions,
    ToolOptions, UnlockOptions, WatermarkOptions, crop_options, sign_options, split_options,
    tool_options::Tool,
};

use crate::error::{ApiError, ApiResult};

/// Pages an organized document may hold: far above any real use, far below a runaway list.
const MAX_SLOTS: usize = 10_000;

/// What the result is made of.
pub struct Shape {
    /// The files go back in a ZIP (split), rather than as the one PDF written.
    pub zip: bool,
    /// The slug, for logs and metrics.
    pub slug: &'static str,
}

pub fn check(options: &ToolOptions, files: usize) -> ApiResult<Shape> {
    let Some(tool) = &options.tool else {
        return Err(ApiError::invalid(
            "the options name no tool: set the tool's options message",
        ));
    };
    let (slug, inputs, zip) = match tool {
        Tool::Merge(_) => ("merge", 2..=super::intake::MAX_FILES, false),
        Tool::Split(_) => ("split", 1..=1, true),
        Tool::Rotate(_) => ("rotate", 1..=1, false),
        Tool::Organize(_) => ("organize", 1..=1, false),
        Tool::Protect(_) => ("protect", 1..=1, false),
        Tool::Unlock(_) => ("unlock", 1..=1, false),
        Tool::Metadata(_) => ("metadata", 1..=1, false),
        Tool::Sanitize(_) => ("sanitize", 1..=1, false),
        // The second file, when there is one, is the image to stamp.
        Tool::Watermark(_) => ("watermark", 1..=2, false),
        Tool::PageNumbers(_) => ("page-numbers", 1..=1, false),
        Tool::RemoveBlank(_) => ("remove-blank", 1..=1, false),
        Tool::PdfToJpg(_) => ("pdf-to-jpg", 1..=1, true),
        Tool::Compare(_) => ("compare", 2..=2, true),
        Tool::ImagesToPdf(_) => ("images-to-pdf", 1..=super::intake::MAX_FILES, false),
        Tool::ExtractImages(_) => ("extract-images", 1..=1, true),
        Tool::Flatten(_) => ("flatten", 1..=1, false),
        Tool::Repair(_) => ("repair", 1..=1, false),
        Tool::Crop(_) => ("crop", 1..=1, false),
        Tool::Sign(sign) => {
            let files = sign_files(sign);
            ("sign", files..=files, false)
        }
        Tool::FillForm(_) => ("fill-form", 1..=1, false),
        Tool::OfficeToPdf(_) => ("office-to-pdf", 1..=1, false),
        Tool::HtmlToPdf(_) => ("html-to-pdf", 1..=1, false),
        Tool::Redact(_) => ("redact", 1..=1, false),
        Tool::Pdfa(_) => ("pdfa", 1..=1, false),
    };
    if !inputs.contains(&files) {
        return Err(ApiError::invalid(match slug {
            "merge" => format!("merge takes 2 to {} PDFs, got {files}", inputs.end()),
            "compare" => {
                format!("compare takes two PDFs, the original then the changed one, got {files}")
            }
            "watermark" => {
                format!("watermark takes a PDF, and an image for an image mark; got {files} files")
            }
            "images-to-pdf" => {
                format!(
                    "images to PDF takes 1 to {} images, got {files}",
                    inputs.end()
                )
            }
            "sign" => {
                let (image, certificate) = match tool {
                    Tool::Sign(sign) => (
                        matches!(sign.appearance, Some(sign_options::Appearance::Image(_))),
                        sign.certificate,
                    ),
                    _ => (false, false),
                };
                format!(
                    "sign takes the PDF{}{}; got {files} files",
                    if image {
                        ", then the signature image"
                    } else {
                        ""
                    },
                    if certificate {
                        ", then the certificate (.p12 or .pfx)"
                    } else {
                        ""
                    },
                )
            }
            "office-to-pdf" => format!("office to PDF takes one document, got {files}"),
            "html-to-pdf" => format!(
                "HTML to PDF takes one HTML or Markdown file, or a ZIP of a site; got {files}"
            ),
            _ => format!("{slug} takes one PDF, got {files}"),
        }));
    }
    shape_of(tool)?;
    Ok(Shape { zip, slug })
}

/// Sign's files: the PDF, the signature image when there is one, the certificate when
/// signing digitally.
pub fn sign_files(sign: &SignOptions) -> usize {
    1 + usize::from(matches!(
        sign.appearance,
        Some(sign_options::Appearance::Image(_))
    )) + usize::from(sign.certificate)
}

/// The values each tool's options may take, where no document is needed to tell.
fn shape_of(tool: &Tool) -> ApiResult<()> {
    match tool {
        Tool::Sign(sign) => sign_shape(sign),
        Tool::Redact(redact) => super::redact_shape::redact(redact),
        Tool::Pdfa(PdfaOptions { level }) if PdfaLevel::try_from(*level).is_err() => {
            Err(ApiError::invalid(format!(
                "the PDF/A level is 1b, 2b or 3b, got the value {level}"
            )))
        }
        Tool::FillForm(FillFormOptions { action: None }) => Err(ApiError::invalid(
            "choose list to read the form's fields, or fill with their values",
        )),
        Tool::HtmlToPdf(HtmlToPdfOptions {
            margin_mm, scale, ..
        }) if margin_mm.is_some_and(|m| !(0.0..=50.0).contains(&m))
            || *scale != 0.0 && !(0.1..=2.0).contains(scale) =>
        {
            Err(ApiError::invalid(format!(
                "margins go from 0 to 50 mm and the scale from 0.1 to 2, got {} mm and {scale}",
                margin_mm.unwrap_or_default()
            )))
        }
        Tool::Split(SplitOptions { mode }) => match mode {
            None => Err(ApiError::invalid(
                "choose how to split: page ranges, every N pages, or at each bookmark",
            )),
            Some(split_options::Mode::Ranges(ranges)) if ranges.trim().is_empty() => Err(
                ApiError::invalid("page ranges are empty: write them like 1-3,5,8-"),
            ),
            Some(split_options::Mode::Every(0)) => Err(ApiError::invalid(
                "split every N pages needs N of 1 or more",
            )),
            Some(split_options::Mode::Bookmarks(false)) => Err(ApiError::invalid(
                "bookmarks must be true to split at bookmarks",
            )),
            Some(_) => Ok(()),
        },
        Tool::Rotate(RotateOptions { degrees, pages: _ }) if ![90, 180, 270].contains(degrees) => {
            Err(ApiError::invalid(format!(
                "rotation must be 90, 180 or 270 degrees clockwise, got {degrees}"
            )))
        }
        Tool::Organize(OrganizeOptions { slots }) if slots.is_empty() => Err(ApiError::invalid(
            "the new page order is empty: keep at least one page",
        )),
        Tool::Organize(OrganizeOptions { slots }) if slots.len() > MAX_SLOTS => {
            Err(ApiError::invalid(format!(
                "at most {MAX_SLOTS} pages in the new order, got {}",
                slots.len()
            )))
        }
        Tool::Protect(ProtectOptions {
            user_password,
            owner_password,
            ..
        }) if user_password.is_empty() && owner_password.is_empty() => Err(ApiError::invalid(
            "set a password to open the PDF, or an owner password with restrictions",
        )),
        Tool::Unlock(UnlockOptions { password }) if password.is_empty() => {
            Err(ApiError::invalid("give the PDF's password to remove it"))
        }
        Tool::Metadata(MetadataOptions { action: None }) => Err(ApiError::invalid(
            "choose what to do with the metadata: read, edit or strip",
        )),
        Tool::Crop(CropOptions { mode: None }) => Err(ApiError::invalid(
            "choose how to crop: margins, trim to the content, fit to a paper size, or pages per sheet",
        )),
        Tool::Crop(CropOptions {
            mode: Some(crop_options::Mode::Fit(paper) | crop_options::Mode::NUp(NUp { paper, .. })),
        }) if ![Paper::Unspecified, Paper::A4, Paper::Letter]
            .map(|p| p as i32)
            .contains(paper) =>
        {
            Err(ApiError::invalid("crop fits pages to A4 or Letter paper"))
        }
        Tool::Crop(CropOptions {
            mode: Some(crop_options::Mode::NUp(NUp { per_sheet, .. })),
        }) if ![2, 4].contains(per_sheet) => Err(ApiError::invalid(format!(
            "2 or 4 pages per sheet, got {per_sheet}"
        ))),
        Tool::Crop(CropOptions {
            mode:
                Some(crop_options::Mode::Margins(CropMargins {
                    top,
                    right,
                    bottom,
                    left,
                    ..
                })),
        }) if [top, right, bottom, left]
            .iter()
            .any(|m| !(0.0..=2000.0).contains(*m)) =>
        {
            Err(ApiError::invalid("margins go from 0 to 2000 points"))
        }
        Tool::ImagesToPdf(ImagesToPdfOptions { margin, .. }) if !(0.0..=200.0).contains(margin) => {
            Err(ApiError::invalid(format!(
                "the margin goes from 0 to 200 points, got {margin}"
            )))
        }
        Tool::Watermark(WatermarkOptions { opacity, .. }) if !(0.0..=1.0).contains(opacity) => Err(
            ApiError::invalid(format!("opacity goes from 0 to 1, got {opacity}")),
        ),
        Tool::RemoveBlank(RemoveBlankOptions {
            threshold_percent, ..
        }) if !(0.0..=100.0).contains(threshold_percent) => Err(ApiError::invalid(format!(
            "the blank threshold is a percentage from 0 to 100, got {threshold_percent}"
        ))),
        Tool::PdfToJpg(PdfToJpgOptions { dpi, quality, .. })
            if *dpi != 0 && !(36..=600).contains(dpi) || *quality > 100 =>
        {
            Err(ApiError::invalid(format!(
                "dpi goes from 36 to 600 and quality from 1 to 100, got dpi {dpi} and quality {quality}"
            )))
        }
        _ => Ok(()),
    }
}

fn sign_shape(sign: &SignOptions) -> ApiResult<()> {
    let SignOptions {
        appearance,
        placement,
        certificate,
        certificate_password: _,
        reason,
        location,
        contact,
    } = sign;
    if appearance.is_none() && !certificate {
        return Err(ApiError::invalid(
            "choose a visible signature (an image or a typed name), a certificate, or both",
        ));
    }
    match appearance {
        Some(sign_options::Appearance::Image(false)) => {
            return Err(ApiError::invalid(
                "image must be true to sign with an image",
            ));
        }
        Some(sign_options::Appearance::Text(text)) if text.trim().is_empty() => {
            return Err(ApiError::invalid("type the name to sign with"));
        }
        Some(sign_options::Appearance::Text(text)) if text.chars().count() > 200 => {
            return Err(ApiError::invalid(
                "the typed signature is longer than 200 characters",
            ));
        }
        _ => {}
    }
    if let Some(SignPlacement { x, y, width, .. }) = placement
        && (!(0.0..=1.0).contains(x) || !(0.0..=1.0).contains(y) || !(0.0..=1.0).contains(width))
    {
        return Err(ApiError::invalid(format!(
            "the signature's place is given in shares of the page from 0 to 1, got x {x}, y {y}, width {width}"
        )));
    }
    if [reason, location, contact]
        .iter()
        .any(|t| t.chars().count() > 500)
    {
        return Err(ApiError::invalid(
            "reason, location and contact take at most 500 characters each",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_proto::v1::{MergeOptions, PageSlot, page_slot};

    fn options(tool: Tool) -> ToolOptions {
        ToolOptions { tool: Some(tool) }
    }

    #[test]
    fn counts_and_values_are_checked() {
        assert!(check(&ToolOptions::default(), 1).is_err());
        assert!(check(&options(Tool::Merge(MergeOptions {})), 1).is_err());
        assert!(check(&options(Tool::Merge(MergeOptions {})), 2).is_ok());
        let rotate = |degrees| {
            options(Tool::Rotate(RotateOptions {
                degrees,
                pages: String::new(),
            }))
        };
        assert!(check(&rotate(90), 1).is_ok());
        assert!(check(&rotate(45), 1).is_err());
        assert!(check(&rotate(90), 2).is_err());
        let split = |mode| options(Tool::Split(SplitOptions { mode: Some(mode) }));
        assert!(check(&split(split_options::Mode::Every(0)), 1).is_err());
        assert!(check(&split(split_options::Mode::Ranges(" ".into())), 1).is_err());
        assert!(check(&split(split_options::Mode::Every(2)), 1).unwrap().zip);
        let organize = |slots| options(Tool::Organize(OrganizeOptions { slots }));
        assert!(check(&organize(vec![]), 1).is_err());
        let page = PageSlot {
            slot: Some(page_slot::Slot::Page(1)),
        };
        assert!(!check(&organize(vec![page]), 1).unwrap().zip);
    }
}
