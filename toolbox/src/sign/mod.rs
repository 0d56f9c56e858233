//! Signing: a visible signature (image or typed name) placed on a page, and a PAdES digital
//! signature with a PKCS#12 certificate.
//!
//! A visible signature alone is drawn into the page's content like a stamp. A digital
//! signature is a signature field whose widget shows the appearance (or nothing, for an
//! invisible one) and whose value is a PAdES baseline B-B signature: a detached CAdES
//! SignedData over the whole file but its own /Contents, made with SHA-256 and the
//! certificate's RSA or ECDSA (P-256, P-384) key. It is appended to the file as an
//! incremental update, so a file that is already signed keeps its signatures valid: its
//! bytes are kept as they are. An unsigned input is rewritten first, as every tool writes.

mod appearance;
mod certificate;
mod field;
mod incremental;
mod placement;
mod signed_data;
mod signing;

use std::path::{Path, PathBuf};

use crate::ToolError;

/// What a visible signature shows.
#[derive(Debug, Clone)]
pub enum Appearance {
    /// A PNG or JPEG (drawn in the browser on a canvas = PNG with alpha, or uploaded), its
    /// aspect kept.
    Image(PathBuf),
    /// A typed name, 1 to 200 characters on one line, in Helvetica when WinAnsi has every
    /// character, else in the TrueType font at `font` (the service passes DejaVu Sans),
    /// embedded as a subset.
    Text { text: String, font: Option<PathBuf> },
}

/// Where the visible signature goes, on the page as displayed (CropBox, /Rotate applied),
/// in shares of the displayed page size from its top-left corner: `x`, `y` in 0..1, `width`
/// in (0, 1]. The height follows the appearance's aspect ratio (text: its measured width and
/// height); the whole box must fit on the page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// 1-based; 0 means the last page.
    pub page: u32,
    pub x: f32,
    pub y: f32,
    pub width: f32,
}

/// A PKCS#12 (.p12/.pfx) file with the signer's private key and certificate chain, and its
/// password.
#[derive(Clone)]
pub struct Certificate {
    pub pkcs12: Vec<u8>,
    pub password: String,
}

impl std::fmt::Debug for Certificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Certificate")
            .field("pkcs12", &format_args!("{} bytes", self.pkcs12.len()))
            .field("password", &"<hidden>")
            .finish()
    }
}

#[derive(Debug, Clone)]
pub struct Sign {
    /// None: an invisible digital signature.
    pub appearance: Option<Appearance>,
    /// Ignored when `appearance` is None.
    pub placement: Placement,
    /// None: a visible signature only, no cryptography.
    pub certificate: Option<Certificate>,
    /// Written into the signature dictionary (/Reason, /Location, /ContactInfo); digital
    /// signatures only.
    pub reason: Option<String>,
    pub location: Option<String>,
    pub contact: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    pub pages: u32,
    /// Set when a digital signature was made.
    pub signer: Option<Signer>,
}

/// The certificate a digital signature was made with, for the summary shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    /// The subject's common name, or its whole distinguished name when it has none.
    pub subject: String,
    /// The issuer's common name, or its whole distinguished name.
    pub issuer: String,
    /// When the certificate expires, RFC 3339 in UTC ("2027-01-31T12:00:00Z").
    pub not_after: String,
    /// "RSA 2048 SHA-256", "ECDSA P-256 SHA-256".
    pub algorithm: String,
}

/// Signs `input` as `sign` asks and writes the result to `output`.
///
/// Errors: neither an appearance nor a certificate, a page past the end, a box that leaves
/// the page, an unreadable image or text, a file that is not PKCS#12, one without a private
/// key or with an unsupported key, and a certificate that has expired or is not valid yet are
/// [`ToolError::BadOptions`]; a wrong certificate password is [`ToolError::WrongPassword`]; a
/// PDF that needs a password is [`ToolError::Encrypted`].
pub fn sign(input: &Path, sign: &Sign, output: &Path) -> Result<Signed, ToolError> {
    signing::sign(input, sign, output)
}
