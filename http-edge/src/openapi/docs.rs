//! The document rendered by Swagger UI (npm `swagger-ui-dist`, pinned in web/package-lock.json
//! and embedded at build time: nothing is fetched from elsewhere), under the same strict CSP as
//! the web pages.

use axum::{
    extract::Path,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use quire_proto::ErrorCode;

use crate::problem::Problem;

/// Where the page is: `/docs` is already the web interface's endpoint summary (web/home.rs).
pub const PAGE: &str = "/docs";
pub const ASSETS: &str = "/docs/assets/{name}";

const HTML: &str = include_str!("docs.html");
/// The initialiser: a file of its own, as the CSP allows no inline script.
const INIT: &str = include_str!("docs.js");
const BUNDLE: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/web/node_modules/swagger-ui-dist/swagger-ui-bundle.js"
));
const STYLE: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/web/node_modules/swagger-ui-dist/swagger-ui.css"
));

/// The web pages' policy (web/layout.rs); Swagger UI's icons are `data:` images in its CSS.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

/// GET /docs.
pub async fn page() -> Response {
    // The page is tiny and names unversioned assets: revalidated on each visit.
    with_headers(HTML.as_bytes(), "text/html; charset=utf-8", "no-cache")
}

/// GET /docs/assets/{name}.
pub async fn asset(Path(name): Path<String>) -> Response {
    let (body, kind): (&'static [u8], _) = match name.as_str() {
        "swagger-ui-bundle.js" => (BUNDLE, "text/javascript; charset=utf-8"),
        "swagger-ui.css" => (STYLE, "text/css; charset=utf-8"),
        "init.js" => (INIT.as_bytes(), "text/javascript; charset=utf-8"),
        _ => return Problem::new(ErrorCode::NotFound, "no such asset").into_response(),
    };
    // As the web interface's assets (web/assets.rs).
    with_headers(body, kind, "public, max-age=3600")
}

fn with_headers(body: &'static [u8], kind: &'static str, cache: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_TYPE, kind),
        (header::CACHE_CONTROL, cache),
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "same-origin"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}
