//! The office engine against the real LibreOffice: every format, warmth, wrong types,
//! passwords, limits, network and cleanup.

mod office_support;

use std::io::ErrorKind;
use std::net::TcpListener;
use std::time::{Duration, Instant};

use office_support::{
    GENEROUS, fixture, is_live, live_processes_mentioning, office, pdf_pages, pdf_text,
};
use quire_convert::{ConvertError, Limits, process};

#[test]
fn every_format_converts_on_one_warm_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut office = office(dir.path());
    let cases = [
        ("docx", "text", 2),
        ("odt", "text", 2),
        ("rtf", "text", 2),
        ("xlsx", "spreadsheet", 1),
        ("ods", "spreadsheet", 1),
        ("pptx", "presentation", 1),
        ("odp", "presentation", 1),
    ];
    let mut soffice = None;
    for (kind, expected, pages) in cases {
        let word = format!("Quokka{kind}Marker");
        let input = fixture(dir.path(), kind, &word, None);
        let output = dir.path().join(format!("{kind}.pdf"));
        let started = Instant::now();
        let converted = office
            .convert(&input, &output, GENEROUS)
            .unwrap_or_else(|e| panic!("{kind}: {e}"));
        eprintln!("{kind}: {:?}", started.elapsed());
        assert_eq!(converted.kind, expected, "{kind}");
        assert!(
            pdf_text(&output).contains(&word),
            "{kind}: {word} not in the PDF"
        );
        assert_eq!(pdf_pages(&output), pages, "{kind}: page count");
        // Warm: every conversion after the first uses the same soffice.bin.
        let pid = office.soffice_pid().expect("a ready engine");
        assert_eq!(
            *soffice.get_or_insert(pid),
            pid,
            "{kind}: soffice was started again"
        );
    }
}

#[test]
fn wrong_types_and_passwords_are_unreadable_and_the_engine_survives() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut office = office(dir.path());
    office.start().expect("pre-warm");
    let soffice = office.soffice_pid().expect("ready after start");
    let output = dir.path().join("out.pdf");

    let pdf = dir.path().join("renamed.docx");
    std::fs::write(&pdf, b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n").expect("write");
    let random = dir.path().join("random.xlsx");
    std::fs::write(
        &random,
        (0..4096u32)
            .map(|i| (i * 7919 % 251) as u8)
            .collect::<Vec<_>>(),
    )
    .expect("write");
    // A ZIP that is no office document passes the first look and is refused by LibreOffice.
    let not_office = dir.path().join("archive.pptx");
    let status = std::process::Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w').writestr('a.txt', 'hello')",
        ])
        .arg(&not_office)
        .status()
        .expect("python3");
    assert!(status.success());
    for input in [&pdf, &random, &not_office] {
        match office.convert(input, &output, GENEROUS) {
            Err(ConvertError::Unreadable(message)) => eprintln!("{}: {message}", input.display()),
            other => panic!("{}: expected Unreadable, got {other:?}", input.display()),
        }
    }

    let protected = fixture(dir.path(), "odt-password", "Secret", None);
    match office.convert(&protected, &output, GENEROUS) {
        Err(ConvertError::Unreadable(message)) => {
            assert!(message.contains("password"), "{message}")
        }
        other => panic!("password: expected Unreadable, got {other:?}"),
    }

    let good = fixture(dir.path(), "docx", "AfterTheBadOnes", None);
    office
        .convert(&good, &output, GENEROUS)
        .expect("a good document after bad ones");
    assert!(pdf_text(&output).contains("AfterTheBadOnes"));
    assert_eq!(
        office.soffice_pid(),
        Some(soffice),
        "bad documents restarted the engine"
    );
}

#[test]
fn an_overrun_kills_the_engine_and_the_next_job_works() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut office = office(dir.path());
    office.start().expect("pre-warm");
    let first = office.soffice_pid().expect("ready");
    let input = fixture(dir.path(), "docx", "OverrunCase", None);
    let output = dir.path().join("out.pdf");

    let tiny_time = Limits {
        time: Duration::from_millis(1),
        memory: GENEROUS.memory,
    };
    match office.convert(&input, &output, tiny_time) {
        Err(ConvertError::OverLimit(message)) => assert!(message.contains("1 ms"), "{message}"),
        other => panic!("expected OverLimit, got {other:?}"),
    }
    let tiny_memory = Limits {
        time: GENEROUS.time,
        memory: 1 << 20,
    };
    match office.convert(&input, &output, tiny_memory) {
        Err(ConvertError::OverLimit(message)) => assert!(message.contains("memory"), "{message}"),
        other => panic!("expected OverLimit, got {other:?}"),
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while is_live(first) {
        assert!(
            Instant::now() < deadline,
            "the overrun engine {first} still runs"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    office
        .convert(&input, &output, GENEROUS)
        .expect("the next job on a new engine");
    assert!(pdf_text(&output).contains("OverrunCase"));
    assert_ne!(office.soffice_pid(), Some(first));
}

#[test]
fn linked_images_are_not_fetched() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    assert!(
        process::network_isolation(),
        "unshare --net must work on the test machine"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let mut office = office(dir.path());
    let link = format!("http://127.0.0.1:{port}/x.png");
    let input = fixture(dir.path(), "odt", "LinkedImage", Some(&link));
    let output = dir.path().join("out.pdf");
    office
        .convert(&input, &output, GENEROUS)
        .expect("converts without its image");
    assert!(pdf_text(&output).contains("LinkedImage"));
    match listener.accept() {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        Ok((_, peer)) => panic!("LibreOffice fetched the linked image (connection from {peer})"),
        Err(e) => panic!("accept: {e}"),
    }
}

#[test]
fn dropping_the_office_leaves_no_soffice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let profiles = dir.path().join("profiles");
    let mut office = office(dir.path());
    office.start().expect("start");
    let needle = profiles.to_str().expect("utf-8").to_owned();
    assert!(
        !live_processes_mentioning(&needle).is_empty(),
        "the engine is not seen running"
    );
    drop(office);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = live_processes_mentioning(&needle);
        if left.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "processes left after drop: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let engines: Vec<_> = std::fs::read_dir(&profiles)
        .expect("profile root")
        .flatten()
        .map(|e| e.file_name())
        .filter(|name| name.to_string_lossy().starts_with("quire-office-"))
        .collect();
    assert!(engines.is_empty(), "engine directories left: {engines:?}");
}
