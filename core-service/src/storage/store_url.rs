//! `QUIRE_STORE_URL`: where blobs are stored. `file:///path` (the default is
//! `<data dir>/blobs`) or `s3://bucket/prefix`, read once at start and refused in words when it
//! names anything else.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreUrl {
    /// A directory, and the one beside it where uploads are staged until complete (the same
    /// filesystem, so that completing is a rename).
    Local {
        root: PathBuf,
        staging: PathBuf,
    },
    S3 {
        bucket: String,
        prefix: String,
    },
}

impl StoreUrl {
    /// `url` as given, or the default under `data_dir`.
    pub fn parse(url: Option<&str>, data_dir: &Path) -> anyhow::Result<StoreUrl> {
        const USAGE: &str = "QUIRE_STORE_URL is file:///absolute/path or s3://bucket/prefix";
        let Some(url) = url.map(str::trim).filter(|u| !u.is_empty()) else {
            return Ok(StoreUrl::Local {
                root: data_dir.join("blobs"),
                staging: data_dir.join("staging"),
            });
        };
        if let Some(path) = url.strip_prefix("file://") {
            let root = PathBuf::from(path);
            let name = root.file_name().map(|n| n.to_string_lossy().into_owned());
            anyhow::ensure!(
                root.is_absolute() && name.is_some(),
                "{USAGE}: {url:?} does not name a directory by its absolute path"
            );
            let staging = root.with_file_name(format!("{}.staging", name.unwrap_or_default()));
            return Ok(StoreUrl::Local { root, staging });
        }
        if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            anyhow::ensure!(
                !bucket.is_empty()
                    && bucket
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".-".contains(c)),
                "{USAGE}: {bucket:?} is not a bucket name (lowercase letters, digits, dots, hyphens)"
            );
            return Ok(StoreUrl::S3 {
                bucket: bucket.to_owned(),
                prefix: prefix.trim_matches('/').to_owned(),
            });
        }
        anyhow::bail!("{USAGE}, not {url:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_or_refused_in_words() {
        let data = Path::new("/var/lib/quire");
        assert_eq!(
            StoreUrl::parse(None, data).unwrap(),
            StoreUrl::Local {
                root: "/var/lib/quire/blobs".into(),
                staging: "/var/lib/quire/staging".into()
            }
        );
        assert_eq!(
            StoreUrl::parse(Some("file:///srv/quire/objects"), data).unwrap(),
            StoreUrl::Local {
                root: "/srv/quire/objects".into(),
                staging: "/srv/quire/objects.staging".into()
            }
        );
        assert_eq!(
            StoreUrl::parse(Some("s3://quire-files/eu/prod/"), data).unwrap(),
            StoreUrl::S3 {
                bucket: "quire-files".into(),
                prefix: "eu/prod".into()
            }
        );
        assert_eq!(
            StoreUrl::parse(Some("s3://quire-files"), data).unwrap(),
            StoreUrl::S3 {
                bucket: "quire-files".into(),
                prefix: String::new()
            }
        );
        for bad in [
            "file://relative/dir",
            "file:///",
            "s3://",
            "s3://Upper/x",
            "gs://b/p",
            "/srv/x",
        ] {
            let error = StoreUrl::parse(Some(bad), data).unwrap_err().to_string();
            assert!(
                error.contains("QUIRE_STORE_URL is file:///"),
                "{bad}: {error}"
            );
        }
    }
}
