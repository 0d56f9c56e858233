//! The sanitize options the tests run with, and the list sanitize answers.

use quire_toolbox::sanitize::{Removed, Sanitize};

pub const EVERYTHING: Sanitize = Sanitize {
    javascript: true,
    embedded_files: true,
    links: true,
    metadata: true,
    hidden_layers: true,
};

pub const NOTHING: Sanitize = Sanitize {
    javascript: false,
    embedded_files: false,
    links: false,
    metadata: false,
    hidden_layers: false,
};

pub fn removed(list: &[(&'static str, u32)]) -> Vec<Removed> {
    list.iter()
        .map(|&(what, count)| Removed { what, count })
        .collect()
}
