//! The same gRPC API from Python (grpcio, stubs generated from proto/ at run time), to prove
//! that other languages get exactly what Rust and REST clients get.

use quire_core::quota::Plan;
use quire_e2e::{Db, Stack};

/// The interpreter with grpcio installed: the setup's venv unless QUIRE_TEST_PYTHON says else.
fn python() -> String {
    std::env::var("QUIRE_TEST_PYTHON").unwrap_or_else(|_| {
        let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/../.cache/venv/bin/python");
        if std::path::Path::new(venv).exists() {
            venv.to_owned()
        } else {
            "python3".to_owned()
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_grpcio_client_gets_the_same_api() {
    let stack = Stack::start(Db::Sqlite).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload,read").await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/python/grpc_client.py");
    let target = stack.grpc.trim_start_matches("http://").to_owned();
    let output = tokio::process::Command::new(python())
        .arg(script)
        .arg(&target)
        .arg(&key)
        .output()
        .await
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "python client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("python grpc client: ok"), "{stdout}");
    // Upload and GetFile count; the share-token Download and the refused call do not.
    assert_eq!(stack.calls_today(account).await, 2);
}

/// grpcio's own reflection client (`grpc_reflection`, v1alpha only) builds every message of
/// every service from reflection alone, imports included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_reflection_client_builds_every_message() {
    let stack = Stack::start(Db::Sqlite).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/python/reflection_client.py");
    let target = stack.grpc.trim_start_matches("http://").to_owned();
    let output = tokio::process::Command::new(python())
        .arg(script)
        .arg(&target)
        .output()
        .await
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "python reflection client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("python reflection client: ok"), "{stdout}");
}
