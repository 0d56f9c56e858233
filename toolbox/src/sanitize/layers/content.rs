//! A content stream without what its hidden sections paint, keeping what they change in
//! the graphics state.

use std::collections::HashSet;

use lopdf::Object;
use lopdf::content::Operation;

use super::planner::Scope;

pub(super) struct Filtered {
    pub(super) operations: Vec<Operation>,
    pub(super) changed: bool,
    /// XObject names drawn outside hidden content.
    pub(super) shown: HashSet<Vec<u8>>,
    /// XObject names drawn in hidden content (and so not any more).
    pub(super) hidden: HashSet<Vec<u8>>,
}

/// Operators that build a path, and those that end one.
const PATH: [&str; 7] = ["m", "l", "c", "v", "y", "h", "re"];
const PAINT: [&str; 10] = ["S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"];

pub(super) fn filter(operations: Vec<Operation>, scope: &Scope) -> Filtered {
    let mut out = Filtered {
        operations: Vec::with_capacity(operations.len()),
        changed: false,
        shown: HashSet::new(),
        hidden: HashSet::new(),
    };
    // Depth of marked content inside a hidden section; 0 outside one.
    let mut depth = 0usize;
    // A path being built inside hidden content, and whether it clips.
    let mut path: Vec<Operation> = Vec::new();
    let mut clips = false;
    let xobject = |op: &Operation| {
        op.operands
            .first()
            .and_then(|name| name.as_name().ok())
            .map(<[u8]>::to_vec)
    };
    for op in operations {
        let operator = op.operator.as_str();
        if depth == 0 {
            match operator {
                "BDC" if opens_hidden(&op, scope) => {
                    depth = 1;
                    out.changed = true;
                }
                "Do" => match xobject(&op) {
                    Some(name) if scope.hidden_xobjects.contains(&name) => out.changed = true,
                    Some(name) => {
                        out.shown.insert(name);
                        out.operations.push(op);
                    }
                    None => out.operations.push(op),
                },
                _ => out.operations.push(op),
            }
            continue;
        }
        match operator {
            "BMC" | "BDC" => depth += 1,
            "EMC" => {
                depth -= 1;
                if depth == 0 {
                    path.clear();
                    clips = false;
                }
            }
            "W" | "W*" => {
                clips = true;
                path.push(op);
            }
            _ if PATH.contains(&operator) => path.push(op),
            _ if PAINT.contains(&operator) => {
                // A clipping path still clips when hidden: it is kept, unpainted.
                if clips {
                    out.operations.append(&mut path);
                    out.operations.push(Operation::new("n", Vec::new()));
                }
                path.clear();
                clips = false;
            }
            // Showing text moves on; the move to the next line of ' and " is kept.
            "Tj" | "TJ" => {}
            "'" => out.operations.push(Operation::new("T*", Vec::new())),
            "\"" => {
                if let [word, character, _] = op.operands.as_slice() {
                    out.operations
                        .push(Operation::new("Tw", vec![word.clone()]));
                    out.operations
                        .push(Operation::new("Tc", vec![character.clone()]));
                }
                out.operations.push(Operation::new("T*", Vec::new()));
            }
            "Do" => {
                if let Some(name) = xobject(&op) {
                    out.hidden.insert(name);
                }
            }
            "sh" | "BI" | "MP" | "DP" => {}
            _ => out.operations.push(op),
        }
    }
    out.hidden.retain(|name| !out.shown.contains(name));
    out
}

fn opens_hidden(op: &Operation, scope: &Scope) -> bool {
    match op.operands.as_slice() {
        [Object::Name(tag), Object::Name(name)] => {
            tag == b"OC" && scope.hidden_properties.contains(name)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use lopdf::content::Content;

    use super::*;

    fn ops(content: &str) -> Vec<Operation> {
        Content::decode_strict(content.as_bytes())
            .expect("decodes")
            .operations
    }

    fn encode(operations: Vec<Operation>) -> String {
        let bytes = Content { operations }.encode().expect("encodes");
        String::from_utf8(bytes).expect("text").replace('\n', " ")
    }

    fn scope() -> Scope {
        Scope {
            hidden_properties: HashSet::from([b"oc1".to_vec()]),
            hidden_xobjects: HashSet::from([b"Hid".to_vec()]),
            ..Scope::default()
        }
    }

    #[test]
    fn hidden_sections_lose_their_paint_but_not_their_state() {
        let content = "/OC /oc1 BDC q 1 0 0 RG 0 0 m 10 10 l S 0 0 5 5 re W n \
                       BT /F1 9 Tf (secret) Tj (more) ' ET /Im1 Do /P BMC (x) Tj EMC EMC \
                       /OC /oc2 BDC (shown) Tj EMC /Hid Do /Im2 Do Q";
        let out = filter(ops(content), &scope());
        assert!(out.changed);
        assert_eq!(
            encode(out.operations),
            "q 1 0 0 RG 0 0 5 5 re W n BT /F1 9 Tf T* ET /OC /oc2 BDC (shown) Tj EMC /Im2 Do Q"
        );
        assert_eq!(out.hidden, HashSet::from([b"Im1".to_vec()]));
        assert_eq!(out.shown, HashSet::from([b"Im2".to_vec()]));
    }

    #[test]
    fn visible_content_is_unchanged() {
        let out = filter(ops("/OC /oc2 BDC (a) Tj EMC /Im1 Do"), &scope());
        assert!(!out.changed);
    }
}
