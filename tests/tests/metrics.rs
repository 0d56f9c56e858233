//! The Prometheus page (QUIRE_METRICS_ADDR) after real traffic: HTTP requests by route and
//! status with latency and bytes, a clamd scan, an engine job, a quota refusal and the
//! database pool, read back as a scraper reads them.

use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack, file_form,
    pdf_fixtures::{A4, text_pdf},
    test_config,
};
use reqwest::Client;

/// The value of the first sample of `name` whose labels include every one of `labels`.
fn sample(page: &str, name: &str, labels: &[&str]) -> Option<f64> {
    page.lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| {
            line.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
        })
        .find(|line| labels.iter().all(|label| line.contains(label)))
        .and_then(|line| line.rsplit(' ').next()?.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_page_counts_what_happened() {
    // The page first, as `quire serve` and `quire-core` start it before they open the core:
    // what the core records while it starts (the first database pool sample) is not lost.
    let metrics_addr = quire_proto::metrics_page::start(Some(([127, 0, 0, 1], 0).into()))
        .await
        .unwrap()
        .unwrap();
    let metrics_url = format!("http://{metrics_addr}/metrics");
    let stack = Stack::start_with(Db::Sqlite, test_config(&["--free-daily-calls", "2"])).await;
    let (_, key) = stack
        .account_with_key(Plan::Free, "upload,read,process")
        .await;
    let client = Client::new();

    let file = vec![b'q'; 50_000];
    let upload = client
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .multipart(file_form("q.txt", file.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(upload.status(), 201);
    let url = upload.json::<serde_json::Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let token = url.rsplit('/').next().unwrap();
    let download = client
        .get(stack.url(&format!("/f/{token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(download.bytes().await.unwrap().len(), file.len());
    let pdf = text_pdf(&[&["metrics page test"]], A4);
    let compress = client
        .post(stack.url("/api/v1/process/compress-pdf"))
        .bearer_auth(&key)
        .multipart(file_form("m.pdf", pdf))
        .send()
        .await
        .unwrap();
    assert_eq!(compress.status(), 200);
    // The third call of a two-call day.
    let refused = client
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .multipart(file_form("r.txt", b"again".to_vec()))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 429);
    let missing = client.get(stack.url("/no/such/page")).send().await.unwrap();
    assert_eq!(missing.status(), 404);

    let scrape = client.get(&metrics_url).send().await.unwrap();
    assert_eq!(scrape.status(), 200);
    assert!(
        scrape.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let page = scrape.text().await.unwrap();
    let has = |name: &str, labels: &[&str]| sample(&page, name, labels).unwrap_or(-1.0);
    let requests = "quire_http_requests_total";
    assert!(
        has(requests, &[r#"route="/api/upload""#, r#"status="201""#]) >= 1.0,
        "{page}"
    );
    assert!(
        has(requests, &[r#"route="/api/upload""#, r#"status="429""#]) >= 1.0,
        "{page}"
    );
    assert!(
        has(requests, &[r#"route="/f/{token}""#, r#"status="200""#]) >= 1.0,
        "{page}"
    );
    assert!(
        has(requests, &[r#"route="unmatched""#, r#"status="404""#]) >= 1.0,
        "{page}"
    );
    assert!(!page.contains(token), "a token leaked into a label");
    assert!(
        has(
            "quire_http_request_duration_seconds_count",
            &[r#"route="/api/v1/process/compress-pdf""#]
        ) >= 1.0
    );
    assert!(has("quire_http_request_bytes_total", &[]) >= file.len() as f64);
    assert!(
        has(
            "quire_http_response_bytes_total",
            &[r#"route="/f/{token}""#]
        ) >= file.len() as f64
    );
    assert!(
        has("quire_clamd_scans_total", &[r#"result="clean""#]) >= 1.0,
        "{page}"
    );
    assert!(has("quire_clamd_verdict_wait_seconds_count", &[]) >= 1.0);
    assert!(
        has(
            "quire_worker_jobs_total",
            &[r#"engine="compress""#, r#"outcome="done""#]
        ) >= 1.0,
        "{page}"
    );
    assert!(
        has(
            "quire_worker_job_duration_seconds_count",
            &[r#"engine="compress""#]
        ) >= 1.0
    );
    assert!(has("quire_worker_queue_depth", &[]) >= 0.0);
    assert!(
        has("quire_quota_refusals_total", &[r#"quota="daily""#]) >= 1.0,
        "{page}"
    );
    // Sampled by the core's health round (at start, then every 5 s): waited for, not assumed.
    let mut open = sample(&page, "quire_db_pool_connections", &[r#"state="open""#]);
    for _ in 0..70 {
        if open.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let page = client
            .get(&metrics_url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        open = sample(&page, "quire_db_pool_connections", &[r#"state="open""#]);
    }
    assert!(open.is_some_and(|n| n >= 1.0), "no pool gauge: {page}");
}
