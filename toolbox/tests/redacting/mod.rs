//! What the redaction tests share: documents built for them, the tools that judge the
//! outputs, and the redaction run.
#![allow(dead_code, clippy::unwrap_used)]

pub mod build;
pub mod pages;
pub mod tools;
