//! The command line: one subcommand per endpoint, each with the connection options.

use std::{fmt, path::PathBuf, str::FromStr};

use clap::{Args, Subcommand, ValueEnum};

/// The client's subcommands, flattened into the `quire` binary's own.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Uploads a file (scanned by the server's antivirus) and prints its share link.
    Upload(UploadArgs),
    /// Extracts the text of an image (PNG, JPEG, TIFF, WebP, BMP) or a PDF of up to 30 pages.
    Ocr(OcrArgs),
    /// Compresses a PDF.
    Compress(CompressArgs),
    /// Renders the pages of a PDF (up to 30) as PNG images in a ZIP.
    PdfToImages(PdfToImagesArgs),
    /// Anonymizes a support-ticket log, and summarizes it with a draft reply.
    Support(SupportArgs),
}

impl Command {
    pub fn client(&self) -> &ClientArgs {
        match self {
            Command::Upload(a) => &a.client,
            Command::Ocr(a) => &a.client,
            Command::Compress(a) => &a.client,
            Command::PdfToImages(a) => &a.client,
            Command::Support(a) => &a.client,
        }
    }
}

/// Where the server is, how to authenticate, and how to answer.
#[derive(Args, Clone, Debug)]
#[command(next_help_heading = "Client options")]
pub struct ClientArgs {
    /// Base URL of the Quire server.
    #[arg(long, env = "QUIRE_URL", default_value = "http://127.0.0.1:8080", value_parser = parse_base_url)]
    pub url: reqwest::Url,

    /// API key; prefer the environment variable, which other users cannot see in `ps`.
    #[arg(long, env = "QUIRE_API_KEY", hide_env_values = true)]
    pub api_key: Option<ApiKey>,

    /// Prints machine-readable JSON on stdout (on failure too: the problem and the exit code).
    #[arg(long)]
    pub json: bool,

    /// Prints nothing on stderr but errors: no progress bar, summary, retry or quota notes.
    #[arg(long, short)]
    pub quiet: bool,

    /// Retries after a 429, a 503, a failed connection, or while an earlier attempt still runs.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub retries: u32,

    /// Longest wait before one retry, in seconds: a server asking for longer (a daily quota
    /// that resets hours from now) fails the command at once.
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    pub max_wait: u64,
}

/// A file to send: a path, or `-` for stdin.
#[derive(Args, Clone, Debug)]
pub struct FileArg {
    /// The file to send, `-` for stdin.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Args, Debug)]
pub struct UploadArgs {
    #[command(flatten)]
    pub input: FileArg,
    /// Lifetime of the share link: seconds, or a number with s, m, h or d (`7d`).
    #[arg(long, value_name = "S", value_parser = parse_lifetime)]
    pub expires_in: Option<u64>,
    /// Full downloads the share link allows (1 to 1,000,000): the last one deletes the file,
    /// and the link then answers 410.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_downloads: Option<u64>,
    /// Name the file is shared under (default: the file's own name; `stdin` for `-`).
    #[arg(long, value_name = "NAME")]
    pub filename: Option<String>,
    #[command(flatten)]
    pub client: ClientArgs,
}

#[derive(Args, Debug)]
pub struct OcrArgs {
    #[command(flatten)]
    pub input: FileArg,
    /// Tesseract languages, `+`-joined (server default: fra+eng).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    #[command(flatten)]
    pub client: ClientArgs,
}

#[derive(Args, Debug)]
pub struct CompressArgs {
    #[command(flatten)]
    pub input: FileArg,
    /// Preset, as Ghostscript's of the same names (server default: ebook).
    #[arg(long, value_enum)]
    pub quality: Option<Quality>,
    /// Where to write the compressed PDF, `-` for stdout.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    #[command(flatten)]
    pub client: ClientArgs,
}

#[derive(Args, Debug)]
pub struct PdfToImagesArgs {
    #[command(flatten)]
    pub input: FileArg,
    /// Resolution of the PNG pages, 72 to 300 (server default: 150).
    #[arg(long, value_parser = clap::value_parser!(u32).range(72..=300))]
    pub dpi: Option<u32>,
    /// Where to write the ZIP of `page-001.png`, `page-002.png`, ..., `-` for stdout.
    #[arg(short, long, value_name = "OUT.zip")]
    pub output: PathBuf,
    #[command(flatten)]
    pub client: ClientArgs,
}

#[derive(Args, Debug)]
pub struct SupportArgs {
    /// The raw ticket log, `-` for stdin.
    #[arg(long, value_name = "FILE")]
    pub log: PathBuf,
    /// Free-form context of the ticket (the user's message), `-` for stdin.
    #[arg(long, value_name = "FILE")]
    pub context: Option<PathBuf>,
    /// Language of the summary and the draft reply (server default: fr).
    #[arg(long, value_enum)]
    pub locale: Option<Locale>,
    #[command(flatten)]
    pub client: ClientArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Quality {
    Screen,
    Ebook,
    Printer,
    Prepress,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Locale {
    Fr,
    En,
}

/// The `quality` and `locale` values the API takes are the flags' own names.
pub fn api_value(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default()
}

/// An API key, kept out of `Debug` output.
#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl FromStr for ApiKey {
    type Err = String;

    /// Surrounding whitespace (a secret file's trailing newline) is not part of the key.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Ok(ApiKey(value.trim().to_owned()))
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

fn parse_base_url(value: &str) -> Result<reqwest::Url, String> {
    let url = reqwest::Url::parse(value.trim()).map_err(|e| format!("not a URL: {e}"))?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(format!("expected http:// or https://, got {other}://")),
    }
}

/// `86400`, `90s`, `30m`, `24h`, `7d` → seconds.
fn parse_lifetime(value: &str) -> Result<u64, String> {
    let value = value.trim();
    let (number, unit) = match value.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => value.split_at(at),
        None => (value, "s"),
    };
    let scale = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "expected seconds or a number with s, m, h or d, got {value:?}"
            ));
        }
    };
    let seconds = number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| format!("expected seconds or a number with s, m, h or d, got {value:?}"))?;
    if seconds == 0 {
        return Err("a lifetime is at least one second".to_owned());
    }
    Ok(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifetimes_in_seconds_or_with_a_unit() {
        assert_eq!(parse_lifetime("86400"), Ok(86_400));
        assert_eq!(parse_lifetime("90s"), Ok(90));
        assert_eq!(parse_lifetime("30m"), Ok(1800));
        assert_eq!(parse_lifetime("24h"), Ok(86_400));
        assert_eq!(parse_lifetime("7d"), Ok(604_800));
        for bad in ["", "0", "d", "1w", "-5", "1.5h", "99999999999999999999d"] {
            assert!(parse_lifetime(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_key_is_trimmed_and_never_shown() {
        let key: ApiKey = " qk_secret\n".parse().unwrap();
        assert_eq!(key.expose(), "qk_secret");
        assert!(!format!("{key:?}").contains("secret"));
    }

    #[test]
    fn api_values_are_the_flag_names() {
        assert_eq!(api_value(Quality::Prepress), "prepress");
        assert_eq!(api_value(Locale::En), "en");
    }

    #[test]
    fn only_http_and_https_urls() {
        assert!(parse_base_url("https://quire.example.com/").is_ok());
        assert!(parse_base_url("ftp://quire.example.com").is_err());
        assert!(parse_base_url("quire.example.com").is_err());
    }
}
