//! Tools between images and PDFs: images to PDF, extract images.

use std::path::Path;

use quire_proto::v1::{
    ExtractImagesOptions, ImagesOrientation, ImagesPageSize, ImagesToPdfOptions, ToolNote,
    tool_options::Tool as Options,
};
use quire_toolbox::{
    extract_images::{self, Extracted, Skipped},
    images_to_pdf::{self, Layout, Orientation, PageSize},
};

use super::{Done, Work, failure};
use crate::workers::protocol::{Failure, FailureKind, ToolFile};

/// Images smaller than this on both sides are icons or spacers, not what a user extracts.
const MIN_SIDE: u32 = 16;

pub fn run(work: &Work, options: Options) -> Result<Done, Failure> {
    match options {
        Options::ImagesToPdf(ImagesToPdfOptions {
            page_size,
            orientation,
            margin,
        }) => {
            let layout = Layout {
                size: match ImagesPageSize::try_from(page_size) {
                    Ok(ImagesPageSize::Fit) => PageSize::Fit,
                    Ok(ImagesPageSize::Letter) => PageSize::Letter,
                    _ => PageSize::A4,
                },
                orientation: match ImagesOrientation::try_from(orientation) {
                    Ok(ImagesOrientation::Portrait) => Orientation::Portrait,
                    Ok(ImagesOrientation::Landscape) => Orientation::Landscape,
                    _ => Orientation::Auto,
                },
                margin,
            };
            let (path, name) = work.output(".pdf");
            let inputs: Vec<&Path> = work.inputs.iter().map(|p| p.as_path()).collect();
            let written = images_to_pdf::images_to_pdf(&inputs, layout, work.max_pixels, &path)
                .map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        Options::ExtractImages(ExtractImagesOptions {
            min_side,
            include_masks,
        }) => {
            let min_side = if min_side == 0 { MIN_SIDE } else { min_side };
            let (images, skipped) = extract_images::extract_images(
                work.first(),
                &work.stem,
                &work.dir,
                min_side,
                include_masks,
                work.max_pixels,
            )
            .map_err(failure)?;
            if images.is_empty() {
                return Err(Failure::new(
                    FailureKind::BadOptions,
                    format!(
                        "this PDF holds no image of at least {min_side} pixels that can be \
                         extracted ({})",
                        describe(&skipped)
                    ),
                ));
            }
            Ok(Done {
                files: images
                    .into_iter()
                    .map(|Extracted { name, path, .. }| ToolFile {
                        path: path.to_string_lossy().into_owned(),
                        name,
                        pages: 0,
                    })
                    .collect(),
                notes: vec![ToolNote {
                    key: "left out".to_owned(),
                    value: describe(&skipped),
                }],
            })
        }
        _ => Err(Failure::new(FailureKind::Engine, "not an image tool")),
    }
}

fn describe(
    Skipped {
        undecodable,
        small,
        too_large,
        duplicates,
    }: &Skipped,
) -> String {
    format!(
        "{duplicates} duplicates, {small} too small, {too_large} too large, {undecodable} in a \
         format kept as is (CCITT, JBIG2)"
    )
}
