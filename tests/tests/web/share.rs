//! End-to-end encrypted shares in Chromium (tests/web/share.test.mjs): the sender's page and a
//! recipient's page in another browser context, against a stack whose blobs the script can
//! reach (to alter a chunk of ciphertext on disk). The files are written here, noise from a
//! seeded generator straight to disk: the large one never sits in the test's memory.

use std::{
    io::{BufWriter, Write},
    path::Path,
};

use quire_e2e::{Db, Stack, test_config};

const MIB: u64 = 1024 * 1024;

/// `size` bytes of xorshift noise (incompressible, like the files people share) into `path`.
fn noise_file(path: &Path, size: u64, seed: u64) {
    let mut out = BufWriter::with_capacity(MIB as usize, std::fs::File::create(path).unwrap());
    let mut x = seed | 1;
    let mut block = vec![0u8; MIB as usize];
    let mut left = size;
    while left > 0 {
        for word in block.chunks_exact_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            word.copy_from_slice(&x.to_le_bytes());
        }
        let n = left.min(MIB) as usize;
        out.write_all(&block[..n]).unwrap();
        left -= n as u64;
    }
    out.flush().unwrap();
}

/// Runs share.test.mjs against `stack` with a large file of `big_mib` MiB; its output.
async fn run(stack: &Stack, big_mib: u64, bench: bool) -> String {
    let fixtures = tempfile::tempdir().unwrap();
    let dir = fixtures.path().to_owned();
    // 5 chunks and a bit; 70 MiB (3 upload pieces of 32 MiB); the large one.
    noise_file(&dir.join("relevé été.bin"), 300 * 1024 + 17, 1);
    noise_file(&dir.join("medium.bin"), 70 * MIB + 5, 2);
    noise_file(&dir.join("big.bin"), big_mib * MIB, 3);
    // The log-in's own answer carries the cookie: its redirect is not followed.
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let session = stack.web_session(&http, "sender@example.com").await;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let web = root.join("web");
    assert!(
        web.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run scripts/setup.sh (npm ci in tests/web)"
    );
    let shots = root.join("../target/web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let session = std::ffi::OsString::from(session);
    let mut env = vec![
        ("QUIRE_WEB_BASE", stack.base.as_ref()),
        ("QUIRE_WEB_FIXTURES", dir.as_os_str()),
        ("QUIRE_WEB_SCREENSHOTS", shots.as_os_str()),
        ("QUIRE_WEB_SESSION", session.as_os_str()),
        ("QUIRE_WEB_DATA_DIR", stack.core.config.data_dir.as_os_str()),
    ];
    if bench {
        env.push(("QUIRE_SHARE_BENCH", "1".as_ref()));
    }
    let stdout = super::browser_test(&web.join("share.test.mjs"), &env, "share: all passed").await;
    drop(fixtures);
    stdout
}

/// Shares made and received in the browser, every way they can go wrong, and a 200 MiB file
/// both ways with the browser's memory bounded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encrypted_shares_in_chromium() {
    let stack = Stack::start(Db::Sqlite).await;
    let out = run(&stack, 200, false).await;
    assert!(out.contains("encrypt and upload"), "{out}");
}

/// `scripts/bench.sh share`: the 200 MiB file (QUIRE_BENCH_MIB) shared and received, and the
/// same bytes uploaded and downloaded plainly in the same browser. Plain uploads skip the
/// antivirus here, as encrypted ones do: the figures compare the transfers alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: scripts/bench.sh share"]
async fn share_throughput_in_chromium() {
    let mib = std::env::var("QUIRE_BENCH_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    // Room for the file twice (shared, then plain) at any size the bench is asked for.
    let stack = Stack::start_with(
        Db::Sqlite,
        test_config(&[
            "--insecure-no-scan",
            "--free-storage-quota",
            "1099511627776",
            "--max-upload-size",
            "68719476736",
        ]),
    )
    .await;
    run(&stack, mib, true).await;
}
