//! The worker pool under failure: a worker killed mid-job, a job over its time limit, a full
//! queue. Each test kills or starves only its own workers (children of this test process), so
//! these tests live in their own binary.

use std::{io::Cursor, time::Duration};

use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack, file_form, noise,
    pdf_fixtures::{A4, scanned_pdf, text_pdf},
    problem, test_config,
};
use reqwest::Client;

/// Pages of grey noise: Tesseract spends seconds on each at 300 dpi.
fn slow_pdf(pages: usize) -> Vec<u8> {
    let page = {
        let pixels = noise(1200 * 1700, 11);
        let image = image::GrayImage::from_raw(1200, 1700, pixels).unwrap();
        let mut jpeg = Cursor::new(Vec::new());
        image.write_to(&mut jpeg, image::ImageFormat::Jpeg).unwrap();
        (jpeg.into_inner(), 1200, 1700)
    };
    scanned_pdf(&vec![page; pages], A4)
}

async fn ocr(stack: &Stack, key: &str, pdf: Vec<u8>) -> reqwest::Response {
    Client::new()
        .post(stack.url("/api/v1/process/ocr"))
        .bearer_auth(key)
        .multipart(file_form("doc.pdf", pdf))
        .send()
        .await
        .unwrap()
}

/// Worker processes started by this test process: its children, or their children when they
/// run in a bubblewrap view (bwrap stands between).
fn our_workers() -> Vec<u32> {
    let me: u32 = std::process::id();
    let processes: std::collections::HashMap<u32, (String, u32)> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // pid (comm) state ppid ...
            let (comm, rest) = stat.split_once(") ")?;
            let ppid = rest.split(' ').nth(1)?.parse().ok()?;
            Some((pid, (comm.to_owned(), ppid)))
        })
        .collect();
    let ours = |mut pid: u32| {
        for _ in 0..4 {
            match processes.get(&pid) {
                Some(&(_, ppid)) if ppid == me => return true,
                Some(&(_, ppid)) => pid = ppid,
                None => return false,
            }
        }
        false
    };
    processes
        .iter()
        .filter(|(pid, (comm, _))| comm.ends_with("quire-test-work") && ours(**pid))
        .map(|(pid, _)| *pid)
        .collect()
}

