//! `capnarena compat OLD NEW`: diagnostics with positions, the exit
//! status (0 compatible, 1 incompatible, 2 unreadable), `--allow`,
//! `--format json` and saved requests as either side.

use std::path::PathBuf;
use std::process::{Command, Output};

const OLD: &str = "@0xd3bd7ff1e1ed8b6a;\nstruct Item {\n  name @0 :Text;\n  count @1 :UInt32;\n}\n";
const REMOVED: &str = "@0xd3bd7ff1e1ed8b6a;\nstruct Item {\n  name @0 :Text;\n}\n";
const ADDED: &str = "@0xd3bd7ff1e1ed8b6a;\nstruct Item {\n  name @0 :Text;\n  count @1 :UInt32;\n  tag @2 :Text;\n}\n";

/// A fresh directory holding `files`.
fn dir(test: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("capnarena-compat-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    for (name, text) in files {
        std::fs::write(d.join(name), text).expect("write");
    }
    d
}

fn capnarena(dir: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_capnarena"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_removed_field_is_an_error_at_its_old_line_with_status_1() {
    let d = dir(
        "removed",
        &[
            ("old.capnp", OLD.as_bytes()),
            ("new.capnp", REMOVED.as_bytes()),
        ],
    );
    let out = capnarena(&d, &["compat", "old.capnp", "new.capnp"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("old.capnp:4:3: error[field-removed]: field count @1"),
        "{text}"
    );
    assert!(text.contains("2 incompatible"), "{text}");
    // Allowed explicitly, the same change passes.
    let out = capnarena(
        &d,
        &[
            "compat",
            "old.capnp",
            "new.capnp",
            "--allow",
            "field-removed",
            "--allow",
            "section-shrunk",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("(allowed)"));
}

#[test]
fn an_added_field_is_compatible_with_status_0() {
    let d = dir(
        "added",
        &[
            ("old.capnp", OLD.as_bytes()),
            ("new.capnp", ADDED.as_bytes()),
        ],
    );
    let out = capnarena(&d, &["compat", "old.capnp", "new.capnp"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("new.capnp:5:3: note[field-added]"), "{text}");
}

#[test]
fn json_output_names_rules_verdicts_and_positions() {
    let d = dir(
        "json",
        &[
            ("old.capnp", OLD.as_bytes()),
            ("new.capnp", REMOVED.as_bytes()),
        ],
    );
    let out = capnarena(
        &d,
        &["compat", "--format", "json", "old.capnp", "new.capnp"],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("\"rule\": \"field-removed\", \"verdict\": \"incompatible\""),
        "{text}"
    );
    assert!(
        text.contains("\"file\": \"old.capnp\", \"line\": 4, \"column\": 3"),
        "{text}"
    );
    assert!(text.contains("\"wire_compatible\": false"), "{text}");
}

#[test]
fn saved_requests_are_read_from_bin_files() {
    let request = capnarena_compiler::Compiler::new()
        .source("/a.capnp", OLD)
        .file("/a.capnp")
        .compile()
        .expect("compiles");
    let request_new = capnarena_compiler::Compiler::new()
        .source("/a.capnp", REMOVED)
        .file("/a.capnp")
        .compile()
        .expect("compiles");
    let d = dir("bin", &[("old.bin", &request), ("new.bin", &request_new)]);
    let out = capnarena(&d, &["compat", "old.bin", "new.bin"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("a.capnp:Item.count: error[field-removed]"),
        "{text}"
    );
}

#[test]
fn unreadable_inputs_and_unknown_rules_exit_2() {
    let d = dir(
        "bad",
        &[
            ("old.capnp", OLD.as_bytes()),
            ("bad.capnp", b"struct {"),
            ("bad.bin", b"\x01\x02"),
        ],
    );
    for args in [
        &["compat", "old.capnp", "missing.capnp"][..],
        &["compat", "old.capnp", "bad.capnp"],
        &["compat", "old.capnp", "bad.bin"],
        &[
            "compat",
            "old.capnp",
            "old.capnp",
            "--allow",
            "no-such-rule",
        ],
    ] {
        let out = capnarena(&d, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("capnarena compat: ") || err.contains("error"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}
