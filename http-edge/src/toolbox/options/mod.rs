//! The toolbox forms' fields as each tool's typed options. Only the shape is read here; the
//! core checks the values and the worker checks them against the document.

mod documents;
mod fields;
mod redaction;

use quire_proto::v1::{
    CompareOptions, CropAuto, CropMargins, CropOptions, ExtractImagesOptions, FlattenOptions,
    HtmlToPdfOptions, ImagesOrientation, ImagesPageSize, ImagesToPdfOptions, MergeOptions,
    MetadataEdit, MetadataOptions, NUp, OfficeToPdfOptions, OrganizeOptions, PageImageFormat,
    PageNumbersOptions, PageSlot, Paper, PdfToJpgOptions, ProtectOptions, RemoveBlankOptions,
    RepairOptions, RotateOptions, SanitizeOptions, SplitOptions, ToolOptions, UnlockOptions,
    WatermarkOptions, crop_options, metadata_options::Action, page_slot, split_options,
    tool_options::Tool,
};

use crate::{multipart::Fields, problem::Problem};
use fields::{Form, invalid};

/// The tools served at `/tools/{slug}/run`, with the fields each form may carry.
pub fn fields(slug: &str) -> Option<&'static [&'static str]> {
    Some(match slug {
        "merge" | "compare" => &[],
        "split" => &["mode", "ranges", "every"],
        "rotate" => &["degrees", "pages"],
        "organize" => &["order"],
        "protect" => &[
            "userPassword",
            "ownerPassword",
            "allowPrint",
            "allowCopy",
            "allowModify",
        ],
        "unlock" => &["password"],
        "metadata" => &[
            "action", "title", "author", "subject", "keywords", "creator", "producer",
        ],
        "sanitize" => &[
            "keepJavascript",
            "keepEmbeddedFiles",
            "keepLinks",
            "keepMetadata",
            "keepHiddenLayers",
        ],
        "watermark" => &[
            "text",
            "fontSize",
            "color",
            "opacity",
            "rotation",
            "position",
            "pages",
            "behind",
            "imageWidth",
        ],
        "page-numbers" => &[
            "format",
            "position",
            "firstPage",
            "start",
            "fontSize",
            "margin",
            "color",
        ],
        "remove-blank" => &["threshold", "preview"],
        "pdf-to-jpg" => &["dpi", "quality", "format"],
        "images-to-pdf" => &["pageSize", "orientation", "margin"],
        "extract-images" => &["minSide", "includeMasks"],
        "flatten" => &["keepFields", "keepAnnotations"],
        "repair" => &[],
        "crop" => &[
            "mode", "top", "right", "bottom", "left", "pages", "padding", "paper", "perSheet",
        ],
        "sign" => &[
            "appearance",
            "text",
            "page",
            "x",
            "y",
            "width",
            "certificate",
            "certificatePassword",
            "reason",
            "location",
            "contact",
        ],
        "fill-form" => &["action", "values", "flatten"],
        "office-to-pdf" => &[],
        "html-to-pdf" => &["paper", "landscape", "margin", "background", "scale"],
        "redact" => redaction::REDACT_FIELDS,
        "pdfa" => &["level"],
        _ => return None,
    })
}

