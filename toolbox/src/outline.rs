//! The outline (bookmarks): read into a tree, filtered, and written back as new objects.
//!
//! Reading guards against what damaged and hostile files hold: sibling chains that loop back
//! (pikepdf's cyclic-toc.pdf), children that list an ancestor, absurd depth. Every item is
//! read at most once, and past [`MAX_DEPTH`] children are dropped.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::ToolError;
use crate::dests::Target;

/// Deeper than any real outline (a book's parts, chapters, sections, subsections...).
const MAX_DEPTH: usize = 64;

/// The links that tie items into the tree; rebuilt on writing. /SE points into the structure
/// tree, which the tools drop.
const STRUCTURE: [&[u8]; 7] = [
    b"Parent", b"First", b"Last", b"Next", b"Prev", b"Count", b"SE",
];

/// One outline entry.
#[derive(Debug, Clone)]
pub struct Item {
    /// The entry's own dictionary without the tree links: /Title, /Dest or /A, /C, /F.
    pub dict: Dictionary,
    /// Whether its children show (a positive /Count).
    pub open: bool,
    pub target: Target,
    pub children: Vec<Item>,
}

/// The document's outline; empty when it has none. `target` says where an entry leads.
pub fn read(doc: &Document, target: &dyn Fn(&Dictionary) -> Target) -> Vec<Item> {
    let Some(first) = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"Outlines").ok())
        .and_then(|outlines| doc.dereference(outlines).ok())
        .and_then(|(_, outlines)| outlines.as_dict().ok())
        .and_then(|outlines| outlines.get(b"First").ok())
    else {
        return Vec::new();
    };
    siblings(doc, first, 0, &mut HashSet::new(), target)
}

fn siblings(
    doc: &Document,
    first: &Object,
    depth: usize,
    seen: &mut HashSet<ObjectId>,
    target: &dyn Fn(&Dictionary) -> Target,
) -> Vec<Item> {
    let mut items = Vec::new();
    let mut next = first.as_reference().ok();
    while let Some(id) = next {
        if !seen.insert(id) {
            break;
        }
        let Ok(dict) = doc.get_dictionary(id) else {
            break;
        };
        let children = match dict.get(b"First") {
            Ok(first) if depth + 1 < MAX_DEPTH => siblings(doc, first, depth + 1, seen, target),
            _ => Vec::new(),
        };
        let open = dict
            .get(b"Count")
            .and_then(Object::as_i64)
            .is_ok_and(|count| count > 0);
        let mut own = dict.clone();
        for key in STRUCTURE {
            own.remove(key);
        }
        // pdfTeX writes titles as objects of their own; in place they can be read as text.
        if let Ok(title) = own.get(b"Title")
            && let Ok((Some(_), title)) = doc.dereference(title)
        {
            let title = title.clone();
            own.set("Title", title);
        }
        items.push(Item {
            target: target(&own),
            dict: own,
            open,
            children,
        });
        next = dict.get(b"Next").and_then(Object::as_reference).ok();
    }
    items
}

/// Keeps the entries that lead to a page `keep` accepts, and those that lead nowhere in the
/// document (a web link). An entry whose page is gone stays when some of its children stay,
/// then leading where its first remaining child does; a title with no destination stays only
/// over remaining children.
pub fn retain(items: &[Item], keep: &dyn Fn(usize) -> bool) -> Vec<Item> {
    let mut kept = Vec::new();
    for item in items {
        let children = retain(&item.children, keep);
        let leads_in = matches!(item.target, Target::Page(page) if keep(page));
        let is_action = item.target == Target::NotAPage && item.dict.has(b"A");
        if !(leads_in || is_action || !children.is_empty()) {
            continue;
        }
        let mut kept_item = Item {
            dict: item.dict.clone(),
            open: item.open,
            target: item.target,
            children,
        };
        if !(leads_in || is_action) {
            kept_item.dict.remove(b"Dest");
            kept_item.dict.remove(b"A");
            kept_item.target = Target::NotAPage;
            if let Some(child) = first_leading_in(&kept_item.children, keep) {
                let (dest, action) = (child.dict.get(b"Dest"), child.dict.get(b"A"));
                let (dest, action, target) =
                    (dest.ok().cloned(), action.ok().cloned(), child.target);
                if let Some(dest) = dest {
                    kept_item.dict.set("Dest", dest);
                }
                if let Some(action) = action {
                    kept_item.dict.set("A", action);
                }
                kept_item.target = target;
            }
        }
        kept.push(kept_item);
    }
    kept
}

fn first_leading_in<'a>(items: &'a [Item], keep: &dyn Fn(usize) -> bool) -> Option<&'a Item> {
    items.iter().find_map(|item| match item.target {
        Target::Page(page) if keep(page) => Some(item),
        _ => first_leading_in(&item.children, keep),
    })
}

/// Writes `items` as the document's outline; returns the /Outlines dictionary's id, or
/// `None` when there is nothing to write.
pub fn write(doc: &mut Document, items: Vec<Item>) -> Result<Option<ObjectId>, ToolError> {
    if items.is_empty() {
        return Ok(None);
    }
    let root = crate::io::new_id(doc)?;
    let count = visible(&items);
    let (first, last) = write_level(doc, root, items)?;
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"Outlines".to_vec()));
    dict.set("First", first);
    dict.set("Last", last);
    dict.set("Count", count);
    doc.objects.insert(root, Object::Dictionary(dict));
    Ok(Some(root))
}

