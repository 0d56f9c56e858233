//! Organizing pages: any order, repeated, deleted, with blank pages between.

use std::path::Path;

use crate::extract::{self, Slot as Planned};
use crate::source::Source;
use crate::{Slot, ToolError, Written, io};

pub fn organize(input: &Path, slots: &[Slot], output: &Path) -> Result<Written, ToolError> {
    if slots.is_empty() {
        return Err(ToolError::BadOptions(
            "the organized document needs at least one page".into(),
        ));
    }
    let mut src = Source::open(input)?;
    let plan = plan(slots, src.pages.len())?;
    // One output: the source's objects move into it rather than being copied.
    let mut doc = extract::extract(&mut src, &plan, true)?;
    drop(src);
    io::save(&mut doc, output)?;
    Ok(Written {
        pages: crate::count(plan.len()),
    })
}

/// The slots as source page indices; a blank takes the size of the slot before it, the first
/// page's when it comes first.
fn plan(slots: &[Slot], count: usize) -> Result<Vec<Planned>, ToolError> {
    let mut plan = Vec::with_capacity(slots.len());
    let mut size_of = 0;
    for slot in slots {
        match *slot {
            Slot::Page(page) => {
                let index = (page as usize)
                    .checked_sub(1)
                    .filter(|&index| index < count)
                    .ok_or_else(|| {
                        ToolError::BadOptions(format!(
                            "page {page} does not exist: the document has {count} page{}",
                            if count == 1 { "" } else { "s" }
                        ))
                    })?;
                size_of = index;
                plan.push(Planned::Page(index));
            }
            Slot::Blank => plan.push(Planned::Blank(size_of)),
        }
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_take_the_size_of_the_slot_before() {
        let plan = plan(&[Slot::Blank, Slot::Page(3), Slot::Blank, Slot::Blank], 3).ok();
        assert_eq!(
            plan,
            Some(vec![
                Planned::Blank(0),
                Planned::Page(2),
                Planned::Blank(2),
                Planned::Blank(2)
            ])
        );
    }

    #[test]
    fn pages_out_of_range_are_bad_options() {
        for page in [0, 4] {
            let Err(ToolError::BadOptions(message)) = plan(&[Slot::Page(page)], 3) else {
                panic!("page {page} accepted")
            };
            assert!(message.contains(&format!("page {page} ")) && message.contains("3 pages"));
        }
    }
}
