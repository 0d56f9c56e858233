//! PDF work: rendering pages to PNG (PDFium, in the workers), the ZIP of pages streamed back
//! as pages finish, and compression; the limits every PDF is checked against first (`guard`).

pub mod compare;
pub mod compress_check;
pub mod compress_request;
pub mod compress_verdict;
pub mod guard;
pub mod pdfium;
pub mod png;
pub mod redact;
pub mod render;
pub mod to_images;
pub mod tools;
