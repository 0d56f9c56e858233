//! Page tools: merge, split, rotate, organize.

use std::path::Path;

use quire_proto::v1::{
    OrganizeOptions, PageSlot, RotateOptions, SplitOptions, page_slot, split_options,
    tool_options::Tool as Options,
};
use quire_toolbox::{self as toolbox, Slot, SplitMode};

use super::{Done, Work, failure};
use crate::workers::protocol::{Failure, FailureKind, ToolFile};

pub fn run(work: &Work, options: Options) -> Result<Done, Failure> {
    match options {
        Options::Merge(_) => {
            let (path, name) = work.output("-merged.pdf");
            let inputs: Vec<&Path> = work.inputs.iter().map(|p| p.as_path()).collect();
            let titles: Vec<&str> = work.titles.iter().map(String::as_str).collect();
            let written = toolbox::merge(&inputs, &titles, &path).map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        Options::Split(SplitOptions { mode }) => {
            let mode = match mode {
                Some(split_options::Mode::Ranges(ranges)) => SplitMode::Ranges(ranges),
                Some(split_options::Mode::Every(n)) => SplitMode::Every(n),
                Some(split_options::Mode::Bookmarks(_)) => SplitMode::Bookmarks,
                None => return Err(Failure::new(FailureKind::BadOptions, "no split mode")),
            };
            let parts =
                toolbox::split(work.first(), &mode, &work.stem, &work.dir).map_err(failure)?;
            Ok(Done {
                files: parts
                    .into_iter()
                    .map(|part| ToolFile {
                        path: part.path.to_string_lossy().into_owned(),
                        name: part.name,
                        pages: part.pages.len() as u32,
                    })
                    .collect(),
                notes: Vec::new(),
            })
        }
        Options::Rotate(RotateOptions { degrees, pages }) => {
            let (path, name) = work.output("-rotated.pdf");
            let pages = Some(pages.as_str()).filter(|p| !p.trim().is_empty());
            let written = toolbox::rotate(work.first(), degrees, pages, &path).map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        Options::Organize(OrganizeOptions { slots }) => {
            let (path, name) = work.output("-organized.pdf");
            let slots: Vec<Slot> = slots
                .into_iter()
                .map(|PageSlot { slot }| match slot {
                    Some(page_slot::Slot::Page(n)) => Ok(Slot::Page(n)),
                    Some(page_slot::Slot::Blank(_)) => Ok(Slot::Blank),
                    None => Err(Failure::new(FailureKind::BadOptions, "an empty page slot")),
                })
                .collect::<Result<_, _>>()?;
            let written = toolbox::organize(work.first(), &slots, &path).map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        _ => Err(Failure::new(FailureKind::Engine, "not a page tool")),
    }
}
