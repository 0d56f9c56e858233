//! Headers and header parameters, each defined once as a component. Handlers' annotations name
//! the ones their answers carry (`headers(("X-Page-Count"))`) and [`Shared`] turns the names into
//! references; it also adds what the layers around every handler add: `X-Request-Id` on every
//! answer, the Free plan's rate-limit figures on every `/api/` answer, `Retry-After` on 429 and
//! 503, `Content-Range` on 416 (the problem carries the core's metadata as headers).

use std::collections::BTreeMap;

use utoipa::{
    Modify,
    openapi::{
        HeaderBuilder, ObjectBuilder, OpenApi, Ref, RefOr, Required, Schema, Type,
        extensions::Extensions,
        header::Header,
        path::{Operation, Parameter, ParameterBuilder, ParameterIn, PathItem},
        response::Response,
    },
};

use super::problems;

pub const REQUEST_ID: &str = "X-Request-Id";
pub const RETRY_AFTER: &str = "Retry-After";
pub const CONTENT_RANGE: &str = "Content-Range";
/// What the core sends back with every Free-plan call (core-service/src/quota/daily.rs).
pub const RATE_LIMIT: [&str; 5] = [
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit-Policy",
    "RateLimit",
];

fn integer(minimum: i64, example: i64) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(minimum))
        .examples([example])
        .into()
}

fn string(example: &str) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .examples([example])
        .into()
}

fn pattern(pattern: &str, example: &str) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
        .examples([example])
        .into()
}

