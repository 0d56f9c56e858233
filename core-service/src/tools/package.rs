//! A tool's result as the caller receives it: the one PDF it wrote, or its files in a ZIP. The
//! working directory lives as long as the answer streams, then goes with everything in it.

use std::path::{Path, PathBuf};

use async_zip::{Compression, ZipEntryBuilder, tokio::write::ZipFileWriter};
use quire_proto::v1::ToolSummary;
use tokio::io::AsyncReadExt;

use super::ToolResult;
use crate::{
    error::{ApiError, ApiResult},
    process::{read_stream, unexpected_answer},
    workers::protocol::ToolFile,
};

/// An empty directory under the staging directory, removed with its content on drop.
pub struct WorkDir(PathBuf);

impl WorkDir {
    pub async fn create(staging: &Path) -> ApiResult<WorkDir> {
        let dir = staging.join(format!("tool-{}", uuid::Uuid::new_v4()));
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(|e| ApiError::internal("preparing the tool", e))?;
        Ok(WorkDir(dir))
    }

    pub fn path(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_dir_all(&self.0)
            && err.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(path = %self.0.display(), error = %err, "tool directory not removed");
        }
    }
}

/// The one file the tool wrote.
pub async fn single(workdir: WorkDir, files: Vec<ToolFile>) -> ApiResult<ToolResult> {
    let [file] = <[ToolFile; 1]>::try_from(files).map_err(|_| unexpected_answer())?;
    // A report (metadata, a blank-page preview) is JSON; every other single result a PDF.
    let media_type = match file.name.ends_with(".json") {
        true => "application/json",
        false => "application/pdf",
    };
    let summary = ToolSummary {
        filename: file.name,
        media_type: media_type.to_owned(),
        size: 0,
        page_count: file.pages,
        file_count: 1,
        notes: Vec::new(),
    };
    stream_file(workdir, PathBuf::from(file.path), summary).await
}

/// The tool's files in a ZIP, stored as they are (PDFs are compressed already), in order.
pub async fn zip(workdir: WorkDir, files: Vec<ToolFile>, name: &str) -> ApiResult<ToolResult> {
    let path = workdir.0.join(name);
    let failed = |e: &dyn std::fmt::Display| ApiError::internal("writing the ZIP", e.to_string());
    let out = tokio::fs::File::create(&path)
        .await
        .map_err(|e| failed(&e))?;
    let mut zip = ZipFileWriter::with_tokio(out);
    let mut buffer = Vec::new();
    for file in &files {
        buffer.clear();
        tokio::fs::File::open(&file.path)
            .await
            .map_err(|e| failed(&e))?
            .read_to_end(&mut buffer)
            .await
            .map_err(|e| failed(&e))?;
        let entry = ZipEntryBuilder::new(file.name.clone().into(), Compression::Stored);
        zip.write_entry_whole(entry, &buffer)
            .await
            .map_err(|e| failed(&e))?;
        // The part is in the archive: its disk space can go now.
        let _ = tokio::fs::remove_file(&file.path).await;
    }
    zip.close().await.map_err(|e| failed(&e))?;
    let summary = ToolSummary {
        filename: name.to_owned(),
        media_type: "application/zip".to_owned(),
        size: 0,
        page_count: files.iter().map(|f| f.pages).sum(),
        file_count: files.len() as u32,
        notes: Vec::new(),
    };
    stream_file(workdir, path, summary).await
}

async fn stream_file(
    workdir: WorkDir,
    path: PathBuf,
    mut summary: ToolSummary,
) -> ApiResult<ToolResult> {
    let failed = |e: std::io::Error| ApiError::internal("reading the tool's result", e);
    let file = tokio::fs::File::open(&path).await.map_err(failed)?;
    summary.size = file.metadata().await.map_err(failed)?.len();
    // The directory lives as long as the answer streams.
    let bytes = read_stream(file, workdir, "reading the tool's result");
    Ok(ToolResult {
        summary,
        bytes: Box::pin(bytes),
    })
}
