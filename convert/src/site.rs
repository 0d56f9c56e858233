//! The upload of html-to-pdf laid out as a site in a fresh folder: a lone HTML file, a Markdown
//! file rendered to HTML, or a ZIP of a page with its images and stylesheets. Chromium is served
//! files from this folder only (see `chromium::intercept`).

use std::fs;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use async_zip::base::read::seek::ZipFileReader;
use futures::AsyncReadExt;
use futures::executor::block_on;
use futures::io::AllowStdIo;

use crate::ConvertError;
use crate::markdown;

/// At most this many entries in an uploaded ZIP.
pub const MAX_ENTRIES: usize = 2000;
/// At most this many bytes in an uploaded ZIP once unpacked.
pub const MAX_UNPACKED: u64 = 200 * 1024 * 1024;

/// What kind of upload `input` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Html,
    Markdown,
    Zip,
}

/// An unpacked upload: the folder served as the document's origin and the page to print in it.
#[derive(Debug)]
pub struct Site {
    pub root: PathBuf,
    /// The page to print, relative to `root`, with `/` between folders.
    pub entry: String,
}

/// Lays out `input` under `work_dir/site` (which must not exist yet).
pub fn unpack(input: &Path, source: Source, work_dir: &Path) -> Result<Site, ConvertError> {
    let root = work_dir.join("site");
    fs::create_dir_all(&root).map_err(|e| engine_io("create the site folder", e))?;
    match source {
        Source::Html => {
            fs::copy(input, root.join("index.html"))
                .map_err(|e| unreadable_io("the HTML file", e))?;
            Ok(Site {
                root,
                entry: "index.html".into(),
            })
        }
        Source::Markdown => {
            let bytes = fs::read(input).map_err(|e| unreadable_io("the Markdown file", e))?;
            let title = input
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let html = markdown::to_html(&String::from_utf8_lossy(&bytes), &title);
            fs::write(root.join("index.html"), html).map_err(|e| engine_io("write the page", e))?;
            Ok(Site {
                root,
                entry: "index.html".into(),
            })
        }
        Source::Zip => {
            let files = unzip(input, &root)?;
            let entry = choose_entry(&root, &files)?;
            Ok(Site { root, entry })
        }
    }
}

/// Unpacks the ZIP into `root`, refusing what could escape it or exhaust the disk; returns the
/// files written (relative, `/`-separated).
fn unzip(input: &Path, root: &Path) -> Result<Vec<String>, ConvertError> {
    let file = fs::File::open(input).map_err(|e| unreadable_io("the ZIP file", e))?;
    block_on(async {
        let mut zip = ZipFileReader::new(AllowStdIo::new(BufReader::new(file)))
            .await
            .map_err(|e| {
                ConvertError::Unreadable(format!(
                    "the upload is not a ZIP file that can be read ({e})"
                ))
            })?;
        let count = zip.file().entries().len();
        if count > MAX_ENTRIES {
            return Err(ConvertError::Unreadable(format!(
                "the ZIP holds {count} entries, more than the {MAX_ENTRIES} allowed; send only the page and the files it uses"
            )));
        }
        let mut written = Vec::new();
        let mut total: u64 = 0;
        for index in 0..count {
            let entry = &zip.file().entries()[index];
            let raw_name = String::from_utf8_lossy(entry.filename().as_bytes()).into_owned();
            let is_dir = entry.dir().unwrap_or(false) || raw_name.ends_with('/');
            if entry
                .unix_permissions()
                .is_some_and(|mode| mode & 0o170000 == 0o120000)
            {
                return Err(ConvertError::Unreadable(format!(
                    "the ZIP entry {raw_name:?} is a symbolic link; pack the file itself instead"
                )));
            }
            let name = safe_name(&raw_name)?;
            if name.is_empty() {
                continue;
            }
            let path = root.join(&name);
            if is_dir {
                fs::create_dir_all(&path)
                    .map_err(|e| engine_io("create a folder of the site", e))?;
                continue;
            }
            let declared = entry.uncompressed_size();
            let expected_crc = entry.crc32();
            if total.saturating_add(declared) > MAX_UNPACKED {
                return Err(too_large());
            }
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)
                    .map_err(|e| engine_io("create a folder of the site", e))?;
            }
            let out = fs::File::create_new(&path).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    ConvertError::Unreadable(format!("the ZIP holds {name:?} twice; keep one copy"))
                } else {
                    engine_io("write a file of the site", e)
                }
            })?;
            let mut reader = zip.reader_without_entry(index).await.map_err(|e| {
                ConvertError::Unreadable(format!("the ZIP entry {name:?} cannot be read ({e})"))
            })?;
            // The sizes in the ZIP are the uploader's word: the bytes are counted as they come.
            let budget = MAX_UNPACKED - total;
            let mut limited = (&mut reader).take(budget + 1);
            let mut sink = AllowStdIo::new(std::io::BufWriter::new(out));
            let copied = futures::io::copy(&mut limited, &mut sink)
                .await
                .map_err(|e| {
                    ConvertError::Unreadable(format!("the ZIP entry {name:?} is damaged ({e})"))
                })?;
            if copied > budget {
                return Err(too_large());
            }
            if reader.compute_hash() != expected_crc {
                return Err(ConvertError::Unreadable(format!(
                    "the ZIP entry {name:?} is damaged (its checksum does not match); pack the site again"
                )));
            }
            sink.into_inner()
                .flush()
                .map_err(|e| engine_io("write a file of the site", e))?;
            total += copied;
            written.push(name);
        }
        Ok(written)
    })
}

