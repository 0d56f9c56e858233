//! One file per group of REST endpoints; each handler translates, calls the core, maps back.

pub mod encrypted_share;
pub mod health;
pub mod problems;
pub mod process;
pub mod share;
pub mod support;
pub mod tus;
pub mod upload;

use axum::{
    http::HeaderMap,
    response::{IntoResponse, Response},
};

use crate::forward;

/// A JSON body with the core's response metadata as headers.
pub fn json_with_metadata<T: serde::Serialize>(
    status: axum::http::StatusCode,
    metadata: &tonic::metadata::MetadataMap,
    body: T,
) -> Response {
    let mut headers = HeaderMap::new();
    forward::copy_metadata(metadata, &mut headers);
    (status, headers, axum::Json(body)).into_response()
}
