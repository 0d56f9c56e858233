//! Document information and XMP metadata: read, edit, strip.
//!
//! The document information dictionary (the trailer's /Info) is what most readers show; the
//! catalog's XMP packet is what PDF/A and search tools read. Reading takes /Info first and the
//! XMP where /Info lacks a field; editing changes both, so that they keep telling the same
//! story (an XMP packet is edited in place, everything it holds besides the fields changed is
//! kept); stripping removes both, and every other object's metadata stream and private
//! application data.

mod date;
mod edit;
mod read;
mod strip;
mod xmp;

pub use edit::edit;
pub use read::read;
pub use strip::strip;
pub(crate) use strip::strip_doc;

/// The document's metadata as a reader sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
    pub creator: Option<String>,
    pub producer: Option<String>,
    /// As written (PDF date strings `D:20240102...`), shown as ISO 8601 when they parse.
    pub created: Option<String>,
    pub modified: Option<String>,
    /// Other /Info entries (name, value), e.g. custom keys; at most 50, values cut at 500 chars.
    pub custom: Vec<(String, String)>,
    /// An XMP packet is attached to the catalog, and its size in bytes.
    pub xmp_bytes: Option<usize>,
}

/// Changes: None keeps a field, Some("") removes it (so does a value of white space alone),
/// Some(v) sets it.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    pub title: Option<String>,
    pub author: Option<String>,
    pub subject: Option<String>,
    pub keywords: Option<String>,
    pub creator: Option<String>,
    pub producer: Option<String>,
}

/// The /Info entries [`Metadata`] has fields for; the others are `custom`.
const STANDARD: [&[u8]; 8] = [
    b"Title",
    b"Author",
    b"Subject",
    b"Keywords",
    b"Creator",
    b"Producer",
    b"CreationDate",
    b"ModDate",
];
