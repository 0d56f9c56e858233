//! Inside a worker: one toolbox tool over the staged inputs, on the toolbox crate. The core has
//! checked the options' shape; what depends on the document (a page past the end, a PDF
//! without bookmarks) is checked here and comes back as a bad-options failure.

use std::path::{Path, PathBuf};

use quire_proto::v1::{
    MergeOptions, OrganizeOptions, PageSlot, RotateOptions, SplitOptions, page_slot, split_options,
    tool_options,
};
use quire_toolbox::{self as toolbox, Slot, SplitMode, ToolError};

use super::protocol::{Answer, Failure, FailureKind, Tool, ToolFile, Tooled};

pub fn run(
    Tool {
        inputs,
        titles,
        output_dir,
        stem,
        options,
    }: Tool,
) -> Result<Answer, Failure> {
    let tool = options
        .and_then(|o| o.tool)
        .ok_or_else(|| Failure::new(FailureKind::Engine, "no tool in the job"))?;
    let dir = PathBuf::from(output_dir);
    let single = |name: &str| dir.join(name);
    let [first, ..] = inputs.as_slice() else {
        return Err(Failure::new(FailureKind::Engine, "no input in the job"));
    };
    let first = Path::new(first);
    let files = match tool {
        tool_options::Tool::Merge(MergeOptions {}) => {
            let name = format!("{stem}-merged.pdf");
            let paths: Vec<&Path> = inputs.iter().map(Path::new).collect();
            let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
            let written = toolbox::merge(&paths, &titles, &single(&name)).map_err(failure)?;
            vec![one(&dir, name, written.pages)]
        }
        tool_options::Tool::Split(SplitOptions { mode }) => {
            let mode = match mode {
                Some(split_options::Mode::Ranges(ranges)) => SplitMode::Ranges(ranges),
                Some(split_options::Mode::Every(n)) => SplitMode::Every(n),
                Some(split_options::Mode::Bookmarks(_)) => SplitMode::Bookmarks,
                None => return Err(Failure::new(FailureKind::BadOptions, "no split mode")),
            };
            toolbox::split(first, &mode, &stem, &dir)
                .map_err(failure)?
                .into_iter()
                .map(|part| ToolFile {
                    path: part.path.to_string_lossy().into_owned(),
                    name: part.name,
                    pages: part.pages.len() as u32,
                })
                .collect()
        }
        tool_options::Tool::Rotate(RotateOptions { degrees, pages }) => {
            let name = format!("{stem}-rotated.pdf");
            let pages = Some(pages.as_str()).filter(|p| !p.trim().is_empty());
            let written =
                toolbox::rotate(first, degrees, pages, &single(&name)).map_err(failure)?;
            vec![one(&dir, name, written.pages)]
        }
        tool_options::Tool::Organize(OrganizeOptions { slots }) => {
            let name = format!("{stem}-organized.pdf");
            let slots: Vec<Slot> = slots
                .into_iter()
                .map(|PageSlot { slot }| match slot {
                    Some(page_slot::Slot::Page(n)) => Ok(Slot::Page(n)),
                    Some(page_slot::Slot::Blank(_)) => Ok(Slot::Blank),
                    None => Err(Failure::new(FailureKind::BadOptions, "an empty page slot")),
                })
                .collect::<Result<_, _>>()?;
            let written = toolbox::organize(first, &slots, &single(&name)).map_err(failure)?;
            vec![one(&dir, name, written.pages)]
        }
    };
    Ok(Answer::Tooled(Tooled { files }))
}

fn one(dir: &Path, name: String, pages: u32) -> ToolFile {
    ToolFile {
        path: dir.join(&name).to_string_lossy().into_owned(),
        name,
        pages,
    }
}

fn failure(err: ToolError) -> Failure {
    let kind = match err {
        ToolError::InvalidFile(_) => FailureKind::InvalidFile,
        ToolError::Encrypted => FailureKind::Encrypted,
        ToolError::BadOptions(_) => FailureKind::BadOptions,
        ToolError::Io(_) => FailureKind::Engine,
    };
    Failure::new(kind, err.to_string())
}
