//! Comparing a CodeGeneratorRequest of capnarena-compiler with the one
//! `capnp compile -o-` writes: running both compilers with the same
//! arguments, and rendering a request as text through `capnp convert
//! binary:text` with schema.capnp's `CodeGeneratorRequest`.
//!
//! Included with `#[path = "../../tests/common/request.rs"] mod request;`
//! by tests that also include the peer helper as `mod peer` and depend on
//! capnarena-compiler; needs `capnp` on PATH and libcapnp-dev's
//! schema.capnp (see [`tool`]).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use capnarena_compiler::Compiler;

use crate::peer;

/// The reference's schema.capnp, whose `CodeGeneratorRequest` renders a
/// request as text.
pub const SCHEMA: &str = "/usr/include/capnp/schema.capnp";

/// Writes a SKIP line past the test harness's output capture (which
/// swallows `println!` of passing tests), so a skipped run shows it.
pub fn visible(line: &str) {
    let _ = writeln!(std::io::stdout(), "{line}");
}

/// The reference tool, and its schema.capnp (needed to render requests):
/// without either, a visible SKIP line and `None`, or a failure when
/// `CAPNARENA_REQUIRE_PEER=1` (through the project's peer helper).
pub fn tool() -> Option<PathBuf> {
    let Some(capnp) = peer::peer() else {
        visible("SKIP reference tests: capnp not on PATH (install Debian package capnproto)");
        return None;
    };
    if !Path::new(SCHEMA).is_file() {
        let msg = "SKIP reference tests: /usr/include/capnp/schema.capnp missing (install Debian package libcapnp-dev)";
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        visible(msg);
        return None;
    }
    Some(capnp)
}

/// `capnp compile -o- ARGS` run in `cwd`: the request bytes.
pub fn reference_request(capnp: &Path, cwd: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new(capnp)
        .current_dir(cwd)
        .arg("compile")
        .arg("-o-")
        .args(args)
        .output()
        .expect("run capnp");
    assert!(
        out.status.success(),
        "capnp compile {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Our compiler given the same arguments (the subset `capnp compile`
/// shares with us: -I, --no-standard-import, --src-prefix, files).
pub fn our_request(cwd: &Path, args: &[&str]) -> Vec<u8> {
    try_our_request(cwd, args).unwrap_or_else(|d| panic!("capnarena-compile {args:?} failed:\n{d}"))
}

/// [`our_request`], with the compiler's diagnostics as the error.
pub fn try_our_request(cwd: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let mut c = Compiler::new().working_dir(cwd);
    for a in args {
        if let Some(d) = a.strip_prefix("-I") {
            c = c.import_path(d);
        } else if let Some(d) = a.strip_prefix("--src-prefix=") {
            c = c.src_prefix(d);
        } else if *a == "--no-standard-import" {
            c = c.no_standard_import();
        } else {
            c = c.file(a);
        }
    }
    c.compile().map_err(|d| d.to_string())
}

/// The request rendered as text, without the capnpVersion line.
pub fn render(capnp: &Path, request: &[u8]) -> String {
    let mut child = Command::new(capnp)
        .args(["convert", "binary:text", SCHEMA, "CodeGeneratorRequest"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run capnp convert");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = request.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("capnp convert");
    feeder.join().expect("feeder").expect("write request");
    assert!(
        out.status.success(),
        "capnp convert rejected a request: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    escape_invalid_utf8(&out.stdout)
        .lines()
        .filter(|l| !l.contains("capnpVersion"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `bytes` as text: valid UTF-8 unchanged, every byte outside it written
/// `\xNN`, so renderings that differ in such bytes still differ (the
/// reference prints a Text holding invalid UTF-8 byte for byte).
pub fn escape_invalid_utf8(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text += chunk.valid();
        for byte in chunk.invalid() {
            text += &format!("\\x{byte:02x}");
        }
    }
    text
}
