//! Annotations that point (`/P`) at a page no longer in the page tree: a page pulled out of a
//! larger document by a splitter that copied its annotations keeps dragging the other pages,
//! with their contents, fonts and images, into the file through them. `/P` is optional and a
//! page outside the tree is never drawn, so the stale reference goes and the orphan pages are
//! pruned with the other unused objects.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

/// Removes every annotation's `/P` that names a page outside the page tree.
pub fn unlink(doc: &mut Document) -> usize {
    let pages: HashSet<ObjectId> = doc.get_pages().into_values().collect();
    let mut removed = 0;
    for object in doc.objects.values_mut() {
        let Object::Dictionary(dict) = object else {
            continue;
        };
        let annotation = dict.get(b"Type").and_then(Object::as_name).ok() == Some(b"Annot")
            || (dict.has(b"Subtype") && dict.has(b"Rect"));
        if annotation
            && let Ok(Object::Reference(page)) = dict.get(b"P")
            && !pages.contains(page)
        {
            dict.remove(b"P");
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;
    use crate::test_pdf::one_page;

    #[test]
    fn only_references_to_pages_outside_the_tree_go() {
        let mut doc = Document::with_version("1.7");
        let page = one_page(&mut doc, dictionary! {}, dictionary! {});
        let orphan = doc.add_object(dictionary! {"Type" => "Page"});
        let rect = || vec![0.into(), 0.into(), 10.into(), 10.into()];
        let stale = doc.add_object(
            dictionary! {"Type" => "Annot", "Subtype" => "Widget", "Rect" => rect(), "P" => orphan},
        );
        let good = doc.add_object(dictionary! {"Subtype" => "Link", "Rect" => rect(), "P" => page});
        doc.get_dictionary_mut(page)
            .expect("page")
            .set("Annots", vec![stale.into(), good.into()]);
        assert_eq!(unlink(&mut doc), 1);
        assert!(!doc.get_dictionary(stale).expect("annot").has(b"P"));
        assert!(doc.get_dictionary(good).expect("annot").has(b"P"));
        doc.prune_objects();
        assert!(doc.get_object(orphan).is_err());
    }
}
