//! The supervision both engines use (`quire_convert::process`), against real processes, and
//! the view a real LibreOffice runs in.

mod office_support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::{Duration, Instant};

use quire_convert::Limits;
use quire_convert::process::{Overrun, Spawn, Supervised, network_isolation, watch};

fn is_live(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .and_then(|rest| rest.split_whitespace().next());
    state.is_some_and(|s| s != "Z" && s != "X")
}

/// A shell that starts a grandchild in its own session (out of the group), prints its pid.
fn family() -> Supervised {
    let mut spawn = Spawn::new("/bin/sh");
    spawn.args = vec!["-c".into(), "setsid sleep 300 & echo $!; sleep 300".into()];
    spawn.stdout_piped = true;
    Supervised::spawn(spawn).expect("sh starts")
}

/// The grandchild's pid as the test sees it (the shell prints it from inside the engine's pid
/// namespace when the engine runs in a view).
fn grandchild(engine: &mut Supervised) -> u32 {
    let mut line = String::new();
    BufReader::new(engine.stdout().expect("piped"))
        .read_line(&mut line)
        .expect("pid line");
    let inner = line.trim().parse().expect("a pid");
    engine
        .outer_pid(inner)
        .expect("the grandchild in the engine's tree")
}

#[test]
fn a_time_overrun_kills_the_whole_tree() {
    let mut engine = family();
    let escaped = grandchild(&mut engine);
    assert!(engine.tree_rss() > 0);
    let started = Instant::now();
    let limits = Limits {
        time: Duration::from_millis(200),
        memory: u64::MAX,
    };
    let result = watch(&engine, limits, || {
        std::thread::sleep(Duration::from_secs(3))
    });
    assert_eq!(result, Err(Overrun::Time));
    assert!(started.elapsed() < Duration::from_secs(4));
    assert!(!engine.is_alive());
    let deadline = Instant::now() + Duration::from_secs(5);
    while is_live(escaped) {
        assert!(
            Instant::now() < deadline,
            "the grandchild outside the group survived"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_memory_overrun_is_seen_and_a_quiet_job_passes() {
    let mut engine = family();
    let _ = grandchild(&mut engine);
    let roomy = Limits {
        time: Duration::from_secs(10),
        memory: 1 << 30,
    };
    assert_eq!(watch(&engine, roomy, || 7), Ok(7));
    assert!(engine.is_alive());
    let tight = Limits {
        time: Duration::from_secs(10),
        memory: 1024,
    };
    let result = watch(&engine, tight, || {
        std::thread::sleep(Duration::from_secs(3))
    });
    assert!(
        matches!(result, Err(Overrun::Memory { rss }) if rss > 1024),
        "{result:?}"
    );
    engine.kill();
    engine.kill(); // idempotent
    assert!(!engine.is_alive());
}

#[test]
fn engines_run_without_the_workers_network() {
    assert!(
        network_isolation(),
        "unshare --net must work on the test machine"
    );
    let mut engine = family();
    // Once the shell speaks, the wrappers (unshare or bwrap first) have all run.
    let sleeper = grandchild(&mut engine);
    let ours = std::fs::read_link("/proc/self/ns/net").expect("our netns");
    let theirs = std::fs::read_link(format!("/proc/{sleeper}/ns/net")).expect("its netns");
    assert_ne!(
        ours, theirs,
        "the engine shares the worker's network namespace"
    );
}

#[test]
fn dropping_kills() {
    let engine = family();
    let pid = engine.pid();
    assert!(is_live(pid));
    drop(engine);
    assert!(!is_live(pid));
}

/// Whether `pid` sees `path` in its view: its root, read through /proc/<pid>/root.
fn sees(pid: u32, path: &Path) -> bool {
    let inside = path.strip_prefix("/").expect("an absolute path");
    Path::new(&format!("/proc/{pid}/root"))
        .join(inside)
        .exists()
}

fn real_uid(pid: u32) -> u32 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("its status")
        .lines()
        .find_map(|line| line.strip_prefix("Uid:"))
        .and_then(|uids| uids.split_whitespace().next())
        .and_then(|uid| uid.parse().ok())
        .expect("a uid")
}

#[test]
fn the_office_engine_sees_only_its_folder_as_nobody_without_network() {
    let dir = tempfile::tempdir().expect("temp dir");
    let secret = dir.path().join("secret").join("secret.txt");
    std::fs::create_dir_all(secret.parent().expect("parent")).expect("mkdir");
    std::fs::write(&secret, "office-secret-9f3a").expect("write");
    let mut office = office_support::office(dir.path());
    // The document links the secret as an image: even a LibreOffice that followed links would
    // find nothing there.
    let link = format!("file://{}", secret.display());
    let input = office_support::fixture(dir.path(), "odt", "ViewCase", Some(&link));
    let output = dir.path().join("out.pdf");
    office
        .convert(&input, &output, office_support::GENEROUS)
        .expect("converts");
    let text = office_support::pdf_text(&output);
    assert!(text.contains("ViewCase"), "{text}");
    assert!(!text.contains("office-secret-9f3a"), "{text}");

    let soffice = office.soffice_pid().expect("a ready engine");
    assert!(
        sees(soffice, &dir.path().join("profiles")),
        "the engine's own folder is not in its view (or the test cannot look)"
    );
    let etc_passwd = Path::new("/etc/passwd");
    let root_home = Path::new("/root");
    for hidden in [&secret, &input, &output, etc_passwd, root_home] {
        assert!(
            !sees(soffice, hidden),
            "LibreOffice sees {}",
            hidden.display()
        );
    }
    if rustix::process::geteuid().is_root() {
        assert_ne!(real_uid(soffice), 0, "LibreOffice runs as root");
    }
    let ours = std::fs::read_link("/proc/self/ns/net").expect("our netns");
    let theirs = std::fs::read_link(format!("/proc/{soffice}/ns/net")).expect("its netns");
    assert_ne!(ours, theirs, "LibreOffice shares the worker's network");
}
