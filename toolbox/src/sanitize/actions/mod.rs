//! Scripts, embedded files, and links and actions that reach outside the document.
//!
//! What is removed is found by what it is, not by where a producer put it: every object is
//! classified first (a JavaScript action, a web link, a file attachment annotation, a link
//! annotation whose action goes, ...), then every dictionary and array of the document drops
//! its references to what was condemned, wherever they are (an /OpenAction, an /AA entry, an
//! annotation's /A, a /Next chain, an /Annots array, an outline item). Nothing then reaches
//! the condemned objects and the save prunes them. The catalog's own entries (the /Names
//! trees, /AcroForm /XFA, the portfolio /Collection, the base /URI) go by name.

mod catalog;
mod classify;
mod embedded;
mod sweep;

use std::collections::{HashMap, HashSet};

use lopdf::{Document, Object};

use classify::condemn;
use embedded::embedded_streams;
use sweep::Walker;

/// Which of the three kinds are removed.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub javascript: bool,
    pub embedded_files: bool,
    pub links: bool,
}

impl Options {
    fn any(self) -> bool {
        self.javascript || self.embedded_files || self.links
    }
}

/// How many of each kind were removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub javascript: u32,
    pub embedded_files: u32,
    pub links: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Script,
    Embedded,
    Link,
}

/// Removes what `options` chooses from `doc`.
pub fn remove(doc: &mut Document, options: Options) -> Tally {
    if !options.any() {
        return Tally::default();
    }
    let embedded = if options.embedded_files {
        embedded_streams(doc)
    } else {
        HashSet::new()
    };
    let condemned = condemn(doc, options);
    let mut walker = Walker {
        options,
        condemned: &condemned,
        removed: HashMap::new(),
        direct: HashMap::new(),
        attachments: HashSet::new(),
        direct_attachments: 0,
    };
    walker.catalog_entries(doc);
    for (id, object) in doc.objects.iter_mut() {
        // A condemned object goes with the save; what it holds is not counted again.
        if condemned.contains_key(id) {
            continue;
        }
        match object {
            Object::Dictionary(dict) => walker.dict(dict),
            Object::Stream(stream) => walker.dict(&mut stream.dict),
            // An indirect array (a page's /Annots, a name tree's /Names) has no key to tell
            // what it is; `array` reads a tree's pairs from its shape.
            Object::Array(items) => walker.array(items, b""),
            _ => {}
        }
    }
    let count = |kind: Kind| {
        let ids = walker.removed.get(&kind).map_or(0, HashSet::len);
        let direct = walker.direct.get(&kind).copied().unwrap_or(0);
        saturate(ids).saturating_add(direct)
    };
    let attachments = saturate(walker.attachments.len()).saturating_add(walker.direct_attachments);
    Tally {
        javascript: count(Kind::Script),
        embedded_files: saturate(embedded.len()).max(attachments),
        links: count(Kind::Link),
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
