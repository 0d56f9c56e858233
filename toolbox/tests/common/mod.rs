//! What the tool tests share: the test document, and reading outputs back.
#![allow(dead_code, clippy::unwrap_used)]

mod fixture;
mod inspect;

pub use fixture::{Variant, sample};
pub use inspect::*;
