//! The layout tools: crop, crop to boxes, fit to paper and n-up, on a five-page document
//! built with lopdf (`fixture`), read back with lopdf and poppler (`poppler`), and over the
//! real-world corpora (`corpus`).
#![allow(clippy::unwrap_used)]

mod corpus;
#[path = "../corpus_files/mod.rs"]
mod corpus_files;
mod crop;
mod fixture;
mod poppler;
mod sheets;
mod turned;
