//! grpc.health.v1 statuses, refreshed in the background: the overall status ("") is SERVING
//! only while the database, the blob store and the scanner all answer. Each component also has
//! its own entry (`quire.database`, `quire.store`, `quire.scanner`) so /readyz can say which failed.

use std::time::Duration;

use object_store::{ObjectStoreExt, PutPayload, path::Path};
use tonic_health::{ServingStatus, server::HealthReporter};

use crate::Core;

pub const DATABASE: &str = "quire.database";
pub const STORE: &str = "quire.store";
pub const SCANNER: &str = "quire.scanner";
const PROBE_KEY: &str = "health/probe";

pub async fn watch(core: Core, reporter: HealthReporter, every: Duration) {
    // Not ready until the first round has checked everything (tonic-health starts "" as SERVING).
    for name in ["", DATABASE, STORE, SCANNER] {
        reporter
            .set_service_status(name, ServingStatus::NotServing)
            .await;
    }
    let mut ticker = tokio::time::interval(every);
    loop {
        ticker.tick().await;
        let database = core.db.ping().await.map_err(|e| e.to_string());
        crate::telemetry::pool_gauges(&core.db);
        let store = probe_store(&core).await;
        let scanner = match &core.scanner {
            Some(scanner) => scanner.ping().await.map_err(|e| e.to_string()),
            None => Ok(()),
        };
        let mut all_ok = true;
        for (name, result) in [(DATABASE, database), (STORE, store), (SCANNER, scanner)] {
            let status = match result {
                Ok(()) => ServingStatus::Serving,
                Err(error) => {
                    tracing::warn!(component = name, %error, "not ready");
                    all_ok = false;
                    ServingStatus::NotServing
                }
            };
            reporter.set_service_status(name, status).await;
        }
        let overall = if all_ok {
            ServingStatus::Serving
        } else {
            ServingStatus::NotServing
        };
        reporter.set_service_status("", overall).await;
    }
}

/// Writes and reads back a tiny object, which proves the store is reachable and writable.
async fn probe_store(core: &Core) -> Result<(), String> {
    let path = Path::from(PROBE_KEY);
    core.store
        .put(&path, PutPayload::from_static(b"ok"))
        .await
        .map_err(|e| e.to_string())?;
    core.store
        .head(&path)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}
