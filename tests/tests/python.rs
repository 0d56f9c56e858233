//! The same gRPC API from Python (grpcio, stubs generated from proto/ at run time), to prove
//! that other languages get exactly what Rust and REST clients get.

use quire_core::quota::Plan;
use quire_e2e::{Db, Stack, python};

/// Runs `tests/python/<script>` against the stack's gRPC address and `args`; it must exit 0
/// and print `done`.
async fn run_client(stack: &Stack, script: &str, args: &[&str], done: &str) {
    let script = format!("{}/python/{script}", env!("CARGO_MANIFEST_DIR"));
    let target = stack.grpc.trim_start_matches("http://");
    let output = tokio::process::Command::new(python())
        .arg(&script)
        .arg(target)
        .args(args)
        .output()
        .await
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{script} failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains(done), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_grpcio_client_gets_the_same_api() {
    let stack = Stack::start(Db::Sqlite).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload,read").await;
    run_client(&stack, "grpc_client.py", &[&key], "python grpc client: ok").await;
    // Upload and GetFile count; the share-token Download and the refused call do not.
    assert_eq!(stack.calls_today(account).await, 2);
}

/// grpcio's own reflection client (`grpc_reflection`, v1alpha only) builds every message of
/// every service from reflection alone, imports included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_reflection_client_builds_every_message() {
    let stack = Stack::start(Db::Sqlite).await;
    run_client(
        &stack,
        "reflection_client.py",
        &[],
        "python reflection client: ok",
    )
    .await;
}
