//! The HTTP series: `quire_http_requests_total{route,method,status}`,
//! `quire_http_request_duration_seconds{route,method}` and
//! `quire_http_{request,response}_bytes_total{route}`, the route being the matched pattern
//! (`/f/{token}`, never the token) or `unmatched`.

use std::time::Instant;

use axum::{
    extract::{MatchedPath, Request},
    middleware::Next,
    response::Response,
};

use super::body::Counted;

/// Route layer: copies the matched route into the response, where [`track`] (outside the
/// router, so that it also sees answers no route gave) reads it.
pub async fn mark_route(route: MatchedPath, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response.extensions_mut().insert(route);
    response
}

/// Outermost layer: counts and times every request, and the bytes of both bodies as they
/// stream (uploads and ZIPs have no length up front).
pub async fn track(request: Request, next: Next) -> Response {
    let method = request.method().as_str().to_owned();
    let start = Instant::now();
    let received = metrics::counter!("quire_http_request_bytes_total");
    let request = request.map(|body| Counted::wrap(body, received));
    let response = next.run(request).await;
    let route = response
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let status = response.status().as_u16().to_string();
    metrics::counter!(
        "quire_http_requests_total",
        "route" => route.clone(), "method" => method.clone(), "status" => status
    )
    .increment(1);
    metrics::histogram!(
        "quire_http_request_duration_seconds",
        "route" => route.clone(), "method" => method
    )
    .record(start.elapsed().as_secs_f64());
    let sent = metrics::counter!("quire_http_response_bytes_total", "route" => route);
    response.map(|body| Counted::wrap(body, sent))
}