pub fn options(slug: &str, fields: &Fields) -> Result<ToolOptions, Problem> {
    let form = Form(fields);
    let tool = match slug {
        "merge" => Tool::Merge(MergeOptions {}),
        "split" => Tool::Split(SplitOptions {
            mode: Some(match form.text("mode").as_str() {
                "" | "ranges" => split_options::Mode::Ranges(form.text("ranges")),
                "every" => split_options::Mode::Every(form.number("every")?),
                "bookmarks" => split_options::Mode::Bookmarks(true),
                other => {
                    return Err(invalid(format!(
                        "mode must be ranges, every or bookmarks, got {other:?}"
                    )));
                }
            }),
        }),
        "rotate" => Tool::Rotate(RotateOptions {
            degrees: match form.number("degrees")? {
                0 => 90,
                degrees => i32::try_from(degrees).unwrap_or(i32::MAX),
            },
            pages: form.text("pages"),
        }),
        "organize" => Tool::Organize(OrganizeOptions {
            slots: order(&form.text("order"))?,
        }),
        "protect" => Tool::Protect(ProtectOptions {
            user_password: form.raw("userPassword"),
            owner_password: form.raw("ownerPassword"),
            allow_print: form.flag("allowPrint"),
            allow_copy: form.flag("allowCopy"),
            allow_modify: form.flag("allowModify"),
        }),
        "unlock" => Tool::Unlock(UnlockOptions {
            password: form.raw("password"),
        }),
        "metadata" => Tool::Metadata(MetadataOptions {
            action: Some(match form.text("action").as_str() {
                "" | "read" => Action::Read(true),
                "strip" => Action::Strip(true),
                "edit" => Action::Edit(MetadataEdit {
                    title: form.present("title"),
                    author: form.present("author"),
                    subject: form.present("subject"),
                    keywords: form.present("keywords"),
                    creator: form.present("creator"),
                    producer: form.present("producer"),
                }),
                other => {
                    return Err(invalid(format!(
                        "action must be read, edit or strip, got {other:?}"
                    )));
                }
            }),
        }),
        "sanitize" => Tool::Sanitize(SanitizeOptions {
            keep_javascript: form.flag("keepJavascript"),
            keep_embedded_files: form.flag("keepEmbeddedFiles"),
            keep_links: form.flag("keepLinks"),
            keep_metadata: form.flag("keepMetadata"),
            keep_hidden_layers: form.flag("keepHiddenLayers"),
        }),
        "watermark" => Tool::Watermark(WatermarkOptions {
            text: form.text("text"),
            font_size: form.decimal("fontSize")?,
            color: form.text("color"),
            opacity: form.decimal("opacity")?,
            rotation: form.decimal("rotation")?,
            position: form.position("position")?,
            pages: form.text("pages"),
            behind: form.flag("behind"),
            image_width: form.decimal("imageWidth")?,
        }),
        "page-numbers" => Tool::PageNumbers(PageNumbersOptions {
            format: form.text("format"),
            position: form.position("position")?,
            first_page: form.number("firstPage")?,
            start: form.number("start")?,
            font_size: form.decimal("fontSize")?,
            margin: form.decimal("margin")?,
            color: form.text("color"),
        }),
        "remove-blank" => Tool::RemoveBlank(RemoveBlankOptions {
            threshold_percent: form.decimal("threshold")?,
            preview: form.flag("preview"),
        }),
        "pdf-to-jpg" => Tool::PdfToJpg(PdfToJpgOptions {
            dpi: form.number("dpi")?,
            quality: form.number("quality")?,
            format: match form.text("format").as_str() {
                "" | "jpeg" | "jpg" => PageImageFormat::Jpeg,
                "webp" => PageImageFormat::Webp,
                other => {
                    return Err(invalid(format!(
                        "format must be jpeg or webp, got {other:?}"
                    )));
                }
            } as i32,
        }),
        "compare" => Tool::Compare(CompareOptions {}),
        "images-to-pdf" => Tool::ImagesToPdf(ImagesToPdfOptions {
            page_size: match form.text("pageSize").as_str() {
                "" | "a4" => ImagesPageSize::A4,
                "letter" => ImagesPageSize::Letter,
                "fit" => ImagesPageSize::Fit,
                other => {
                    return Err(invalid(format!(
                        "pageSize must be a4, letter or fit, got {other:?}"
                    )));
                }
            } as i32,
            orientation: match form.text("orientation").as_str() {
                "" | "auto" => ImagesOrientation::Unspecified,
                "portrait" => ImagesOrientation::Portrait,
                "landscape" => ImagesOrientation::Landscape,
                other => {
                    return Err(invalid(format!(
                        "orientation must be auto, portrait or landscape, got {other:?}"
                    )));
                }
            } as i32,
            margin: form.decimal("margin")?,
        }),
        "flatten" => Tool::Flatten(FlattenOptions {
            keep_fields: form.flag("keepFields"),
            keep_annotations: form.flag("keepAnnotations"),
        }),
        "repair" => Tool::Repair(RepairOptions {}),
        "crop" => Tool::Crop(CropOptions {
            mode: Some(crop_mode(&form)?),
        }),
        "extract-images" => Tool::ExtractImages(ExtractImagesOptions {
            min_side: form.number("minSide")?,
            include_masks: form.flag("includeMasks"),
        }),
        "sign" => Tool::Sign(documents::sign(&form)?),
        "fill-form" => Tool::FillForm(documents::fill_form(&form)?),
        "office-to-pdf" => Tool::OfficeToPdf(OfficeToPdfOptions {}),
        "html-to-pdf" => Tool::HtmlToPdf(HtmlToPdfOptions {
            paper: paper(&form, &["a4", "letter", "legal", "a3", "a5"])?,
            landscape: form.flag("landscape"),
            margin_mm: match form.text("margin").as_str() {
                "" => None,
                _ => Some(form.decimal("margin")?),
            },
            background: form.flag("background"),
            scale: form.decimal("scale")?,
        }),
        "redact" => Tool::Redact(redaction::redact(&form)?),
        "pdfa" => Tool::Pdfa(redaction::pdfa(&form)?),
        _ => {
            return Err(Problem::new(
                quire_proto::ErrorCode::NotFound,
                "no such tool",
            ));
        }
    };
    Ok(ToolOptions { tool: Some(tool) })
}

