//! The supervision both engines use (`quire_convert::process`), against real processes.

use std::io::{BufRead, BufReader};
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

fn grandchild(engine: &mut Supervised) -> u32 {
    let mut line = String::new();
    BufReader::new(engine.stdout().expect("piped"))
        .read_line(&mut line)
        .expect("pid line");
    line.trim().parse().expect("a pid")
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
    // Once the shell speaks, the wrappers (unshare first) have all run.
    let _ = grandchild(&mut engine);
    let ours = std::fs::read_link("/proc/self/ns/net").expect("our netns");
    let theirs = std::fs::read_link(format!("/proc/{}/ns/net", engine.pid())).expect("its netns");
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
