//! The OCR languages this server offers: every `*.traineddata` in the tessdata folder, read
//! once at start, and the rules for a request's `lang` (`fra`, `eng`, `fra+eng`, ...).

use std::path::{Path, PathBuf};

pub const DEFAULT_LANG: &str = "fra+eng";
/// More languages per request only slow Tesseract down and rarely help.
const MAX_PARTS: usize = 4;
/// Trained data that is not a language (orientation and script detection, equations).
const NOT_LANGUAGES: &[&str] = &["osd", "equ"];

#[derive(Clone, Debug)]
pub struct Languages {
    pub tessdata: PathBuf,
    installed: Vec<String>,
}

impl Languages {
    /// Lists the languages in `tessdata` (default: `$TESSDATA_PREFIX`, else Debian's folder).
    pub fn discover(tessdata: Option<&Path>) -> anyhow::Result<Self> {
        let tessdata = match tessdata {
            Some(path) => path.to_owned(),
            None => default_tessdata()?,
        };
        let entries = std::fs::read_dir(&tessdata).map_err(|e| {
            anyhow::anyhow!(
                "cannot read the Tesseract data folder {} ({e}): install tesseract-ocr-eng and \
                 tesseract-ocr-fra (scripts/setup.sh) or set QUIRE_TESSDATA",
                tessdata.display()
            )
        })?;
        let mut installed: Vec<String> = entries
            .filter_map(|entry| entry.ok())
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let lang = name.strip_suffix(".traineddata")?;
                (!NOT_LANGUAGES.contains(&lang)).then(|| lang.to_owned())
            })
            .collect();
        installed.sort();
        let languages = Self {
            tessdata,
            installed,
        };
        languages.resolve(DEFAULT_LANG).map_err(|message| {
            anyhow::anyhow!(
                "the default OCR language is not installed in {}: {message}",
                languages.tessdata.display()
            )
        })?;
        Ok(languages)
    }

    pub fn installed(&self) -> &[String] {
        &self.installed
    }

    /// The value to use for a request's `lang`: empty means the default; every `+`-joined
    /// part must be installed, each at most once.
    pub fn resolve(&self, requested: &str) -> Result<String, String> {
        let requested = requested.trim();
        let lang = if requested.is_empty() {
            DEFAULT_LANG
        } else {
            requested
        };
        let parts: Vec<&str> = lang.split('+').collect();
        let allowed = || {
            format!(
                "allowed values are {} or several joined with + (e.g. fra+eng)",
                self.installed.join(", ")
            )
        };
        if parts.len() > MAX_PARTS {
            return Err(format!(
                "lang {lang:?} names {} languages; at most {MAX_PARTS} may be combined",
                parts.len()
            ));
        }
        for (i, part) in parts.iter().enumerate() {
            if !self.installed.iter().any(|l| l == part) {
                return Err(format!("lang {part:?} is not available: {}", allowed()));
            }
            if parts[..i].contains(part) {
                return Err(format!("lang {lang:?} names {part:?} twice"));
            }
        }
        Ok(lang.to_owned())
    }
}

fn default_tessdata() -> anyhow::Result<PathBuf> {
    if let Some(prefix) = std::env::var_os("TESSDATA_PREFIX") {
        return Ok(PathBuf::from(prefix));
    }
    // Debian puts it under the Tesseract major version: /usr/share/tesseract-ocr/5/tessdata.
    let base = Path::new("/usr/share/tesseract-ocr");
    let mut found: Vec<PathBuf> = std::fs::read_dir(base)
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .map(|e| e.path().join("tessdata"))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found.pop().ok_or_else(|| {
        anyhow::anyhow!(
            "no Tesseract data folder under {}: install tesseract-ocr-eng and tesseract-ocr-fra \
             (scripts/setup.sh) or set QUIRE_TESSDATA",
            base.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn languages() -> Languages {
        Languages {
            tessdata: PathBuf::new(),
            installed: vec!["deu".into(), "eng".into(), "fra".into()],
        }
    }

    #[test]
    fn resolves_defaults_and_combinations() {
        let l = languages();
        assert_eq!(l.resolve("").unwrap(), "fra+eng");
        assert_eq!(l.resolve(" eng ").unwrap(), "eng");
        assert_eq!(l.resolve("deu+fra").unwrap(), "deu+fra");
    }

    #[test]
    fn refuses_unknown_repeated_and_malformed_values() {
        let l = languages();
        let err = l.resolve("klingon").unwrap_err();
        assert!(err.contains("deu, eng, fra"), "{err}");
        assert!(l.resolve("fra+fra").unwrap_err().contains("twice"));
        assert!(l.resolve("fra+").is_err());
        assert!(l.resolve("../../etc/passwd").is_err());
        assert!(
            l.resolve("eng+fra+deu+eng+fra")
                .unwrap_err()
                .contains("at most")
        );
    }
}