/// The `paper` field, one of `allowed` (A4 when blank).
fn paper(form: &Form, allowed: &[&str]) -> Result<i32, Problem> {
    let name = form.text("paper");
    let paper = match name.as_str() {
        "" | "a4" => Paper::A4,
        "letter" => Paper::Letter,
        "legal" => Paper::Legal,
        "a3" => Paper::A3,
        "a5" => Paper::A5,
        _ => Paper::Unspecified,
    };
    if paper == Paper::Unspecified || !(name.is_empty() || allowed.contains(&name.as_str())) {
        return Err(invalid(format!(
            "paper must be {}, got {name:?}",
            allowed.join(", ")
        )));
    }
    Ok(paper as i32)
}

fn crop_mode(form: &Form) -> Result<crop_options::Mode, Problem> {
    let paper = paper(form, &["a4", "letter"])?;
    Ok(match form.text("mode").as_str() {
        "" | "margins" => crop_options::Mode::Margins(CropMargins {
            top: form.decimal("top")?,
            right: form.decimal("right")?,
            bottom: form.decimal("bottom")?,
            left: form.decimal("left")?,
            pages: form.text("pages"),
        }),
        "auto" => crop_options::Mode::Auto(CropAuto {
            padding: form.decimal("padding")?,
        }),
        "fit" => crop_options::Mode::Fit(paper),
        "n-up" => crop_options::Mode::NUp(NUp {
            per_sheet: match form.number("perSheet")? {
                0 => 2,
                n => n,
            },
            paper,
        }),
        other => {
            return Err(invalid(format!(
                "mode must be margins, auto, fit or n-up, got {other:?}"
            )));
        }
    })
}

/// "3, 1,blank,1": page numbers and blank pages, in order.
fn order(spec: &str) -> Result<Vec<PageSlot>, Problem> {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let slot = match item {
                "blank" => page_slot::Slot::Blank(true),
                page => page_slot::Slot::Page(page.parse().map_err(|_| {
                    invalid(format!(
                        "order takes page numbers and `blank`, separated by commas; got {page:?}"
                    ))
                })?),
            };
            Ok(PageSlot { slot: Some(slot) })
        })
        .collect()
}

#[cfg(test)]
mod tests;
