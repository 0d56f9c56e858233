//! The file a command sends. It is opened once and read again from the start for each
//! attempt, so a retry sends the same bytes; stdin and pipes, which cannot be read twice, are
//! first copied to an unnamed temporary file (deleted by the system when the client exits).

use std::{
    fs::File,
    io::{self, SeekFrom},
    path::{Path, PathBuf},
};

use futures::TryStreamExt;
use indicatif::ProgressBar;
use tokio::io::{AsyncReadExt, AsyncSeekExt};
use tokio_util::io::ReaderStream;

use crate::error::CliError;

/// Read size: large enough that a GiB is a few thousand reads.
const CHUNK: usize = 256 * 1024;

/// `-` on the command line.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

#[derive(Debug)]
pub struct Input {
    file: File,
    /// The name the server is told.
    pub name: String,
    pub len: u64,
    /// The path as given, for messages.
    pub shown: PathBuf,
}

impl Input {
    /// Opens `path`, or spools stdin for `-`.
    pub async fn open(path: &Path, name: Option<String>) -> Result<Input, CliError> {
        let owned = path.to_owned();
        let shown = if is_stdio(path) {
            PathBuf::from("stdin")
        } else {
            owned.clone()
        };
        let file = tokio::task::spawn_blocking(move || open_rereadable(&owned))
            .await
            .map_err(|e| CliError::Unexpected(format!("reading the input stopped: {e}")))?
            .map_err(CliError::input(&shown))?;
        let len = file.metadata().map_err(CliError::input(&shown))?.len();
        let name = name.unwrap_or_else(|| match path.file_name() {
            Some(file_name) if !is_stdio(path) => file_name.to_string_lossy().into_owned(),
            _ => "stdin".to_owned(),
        });
        Ok(Input {
            file,
            name,
            len,
            shown,
        })
    }

    /// The whole file as a request body, from its first byte; `progress` counts what is sent.
    pub async fn body(&self, progress: Option<ProgressBar>) -> Result<reqwest::Body, CliError> {
        let mut file = tokio::fs::File::from_std(
            self.file
                .try_clone()
                .map_err(CliError::input(&self.shown))?,
        );
        file.seek(SeekFrom::Start(0))
            .await
            .map_err(CliError::input(&self.shown))?;
        if let Some(bar) = &progress {
            bar.set_position(0);
        }
        // Never more than the length announced in the multipart part, should the file grow.
        let stream =
            ReaderStream::with_capacity(file.take(self.len), CHUNK).inspect_ok(move |chunk| {
                if let Some(bar) = &progress {
                    bar.inc(chunk.len() as u64);
                }
            });
        Ok(reqwest::Body::wrap_stream(stream))
    }

    /// The whole file as text (a support log); bytes that are not UTF-8 become U+FFFD.
    pub async fn text(&self) -> Result<String, CliError> {
        let mut file = tokio::fs::File::from_std(
            self.file
                .try_clone()
                .map_err(CliError::input(&self.shown))?,
        );
        file.seek(SeekFrom::Start(0))
            .await
            .map_err(CliError::input(&self.shown))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .await
            .map_err(CliError::input(&self.shown))?;
        Ok(String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }
}

/// A regular file as it is; stdin, a pipe or a socket copied into a temporary file.
fn open_rereadable(path: &Path) -> io::Result<File> {
    if !is_stdio(path) {
        let file = File::open(path)?;
        if file.metadata()?.is_file() {
            return Ok(file);
        }
        return spool(file);
    }
    spool(io::stdin().lock())
}

fn spool(mut from: impl io::Read) -> io::Result<File> {
    let mut spooled = tempfile::tempfile()?;
    io::copy(&mut from, &mut spooled)?;
    Ok(spooled)
}