/// One test at a time: killing "our" workers must not hit another test's.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn assert_serving(stack: &Stack, key: &str) {
    let response = ocr(
        stack,
        key,
        text_pdf(&[&["still serving after the failure"]], A4),
    )
    .await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_job_fails_that_request_and_is_replaced() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start_with(Db::Sqlite, test_config(&["--workers", "1"])).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let request = ocr(&stack, &key, slow_pdf(6));
    let killer = async {
        // Wait until the job is running, then kill the worker.
        let mut victims = Vec::new();
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            victims = our_workers();
            if !victims.is_empty() {
                tokio::time::sleep(Duration::from_millis(700)).await;
                break;
            }
        }
        assert!(!victims.is_empty(), "no worker process found");
        for pid in &victims {
            std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status()
                .unwrap();
        }
        victims
    };
    let (response, victims) = tokio::join!(request, killer);
    let body = problem(response, 500, "processing-failed").await;
    assert!(body["detail"].as_str().unwrap().contains("retry"), "{body}");
    assert_serving(&stack, &key).await;
    let now = our_workers();
    assert!(
        !now.is_empty() && now.iter().all(|p| !victims.contains(p)),
        "replaced: {now:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_over_its_time_limit_is_a_422_and_the_next_one_runs() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start_with(
        Db::Sqlite,
        test_config(&["--workers", "1", "--job-timeout", "1"]),
    )
    .await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let body = problem(
        ocr(&stack, &key, slow_pdf(1)).await,
        422,
        "unprocessable-file",
    )
    .await;
    assert!(
        body["detail"].as_str().unwrap().contains("time limit"),
        "{body}"
    );
    assert_serving(&stack, &key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_answers_503_with_retry_after() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start_with(
        Db::Sqlite,
        test_config(&["--workers", "1", "--job-queue", "1"]),
    )
    .await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let pdf = slow_pdf(2);
    let responses = futures::future::join_all((0..4).map(|_| ocr(&stack, &key, pdf.clone()))).await;
    let mut busy = 0;
    for response in responses {
        if response.status() == 503 {
            assert_eq!(response.headers()["retry-after"], "5");
            problem(response, 503, "processing-busy").await;
            busy += 1;
        } else {
            assert_eq!(response.status(), 200);
        }
    }
    assert!(busy >= 1, "four requests for one worker and one queue slot");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_over_the_memory_limit_is_a_422_and_the_worker_is_replaced() {
    let _serial = ONE_AT_A_TIME.lock().await;
    // A worker maps about 150 MB before its first job; 400 MB leaves too little for a
    // 90-megapixel image (under the pixel cap) and Tesseract's copies of it.
    let stack = Stack::start_with(
        Db::Sqlite,
        test_config(&["--workers", "1", "--worker-memory", "400000000"]),
    )
    .await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let (width, height) = (10_000, 9_000);
    let image = image::GrayImage::from_fn(width, height, |x, y| {
        image::Luma([if (x / 40 + y / 40) % 7 == 0 { 0 } else { 255 }])
    });
    let mut png = Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).unwrap();
    let response = Client::new()
        .post(stack.url("/api/v1/process/ocr"))
        .bearer_auth(&key)
        .multipart(file_form("huge.png", png.into_inner()))
        .send()
        .await
        .unwrap();
    let body = problem(response, 422, "unprocessable-file").await;
    assert!(
        body["detail"].as_str().unwrap().contains("memory"),
        "{body}"
    );
    assert_serving(&stack, &key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_too_big_for_the_memory_limit_is_a_422() {
    let _serial = ONE_AT_A_TIME.lock().await;
    // The pixel cap raised out of the way: only the 400 MB memory limit stands in front of a
    // 50 x 50 inch page without a text layer, rendered at 300 dpi for OCR (15000 x 15000 RGB,
    // 675 MB).
    let stack = Stack::start_with(
        Db::Sqlite,
        test_config(&[
            "--workers",
            "1",
            "--worker-memory",
            "400000000",
            "--max-pixels",
            "1000000000",
        ]),
    )
    .await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let huge = text_pdf(&[&["big page"]], (3600.0, 3600.0));
    let body = problem(ocr(&stack, &key, huge).await, 422, "unprocessable-file").await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("memory") && detail.contains("15000x15000"),
        "{detail}"
    );
    assert_serving(&stack, &key).await;
}

/// Whether `pid` sees `path` in its view: its root, read through /proc/<pid>/root.
fn sees(pid: u32, path: &std::path::Path) -> bool {
    let inside = path.strip_prefix("/").expect("an absolute path");
    std::path::Path::new(&format!("/proc/{pid}/root"))
        .join(inside)
        .exists()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_sees_only_its_view_without_network() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start_with(Db::Sqlite, test_config(&["--workers", "1"])).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    // A job through the worker: its view holds what PDFium and Tesseract need.
    assert_serving(&stack, &key).await;
    let workers = our_workers();
    let worker = *workers.first().expect("a worker process");
    let cmdline = std::fs::read(format!("/proc/{worker}/cmdline")).expect("its command line");
    let args: Vec<String> = cmdline
        .split(|&b| b == 0)
        .map(|arg| String::from_utf8_lossy(arg).into_owned())
        .collect();
    let engines = args
        .iter()
        .position(|arg| arg == "--engine-dir")
        .map(|at| std::path::PathBuf::from(&args[at + 1]))
        .expect("--engine-dir");
    let data = engines.parent().expect("the data folder");
    assert!(
        sees(worker, &data.join("processing")),
        "the staging folder is not in the worker's view (or the test cannot look)"
    );
    for hidden in [
        data.join("quire.db"),
        data.join("blobs"),
        data.join("staging"),
        "/etc/passwd".into(),
        "/root".into(),
    ] {
        assert!(
            !sees(worker, &hidden),
            "the worker sees {}",
            hidden.display()
        );
    }
    let status = std::fs::read_to_string(format!("/proc/{worker}/status")).expect("its status");
    let effective = status
        .lines()
        .find_map(|line| line.strip_prefix("CapEff:"))
        .and_then(|caps| u64::from_str_radix(caps.trim(), 16).ok())
        .expect("its capabilities");
    const CAP_SYS_ADMIN: u64 = 1 << 21;
    assert_eq!(
        effective & CAP_SYS_ADMIN,
        0,
        "the worker can mount: {status}"
    );
    let environ = std::fs::read(format!("/proc/{worker}/environ")).expect("its environment");
    assert!(
        !String::from_utf8_lossy(&environ).contains("QUIRE_DATABASE_URL"),
        "the worker knows the database's address"
    );
    let ours = std::fs::read_link("/proc/self/ns/net").expect("our netns");
    let theirs = std::fs::read_link(format!("/proc/{worker}/ns/net")).expect("its netns");
    assert_ne!(ours, theirs, "the worker shares the core's network");
}
