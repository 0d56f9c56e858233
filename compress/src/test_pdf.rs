//! Building test documents: the page tree around one page, which every module's document
//! tests need.

use lopdf::{Dictionary, Document, Object, ObjectId, dictionary};

/// Makes `page` the document's only page and `catalog` its catalog (with the page tree);
/// returns the page's id.
pub fn one_page(doc: &mut Document, mut page: Dictionary, mut catalog: Dictionary) -> ObjectId {
    let pages_id = doc.new_object_id();
    page.set("Type", "Page");
    page.set("Parent", pages_id);
    let page = doc.add_object(page);
    doc.objects.insert(
        pages_id,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    catalog.set("Type", "Catalog");
    catalog.set("Pages", pages_id);
    let catalog = doc.add_object(catalog);
    doc.trailer.set("Root", catalog);
    page
}
