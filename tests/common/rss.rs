//! Peak resident memory of a piece of code, and test binaries that run one
//! of their own tests again in a child process (a fresh process to measure
//! in, or one that may die of a stack overflow or an allocation failure
//! without taking the test binary with it). Linux only: the peak resident
//! set is read from `/proc/self/status` (`VmHWM`), reset through
//! `/proc/self/clear_refs`. Included by path (`#[path]`) where it is used.
#![allow(dead_code)]

use std::process::{Command, Output};

/// A line of `/proc/self/status`, in bytes.
pub fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("bad line {line:?}"));
    kb * 1024
}

/// Runs `f` and returns how far the peak resident set rose above the
/// resident set before it.
pub fn peak_rise(f: impl FnOnce()) -> u64 {
    // "5" resets the peak (VmHWM) to the current resident set.
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak resident set");
    let before = status_bytes("VmRSS:");
    f();
    status_bytes("VmHWM:").saturating_sub(before)
}

/// Runs test `name` of this test binary (an `#[ignore]`d one) in a child
/// process with `env` set and, when `address_space` is given, its address
/// space limited to that many bytes (`ulimit -v`, so that a runaway
/// allocation fails there) and its time to 10 minutes (`timeout`).
pub fn run_child(name: &str, env: &[(&str, String)], address_space: Option<u64>) -> Output {
    let exe = std::env::current_exe().expect("the test binary");
    let args = [
        "--exact",
        name,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ];
    let mut cmd = match address_space {
        Some(bytes) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!(
                    "ulimit -v {} && exec timeout -s KILL 600 \"$0\" \"$@\"",
                    bytes / 1024
                ))
                .arg(&exe)
                .args(args);
            c
        }
        None => {
            let mut c = Command::new(&exe);
            c.args(args);
            c
        }
    };
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run the child")
}

/// What follows `prefix` on the line of a child's output that has it
/// (the test harness may have written the test's name before it).
pub fn child_line(out: &Output, prefix: &str) -> Option<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.split_once(prefix).map(|(_, rest)| rest.to_string()))
}

/// The number after `prefix` on a line of a child's output.
pub fn child_number(out: &Output, prefix: &str) -> Option<u64> {
    child_line(out, prefix).and_then(|n| n.trim().parse().ok())
}