/// `(name, required wherever it is documented, schema, description)`.
fn definitions() -> Vec<(&'static str, bool, Schema, &'static str)> {
    vec![
        (
            REQUEST_ID,
            true,
            string("0193b1de-6f3a-7c4e-9b1d-2f5e8a7c3d10"),
            "The request's id: the client's own `X-Request-Id` when it sent one, otherwise a new \
             UUID. The server's log lines about the request carry it.",
        ),
        (
            "X-RateLimit-Limit",
            false,
            integer(0, 100),
            "Free plan: calls allowed per UTC day. Pro keys are not metered and get none of the \
             rate-limit headers.",
        ),
        (
            "X-RateLimit-Remaining",
            false,
            integer(0, 42),
            "Free plan: calls left today after this one.",
        ),
        (
            "X-RateLimit-Reset",
            false,
            integer(0, 1_795_392_000),
            "Free plan: the next UTC midnight, in seconds since the Unix epoch.",
        ),
        (
            "RateLimit-Policy",
            false,
            pattern(r#"^"daily";q=[0-9]+;w=86400$"#, r#""daily";q=100;w=86400"#),
            "Free plan: the quota as draft-ietf-httpapi-ratelimit-headers-09 writes it: `q` calls \
             per window of `w` seconds.",
        ),
        (
            "RateLimit",
            false,
            pattern(r#"^"daily";r=[0-9]+;t=[0-9]+$"#, r#""daily";r=42;t=3600"#),
            "Free plan: what is left of the quota (draft-ietf-httpapi-ratelimit-headers-09): `r` \
             calls left, `t` seconds until the reset.",
        ),
        (
            RETRY_AFTER,
            true,
            integer(0, 5),
            "Seconds to wait before retrying: until the next UTC midnight for the daily quota, a \
             few seconds otherwise.",
        ),
        (
            "Idempotent-Replayed",
            false,
            pattern("^true$", "true"),
            "Sent when this answer repeats the first answer to the request's `Idempotency-Key`.",
        ),
        (
            "Content-Disposition",
            true,
            string(
                "attachment; filename=\"report-compressed.pdf\"; filename*=UTF-8''report-compressed.pdf",
            ),
            "RFC 6266: an ASCII `filename` and the exact name as UTF-8 in `filename*`.",
        ),
        (
            "X-Original-Size",
            true,
            integer(0, 48_213),
            "Size of the PDF sent, in bytes.",
        ),
        (
            "X-Compressed-Size",
            true,
            integer(0, 30_124),
            "Size of the PDF returned, in bytes (the original's when compression could not make \
             it smaller).",
        ),
        (
            "X-Savings-Percent",
            true,
            pattern(r"^[0-9]+\.[0-9]{2}$", "37.52"),
            "Percentage of the original size saved, with two decimals (`0.00` when the original \
             came back unchanged).",
        ),
        (
            "X-Page-Count",
            true,
            integer(1, 3),
            "Pages converted: the ZIP holds `page-001.png` up to this number.",
        ),
        (
            "X-DPI",
            true,
            integer(72, 150),
            "Resolution of the PNG pages, in dots per inch.",
        ),
        (
            "ETag",
            true,
            pattern(r#"^"(blake3|sha256):[0-9a-f]{64}"$"#, "\"blake3:4d1c…\""),
            "The file's content digest, quoted: `blake3:<hex>` (`sha256:<hex>` for files stored \
             before BLAKE3). Check a download with `b3sum`.",
        ),
        (
            "Last-Modified",
            true,
            string("Sat, 21 Nov 2026 10:14:22 GMT"),
            "When the file was uploaded.",
        ),
        (
            "Content-Length",
            false,
            integer(0, 48_213),
            "Bytes in this answer's body (the range's for a 206).",
        ),
        (
            CONTENT_RANGE,
            true,
            pattern(r"^bytes ([0-9]+-[0-9]+|\*)/[0-9]+$", "bytes 0-1023/48213"),
            "206: the part sent and the file's size; 416: the file's size (`bytes */48213`).",
        ),
        (
            "Accept-Ranges",
            true,
            pattern("^bytes$", "bytes"),
            "Single byte ranges are served.",
        ),
        (
            "Cache-Control",
            true,
            string("private, no-cache"),
            "Caches revalidate with the `ETag` before reusing the file.",
        ),
        (
            "X-Content-Type-Options",
            true,
            pattern("^nosniff$", "nosniff"),
            "Browsers keep to the sent `Content-Type`.",
        ),
        (
            "Referrer-Policy",
            true,
            pattern("^no-referrer$", "no-referrer"),
            "The share link never leaks to the sites a shared file links to.",
        ),
        (
            "Content-Security-Policy",
            false,
            pattern("^sandbox$", "sandbox"),
            "Every type but PDF is sandboxed, so an uploaded page can never run in this origin.",
        ),
    ]
}

/// `#/components/headers`.
pub fn components() -> BTreeMap<String, RefOr<Header>> {
    definitions()
        .into_iter()
        .map(|(name, required, schema, description)| {
            let mut header = HeaderBuilder::new()
                .schema(Some(schema))
                .description(Some(description))
                .build();
            // OpenAPI's Header Object has `required`; utoipa's type lacks the field, and its
            // extensions are written flat into the object, so they carry it.
            if required {
                header.extensions = Some(Extensions::from_iter([("required", true)]));
            }
            (name.to_owned(), RefOr::T(header))
        })
        .collect()
}

pub const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

/// `#/components/parameters`.
pub fn parameters() -> BTreeMap<String, RefOr<Parameter>> {
    let key = ParameterBuilder::new()
        .name(IDEMPOTENCY_KEY)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "Makes a retry safe (draft-ietf-httpapi-idempotency-key-header): send a new unique \
             value, such as a UUID, with each new request, and the same value when retrying it. \
             For 24 hours (QUIRE_IDEMPOTENCY_TTL) a retry of a request that succeeded gets the \
             first answer again, marked `Idempotent-Replayed: true`, instead of running twice (no \
             second upload, no second call counted); a request that failed keeps nothing, so its \
             retry runs again. While the first request is still running, a retry gets 409 \
             `idempotency-key-in-use`; the key with a different request gets 422 \
             `idempotency-key-reused`. Keys are scoped to the account. 1 to 255 printable ASCII \
             characters, bare or as a Structured Field string (`\"8e03978e-…\"`); anything else \
             is 400 `invalid-idempotency-key`.",
        ))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                // What the core accepts (core-service/src/idempotency/key.rs): a bare key, not
                // starting with a quote, without surrounding spaces; or a quoted one whose
                // only escapes are \" and \\.
                .pattern(Some(
                    r#"^([!#-~]([ -~]{0,253}[!-~])?|"([ !#-\[\]-~]|\\["\\]){1,255}")$"#,
                ))
                .examples(["8e03978e-40d5-43e8-bc93-6894a57f9324"]),
        ))
        .build();
    let request_id = ParameterBuilder::new()
        .name(REQUEST_ID)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "Your id for this request: the answer's `X-Request-Id` echoes it and the server's \
             logs carry it. Without it the server makes one.",
        ))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .examples(["0193b1de-6f3a-7c4e-9b1d-2f5e8a7c3d10"]),
        ))
        .build();
    BTreeMap::from([
        (IDEMPOTENCY_KEY.to_owned(), RefOr::T(key)),
        (REQUEST_ID.to_owned(), RefOr::T(request_id)),
    ])
}

