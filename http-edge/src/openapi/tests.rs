//! The document cannot drift from the code: these fail when a route, a form field, an error
//! code or a header changes on one side only.

use std::collections::BTreeSet;

use quire_proto::ErrorCode;
use serde_json::Value;

use super::{document, headers, problems};
use crate::routes::{process, upload};

fn json() -> Value {
    serde_json::to_value(document()).unwrap()
}

const METHODS: [&str; 9] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace", "query",
];

/// `(path, method)` of every operation in the document.
fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if item.get(method).is_some() {
                ops.insert((path.clone(), method.to_owned()));
            }
        }
    }
    ops
}

/// Paths app.rs routes by a constant rather than a literal.
const PATH_CONSTANTS: &[(&str, &str)] = &[("routes::tus::BASE", crate::routes::tus::BASE)];

/// The text of `source` up to the parenthesis that closes the one open before it.
fn until_close(source: &str) -> &str {
    let mut depth = 0;
    for (i, c) in source.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return &source[..i],
            ')' => depth -= 1,
            _ => {}
        }
    }
    panic!("unbalanced parentheses in app.rs")
}

/// The methods of a method router (`get(a).head(b)`): the calls at its top level.
fn methods(router: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut depth = 0;
    let mut word = String::new();
    for c in router.chars() {
        match c {
            '(' => {
                if depth == 0 && !word.is_empty() {
                    found.push(word.clone());
                }
                depth += 1;
            }
            ')' => depth -= 1,
            c if depth == 0 && (c.is_alphanumeric() || c == '_') => word.push(c),
            _ if depth == 0 => word.clear(),
            _ => {}
        }
    }
    found
}

/// `(path, method)` of every `.route(<path>, <methods>)` in app.rs, the router the REST API is
/// served by (the web interface's pages are routed in web/, the document in here).
fn routed() -> BTreeSet<(String, String)> {
    let source = include_str!("../app.rs");
    let mut ops = BTreeSet::new();
    for (start, _) in source.match_indices(".route(") {
        let args = until_close(&source[start + ".route(".len()..]);
        let (path, router) = args.split_once(',').unwrap();
        let path = path.trim();
        let path = match path.strip_prefix('"') {
            Some(literal) => literal.trim_end_matches('"'),
            None => {
                PATH_CONSTANTS
                    .iter()
                    .find(|(name, _)| *name == path)
                    .unwrap_or_else(|| panic!("app.rs routes {path}: add it to PATH_CONSTANTS"))
                    .1
            }
        };
        for method in methods(router) {
            ops.insert((path.to_owned(), method));
        }
    }
    assert!(
        ops.len() >= 8,
        "app.rs no longer reads as expected: {ops:?}"
    );
    ops
}

#[test]
fn the_route_reader_reads_chains() {
    assert_eq!(
        methods(" get(a::b(c)).head(d)\n .patch(e),"),
        ["get", "head", "patch"]
    );
    assert_eq!(until_close("x(y), z) tail"), "x(y), z");
}

#[test]
fn every_routed_endpoint_is_documented_and_nothing_else() {
    let routed = routed();
    let mut documented = documented(&json());
    // axum answers HEAD with the GET handler: a documented HEAD needs only the GET.
    documented.retain(|(path, method)| {
        method != "head" || !routed.contains(&(path.clone(), "get".to_owned()))
    });
    // tus 1.0 (/api/tus) is a protocol of its own, specified at tus.io and spoken by tus
    // clients rather than generated from a document; the README describes it.
    // The web toolbox (/tools/{tool}/run) is part of the web interface, not the public API:
    // SPEC names no endpoint for it and API keys are refused there. So are the encrypted
    // shares' routes (/s/{token}/…), which only their page calls (docs/sharing.md).
    let routed: BTreeSet<_> = routed
        .into_iter()
        .filter(|(path, _)| !path.starts_with(crate::routes::tus::BASE))
        .filter(|(path, _)| !path.starts_with("/tools/"))
        .filter(|(path, _)| !path.starts_with("/s/"))
        .collect();
    let undocumented: Vec<_> = routed.difference(&documented).collect();
    let unrouted: Vec<_> = documented.difference(&routed).collect();
    assert!(
        undocumented.is_empty() && unrouted.is_empty(),
        "routed but not in the document (annotate the handler with #[utoipa::path] and list it \
         in openapi/mod.rs): {undocumented:?}; in the document but not routed: {unrouted:?}"
    );
}

#[test]
fn the_document_is_openapi_3_1_and_every_reference_resolves() {
    let doc = json();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut stack = vec![&doc];
    let mut refs = 0;
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    let pointer = target.strip_prefix('#').unwrap();
                    assert!(
                        doc.pointer(pointer).is_some(),
                        "{target} resolves to nothing"
                    );
                    refs += 1;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    assert!(refs > 100, "{refs} references");
}

#[test]
fn every_error_code_has_an_example() {
    for &code in ErrorCode::ALL {
        assert!(
            problems::example_detail(code).is_some(),
            "{code}: add its example detail"
        );
    }
}

#[test]
fn operation_ids_are_unique() {
    let doc = json();
    let mut ids = BTreeSet::new();
    for (path, method) in documented(&doc) {
        let id = doc["paths"][&path][&method]["operationId"]
            .as_str()
            .unwrap();
        assert!(ids.insert(id.to_owned()), "{id} twice");
    }
}

