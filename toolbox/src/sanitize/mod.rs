//! Removes what can act or leak: JavaScript, embedded files, links and actions, metadata, hidden layers.
//!
//! The page tree is left as it is (same pages, same order); what goes is cut out where it is
//! referenced, and the save drops every object nothing reaches any more.

mod actions;
mod layers;

use std::path::Path;

use crate::{ToolError, Written, io, metadata, pages};

/// What to remove.
#[derive(Debug, Clone, Copy)]
pub struct Sanitize {
    pub javascript: bool,
    pub embedded_files: bool,
    pub links: bool,
    pub metadata: bool,
    pub hidden_layers: bool,
}

/// One kind of thing removed and how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removed {
    pub what: &'static str,
    pub count: u32,
}

pub const JAVASCRIPT: &str = "JavaScript actions";
pub const EMBEDDED_FILES: &str = "embedded files";
pub const LINKS: &str = "external links and actions";
pub const METADATA: &str = "metadata";
pub const HIDDEN_LAYERS: &str = "hidden layers";
/// Not a removal: content streams with hidden content that could not be parsed, kept as they
/// were (their hidden groups then stay in /OCProperties, still off).
pub const UNPARSED: &str = "unparsed page streams kept";

/// Removes, as chosen:
/// - javascript: the /Names /JavaScript tree, every JavaScript action (/S /JavaScript or a
///   /JS entry) wherever it is referenced (catalog /OpenAction and /AA, page /AA, annotation
///   /A and /AA, form field /AA with its keystroke, format, validate and calculate scripts,
///   outline items, /Next chains), AcroForm /XFA (and the catalog's /NeedsRendering), and
///   every /Rendition or /Launch action;
/// - embedded_files: /Names /EmbeddedFiles, FileAttachment annotations (and their pop-ups),
///   /AF arrays, /EF (and /RF) of every file specification, the portfolio /Collection;
/// - links: /URI, /Launch, /GoToR, /GoToE, /SubmitForm, /ImportData, /Sound and /Movie
///   actions wherever referenced, the Link annotations whose action is one, and the catalog's
///   base /URI (internal GoTo links, /Hide and named actions are kept: they cannot leak);
/// - metadata: as [`metadata::strip`];
/// - hidden_layers: optional content groups off in the default configuration, and what is
///   drawn in them (see `layers`).
///
/// Returns what was removed (only kinds with count > 0), in the order above, then the note
/// of content streams left unparsed.
pub fn sanitize(
    input: &Path,
    what: Sanitize,
    output: &Path,
) -> Result<(Written, Vec<Removed>), ToolError> {
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    let layers = if what.hidden_layers {
        layers::remove(&mut doc, &tree)
    } else {
        layers::Outcome::default()
    };
    let tally = actions::remove(
        &mut doc,
        actions::Options {
            javascript: what.javascript,
            embedded_files: what.embedded_files,
            links: what.links,
        },
    );
    let metadata = if what.metadata {
        metadata::strip_doc(&mut doc)
    } else {
        0
    };
    io::save(&mut doc, output)?;
    let removed = [
        (JAVASCRIPT, tally.javascript),
        (EMBEDDED_FILES, tally.embedded_files),
        (LINKS, tally.links),
        (METADATA, metadata),
        (HIDDEN_LAYERS, layers.layers),
        (UNPARSED, layers.unparsed),
    ]
    .into_iter()
    .filter(|&(_, count)| count > 0)
    .map(|(what, count)| Removed { what, count })
    .collect();
    Ok((
        Written {
            pages: crate::count(tree.pages.len()),
        },
        removed,
    ))
}
