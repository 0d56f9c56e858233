//! The OpenAPI 3.1 document of the REST API, generated from the handlers' `#[utoipa::path]`
//! annotations and the types they send and take, so it changes with the code. Served at
//! `/openapi.json`, rendered by Swagger UI at [`docs::PAGE`].

mod docs;
mod headers;
pub mod problems;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use axum::{
    Router,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
    routing::get,
};
use bytes::Bytes;
use quire_proto::ErrorCode;
use utoipa::{
    Modify, OpenApi,
    openapi::{
        ObjectBuilder, RefOr, Schema, Type,
        schema::AnyOfBuilder,
        security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
    },
};

use crate::{EdgeState, problem::Problem, routes};
use headers::Shared;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Quire API",
        description = "Upload files and get share links, extract text (OCR), compress PDFs, turn \
            PDFs into PNG pages and anonymize support tickets. Every `/api/` call takes \
            `Authorization: Bearer <API key>` (keys are created from the dashboard, \
            `/dashboard/api-keys`, with the scopes `upload`, `read`, `process`). Errors are RFC \
            9457 problems (`application/problem+json`) with a stable `code`; `GET \
            /problems/{code}` describes one. This is API v1: the processing endpoints carry \
            `/v1/` in their path.",
    ),
    servers((url = "/", description = "This server")),
    paths(
        routes::upload::upload,
        routes::share::download,
        routes::process::ocr,
        routes::process::compress_pdf,
        routes::process::pdf_to_images,
        routes::support::auto_reply,
        routes::problems::describe,
        routes::health::healthz,
        routes::health::readyz,
    ),
    components(schemas(crate::problem::Body)),
    tags(
        (name = "files", description = "Upload a file, download it from its share link."),
        (name = "processing", description = "OCR, PDF compression, PDF to images: answered at once, nothing stored."),
        (name = "support", description = "The support-ticket workflow."),
        (name = "service", description = "Error codes and health."),
    ),
    modifiers(&Security, &Head, &Shared),
)]
struct ApiDoc;

/// The bearer API key of every `/api/` endpoint.
struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "apiKey",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("qk_<40 letters and digits>")
                    .description(Some(
                        "An API key, `qk_` followed by 40 letters and digits, shown once when it \
                         is created. Its scopes decide which endpoints it may call.",
                    ))
                    .build(),
            ),
        );
    }
}

/// `GET /f/{token}` answers `HEAD` too (axum routes it to GET handlers, and the handler reads
/// nothing for it): the same operation without bodies, under an id of its own.
struct Head;

/// The GET operations documented with their HEAD.
const WITH_HEAD: [&str; 1] = ["download"];

impl Modify for Head {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            let Some(get) = &item.get else { continue };
            let Some(id) = get
                .operation_id
                .as_deref()
                .filter(|id| WITH_HEAD.contains(id))
            else {
                continue;
            };
            let mut head = get.clone();
            head.operation_id = Some(format!("{id}Head"));
            head.summary = get.summary.as_ref().map(|s| format!("{s} (headers only)"));
            for response in head.responses.responses.values_mut() {
                if let RefOr::T(response) = response {
                    response.content.clear();
                }
            }
            item.head = Some(head);
        }
    }
}

/// The document.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The document as served: built once.
static JSON: LazyLock<Result<Bytes, String>> = LazyLock::new(|| {
    document()
        .to_pretty_json()
        .map(Bytes::from)
        .map_err(|e| e.to_string())
});

/// An option field's schema, where an empty value, as an HTML form sends for a blank field, is
/// taken as the field left out.
pub fn blank_is_default(schema: impl Into<RefOr<Schema>>, description: &str) -> RefOr<Schema> {
    AnyOfBuilder::new()
        .item(schema)
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([""])),
        )
        .description(Some(format!("{description} Empty: as if left out.")))
        .into()
}

/// A one-page PDF with a text layer: the example file of the forms, so that the examples a
/// client (or schemathesis) sends go all the way through each endpoint. ASCII only, so that the
/// document can carry it as a string.
pub fn example_pdf() -> &'static str {
    include_str!("example.pdf")
}

/// GET /openapi.json.
async fn openapi_json() -> Response {
    match &*JSON {
        Ok(json) => {
            let mut response = json.clone().into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            // Revalidated on each use: the document changes when the server is upgraded.
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
        Err(error) => Problem::new(ErrorCode::Internal, format!("the document failed: {error}"))
            .into_response(),
    }
}

/// The document and its rendering.
pub fn routes() -> Router<EdgeState> {
    Router::new()
        .route("/openapi.json", get(openapi_json))
        .route(docs::PAGE, get(docs::page))
        .route(docs::ASSETS, get(docs::asset))
}
