//! The document's structures as ISO 32000-1 defines them, which a PDF/A file must follow
//! like any PDF: the page tree (each page's /Parent, each node's /Count), destinations
//! (explicit arrays, named destinations), page labels.

use lopdf::{Document, Object, ObjectId};

use super::super::dests;
use super::Findings;

pub fn check(doc: &Document, f: &mut Findings) {
    page_tree(doc, f);
    for (id, object) in &doc.objects {
        let Ok(dict) = object.as_dict() else {
            continue;
        };
        let goto = matches!(
            dict.get(b"S").and_then(Object::as_name),
            Ok(b"GoTo" | b"GoToR")
        );
        for (key, applies) in [(b"Dest".as_slice(), true), (b"D", goto)] {
            if !applies {
                continue;
            }
            if let Ok(value) = dict.get(key)
                && !usable(value)
            {
                f.syntax(format!(
                    "object {} {} has a destination that is not one",
                    id.0, id.1
                ));
            }
        }
        if let Ok(Object::Dictionary(action)) = dict.get(b"A")
            && matches!(
                action.get(b"S").and_then(Object::as_name),
                Ok(b"GoTo" | b"GoToR")
            )
            && !action.get(b"D").is_ok_and(usable)
        {
            f.syntax(format!(
                "object {} {} has a link to a destination that is not one",
                id.0, id.1
            ));
        }
    }
    named(doc, f);
    labels(doc, f);
}

fn usable(value: &Object) -> bool {
    match value {
        Object::Name(_) | Object::String(..) => true,
        Object::Array(items) => dests::valid(items),
        _ => false,
    }
}

fn page_tree(doc: &Document, f: &mut Findings) {
    let Some(root) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Pages").ok())
        .and_then(|p| p.as_reference().ok())
    else {
        f.syntax("the catalog has no page tree");
        return;
    };
    let mut seen = std::collections::HashSet::new();
    if count(doc, root, None, &mut seen, f, 0).is_none() {
        f.syntax("the page tree is not a tree");
    }
}

/// The pages under `node`, checking /Parent and /Count on the way.
fn count(
    doc: &Document,
    node: ObjectId,
    parent: Option<ObjectId>,
    seen: &mut std::collections::HashSet<ObjectId>,
    f: &mut Findings,
    depth: usize,
) -> Option<i64> {
    if depth > 64 || !seen.insert(node) {
        return None;
    }
    let dict = doc.get_dictionary(node).ok()?;
    if let Some(parent) = parent
        && dict.get(b"Parent").and_then(Object::as_reference).ok() != Some(parent)
    {
        f.syntax(format!(
            "object {} {} of the page tree does not name its parent",
            node.0, node.1
        ));
    }
    if dict.has_type(b"Page") {
        return Some(1);
    }
    if !dict.has_type(b"Pages") {
        f.syntax(format!(
            "object {} {} of the page tree is neither a page nor a node",
            node.0, node.1
        ));
        return None;
    }
    let kids = doc
        .dereference(dict.get(b"Kids").ok()?)
        .ok()?
        .1
        .as_array()
        .ok()?;
    let mut total = 0;
    for kid in kids {
        total += count(
            doc,
            kid.as_reference().ok()?,
            Some(node),
            seen,
            f,
            depth + 1,
        )?;
    }
    if dict.get(b"Count").and_then(Object::as_i64).ok() != Some(total) {
        f.syntax(format!(
            "the page tree node {} {} has a wrong /Count",
            node.0, node.1
        ));
    }
    Some(total)
}

fn named(doc: &Document, f: &mut Findings) {
    let good = |value: &Object| match value {
        Object::Array(items) => dests::valid(items),
        Object::Dictionary(d) => d
            .get(b"D")
            .is_ok_and(|d| matches!(d, Object::Array(items) if dests::valid(items))),
        _ => false,
    };
    for (name, value) in crate::names::tree_entries(doc)
        .into_iter()
        .chain(crate::names::dict_entries(doc))
    {
        if !good(&value) {
            f.syntax(format!(
                "the named destination {} is not a destination written in place",
                String::from_utf8_lossy(&name)
            ));
        }
    }
}

fn labels(doc: &Document, f: &mut Findings) {
    let Some(labels) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"PageLabels").ok())
        .and_then(|l| doc.dereference(l).ok())
        .and_then(|(_, l)| l.as_dict().ok())
    else {
        return;
    };
    let items = labels
        .get(b"Nums")
        .ok()
        .and_then(|n| doc.dereference(n).ok())
        .and_then(|(_, n)| n.as_array().ok());
    for item in items.into_iter().flatten() {
        if !matches!(item, Object::Integer(_) | Object::Dictionary(_)) {
            f.syntax("a page label is not written in place in the page label tree");
        }
    }
}
