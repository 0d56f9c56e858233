//! GET /problems/{code}: what a problem `type` points at, so every error code is documented
//! where clients find it.

use axum::{Json, extract::Path};
use quire_proto::ErrorCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    openapi::problems::UnknownCode,
    problem::{CodeName, Problem},
};

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({
    "code": "daily-quota-exceeded", "title": "Daily quota exceeded", "status": 429,
    "grpcCode": "ResourceExhausted"
}))]
pub struct CodeDescription {
    #[schema(value_type = CodeName)]
    code: &'static str,
    /// The `title` of its problems.
    title: &'static str,
    /// The HTTP status of its problems.
    status: u16,
    /// The gRPC status code a gRPC client gets with it (`google.rpc.Code`, as tonic names it).
    grpc_code: String,
}

/// Describe an error code.
///
/// Every problem's `type` is `/problems/{code}`: this is what it points at.
#[utoipa::path(
    get,
    path = "/problems/{code}",
    tag = "service",
    params(("code" = CodeName, Path, description = "An error code: a problem's `code`.",
        example = "daily-quota-exceeded")),
    responses(
        (status = 200, description = "The code's title, HTTP status and gRPC code.", body = CodeDescription),
        (status = 404, response = inline(UnknownCode)),
    ),
)]
pub async fn describe(Path(code): Path<String>) -> Result<Json<CodeDescription>, Problem> {
    let code = ErrorCode::from_reason(&code)
        .ok_or_else(|| Problem::new(ErrorCode::NotFound, format!("no error code {code:?}")))?;
    Ok(Json(CodeDescription {
        code: code.as_str(),
        title: code.title(),
        status: code.http_status(),
        grpc_code: format!("{:?}", code.grpc_code()),
    }))
}
