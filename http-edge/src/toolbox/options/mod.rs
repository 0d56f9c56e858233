//! The toolbox forms' fields as each tool's typed options. Only the shape is read here; the
//! core checks the values and the worker checks them against the document.

mod fields;

use quire_proto::v1::{
    CompareOptions, CropAuto, CropMargins, CropOptions, ExtractImagesOptions, FlattenOptions,
    ImagesOrientation, ImagesPageSize, ImagesToPdfOptions, MergeOptions, MetadataEdit,
    MetadataOptions, NUp, OrganizeOptions, PageImageFormat, PageNumbersOptions, PageSlot, Paper,
    PdfToJpgOptions, ProtectOptions, RemoveBlankOptions, RepairOptions, RotateOptions,
    SanitizeOptions, SplitOptions, ToolOptions, UnlockOptions, WatermarkOptions, crop_options,
    metadata_options::Action, page_slot, split_options, tool_options::Tool,
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
        _ => {
            return Err(Problem::new(
                quire_proto::ErrorCode::NotFound,
                "no such tool",
            ));
        }
    };
    Ok(ToolOptions { tool: Some(tool) })
}

fn crop_mode(form: &Form) -> Result<crop_options::Mode, Problem> {
    let paper = match form.text("paper").as_str() {
        "" | "a4" => Paper::A4,
        "letter" => Paper::Letter,
        other => {
            return Err(invalid(format!(
                "paper must be a4 or letter, got {other:?}"
            )));
        }
    } as i32;
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
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> Fields {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn fields_become_typed_options() {
        let organize = options("organize", &form(&[("order", "3, 1,blank,1")])).unwrap();
        let Some(Tool::Organize(OrganizeOptions { slots })) = organize.tool else {
            panic!("not organize")
        };
        assert_eq!(slots.len(), 4);
        assert_eq!(slots[2].slot, Some(page_slot::Slot::Blank(true)));
        assert!(options("organize", &form(&[("order", "1,x")])).is_err());
        let split = options("split", &form(&[("mode", "every"), ("every", "2")])).unwrap();
        assert_eq!(
            split.tool,
            Some(Tool::Split(SplitOptions {
                mode: Some(split_options::Mode::Every(2))
            }))
        );
        assert!(options("split", &form(&[("mode", "sideways")])).is_err());
        assert!(options("rotate", &form(&[("degrees", "ninety")])).is_err());
        assert!(fields("nope").is_none());
    }

    #[test]
    fn every_listed_tool_builds_its_options_from_an_empty_form() {
        for slug in [
            "merge",
            "split",
            "rotate",
            "organize",
            "protect",
            "unlock",
            "metadata",
            "sanitize",
            "watermark",
            "page-numbers",
            "remove-blank",
            "pdf-to-jpg",
            "compare",
            "images-to-pdf",
            "extract-images",
            "flatten",
            "repair",
            "crop",
        ] {
            assert!(fields(slug).is_some(), "{slug}");
            assert!(options(slug, &Fields::new()).is_ok(), "{slug}");
        }
    }

    #[test]
    fn checkboxes_numbers_and_positions() {
        let protect = options(
            "protect",
            &form(&[("userPassword", " secret "), ("allowPrint", "on")]),
        )
        .unwrap();
        let Some(Tool::Protect(p)) = protect.tool else {
            panic!("not protect")
        };
        assert_eq!(p.user_password, " secret ", "passwords are taken as typed");
        assert!(p.allow_print && !p.allow_copy);
        let mark = options(
            "watermark",
            &form(&[("opacity", "0,5"), ("position", "tiled")]),
        )
        .unwrap();
        let Some(Tool::Watermark(w)) = mark.tool else {
            panic!("not watermark")
        };
        assert_eq!(w.opacity, 0.5);
        assert_eq!(w.position, quire_proto::v1::StampPosition::Tiled as i32);
        assert!(options("watermark", &form(&[("position", "upside-down")])).is_err());
        assert!(options("pdf-to-jpg", &form(&[("format", "gif")])).is_err());
        let edit = options("metadata", &form(&[("action", "edit"), ("title", "")])).unwrap();
        let Some(Tool::Metadata(MetadataOptions {
            action: Some(Action::Edit(edit)),
        })) = edit.tool
        else {
            panic!("not an edit")
        };
        assert_eq!(
            edit.title.as_deref(),
            Some(""),
            "a blank field sent removes the entry"
        );
        assert_eq!(edit.author, None, "a field not sent keeps the entry");
    }
}
