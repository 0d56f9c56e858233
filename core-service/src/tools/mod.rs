//! The web toolbox on the core: inputs staged and scanned (`intake`), the options' shape
//! (`checks`) and the inputs' kinds (`inputs`) checked, the tool run in a worker process with
//! its time and memory limits, and the result, one PDF or a ZIP of several (`package`),
//! streamed back.

mod checks;
mod inputs;
pub mod intake;
mod package;
mod redact_shape;

use quire_proto::v1::{ToolOptions, ToolSummary};

use crate::{
    error::ApiResult,
    process::{ByteStream, Processing, unexpected_answer},
    workers::protocol::{Answer, Job, Task, Tool, Tooled},
};
use intake::{Input, Verdicts};

pub struct ToolResult {
    pub summary: ToolSummary,
    pub bytes: ByteStream,
}

pub async fn run(
    processing: &Processing,
    options: ToolOptions,
    inputs: Vec<Input>,
    verdicts: Verdicts,
) -> ApiResult<ToolResult> {
    let checked = checks::check(&options, inputs.len()).and_then(|shape| {
        inputs::check(&options, &inputs)?;
        Ok(shape)
    });
    let shape = match checked {
        Ok(shape) => shape,
        Err(err) => {
            // A virus is what the user must hear about, even in a file of the wrong kind.
            verdicts.clean().await?;
            return Err(err);
        }
    };
    let workdir = package::WorkDir::create(&processing.staging).await?;
    let stem = stem(&inputs[0].filename);
    let started = std::time::Instant::now();
    let job = processing.run(Job {
        task: Some(Task::Tool(Tool {
            inputs: inputs.iter().map(|i| i.staged.path()).collect(),
            titles: inputs.iter().map(|i| title(&i.filename)).collect(),
            output_dir: workdir.path(),
            stem: stem.clone(),
            options: Some(options),
            max_pixels: processing.max_pixels,
        })),
    });
    // The tool runs while clamd finishes; its result goes back only if every input is clean.
    let (answer, clean) = tokio::join!(job, async {
        let verdicts = verdicts.clean().await;
        (verdicts, started.elapsed())
    });
    let (clean, scanned) = clean;
    tracing::debug!(
        tool = shape.slug,
        scan_ms = scanned.as_millis() as u64,
        total_ms = started.elapsed().as_millis() as u64,
        "tool ran beside the scan"
    );
    clean?;
    let answer = answer?;
    drop(inputs);
    let Answer::Tooled(Tooled { files, notes }) = answer else {
        return Err(unexpected_answer());
    };
    let file_count = files.len();
    let mut result = if shape.zip {
        package::zip(workdir, files, &format!("{stem}-{}.zip", shape.slug)).await?
    } else {
        package::single(workdir, files).await?
    };
    tracing::debug!(
        tool = shape.slug,
        files = file_count,
        total_ms = started.elapsed().as_millis() as u64,
        "tool done"
    );
    result.summary.notes = notes;
    Ok(result)
}

/// The user's file name without its extension, as a title (merge's bookmarks).
fn title(filename: &str) -> String {
    // Bidirectional controls would reorder what the bookmark shows.
    let filename = crate::files::names::visible_text(filename);
    let base = filename.rsplit(['/', '\\']).next().unwrap_or_default();
    // The extension goes (`.pdf`, `.jpeg`, `.tiff`), not a dot inside the name.
    let stem = match base.rsplit_once('.') {
        Some((stem, ext))
            if (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            stem
        }
        _ => base,
    };
    if stem.trim().is_empty() {
        "document".to_owned()
    } else {
        stem.trim().to_owned()
    }
}

/// A name safe in a file system and a ZIP: letters, digits, `-`, `_` and `.`, at most 80
/// characters.
fn stem(filename: &str) -> String {
    let mut out = String::new();
    for c in title(filename).chars() {
        if out.chars().count() == 80 {
            break;
        }
        out.push(match c {
            c if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') => c,
            _ => '-',
        });
    }
    let out = out.trim_matches(['-', '.']).to_owned();
    if out.is_empty() {
        "document".to_owned()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe() {
        assert_eq!(title("C:\\docs\\Rapport annuel.pdf"), "Rapport annuel");
        assert_eq!(stem("Rapport annuel.pdf"), "Rapport-annuel");
        assert_eq!(stem("../../etc/passwd"), "passwd");
        assert_eq!(stem(".pdf"), "document");
        assert_eq!(stem("été 2026.PDF"), "été-2026");
        assert_eq!(stem("IMG_0042.jpeg"), "IMG_0042");
        assert_eq!(title("v1.2 notes"), "v1.2 notes");
    }
}