/// Writes one level of siblings under `parent`; returns the first and last.
fn write_level(
    doc: &mut Document,
    parent: ObjectId,
    items: Vec<Item>,
) -> Result<(ObjectId, ObjectId), ToolError> {
    let ids = items
        .iter()
        .map(|_| crate::io::new_id(doc))
        .collect::<Result<Vec<_>, _>>()?;
    let last = ids.len() - 1;
    for (i, item) in items.into_iter().enumerate() {
        let mut dict = item.dict;
        dict.set("Parent", parent);
        if i > 0 {
            dict.set("Prev", ids[i - 1]);
        }
        if i < last {
            dict.set("Next", ids[i + 1]);
        }
        if !item.children.is_empty() {
            // Open: how many descendants show; closed: minus how many would.
            let shown = visible(&item.children);
            dict.set("Count", if item.open { shown } else { -shown });
            let (first, last) = write_level(doc, ids[i], item.children)?;
            dict.set("First", first);
            dict.set("Last", last);
        }
        doc.objects.insert(ids[i], Object::Dictionary(dict));
    }
    Ok((ids[0], ids[last]))
}

/// How many entries show when `items` show: each, and the children of the open ones.
fn visible(items: &[Item]) -> i64 {
    items
        .iter()
        .map(|item| {
            1 + if item.open {
                visible(&item.children)
            } else {
                0
            }
        })
        .sum()
}

/// An entry's title as text.
pub fn title(item: &Item) -> String {
    match item.dict.get(b"Title") {
        Ok(Object::String(bytes, _)) => crate::text::decode(bytes),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    fn item(title: &str, target: Target, children: Vec<Item>) -> Item {
        Item {
            dict: dictionary! { "Title" => Object::string_literal(title) },
            open: true,
            target,
            children,
        }
    }

    /// A document whose outline's second item points back at the first, and whose first
    /// item lists itself as its own child.
    fn cyclic() -> Document {
        let mut doc = Document::new();
        let outlines = doc.new_object_id();
        let a = doc.new_object_id();
        let b = doc.new_object_id();
        doc.objects.insert(
            a,
            Object::Dictionary(dictionary! {
                "Title" => Object::string_literal("a"), "Parent" => outlines, "Next" => b,
                "First" => a, "Count" => 1,
            }),
        );
        doc.objects.insert(
            b,
            Object::Dictionary(dictionary! {
                "Title" => Object::string_literal("b"), "Parent" => outlines, "Next" => a,
            }),
        );
        doc.objects.insert(
            outlines,
            Object::Dictionary(dictionary! { "First" => a, "Last" => b }),
        );
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Outlines" => outlines });
        doc.trailer.set("Root", catalog);
        doc
    }

    #[test]
    fn cycles_end_the_read() {
        let items = read(&cyclic(), &|_| Target::NotAPage);
        let titles: Vec<String> = items.iter().map(title).collect();
        assert_eq!(titles, ["a", "b"]);
        assert!(items[0].children.is_empty());
    }

    #[test]
    fn deep_chains_stop_at_the_depth_limit() {
        let mut doc = Document::new();
        let ids: Vec<ObjectId> = (0..500).map(|_| doc.new_object_id()).collect();
        for (i, id) in ids.iter().enumerate() {
            let mut dict = dictionary! { "Title" => Object::string_literal(format!("{i}")) };
            if let Some(child) = ids.get(i + 1) {
                dict.set("First", *child);
            }
            doc.objects.insert(*id, Object::Dictionary(dict));
        }
        let outlines = doc.add_object(dictionary! { "First" => ids[0] });
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Outlines" => outlines });
        doc.trailer.set("Root", catalog);
        let mut depth = 0;
        let mut level = read(&doc, &|_| Target::NotAPage);
        while let Some(first) = level.pop() {
            depth += 1;
            level = first.children;
        }
        assert_eq!(depth, MAX_DEPTH);
    }

    #[test]
    fn retain_keeps_parents_of_kept_children_and_moves_their_destination() {
        let items = vec![
            item("gone", Target::Page(0), vec![]),
            item(
                "chapter",
                Target::Page(1),
                vec![item("section", Target::Page(2), vec![])],
            ),
            item("web", Target::NotAPage, vec![]),
        ];
        let mut items = items;
        items[1].children[0]
            .dict
            .set("Dest", vec![Object::Integer(2)]);
        items[2].dict.set("A", dictionary! { "S" => "URI" });
        let kept = retain(&items, &|page| page == 2);
        let titles: Vec<String> = kept.iter().map(title).collect();
        assert_eq!(titles, ["chapter", "web"]);
        assert_eq!(kept[0].target, Target::Page(2));
        assert_eq!(
            kept[0].dict.get(b"Dest").ok(),
            Some(&Object::Array(vec![Object::Integer(2)]))
        );
    }

    #[test]
    fn written_counts_follow_open_state() {
        let mut closed = item(
            "closed",
            Target::NotAPage,
            vec![item("x", Target::NotAPage, vec![])],
        );
        closed.open = false;
        let items = vec![item("open", Target::NotAPage, vec![closed])];
        let mut doc = Document::new();
        let root = write(&mut doc, items)
            .expect("written")
            .expect("an outline");
        let count = |id: ObjectId| {
            doc.get_dictionary(id)
                .and_then(|d| d.get(b"Count"))
                .and_then(Object::as_i64)
                .ok()
        };
        assert_eq!(count(root), Some(2));
        let open = doc
            .get_dictionary(root)
            .and_then(|d| d.get(b"First"))
            .and_then(Object::as_reference);
        let open = open.expect("first");
        assert_eq!(count(open), Some(1));
        let closed = doc
            .get_dictionary(open)
            .and_then(|d| d.get(b"First"))
            .and_then(Object::as_reference);
        assert_eq!(count(closed.expect("child")), Some(-1));
    }
}