fn too_large() -> ConvertError {
    ConvertError::Unreadable(format!(
        "the ZIP unpacks to more than {} MB; send only the page and the files it uses",
        MAX_UNPACKED / (1024 * 1024)
    ))
}

/// The entry's name as a relative path inside the site, or a refusal for names that would
/// land outside it. Backslashes are taken as folder separators (ZIPs made on Windows).
fn safe_name(raw: &str) -> Result<String, ConvertError> {
    let refuse = || {
        ConvertError::Unreadable(format!(
            "the ZIP entry {raw:?} points outside the archive (an absolute path or \"..\"); pack the site with relative paths"
        ))
    };
    let name = raw.replace('\\', "/");
    if name.starts_with('/')
        || name.contains('\0')
        || name
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
    {
        return Err(refuse());
    }
    let mut parts = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(refuse()),
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// The page to print: `index.html` at the top or in the single top folder, else the only HTML
/// file, else the only Markdown file (rendered next to itself so its relative links hold).
fn choose_entry(root: &Path, files: &[String]) -> Result<String, ConvertError> {
    let is_page = |name: &str| {
        let lower = name.to_ascii_lowercase();
        lower.ends_with(".html") || lower.ends_with(".htm") || lower.ends_with(".xhtml")
    };
    let top_folders: std::collections::BTreeSet<&str> = files
        .iter()
        .map(|f| f.split_once('/').map_or("", |(top, _)| top))
        .collect();
    let mut candidates = vec!["index.html".to_string(), "index.htm".to_string()];
    if let [top] = top_folders.into_iter().collect::<Vec<_>>()[..]
        && !top.is_empty()
    {
        candidates.push(format!("{top}/index.html"));
        candidates.push(format!("{top}/index.htm"));
    }
    if let Some(found) = candidates.into_iter().find(|c| files.contains(c)) {
        return Ok(found);
    }
    let pages: Vec<&String> = files.iter().filter(|f| is_page(f)).collect();
    match pages[..] {
        [only] => return Ok(only.clone()),
        [] => {}
        _ => {
            return Err(ConvertError::Unreadable(format!(
                "the ZIP holds {} HTML files and no index.html ({}); name the page to print index.html",
                pages.len(),
                list(&pages)
            )));
        }
    }
    let notes: Vec<&String> = files
        .iter()
        .filter(|f| f.to_ascii_lowercase().ends_with(".md"))
        .collect();
    match notes[..] {
        [only] => {
            let bytes =
                fs::read(root.join(only)).map_err(|e| engine_io("read the Markdown file", e))?;
            let stem = only
                .rsplit('/')
                .next()
                .unwrap_or(only)
                .trim_end_matches(".md");
            let html = markdown::to_html(&String::from_utf8_lossy(&bytes), stem);
            let entry = match only.rsplit_once('/') {
                Some((folder, _)) => format!("{folder}/index.html"),
                None => "index.html".to_string(),
            };
            fs::write(root.join(&entry), html).map_err(|e| engine_io("write the page", e))?;
            Ok(entry)
        }
        [] => Err(ConvertError::Unreadable(
            "the ZIP holds no HTML or Markdown page; put the page to print at index.html".into(),
        )),
        _ => Err(ConvertError::Unreadable(format!(
            "the ZIP holds {} Markdown files and no HTML page ({}); send one Markdown file",
            notes.len(),
            list(&notes)
        ))),
    }
}

fn list(names: &[&String]) -> String {
    let mut shown: Vec<&str> = names.iter().take(5).map(|s| s.as_str()).collect();
    if names.len() > 5 {
        shown.push("…");
    }
    shown.join(", ")
}

fn unreadable_io(what: &str, error: std::io::Error) -> ConvertError {
    ConvertError::Unreadable(format!("{what} cannot be read ({error})"))
}

fn engine_io(what: &str, error: std::io::Error) -> ConvertError {
    ConvertError::Engine(format!("could not {what} in the work folder ({error})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_outside_the_archive_are_refused() {
        for bad in [
            "/etc/passwd",
            "../x.html",
            "a/../../x",
            "C:/x",
            "a\\..\\..\\x",
        ] {
            assert!(safe_name(bad).is_err(), "{bad}");
        }
        assert_eq!(
            safe_name("./site//img/a.png").expect("relative"),
            "site/img/a.png"
        );
        assert_eq!(safe_name("a\\b.css").expect("windows"), "a/b.css");
    }

    #[test]
    fn the_entry_is_index_html_then_the_only_page() {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let pick = |names: &[&str]| choose_entry(dir.path(), &files(names));
        assert_eq!(
            pick(&["a.html", "index.html"]).expect("index"),
            "index.html"
        );
        assert_eq!(
            pick(&["site/a.html", "site/index.html", "site/x.css"]).expect("folder"),
            "site/index.html"
        );
        assert_eq!(
            pick(&["report.htm", "x.css"]).expect("only page"),
            "report.htm"
        );
        assert!(pick(&["a.html", "b.html"]).is_err());
        assert!(pick(&["x.css"]).is_err());
    }
}
