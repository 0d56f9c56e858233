//! Where a binary answer goes: stdout for `-`, otherwise a file that appears only once the
//! whole answer is in (written beside it under a temporary name, then renamed), so a cut-off
//! download never leaves something that looks like a finished PDF or ZIP. Writing over the
//! input (`quire compress a.pdf -o a.pdf`) is safe for the same reason.

use std::path::{Path, PathBuf};

use futures::StreamExt;
use tokio::io::{AsyncWrite, AsyncWriteExt};

use crate::{error::CliError, input::is_stdio, progress};

/// Streams the body of `response` to `to`; returns the bytes written.
pub async fn save(
    response: reqwest::Response,
    to: &Path,
    expected_len: Option<u64>,
    bars: bool,
) -> Result<u64, CliError> {
    let mut bar = progress::Download::new(expected_len, bars, "downloading");
    let written = if is_stdio(to) {
        let mut stdout = tokio::io::stdout();
        copy(response, &mut stdout, &mut bar, Path::new("stdout")).await?
    } else {
        let tmp = temporary_beside(to)?;
        let file = tmp.as_file().try_clone().map_err(CliError::output(to))?;
        let mut file = tokio::fs::File::from_std(file);
        let written = copy(response, &mut file, &mut bar, to).await?;
        drop(file);
        tmp.persist(to).map_err(|e| CliError::Output {
            path: to.to_owned(),
            source: e.error,
        })?;
        written
    };
    bar.finish();
    Ok(written)
}

async fn copy(
    response: reqwest::Response,
    out: &mut (impl AsyncWrite + Unpin),
    bar: &mut progress::Download,
    shown: &Path,
) -> Result<u64, CliError> {
    let mut body = response.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|source| CliError::Interrupted { source })?;
        out.write_all(&chunk)
            .await
            .map_err(CliError::output(shown))?;
        bar.advance(chunk.len() as u64);
    }
    out.flush().await.map_err(CliError::output(shown))?;
    Ok(bar.received())
}

/// A temporary file in the output's directory (a rename never crosses file systems), created
/// with the permissions `File::create` would give (0666 less the umask), not tempfile's 0600.
fn temporary_beside(to: &Path) -> Result<tempfile::NamedTempFile, CliError> {
    let dir = match to.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".quire-").suffix(".part");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(&dir).map_err(CliError::output(to))
}
