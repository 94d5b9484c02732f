//! The JSON codec against the reference's JSON library itself
//! (libcapnp-json 0.9.2, `JsonCodec` with `handleByAnnotation`), called
//! from `tests/json/json-peer.c++`, compiled here with g++: every
//! annotation of `/capnp/compat/json.capnp` (the reference's own
//! `compat/json-test.capnp` and `tests/json/annotations.capnp`), both
//! ways: our text is the library's byte for byte, pretty and short, and
//! JSON decoded by both gives the same message (canonical forms equal).
//!
//! Needs g++ and libcapnp-dev (headers and libraries): without them each
//! test prints a SKIP line and returns, unless `CAPNARENA_REQUIRE_PEER=1`,
//! which makes it fail instead.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructReader};
use capnarena_compiler::Compiler;
use capnarena_dynamic::json::{self, JsonLimits, JsonOptions};
use capnarena_dynamic::{LoadedSchema, StructSchema};
use common::workspace;

/// Why the peer cannot be built here, or `None` when it can.
fn missing() -> Option<String> {
    let on_path = |tool: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
    };
    if !on_path("g++") {
        return Some("g++ not on PATH".into());
    }
    for header in [
        "/usr/include/capnp/compat/json.h",
        "/usr/include/capnp/schema-parser.h",
    ] {
        if !Path::new(header).is_file() {
            return Some(format!("{header} missing (install libcapnp-dev)"));
        }
    }
    None
}

/// The built peer, once per test run; `None` (after the SKIP line) when
/// it cannot be built here.
fn peer() -> Option<PathBuf> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    if let Some(why) = missing() {
        let line = format!("SKIP C++ JSON codec tests: {why}");
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{line}");
        }
        println!("{line}");
        return None;
    }
    match BUILT.get_or_init(build) {
        Ok(p) => Some(p.clone()),
        Err(e) => panic!("building the C++ JSON peer: {e}"),
    }
}

fn build() -> Result<PathBuf, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/json/json-peer.c++");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("json-cxx-peer");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out = Command::new("g++")
        .current_dir(&dir)
        .arg("-std=c++14")
        .arg("-Wno-deprecated-declarations")
        .arg(&src)
        .args([
            "-o",
            "json-peer",
            "-lcapnpc",
            "-lcapnp-json",
            "-lcapnp",
            "-lkj",
        ])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(dir.join("json-peer"))
}

/// The reference's sources (tag v0.9.2, in the conformance corpus): the
/// import path for `/capnp/compat/json.capnp`.
fn reference_src() -> PathBuf {
    workspace().join("conformance/corpus/capnproto/c++/src")
}

