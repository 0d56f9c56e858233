//! The verdicts: which objects are actions, files or annotations that go, and as what kind.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::{Kind, Options};

/// Actions that leave the document or bring something in (ISO 32000-1, 12.6.4).
const LINK_ACTIONS: [&[u8]; 8] = [
    b"URI",
    b"Launch",
    b"GoToR",
    b"GoToE",
    b"SubmitForm",
    b"ImportData",
    b"Sound",
    b"Movie",
];

/// What kind of action `dict` is, if it is one that goes.
fn action_kind(dict: &Dictionary, options: Options) -> Option<Kind> {
    let s = dict.get(b"S").and_then(Object::as_name).ok();
    if options.javascript && (dict.has(b"JS") || matches!(s, Some(b"JavaScript" | b"Rendition"))) {
        return Some(Kind::Script);
    }
    let s = s?;
    if options.links && LINK_ACTIONS.contains(&s) {
        return Some(Kind::Link);
    }
    (options.javascript && s == b"Launch").then_some(Kind::Script)
}

/// Whether `dict` goes where it is referenced, and as what: a condemned action, an embedded
/// file stream, a file attachment annotation, a link annotation whose action goes, a pop-up
/// whose annotation goes. `condemned` holds the verdicts on indirect objects so far.
pub(super) fn verdict(
    dict: &Dictionary,
    stream: bool,
    condemned: &HashMap<ObjectId, Kind>,
    options: Options,
) -> Option<Kind> {
    if let Some(kind) = action_kind(dict, options) {
        return Some(kind);
    }
    if stream {
        return (options.embedded_files && dict.has_type(b"EmbeddedFile"))
            .then_some(Kind::Embedded);
    }
    let subtype = dict.get(b"Subtype").and_then(Object::as_name).ok()?;
    let follow = |key: &[u8]| match dict.get(key).ok()? {
        Object::Reference(id) => condemned.get(id).copied(),
        Object::Dictionary(action) => action_kind(action, options),
        _ => None,
    };
    match subtype {
        b"FileAttachment" if options.embedded_files => Some(Kind::Embedded),
        b"Link" => follow(b"A"),
        b"Popup" => follow(b"Parent"),
        _ => None,
    }
}

/// The verdicts on indirect objects: actions and attachments first, then the link
/// annotations whose actions go, then the pop-ups of annotations that go.
pub(super) fn condemn(doc: &Document, options: Options) -> HashMap<ObjectId, Kind> {
    let mut condemned = HashMap::new();
    for round in 0..3 {
        let mut found = Vec::new();
        for (&id, object) in &doc.objects {
            if condemned.contains_key(&id) {
                continue;
            }
            let (dict, stream) = match object {
                Object::Dictionary(dict) => (dict, false),
                Object::Stream(stream) => (&stream.dict, true),
                _ => continue,
            };
            let subtype = dict.get(b"Subtype").and_then(Object::as_name).ok();
            let wanted = match round {
                0 => !matches!(subtype, Some(b"Link" | b"Popup")),
                1 => subtype == Some(b"Link"),
                _ => subtype == Some(b"Popup"),
            };
            if wanted && let Some(kind) = verdict(dict, stream, &condemned, options) {
                found.push((id, kind));
            }
        }
        condemned.extend(found);
    }
    condemned
}

#[cfg(test)]
mod tests {
    use lopdf::dictionary;

    use super::*;

    const ALL: Options = Options {
        javascript: true,
        embedded_files: true,
        links: true,
    };

    #[test]
    fn actions_are_judged_by_their_type() {
        let js =
            dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("app.alert(1)") };
        let uri = dictionary! { "S" => "URI", "URI" => Object::string_literal("https://x") };
        let goto = dictionary! { "S" => "GoTo", "D" => vec![Object::Integer(0)] };
        let launch = dictionary! { "S" => "Launch" };
        let struct_elem = dictionary! { "S" => "Link", "Type" => "StructElem" };
        assert_eq!(action_kind(&js, ALL), Some(Kind::Script));
        assert_eq!(action_kind(&uri, ALL), Some(Kind::Link));
        assert_eq!(action_kind(&goto, ALL), None);
        assert_eq!(action_kind(&struct_elem, ALL), None);
        assert_eq!(action_kind(&launch, ALL), Some(Kind::Link));
        let scripts_only = Options {
            javascript: true,
            embedded_files: false,
            links: false,
        };
        assert_eq!(action_kind(&launch, scripts_only), Some(Kind::Script));
        assert_eq!(action_kind(&uri, scripts_only), None);
    }
}