fn header_ref(name: &str) -> RefOr<Header> {
    RefOr::Ref(Ref::new(format!("#/components/headers/{name}")))
}

/// The document's shared components and the layers' headers (see the module's comment).
pub struct Shared;

impl Modify for Shared {
    fn modify(&self, openapi: &mut OpenApi) {
        let headers = components();
        let parameters = parameters();
        for (path, item) in openapi.paths.paths.iter_mut() {
            let metered = path.starts_with("/api/");
            for operation in operations(item) {
                link_parameters(operation, &parameters);
                for (status, response) in operation.responses.responses.iter_mut() {
                    let RefOr::T(response) = response else {
                        continue;
                    };
                    link_headers(response, &headers);
                    let mut names = vec![REQUEST_ID];
                    // A refused key is not counted, so its answer has no figures to give.
                    if metered && !matches!(status.as_str(), "401" | "403") {
                        names.extend(RATE_LIMIT);
                    }
                    match status.as_str() {
                        "429" | "503" => names.push(RETRY_AFTER),
                        "416" => names.push(CONTENT_RANGE),
                        _ => {}
                    }
                    for name in names {
                        response.headers.insert(name.to_owned(), header_ref(name));
                    }
                }
            }
        }
        let components = openapi.components.get_or_insert_with(Default::default);
        components.headers.extend(headers);
        components.parameters.extend(parameters);
        components
            .examples
            .extend(problems::cases().map(|case| (case.code.to_owned(), problems::example(&case))));
    }
}

/// A path's operations, whatever their methods.
pub fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
        &mut item.query,
    ]
    .into_iter()
    .filter_map(Option::as_mut)
}

/// A header an annotation named is replaced by its component; then every request may carry an
/// `X-Request-Id`.
fn link_parameters(operation: &mut Operation, shared: &BTreeMap<String, RefOr<Parameter>>) {
    let parameters = operation.parameters.get_or_insert_with(Vec::new);
    for parameter in parameters.iter_mut() {
        if let RefOr::T(p) = parameter
            && p.parameter_in == ParameterIn::Header
            && shared.contains_key(&p.name)
        {
            *parameter = RefOr::Ref(Ref::new(format!("#/components/parameters/{}", p.name)));
        }
    }
    parameters.push(RefOr::Ref(Ref::new(format!(
        "#/components/parameters/{REQUEST_ID}"
    ))));
}

fn link_headers(response: &mut Response, shared: &BTreeMap<String, RefOr<Header>>) {
    for (name, header) in response.headers.iter_mut() {
        if shared.contains_key(name) {
            *header = header_ref(name);
        }
    }
}

/// The value of a header component's `required`, for the tests.
#[cfg(test)]
pub fn is_required(header: &Header) -> bool {
    header
        .extensions
        .as_ref()
        .and_then(|e| e.get("required"))
        .is_some_and(|v| *v == serde_json::Value::Bool(true))
}
