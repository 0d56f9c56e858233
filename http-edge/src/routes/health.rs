//! /healthz: the edge is alive. /readyz: the core answers and its database, blob store and
//! scanner are all reachable (as the core's grpc.health.v1 reports them).

use axum::{Json, extract::State, http::StatusCode, response::IntoResponse};
use serde_json::{Map, Value, json};
use tonic_health::pb::{HealthCheckRequest, health_check_response::ServingStatus};

use crate::EdgeState;

pub async fn healthz() -> impl IntoResponse {
    Json(json!({ "status": "ok" }))
}

/// The core's component entries, in the order they are reported.
const COMPONENTS: [(&str, &str); 3] = [
    ("database", "quire.database"),
    ("store", "quire.store"),
    ("scanner", "quire.scanner"),
];

pub async fn readyz(State(state): State<EdgeState>) -> impl IntoResponse {
    let mut health = state.core.health.clone();
    let mut checks = Map::new();
    let mut ready = true;
    let overall = health
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await;
    match overall {
        Err(status) => {
            ready = false;
            checks.insert(
                "core".into(),
                json!(format!("unreachable: {}", status.message())),
            );
        }
        Ok(_) => {
            checks.insert("core".into(), json!("ok"));
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
                checks.insert(name.into(), json!(if ok { "ok" } else { "unavailable" }));
            }
        }
    }
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = json!({ "status": if ready { "ready" } else { "not ready" }, "checks": Value::Object(checks) });
    (status, Json(body))
}
