//! The stylesheet and the script, compiled into the binary: the pages need nothing else.

use axum::{
    extract::Path,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};

use super::layout::secure;
use crate::problem::Problem;

const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/app.js");
/// The icon as pages link it (`rel="icon"`), and as `/favicon.ico` for what asks there
/// anyway (browsers on a page without the link, feed readers, bookmarks).
const ICON_SVG: &str = include_str!("assets/favicon.svg");
const ICON_ICO: &[u8] = include_bytes!("assets/favicon.ico");

/// GET /assets/{name}.
pub async fn serve(Path(name): Path<String>) -> Response {
    let (body, kind): (&'static [u8], _) = match name.as_str() {
        "style.css" => (STYLE.as_bytes(), "text/css; charset=utf-8"),
        "app.js" => (SCRIPT.as_bytes(), "text/javascript; charset=utf-8"),
        "favicon.svg" => (ICON_SVG.as_bytes(), "image/svg+xml"),
        _ => {
            return Problem::new(quire_proto::ErrorCode::NotFound, "no such asset").into_response();
        }
    };
    asset(body, kind)
}

/// GET /favicon.ico.
pub async fn favicon() -> Response {
    asset(ICON_ICO, "image/x-icon")
}

fn asset(body: &'static [u8], kind: &'static str) -> Response {
    let mut response = body.into_response();
    secure(&mut response);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}
