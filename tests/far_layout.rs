//! Far pointers laid out as the reference lays them out: an object that
//! does not fit in the segment of its pointer goes to another segment in
//! one allocation with its landing pad in front of it, behind a single far
//! pointer (the reference's `WireHelpers::allocate` in layout.c++ and
//! `BuilderArena::allocate` in arena.c++, 0.9.2).
//!
//! The oracle is `tests/vectors/NAME.segN.bin`: the reference's `capnp
//! convert --segment-size=N` (see `tests/vectors/make.sh`) copies each
//! message into a `MallocMessageBuilder(N, AllocationStrategy::FIXED_SIZE)`,
//! so those files hold the reference builder's segments, sizes, far
//! pointers and landing pads, word for word. A `MultiSegmentArena` with
//! first segment `N + 1` (capnarena keeps the segment table's word in
//! front of segment 0) and `GrowthPolicy::FixedSize(N)` is the same
//! arena.

mod common;
#[path = "common/peer.rs"]
mod peer;

use capnarena::{
    GrowthPolicy, Message, MessageReader, MultiSegmentArena, ReaderOptions, words_from_bytes,
};
use common::build::{build_log, build_named};
use common::vector;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The vectors with a builder in `tests/common/build.rs`.
const NAMES: [&str; 4] = ["full", "lists", "scalars", "log"];

/// The reference builder's fixed segment sizes in the vectors.
const SEGMENT_WORDS: [u32; 3] = [1, 3, 16];

/// The arena the reference's `MallocMessageBuilder(n, FIXED_SIZE)` is.
fn fixed_segments(n: u32) -> MultiSegmentArena {
    MultiSegmentArena::new()
        .with_first_segment_words(n)
        .with_policy(GrowthPolicy::FixedSize(n))
}

/// The segment count and total bytes of a framed message.
fn shape(framed: &[u8]) -> (u32, usize) {
    let count = u32::from_le_bytes(framed[..4].try_into().unwrap()) + 1;
    (count, framed.len())
}

fn check(what: &str, msg: &Message<MultiSegmentArena>, expected: &[u8]) {
    let mut framed = Vec::new();
    msg.append_to(&mut framed);
    assert_eq!(
        shape(&framed),
        shape(expected),
        "{what}: (segments, bytes) against the reference's"
    );
    assert!(
        framed == expected,
        "{what}: the same segments, word for word"
    );
}

/// A deep copy (`Message::set_root`) onto fixed segments of 1, 3 and 16
/// words gives the reference's bytes: `full` on one-word segments is 41
/// segments and 1,824 bytes, as the reference writes it (before: 161
/// segments and 3,264 bytes, each object behind a landing pad of a segment
/// of its own).
#[test]
fn copy_on_fixed_segments_is_the_reference_layout() {
    for name in NAMES.into_iter().chain(["empty"]) {
        let words = words_from_bytes(&vector(&format!("{name}.bin"))).unwrap();
        let src = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
        for n in SEGMENT_WORDS {
            let mut msg = Message::new(fixed_segments(n));
            msg.set_root(&src.root().unwrap()).unwrap();
            check(
                &format!("{name} copied, {n}-word segments"),
                &msg,
                &vector(&format!("{name}.seg{n}.bin")),
            );
        }
    }
}

/// Building field by field in preorder (the test suite's builders) onto
/// fixed segments gives the same bytes as the reference's builder: `log`
/// on one-word segments is 1,186 segments and 52,256 bytes (before: 4,741
/// segments and 94,912 bytes).
#[test]
fn build_on_fixed_segments_is_the_reference_layout() {
    for name in NAMES {
        for n in SEGMENT_WORDS {
            let mut msg = Message::new(fixed_segments(n));
            build_named(name, &mut msg).unwrap();
            check(
                &format!("{name} built, {n}-word segments"),
                &msg,
                &vector(&format!("{name}.seg{n}.bin")),
            );
        }
    }
}

/// `name` on PATH, or `None` after a SKIP line (a failure under
/// `CAPNARENA_REQUIRE_PEER=1`).
fn tool(name: &str, package: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let skip = format!("SKIP reference builder: {name} not on PATH (install {package})");
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{skip}");
        }
        println!("{skip}");
    }
    found
}

fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The reference's own builder, not a copy: `tests/far_layout/build_log.c++`
/// (compiled here against Debian's libcapnp with code from `capnp compile
/// -oc++`) builds the `log` message field by field, in the order
/// `build_log` does, on `MallocMessageBuilder(N, FIXED_SIZE)`; capnarena's
/// build on the same fixed segments gives the same bytes (1 word: 1,186
/// segments, 52,256 bytes).
#[test]
fn reference_builder_builds_the_log_the_same_way() {
    let Some(capnp) = peer::peer() else { return };
    let Some(gxx) = tool("g++", "g++") else {
        return;
    };
    if !Path::new("/usr/include/capnp/message.h").exists() {
        let skip = "SKIP reference builder: capnp headers missing (install libcapnp-dev)";
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{skip}");
        }
        println!("{skip}");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("far_layout_peer");
    std::fs::create_dir_all(&dir).unwrap();
    run(Command::new(&capnp)
        .current_dir(root.join("tests/vectors"))
        .arg("compile")
        .arg(format!("-oc++:{}", dir.display()))
        .arg("all_types.capnp"));
    let program = dir.join("build_log");
    run(Command::new(&gxx)
        .arg("-std=c++14")
        .arg("-O1")
        .arg("-I")
        .arg(&dir)
        .arg(root.join("tests/far_layout/build_log.c++"))
        .arg(dir.join("all_types.capnp.c++"))
        .arg("-lcapnp")
        .arg("-lkj")
        .arg("-o")
        .arg(&program));
    for n in SEGMENT_WORDS {
        let mut child = Command::new(&program)
            .arg(n.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), &vector("log.bin")).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "build_log {n}");
        let mut msg = Message::new(fixed_segments(n));
        build_log(&mut msg).unwrap();
        check(&format!("log built, {n}-word segments"), &msg, &out.stdout);
    }
}
