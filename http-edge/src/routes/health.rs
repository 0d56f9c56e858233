//! /healthz: the edge is alive. /readyz: the core answers and its database, blob store and
//! scanner are all reachable (as the core's grpc.health.v1 reports them).

use std::collections::BTreeMap;

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse};
use serde::Serialize;
use tonic_health::pb::{HealthCheckRequest, health_check_response::ServingStatus};
use utoipa::ToSchema;

use crate::EdgeState;

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Alive {
    #[schema(pattern = "^ok$")]
    status: &'static str,
}

/// Whether the edge is alive.
///
/// Answers as long as the HTTP edge runs, whatever the state of the core.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "service",
    responses((status = 200, description = "The edge is alive.", body = Alive)),
)]
pub async fn healthz() -> impl IntoResponse {
    Json(Alive { status: "ok" })
}

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "ready", "checks": {"core": "ok", "database": "ok", "store": "ok", "scanner": "ok"}}))]
pub struct Readiness {
    #[schema(schema_with = readiness_status)]
    status: &'static str,
    /// `core`, then, when it answers, `database`, `store` and `scanner`: each `ok`,
    /// `unavailable`, or for the core `unreachable: <reason>`.
    checks: BTreeMap<&'static str, String>,
}

fn readiness_status() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(["ready", "not ready"]))
        .into()
}

/// The core's component entries, in the order they are reported.
const COMPONENTS: [(&str, &str); 3] = [
    ("database", "quire.database"),
    ("store", "quire.store"),
    ("scanner", "quire.scanner"),
];

/// Whether the service can take calls.
///
/// Ready when the core answers and its database, blob store and antivirus are reachable.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "service",
    responses(
        (status = 200, description = "Every component answers.", body = Readiness),
        (status = 503, description = "A component does not answer: `checks` says which.", body = Readiness,
            example = json!({"status": "not ready", "checks": {"core": "ok", "database": "ok", "store": "ok", "scanner": "unavailable"}})),
    ),
)]
pub async fn readyz(State(state): State<EdgeState>) -> impl IntoResponse {
    let mut health = state.core.health.clone();
    let mut checks = BTreeMap::new();
    let mut ready = true;
    let overall = health
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await;
    match overall {
        Err(status) => {
            ready = false;
            checks.insert("core", format!("unreachable: {}", status.message()));
        }
        Ok(_) => {
            checks.insert("core", "ok".to_owned());
            for (name, service) in COMPONENTS {
                let result = health
                    .check(HealthCheckRequest {
                        service: service.into(),
                    })
                    .await;
                let ok = result
                    .as_ref()
                    .is_ok_and(|r| r.get_ref().status == ServingStatus::Serving as i32);
                ready &= ok;
                checks.insert(name, if ok { "ok" } else { "unavailable" }.to_owned());
            }
        }
    }
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = Readiness {
        status: if ready { "ready" } else { "not ready" },
        checks,
    };
    (status, Json(body))
}
