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

/// GET /assets/{name}.
pub async fn serve(Path(name): Path<String>) -> Response {
    let (body, kind) = match name.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "app.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        _ => {
            return Problem::new(quire_proto::ErrorCode::NotFound, "no such asset").into_response();
        }
    };
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
