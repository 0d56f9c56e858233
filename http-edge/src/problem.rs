//! RFC 9457 problem details: every error the edge answers is `application/problem+json`
//! `{type, title, status, detail, code}`, with the status and title from the shared table.

use axum::{
    Json,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use quire_proto::ErrorCode;
use serde::Serialize;
use tonic::Status;
use utoipa::{
    PartialSchema, ToSchema,
    openapi::{RefOr, Schema, Type, schema::ObjectBuilder},
};

use crate::forward;

#[derive(Debug)]
pub struct Problem {
    pub code: ErrorCode,
    pub detail: String,
    /// Boxed: problems travel through every `Result` of the edge and most carry none.
    pub headers: Box<HeaderMap>,
}

// The `Problem` schema of /openapi.json.
/// An RFC 9457 problem: the body of every error, sent as `application/problem+json`.
#[derive(Serialize, ToSchema)]
#[schema(as = Problem)]
pub(crate) struct Body<'a> {
    /// `/problems/{code}`: a URI reference that `GET` resolves to the code's description.
    #[serde(rename = "type")]
    #[schema(example = "/problems/daily-quota-exceeded")]
    kind: String,
    /// The code's summary: the same for every occurrence of the code.
    #[schema(example = "Daily quota exceeded")]
    title: &'a str,
    /// The HTTP status of the answer, repeated.
    #[schema(minimum = 400, maximum = 599, example = 429)]
    status: u16,
    /// What was wrong this time, and how to fix it.
    #[schema(
        example = "the Free plan allows 100 calls per UTC day and today's are used up: retry after 44921 s (next UTC midnight) or upgrade to Pro"
    )]
    detail: &'a str,
    /// The stable error code: the same string a gRPC client finds in
    /// `google.rpc.ErrorInfo.reason` (domain `quire`).
    #[schema(value_type = CodeName)]
    code: &'a str,
}

/// The `ErrorCode` schema: every code of the shared table, so that a code the document does not
/// know fails validation.
pub struct CodeName;

impl PartialSchema for CodeName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ErrorCode::ALL.iter().map(|code| code.as_str())))
            .examples([ErrorCode::DailyQuotaExceeded.as_str()])
            .into()
    }
}

impl ToSchema for CodeName {
    fn name() -> std::borrow::Cow<'static, str> {
        "ErrorCode".into()
    }
}

impl Problem {
    pub fn new(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self {
            code,
            detail: detail.into(),
            headers: Box::default(),
        }
    }

    /// The problem a core error stands for, with the core's metadata (rate-limit figures,
    /// `retry-after`, `content-range`) as headers.
    pub fn from_status(status: &Status) -> Self {
        let code = if connection_broke(status) {
            ErrorCode::CoreUnavailable
        } else {
            ErrorCode::from_status(status)
        };
        if code == ErrorCode::Internal {
            tracing::error!(status = ?status, "core call failed");
        }
        let detail = match (code, status.code()) {
            (ErrorCode::CoreUnavailable, _) => {
                tracing::warn!(message = status.message(), "core unreachable");
                "the service is temporarily unavailable: retry in a few seconds".to_owned()
            }
            (_, tonic::Code::ResourceExhausted) if status.message().contains("message length") => {
                format!("a message was over the size limit: {}", status.message())
            }
            _ => status.message().to_owned(),
        };
        let mut problem = Problem::new(code, detail);
        forward::copy_metadata(status.metadata(), &mut problem.headers);
        problem
    }
}

/// Whether the call's connection to the core broke (the core died or restarted mid-call):
/// tonic reports that as `Unknown` with the transport's error as its source. Like an
/// unreachable core, it is a 503 to retry, not an internal error.
fn connection_broke(status: &Status) -> bool {
    status.code() == tonic::Code::Unknown
        && std::error::Error::source(status).is_some_and(|e| e.is::<tonic::transport::Error>())
}

impl From<Status> for Problem {
    fn from(status: Status) -> Self {
        Problem::from_status(&status)
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.code.http_status())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = Body {
            kind: format!("/problems/{}", self.code.as_str()),
            title: self.code.title(),
            status: status.as_u16(),
            detail: &self.detail,
            code: self.code.as_str(),
        };
        let mut response = (status, Json(body)).into_response();
        let headers = response.headers_mut();
        headers.extend(*self.headers);
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        if matches!(status.as_u16(), 429 | 503) && !headers.contains_key(header::RETRY_AFTER) {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        }
        response
    }
}
