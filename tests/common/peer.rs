//! The reference `capnp` tool as a test peer: finding it (or skipping),
//! and asking it to render a message as text.
//!
//! Needs `capnp` on PATH (Debian package `capnproto`). Without it, a test
//! that calls [`peer`] prints one SKIP line and returns early, unless
//! `CAPNARENA_REQUIRE_PEER=1`, which makes it fail instead.
//!
//! Included with `#[path = "common/peer.rs"] mod peer;` by the tests that
//! need it (the same logic as `peer()` in tests/interop.rs).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SKIP: &str = "SKIP reference tests: capnp not on PATH (install Debian package capnproto)";

/// The reference `capnp` on PATH. When there is none: prints the SKIP line
/// and returns `None`, or panics with it when `CAPNARENA_REQUIRE_PEER=1`.
pub fn peer() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("capnp"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{SKIP}");
        }
        println!("{SKIP}");
    }
    found
}

/// `tests/vectors`, where the schema is.
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

/// The root type of vector `name` in all_types.capnp.
pub fn root_type(name: &str) -> &'static str {
    if name == "log" { "Log" } else { "AllTypes" }
}

/// Runs `capnp ARGS` in `dir` with `input` on stdin (fed from another
/// thread, so a large output cannot deadlock): its stdout, or its exit
/// status and stderr when it fails.
pub fn run(capnp: &Path, dir: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(capnp)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running {}: {e}", capnp.display()))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let owned = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&owned));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    feeder
        .join()
        .expect("stdin thread")
        .map_err(|e| format!("writing to capnp: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "capnp {} failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `capnp convert FORMAT:text all_types.capnp ROOT` (run in tests/vectors)
/// with `bytes` on stdin, where FORMAT is `binary` or `packed`: its stdout,
/// or the first exception lines of its stderr when it fails.
pub fn reference_text(
    capnp: &Path,
    format: &str,
    root: &str,
    bytes: &[u8],
) -> Result<String, String> {
    let formats = format!("{format}:text");
    let args = ["convert", formats.as_str(), "all_types.capnp", root];
    match run(capnp, &vectors_dir(), &args, bytes) {
        Ok(stdout) => {
            String::from_utf8(stdout).map_err(|e| format!("capnp output is not UTF-8: {e}"))
        }
        Err(err) => {
            let mut lines = err.lines();
            let status = lines.next().unwrap_or_default();
            let first: Vec<&str> = lines
                .filter(|l| l.contains("Exception description") || l.contains("error"))
                .take(2)
                .collect();
            Err(format!("{status} {}", first.join(" | ")))
        }
    }
}

/// The first lines where `got` differs from `expected`, for a panic message.
pub fn diff(expected: &str, got: &str) -> String {
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(g.len()) {
        let (a, b) = (e.get(i), g.get(i));
        if a != b {
            out += &format!(
                "  line {}:\n    expected {:?}\n    capnp    {:?}\n",
                i + 1,
                a.copied().unwrap_or("<none>"),
                b.copied().unwrap_or("<none>")
            );
            shown += 1;
            if shown == 8 {
                out += "  ...\n";
                break;
            }
        }
    }
    out
}
