//! GET /problems/{code}: what a problem `type` points at, so every error code is documented
//! where clients find it.

use axum::{Json, extract::Path, response::IntoResponse};
use quire_proto::ErrorCode;
use serde_json::json;

use crate::problem::Problem;

pub async fn describe(Path(code): Path<String>) -> Result<impl IntoResponse, Problem> {
    let code = ErrorCode::from_reason(&code)
        .ok_or_else(|| Problem::new(ErrorCode::NotFound, format!("no error code {code:?}")))?;
    Ok(Json(json!({
        "code": code.as_str(),
        "title": code.title(),
        "status": code.http_status(),
        "grpcCode": format!("{:?}", code.grpc_code()),
    })))
}
