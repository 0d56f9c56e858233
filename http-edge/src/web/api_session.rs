//! The tool pages call the REST API with the session cookie instead of an API key. Such a call
//! must come from this site (Origin) and carry the session's anti-CSRF token in
//! `X-CSRF-Token`; it then reaches the core as `authorization: Session <token>`, counted like any
//! call. Calls with an `Authorization` header are left as they are.

use super::session::{self, COOKIE, LoggedIn, csrf_refusal};
use crate::{EdgeState, problem::Problem};
use axum::{
    extract::{Request, State},
    http::{HeaderValue, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

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
    let who = match LoggedIn::resolve(&state, token).await {
        Ok(who) => who,
        Err(status) => return Problem::from(status).into_response(),
    };
    if let Err(refusal) = who.check_form(request.headers(), &sent) {
        return refusal.into_response();
    }
    let token = who.token;
    if let Ok(value) = HeaderValue::from_str(&format!("Session {token}")) {
        request.headers_mut().insert(header::AUTHORIZATION, value);
    }
    next.run(request).await
}
