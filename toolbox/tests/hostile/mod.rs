//! What the metadata and sanitize tests share: a document holding everything sanitize
//! removes (`fixture`), the corpora, the sanitize options the tests run with (`options`), an
//! output read back and searched for names that must be gone (`search`), and the independent
//! readers: qpdf's view of a file and an interpreter with pikepdf to read metadata (`readers`).
#![allow(dead_code, clippy::unwrap_used)]

#[path = "../corpus_files/mod.rs"]
mod corpus_files;
mod fixture;
mod options;
mod readers;
mod search;

// Each test binary uses some of these, not all.
#[allow(unused_imports)]
pub use corpus_files::corpus;
#[allow(unused_imports)]
pub use fixture::{Fixture, XMP_TITLE, fixture, fixture_with, xmp_packet};
#[allow(unused_imports)]
pub use options::{EVERYTHING, NOTHING, removed};
#[allow(unused_imports)]
pub use readers::{PIKEPDF_CHECK, pikepdf_check, pikepdf_python, qdf, qpdf};
#[allow(unused_imports)]
pub use search::{FORBIDDEN, all_streams, contains, forbidden_in, forbidden_tokens, load};
