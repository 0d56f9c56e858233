//! An engine's process tree, read from /proc: the members of its process group plus every
//! descendant found through parent links (a child may start its own group or session).

use std::collections::HashMap;
use std::fs;

use rustix::process::{Pid, Signal, kill_process, kill_process_group};

/// (pid, parent pid, process group id) of every process that can be read.
fn processes() -> Vec<(u32, u32, u32)> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command name may hold spaces and parentheses: fields follow the last ')'.
            let rest = &stat[stat.rfind(')')? + 1..];
            let mut fields = rest.split_ascii_whitespace().skip(1); // state
            let ppid = fields.next()?.parse().ok()?;
            let pgrp = fields.next()?.parse().ok()?;
            Some((pid, ppid, pgrp))
        })
        .collect()
}

/// The pids of the tree rooted at `leader` (also its process group id), leader included.
pub(super) fn members(leader: u32) -> Vec<u32> {
    let all = processes();
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(pid, ppid, _) in &all {
        children.entry(ppid).or_default().push(pid);
    }
    let mut found: Vec<u32> = all
        .iter()
        .filter(|&&(pid, _, pgrp)| pgrp == leader || pid == leader)
        .map(|&(pid, _, _)| pid)
        .collect();
    let mut next = 0;
    while next < found.len() {
        if let Some(kids) = children.get(&found[next]) {
            for &kid in kids {
                if !found.contains(&kid) {
                    found.push(kid);
                }
            }
        }
        next += 1;
    }
    found
}

/// The pid, as the worker sees it, of the member of `leader`'s tree whose pid in its own
/// namespace is `inner` (an engine in a view has its own pid namespace and reports pids from
/// inside it).
pub(super) fn outer_pid(leader: u32, inner: u32) -> Option<u32> {
    members(leader).into_iter().find(|&pid| {
        let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
            return false;
        };
        status
            .lines()
            .find_map(|line| line.strip_prefix("NSpid:"))
            .and_then(|pids| pids.split_ascii_whitespace().last())
            .and_then(|pid| pid.parse::<u32>().ok())
            == Some(inner)
    })
}

/// Sum of VmRSS over the tree, in bytes.
pub(super) fn tree_rss(leader: u32) -> u64 {
    members(leader).into_iter().map(rss).sum()
}

fn rss(pid: u32) -> u64 {
    let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
        return 0;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| {
            value
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kib| kib * 1024)
}

/// SIGKILL to the group and to every descendant outside it. The caller must not have reaped
/// the leader yet (or know that members are left), so that the ids are still ours.
pub(super) fn kill_tree(leader: u32) {
    let outside = members(leader);
    if let Some(group) = to_pid(leader) {
        let _ = kill_process_group(group, Signal::KILL);
    }
    for pid in outside.into_iter().filter(|&pid| pid != leader) {
        if let Some(pid) = to_pid(pid) {
            let _ = kill_process(pid, Signal::KILL);
        }
    }
}

fn to_pid(pid: u32) -> Option<Pid> {
    Pid::from_raw(i32::try_from(pid).ok()?)
}
