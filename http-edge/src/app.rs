//! The router: the REST paths of SPEC section 4, share links, health, and the middleware every
//! request goes through (request id, tracing).

use axum::{
    Router,
    extract::DefaultBodyLimit,
    http::{HeaderName, Request},
    middleware,
    routing::{get, post},
};
use quire_proto::ErrorCode;
use tower::ServiceBuilder;
use tower_http::{
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

use crate::{
    CoreClients,
    host::{self, AllowedHosts},
    linger, metrics,
    problem::Problem,
    routes, web,
};

#[derive(Clone)]
pub struct EdgeState {
    pub core: CoreClients,
    /// Largest support-workflow JSON body (QUIRE_MAX_TICKET_SIZE).
    pub max_ticket: usize,
    /// Session cookies get `Secure` (QUIRE_BASE_URL is https).
    pub secure_cookies: bool,
    /// Peers whose `X-Forwarded-For` names the client (QUIRE_TRUSTED_PROXIES).
    pub trusted_proxies: std::sync::Arc<[std::net::IpAddr]>,
    /// The hosts answered for (QUIRE_BASE_URL's, QUIRE_ALLOWED_HOSTS); others get 421.
    pub allowed_hosts: std::sync::Arc<AllowedHosts>,
}

pub fn app(state: EdgeState) -> Router {
    let request_id = HeaderName::from_static(quire_proto::metadata::REQUEST_ID);
    let allowed_hosts = state.allowed_hosts.clone();
    let api = Router::new()
        .route("/api/upload", post(routes::upload::upload))
        .route("/api/v1/process/ocr", post(routes::process::ocr))
        .route(
            "/api/v1/process/compress-pdf",
            post(routes::process::compress_pdf),
        )
        .route(
            "/api/v1/process/pdf-to-images",
            post(routes::process::pdf_to_images),
        )
        .route(
            routes::tus::BASE,
            post(routes::tus::create).options(routes::tus::options),
        )
        .route(
            "/api/tus/{id}",
            get(routes::tus::file)
                .head(routes::tus::head)
                .patch(routes::tus::patch)
                .delete(routes::tus::delete),
        )
        .route("/tools/{tool}/run", post(crate::toolbox::run))
        // Streaming handlers read the raw body; no size cap here, the core enforces the limits.
        .layer(DefaultBodyLimit::disable())
        .route(
            "/api/workflows/support/auto",
            post(routes::support::auto_reply),
        )
        // The tool pages call these with the session cookie instead of a key.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            web::api_session::authenticate,
        ))
        // Outermost, so an early answer from any layer above still lets the client finish.
        .layer(middleware::from_fn(linger::linger));
    Router::new()
        .merge(api)
        .merge(web::routes())
        .merge(crate::openapi::routes())
        .route("/f/{token}", get(routes::share::download))
        .route("/s/{token}/info", get(routes::encrypted_share::info))
        .route(
            "/s/{token}/challenge",
            post(routes::encrypted_share::challenge),
        )
        .route("/s/{token}/open", post(routes::encrypted_share::open))
        .route("/s/{token}/claim", post(routes::encrypted_share::claim))
        .route("/healthz", get(routes::health::healthz))
        .route("/readyz", get(routes::health::readyz))
        .route("/problems/{code}", get(routes::problems::describe))
        // After every route: each answer carries its route pattern out to `metrics::track`.
        .route_layer(middleware::from_fn(metrics::mark_route))
        .fallback(|| async { Problem::new(ErrorCode::NotFound, "no such endpoint: see the API documentation") })
        .method_not_allowed_fallback(|| async {
            Problem::new(ErrorCode::MethodNotAllowed, "this endpoint does not take that method")
        })
        .with_state(state)
        .layer(
            ServiceBuilder::new()
                .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
                .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                    let request_id = request
                        .headers()
                        .get(quire_proto::metadata::REQUEST_ID)
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    tracing::info_span!("http", method = %request.method(), path = %request.uri().path(), request_id)
                }))
                .layer(PropagateRequestIdLayer::new(request_id)),
        )
        // Before any route or session is looked at: a host Quire does not serve is refused.
        .layer(middleware::from_fn_with_state(allowed_hosts, host::check))
        // Outermost: counts every request, those no route answered included.
        .layer(middleware::from_fn(metrics::track))
}
