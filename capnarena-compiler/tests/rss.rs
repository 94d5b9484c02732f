//! Peak memory of compiling constants that double on each line (issue
//! 21): each constant holds the one before twice, so 21 lines hold 2^20
//! copies of the first. The compiler stops at `limits::MAX_COPIED_WORDS`
//! with an error; the starting commit built them all (1.8 GB peak at 21
//! lines, an abort on allocation failure at 24).
//!
//! Linux only: the peak resident set is read from `/proc/self/status`
//! (`VmHWM`), reset before the compile through `/proc/self/clear_refs`.
//! This file is its own test binary with one test, so nothing else runs
//! in the process while it measures.
#![cfg(target_os = "linux")]

use capnarena_compiler::{Compiler, limits};

/// A line of `/proc/self/status`, in bytes.
fn status_bytes(field: &str) -> u64 {
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

/// Doubling constants raise the peak resident set by at most 256 MiB
/// (the copy limit is 8 MiB encoded; the compiler holds a copy a few
/// times over, at a few times its encoded size) and end in the copy
/// limit's error.
#[test]
fn doubling_constants_take_bounded_memory() {
    let mut s = String::from(
        "@0xd0a4c1b3e2f50608;\nstruct S { a @0 :S; b @1 :S; t @2 :Text; }\nconst c0 :S = (t = \"abcdefgh\");\n",
    );
    for i in 1..21 {
        s += &format!("const c{i} :S = (a = .c{}, b = .c{});\n", i - 1, i - 1);
    }
    let compiler = Compiler::new()
        .no_standard_import()
        .working_dir("/v")
        .source("/v/t.capnp", s)
        .file("t.capnp");
    // "5" resets the peak (VmHWM) to the current resident set.
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak resident set");
    let before = status_bytes("VmRSS:");
    let result = compiler.compile();
    let rise = status_bytes("VmHWM:").saturating_sub(before);
    let d = result.expect_err("doubling constants compiled");
    assert!(
        d.0[0].message.contains(&format!(
            "more than the limit of {} words",
            limits::MAX_COPIED_WORDS
        )),
        "{d}"
    );
    assert!(rise <= 256 << 20, "peak resident set rose by {rise} bytes");
    println!("peak rise {} KiB", rise >> 10);
}
