//! The reference as the oracle: `tests/compat_cxx/loader.c++`, built here
//! with g++ against libcapnp, loads the old request's nodes into a
//! `SchemaLoader`, then the new one's; the loader throws on a node it
//! finds incompatible with the one of the same id. Every pair below is
//! checked in both directions: where the reference says incompatible, so
//! must we; where it says compatible, so must we, except the
//! disagreements listed with their reason (the module docs of
//! `capnarena_dynamic::compat` explain each).
//!
//! Needs g++ and libcapnp-dev: without them the test prints a SKIP line
//! and passes, unless `CAPNARENA_REQUIRE_PEER=1`, which makes it fail.

use std::path::{Path, PathBuf};
use std::process::Command;

use capnarena_dynamic::compat::{self, CompatSchema, Verdict};

const FILE_ID: &str = "@0xd3bd7ff1e1ed8b6a;\n";

/// Why the loader cannot be built here, or `None` when it can.
fn missing() -> Option<String> {
    let on_path = |tool: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
    };
    if !on_path("g++") {
        return Some("g++ not on PATH".to_owned());
    }
    for header in [
        "/usr/include/capnp/schema-loader.h",
        "/usr/include/kj/exception.h",
    ] {
        if !Path::new(header).is_file() {
            return Some(format!("{header} missing (install libcapnp-dev)"));
        }
    }
    None
}

