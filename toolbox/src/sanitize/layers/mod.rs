//! Hidden layers: optional content groups that are off in the default configuration, and
//! what is drawn in them.
//!
//! A page shows what it draws in a hidden group only when the user turns the layer on, so the
//! content is still in the file for anyone to find. Here it goes: marked-content sections
//! `/OC /name BDC ... EMC` whose group (or membership dictionary) is hidden lose what they
//! paint (text, paths, images, shadings, XObjects) but keep what they change in the graphics
//! state, as a reader does with hidden content (ISO 32000-1, 8.11.3.3), so what follows is
//! drawn exactly as before; XObjects and annotations whose own /OC is hidden go; resource
//! entries that only hidden content used go; and the groups leave /OCProperties.
//!
//! Content is parsed with lopdf's strict decoder: its lenient one stops at the first token it
//! cannot read and drops the rest, which re-encoding would then lose. A stream that does not
//! decode is left as it is and counted; while any is, the groups stay in /OCProperties (still
//! off) and resource entries are kept, so that what was left stays hidden.

mod content;
mod plan;
mod planner;
mod properties;
mod visibility;

use std::cell::Cell;
use std::collections::HashSet;

use lopdf::Document;

use crate::pages::Tree;

use plan::Plan;
use planner::Planner;
use properties::drop_groups;
use visibility::{MAX_EVALUATIONS, Visibility, hidden_groups};

/// What was removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Hidden groups whose content was removed or that left /OCProperties.
    pub layers: u32,
    /// Content streams that use hidden content but could not be decoded, left as they were.
    pub unparsed: u32,
}

pub fn remove(doc: &mut Document, tree: &Tree) -> Outcome {
    let hidden = hidden_groups(doc);
    if hidden.is_empty() {
        return Outcome::default();
    }
    let plan = {
        let mut planner = Planner {
            doc,
            visibility: Visibility {
                doc,
                hidden: &hidden,
                budget: Cell::new(MAX_EVALUATIONS),
            },
            plan: Plan::default(),
            forms: Vec::new(),
            forms_seen: HashSet::new(),
        };
        planner.pages(tree);
        planner.forms();
        planner.plan
    };
    let unparsed = plan.unparsed;
    let changed = plan.apply(doc);
    let dropped = unparsed == 0 && drop_groups(doc, &hidden);
    let layers = if changed || dropped {
        u32::try_from(hidden.len()).unwrap_or(u32::MAX)
    } else {
        0
    };
    Outcome { layers, unparsed }
}
