//! PDF work: rendering pages to PNG (PDFium, in the workers), the ZIP of pages streamed back
//! as pages finish, and compression.

pub mod compress_request;
pub mod pdfium;
pub mod png;
pub mod redact;
pub mod render;
pub mod to_images;
pub mod tools;