/// Runs the peer: `mode` on `schema`'s `root` with `input`; its stdout.
fn run(peer: &Path, mode: &str, schema: &Path, root: &str, input: &[u8]) -> Vec<u8> {
    let mut child = Command::new(peer)
        .arg(mode)
        .arg(schema)
        .arg(reference_src())
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running the peer");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().unwrap();
    let _ = feeder.join();
    assert!(
        out.status.success(),
        "json-peer {mode} {root}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn canonical(framed: &[u8]) -> Vec<u8> {
    let reader = MessageReader::from_bytes(framed, ReaderOptions::default()).unwrap();
    let root: StructReader<'_> = reader.root().unwrap();
    let mut out = Message::new(SingleSegmentArena::new());
    let words = out.set_root_canonical(&root).unwrap();
    capnarena::Word::slice_as_bytes(words).to_vec()
}

/// Checks one JSON text both ways against the library: decoded by both
/// to the same message; that message encoded by both to the same text.
fn both_ways(peer: &Path, schema_file: &Path, root: &StructSchema<'_>, name: &str, text: &[u8]) {
    let what = format!("{name}: {}", String::from_utf8_lossy(text));
    let theirs = run(peer, "decode", schema_file, name, text);
    let ours = json::json_to_message(root, text, &JsonLimits::default())
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(
        canonical(&ours),
        canonical(&theirs),
        "{what}: decoded messages differ"
    );
    encodes_same(peer, schema_file, root, name, &theirs, &what);
}

fn encodes_same(
    peer: &Path,
    schema_file: &Path,
    root: &StructSchema<'_>,
    name: &str,
    framed: &[u8],
    what: &str,
) {
    for (mode, options) in [
        ("encode-pretty", JsonOptions::pretty()),
        ("encode-short", JsonOptions::short()),
    ] {
        let theirs = String::from_utf8(run(peer, mode, schema_file, name, framed)).unwrap();
        let ours = json::message_to_json(root, framed, ReaderOptions::default(), &options)
            .unwrap_or_else(|e| panic!("{what} ({mode}): {e}"));
        assert_eq!(ours, theirs, "{what} ({mode})");
    }
}

fn load(file: &Path) -> LoadedSchema {
    let src = reference_src();
    LoadedSchema::compile(
        &Compiler::new()
            .src_prefix(file.parent().unwrap())
            .import_path(&src)
            .file(file),
    )
    .expect("the schema compiles")
}

/// The reference's own annotation test: `annotated-json.binary` encodes
/// as the library encodes it, and `annotated.json` decodes as it does.
#[test]
fn reference_annotation_test_data() {
    let Some(peer) = peer() else { return };
    let file = reference_src().join("capnp/compat/json-test.capnp");
    let loaded = load(&file);
    let schema = loaded.schema();
    let root = schema
        .find_struct("json-test.capnp:TestJsonAnnotations")
        .unwrap();
    let binary =
        std::fs::read(reference_src().join("capnp/testdata/annotated-json.binary")).unwrap();
    encodes_same(
        &peer,
        &file,
        &root,
        "TestJsonAnnotations",
        &binary,
        "annotated-json.binary",
    );
    let text = std::fs::read(reference_src().join("capnp/testdata/annotated.json")).unwrap();
    both_ways(&peer, &file, &root, "TestJsonAnnotations", &text);
}

/// Every annotation in every combination of `tests/json/annotations.capnp`:
/// discriminated unions with and without `valueName`, flattened struct
/// fields, groups and unions with prefixes, union members flattened and
/// read before their tag, `Void` members under a tag, renamed members and
/// enumerants, base64 and hex in and out of unions, members given twice.
#[test]
fn every_annotation() {
    let Some(peer) = peer() else { return };
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/json/annotations.capnp");
    let loaded = load(&file);
    let schema = loaded.schema();
    let event = schema.find_struct("annotations.capnp:Event").unwrap();
    let shape = schema.find_struct("annotations.capnp:Shape").unwrap();
    let events: &[&str] = &[
        r#"{"event-id": "12", "in_ex": 5, "in_tags": ["a"], "m.level": "hi-gh",
            "m.levels": ["LOW", "other", "hi-gh", 7], "m.raw": "AQID", "t": "key", "k_ex": 3,
            "shapes": [{"kind": "circle", "data": 1.5}, {"kind": "square", "data": {"ex": 1}},
                       {"kind": "nothing"}, {"kind": "blob", "data": "0aff"}],
            "p_payloadType": "bytes", "p_bytes": "aGk=", "renamedUnion": {"bee": 0.5},
            "plain": {"v": "x"}}"#,
        r#"{"x": 3, "y": -4, "t": "click", "p_text": "late", "p_payloadType": "text"}"#,
        r#"{"t": "idle", "p_payloadType": "none", "renamedUnion": {"a": true}, "plain": {"u": 255}}"#,
        r#"{"message": "hello", "t": "note", "event-id": "18446744073709551615"}"#,
        r#"{"k_tags": ["z"], "k_ex": -1, "t": "key", "in_ex": 1, "in_ex": 2, "m.raw": ""}"#,
        r#"{"t": "nope", "x": 1, "shapes": [], "m.levels": []}"#,
        // Union members of groups replaced by others: nothing left behind.
        r#"{"renamedUnion": {"a": true, "bee": 1.5}, "plain": {"u": 7, "v": "x"},
            "shapes": [{"kind": "circle", "data": 2}]}"#,
        r#"{}"#,
    ];
    for text in events {
        both_ways(&peer, &file, &event, "Event", text.as_bytes());
    }
    // A union's tag given twice: refused by both.
    let twice = br#"{"shapes": [{"kind": "circle", "data": 2, "kind": "nothing"}]}"#;
    let out = Command::new(&peer)
        .args(["decode"])
        .arg(&file)
        .arg(reference_src())
        .arg("Event")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(twice)?;
            c.wait()
        })
        .unwrap();
    assert!(!out.success(), "the reference accepts a tag given twice");
    let e = json::json_to_message(&event, twice, &JsonLimits::default()).unwrap_err();
    assert!(e.to_string().contains("given twice"), "{e}");
    let shapes: &[&str] = &[
        r#"{"data": {"ex": 9, "tags": []}, "kind": "square"}"#,
        r#"{"kind": "blob", "data": ""}"#,
        r#"{"kind": "circle", "data": "-Infinity"}"#,
        r#"{"kind": "nothing", "data": null}"#,
    ];
    for text in shapes {
        both_ways(&peer, &file, &shape, "Shape", text.as_bytes());
    }
}