fn build() -> Result<PathBuf, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compat_cxx/loader.c++");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compat-cxx-loader");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out = Command::new("g++")
        .current_dir(&dir)
        .arg("-std=c++14")
        .arg(&src)
        .args(["-o", "loader", "-lcapnp", "-lkj"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(dir.join("loader"))
}

/// What we expect against the reference in one direction.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// Both say the same.
    Agree,
    /// We say incompatible, the reference compatible: it does not see
    /// this (the reason).
    StricterThanReference(&'static str),
    /// We say compatible, the reference incompatible (the reason).
    LooserThanReference(&'static str),
}
use Expect::*;

const REMOVAL: &str = "the reference is symmetric: the removal may be the older version";
const NAMES: &str = "the reference matches by position and ignores names";
const DEFAULTS: &str = "the reference does not compare pointer defaults";
const BOOL_LIST: &str = "libcapnp 0.9.2 still upgrades List(Bool) to structs; the page forbids it";
const BRANDS: &str = "the reference does not compare generic bindings";
const GENERIC: &str = "the reference rejects a type made generic, which the page allows";
const DOWNGRADE: &str = "the reference is symmetric: a list of structs back to a list of its @0 type may be the older version";

/// (name, old, new, old -> new, new -> old)
const CASES: &[(&str, &str, &str, Expect, Expect)] = &[
    (
        "field added",
        "struct S { a @0 :Int32; }",
        "struct S { a @0 :Int32; b @1 :Text; }",
        Agree,
        StricterThanReference(REMOVAL),
    ),
    (
        "field type",
        "struct S { a @0 :Int32; }",
        "struct S { a @0 :Int64; }",
        Agree,
        Agree,
    ),
    (
        "text to data",
        "struct S { a @0 :Text; }",
        "struct S { a @0 :Data; }",
        Agree,
        Agree,
    ),
    (
        "enumerant added",
        "enum E { a @0; }",
        "enum E { a @0; b @1; }",
        Agree,
        StricterThanReference(REMOVAL),
    ),
    (
        "method added",
        "interface I { a @0 (); }",
        "interface I { a @0 (); b @1 (); }",
        Agree,
        StricterThanReference(REMOVAL),
    ),
    (
        "union member added",
        "struct S { union { a @0 :Void; b @1 :Int32; } }",
        "struct S { union { a @0 :Void; b @1 :Int32; c @2 :Text; } }",
        Agree,
        StricterThanReference(REMOVAL),
    ),
    (
        "fields swap names",
        "struct S { a @0 :Int32; b @1 :Int32; }",
        "struct S { b @0 :Int32; a @1 :Int32; }",
        StricterThanReference(NAMES),
        StricterThanReference(NAMES),
    ),
    (
        "enumerants swap names",
        "enum E { a @0; b @1; }",
        "enum E { b @0; a @1; }",
        StricterThanReference(NAMES),
        StricterThanReference(NAMES),
    ),
    (
        "field renamed",
        "struct S { a @0 :Int32; }",
        "struct S { b @0 :Int32; }",
        Agree,
        Agree,
    ),
    (
        "int default",
        "struct S { a @0 :Int32 = 5; }",
        "struct S { a @0 :Int32 = 6; }",
        Agree,
        Agree,
    ),
    (
        "text default",
        "struct S { a @0 :Text = \"a\"; }",
        "struct S { a @0 :Text = \"b\"; }",
        StricterThanReference(DEFAULTS),
        StricterThanReference(DEFAULTS),
    ),
    (
        "struct default",
        "struct S { a @0 :P = (x = 1); } struct P { x @0 :Int32; }",
        "struct S { a @0 :P = (x = 2); } struct P { x @0 :Int32; }",
        StricterThanReference(DEFAULTS),
        StricterThanReference(DEFAULTS),
    ),
    (
        "list upgraded to structs",
        "struct S { l @0 :List(Int32); } struct U { v @0 :Int32; w @1 :Text; }",
        "struct S { l @0 :List(U); } struct U { v @0 :Int32; w @1 :Text; }",
        Agree,
        StricterThanReference(DOWNGRADE),
    ),
    (
        "bool list to structs",
        "struct S { l @0 :List(Bool); } struct U { v @0 :Bool; }",
        "struct S { l @0 :List(U); } struct U { v @0 :Bool; }",
        StricterThanReference(BOOL_LIST),
        StricterThanReference(BOOL_LIST),
    ),
    (
        "list element size",
        "struct S { l @0 :List(Int32); }",
        "struct S { l @0 :List(Int64); }",
        Agree,
        Agree,
    ),
    (
        "interface id",
        "struct S { c @0 :I; } interface I {} interface J {}",
        "struct S { c @0 :J; } interface I {} interface J {}",
        Agree,
        Agree,
    ),
    (
        "generic binding",
        "struct Box(T) { v @0 :T; } struct U { b @0 :Box(Text); }",
        "struct Box(T) { v @0 :T; } struct U { b @0 :Box(Data); }",
        StricterThanReference(BRANDS),
        StricterThanReference(BRANDS),
    ),
    (
        "made generic (the page's example)",
        "struct Map { entries @0 :List(Entry); struct Entry { key @0 :Text; value @1 :Text; } }
         struct User { m @0 :Map; }",
        "struct Map(Key, Value) { entries @0 :List(Entry); struct Entry { key @0 :Key; value @1 :Value; } }
         struct User { m @0 :Map(Text, Text); }",
        LooserThanReference(GENERIC),
        Agree,
    ),
    (
        "field moved into a new union",
        "struct S { a @0 :Int32; }",
        "struct S { union { a @0 :Int32; b @1 :Text; } }",
        Agree,
        StricterThanReference(REMOVAL),
    ),
    (
        "union discriminant moved",
        "struct S { x @0 :UInt16; union { a @1 :Void; b @2 :Void; } }",
        "struct S { x @0 :UInt32; union { a @1 :Void; b @2 :Void; } }",
        Agree,
        Agree,
    ),
    (
        "method parameter type",
        "interface I { m @0 (a :Int32) -> (); }",
        "interface I { m @0 (a :Int64) -> (); }",
        Agree,
        Agree,
    ),
    (
        "method parameter added",
        "interface I { m @0 (a :Int32) -> (); }",
        "interface I { m @0 (a :Int32, b :Text) -> (); }",
        Agree,
        StricterThanReference(REMOVAL),
    ),
];

fn request(body: &str, dir: &Path, name: &str) -> (PathBuf, CompatSchema) {
    let bytes = capnarena_compiler::Compiler::new()
        .source("/t.capnp", format!("{FILE_ID}{body}"))
        .file("/t.capnp")
        .compile()
        .unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join(name);
    std::fs::write(&path, &bytes).expect("write");
    (
        path,
        CompatSchema::from_request_bytes(&bytes).expect("loads"),
    )
}

fn reference(loader: &Path, old: &Path, new: &Path) -> (bool, String) {
    let out = Command::new(loader)
        .arg(old)
        .arg(new)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(
        out.status.success(),
        "loader failed: {text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (text == "compatible", text)
}

#[test]
fn the_reference_schema_loader_agrees_except_where_documented() {
    if let Some(why) = missing() {
        let line = format!("SKIP compat against the reference SchemaLoader: {why}");
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{line}");
        }
        println!("{line}");
        return;
    }
    let loader = build().unwrap_or_else(|e| panic!("building the loader: {e}"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compat-cxx-pairs");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut failures = Vec::new();
    for (i, (name, old, new, fwd, back)) in CASES.iter().enumerate() {
        let (old_path, old_schema) = request(old, &dir, &format!("{i}-old.bin"));
        let (new_path, new_schema) = request(new, &dir, &format!("{i}-new.bin"));
        for (direction, (a, sa), (b, sb), expect) in [
            (
                "old -> new",
                (&old_path, &old_schema),
                (&new_path, &new_schema),
                fwd,
            ),
            (
                "new -> old",
                (&new_path, &new_schema),
                (&old_path, &old_schema),
                back,
            ),
        ] {
            let (theirs, said) = reference(&loader, a, b);
            let report = compat::check(sa, sb);
            let ours = report.worst(&[]) != Some(Verdict::Incompatible);
            let got = match (ours, theirs) {
                (x, y) if x == y => Agree,
                (false, true) => StricterThanReference(""),
                (true, false) => LooserThanReference(""),
                _ => unreachable!(),
            };
            let matches = matches!(
                (expect, got),
                (Agree, Agree)
                    | (StricterThanReference(_), StricterThanReference(_))
                    | (LooserThanReference(_), LooserThanReference(_))
            );
            println!("{name} ({direction}): reference {said:?}, ours compatible={ours}");
            if !matches {
                let rules: Vec<&str> = report.findings.iter().map(|f| f.rule.code()).collect();
                failures.push(format!(
                    "{name} ({direction}): expected {expect:?}, reference says {said:?}, we say compatible={ours} {rules:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