/// The properties of a form schema.
fn fields(doc: &Value, schema: &str) -> BTreeSet<String> {
    let form = &doc["components"]["schemas"][schema];
    assert_eq!(form["additionalProperties"], false, "{schema}");
    form["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

fn expected(options: &[&str]) -> BTreeSet<String> {
    std::iter::once("file")
        .chain(options.iter().copied())
        .map(str::to_owned)
        .collect()
}

#[test]
fn forms_have_the_fields_the_handlers_accept() {
    let doc = json();
    assert_eq!(fields(&doc, "UploadForm"), expected(upload::FIELDS));
    assert_eq!(fields(&doc, "OcrForm"), expected(process::OCR_FIELDS));
    assert_eq!(
        fields(&doc, "CompressPdfForm"),
        expected(process::COMPRESS_FIELDS)
    );
    assert_eq!(
        fields(&doc, "PdfToImagesForm"),
        expected(process::PDF_TO_IMAGES_FIELDS)
    );
}

#[test]
fn problem_examples_are_under_their_status() {
    let doc = json();
    let mut seen = BTreeSet::new();
    for (path, method) in documented(&doc) {
        for (status, response) in doc["paths"][&path][&method]["responses"]
            .as_object()
            .unwrap()
        {
            let Some(content) = response["content"].get(problems::PROBLEM_JSON) else {
                // HEAD answers have no body; /readyz's 503 is its report.
                assert!(
                    method == "head" || path == "/readyz" || !status.starts_with(['4', '5']),
                    "{method} {path} {status}"
                );
                continue;
            };
            assert_eq!(content["schema"]["$ref"], "#/components/schemas/Problem");
            for (code, example) in content["examples"].as_object().unwrap() {
                let target = example["$ref"].as_str().unwrap().strip_prefix('#').unwrap();
                let value = &doc.pointer(target).unwrap()["value"];
                assert_eq!(
                    value["status"].to_string(),
                    *status,
                    "{code} under {status}"
                );
                let known = ErrorCode::from_reason(code).unwrap();
                assert_eq!(known.http_status().to_string(), *status);
                seen.insert(code.clone());
            }
        }
    }
    // Every code the responses list reaches an operation.
    for code in problems::listed_codes() {
        assert!(seen.contains(code), "{code} is listed but in no response");
    }
}

#[test]
fn every_answer_names_shared_headers_only() {
    let doc = json();
    let shared = doc["components"]["headers"].as_object().unwrap();
    for (path, method) in documented(&doc) {
        for (status, response) in doc["paths"][&path][&method]["responses"]
            .as_object()
            .unwrap()
        {
            let headers = response["headers"].as_object().unwrap();
            assert!(headers.contains_key(headers::REQUEST_ID), "{path} {status}");
            if ["429", "503"].contains(&status.as_str()) {
                assert!(
                    headers.contains_key(headers::RETRY_AFTER),
                    "{path} {status}"
                );
            }
            for (name, header) in headers {
                // A name an annotation misspells stays inline: it must be a reference.
                let target = header["$ref"].as_str().unwrap_or_default();
                assert_eq!(
                    target,
                    format!("#/components/headers/{name}"),
                    "{method} {path} {status} {name}"
                );
                assert!(shared.contains_key(name));
            }
        }
    }
    for (name, header) in headers::components() {
        let utoipa::openapi::RefOr::T(header) = header else {
            panic!("{name}")
        };
        let expected = !name.contains("RateLimit")
            && ![
                "Content-Length",
                "Content-Security-Policy",
                "Idempotent-Replayed",
            ]
            .contains(&name.as_str());
        assert_eq!(headers::is_required(&header), expected, "{name}");
    }
}

/// The five endpoints of SPEC.md, by operation id.
const SPEC_ENDPOINTS: [&str; 5] = [
    "upload",
    "ocr",
    "compress_pdf",
    "pdf_to_images",
    "auto_reply",
];

#[test]
fn api_endpoints_take_the_key_and_document_its_errors() {
    let doc = json();
    let mut spec = BTreeSet::new();
    for (path, method) in documented(&doc) {
        let op = &doc["paths"][&path][&method];
        // OPTIONS answers what a protocol offers, before any key.
        if path.starts_with("/api/") && method != "options" {
            assert_eq!(
                op["security"],
                serde_json::json!([{"apiKey": []}]),
                "{path}"
            );
        } else {
            assert!(op.get("security").is_none(), "{path} is public");
        }
        let id = op["operationId"].as_str().unwrap();
        if !SPEC_ENDPOINTS.contains(&id) {
            continue;
        }
        spec.insert(id);
        let statuses = op["responses"].as_object().unwrap();
        // SPEC section 7's statuses, and those of a retry with an Idempotency-Key.
        for status in ["400", "401", "403", "409", "413", "422", "429", "503"] {
            assert!(statuses.contains_key(status), "{path} lacks {status}");
        }
        let params: Vec<&str> = op["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["$ref"].as_str())
            .collect();
        assert!(
            params.contains(&"#/components/parameters/Idempotency-Key"),
            "{path}"
        );
    }
    assert_eq!(spec.len(), SPEC_ENDPOINTS.len(), "{spec:?}");
}
