//! The tool pages call the REST API with the session cookie instead of an API key. Such a call
//! must come from this site (Origin) and carry the session's anti-CSRF token in
//! `X-CSRF-Token`; it then reaches the core as `authorization: Session <token>`, counted like any
//! call. Calls with an `Authorization` header are left as they are.

use axum::{
    extract::{Request, State},
    http::{HeaderValue, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use quire_proto::v1::GetAccountRequest;

use super::session::{self, COOKIE, csrf_refusal, session_request};
use crate::EdgeState;

pub const CSRF_HEADER: &str = "x-csrf-token";

pub async fn authenticate(
    State(state): State<EdgeState>,
    mut request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    if headers.contains_key(header::AUTHORIZATION) {
        return next.run(request).await;
    }
    let Some(token) = session::cookie(headers, COOKIE) else {
        return next.run(request).await;
    };
    let sent = headers
        .get(CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    if !session::same_origin(headers) || sent.is_empty() {
        return csrf_refusal().into_response();
    }
    let expected = state
        .core
        .accounts
        .clone()
        .get_account(session_request(&token, GetAccountRequest {}))
        .await
        .map(|r| r.into_inner().csrf_token);
    match expected {
        Ok(expected) if session::constant_time_eq(expected.as_bytes(), sent.as_bytes()) => {}
        Ok(_) => return csrf_refusal().into_response(),
        Err(status) => return crate::problem::Problem::from(status).into_response(),
    }
    if let Ok(value) = HeaderValue::from_str(&format!("Session {token}")) {
        request.headers_mut().insert(header::AUTHORIZATION, value);
    }
    next.run(request).await
}
