//! A schema loaded from `.capnp` files through the pure-Rust compiler (in
//! process) is the schema loaded from the reference tool's request for
//! the same files (`capnp compile -o-`): every node, field, type, brand,
//! default, constant and annotation value equal.
//!
//! Needs `capnp` on PATH: without it each test prints a SKIP line and
//! passes, unless `CAPNARENA_REQUIRE_PEER=1`, which makes it fail.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use capnarena_compiler::Compiler;
use capnarena_dynamic::LoadedSchema;
use common::{vectors_dir, workspace};

const SKIP: &str = "SKIP reference tests: capnp not on PATH (install Debian package capnproto)";

/// The reference `capnp` on PATH, or the SKIP line (a failure under
/// `CAPNARENA_REQUIRE_PEER=1`).
fn peer() -> Option<PathBuf> {
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

/// Loads `files` (under `prefix`, importing from `imports`) through the
/// compiler and through the reference tool's request, and compares.
fn same_schema(prefix: &Path, imports: &[&Path], files: &[&str]) {
    let Some(capnp) = peer() else { return };
    let mut cmd = Command::new(capnp);
    cmd.arg("compile").arg("-o-");
    cmd.arg(format!("--src-prefix={}", prefix.display()));
    let mut compiler = Compiler::new().src_prefix(prefix);
    for dir in imports {
        cmd.arg(format!("-I{}", dir.display()));
        compiler = compiler.import_path(dir);
    }
    for f in files {
        cmd.arg(prefix.join(f));
        compiler = compiler.file(prefix.join(f));
    }
    let out = cmd.output().expect("running capnp");
    assert!(
        out.status.success(),
        "capnp compile failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reference =
        LoadedSchema::from_request_bytes(&out.stdout).expect("the reference's request loads");
    let ours = LoadedSchema::compile(&compiler).expect("the compiler's request loads");
    let (r, o) = (reference.schema(), ours.schema());
    // Node by node first, so a difference names its node.
    let mut ids: Vec<u64> = r.node_ids().collect();
    ids.sort_unstable();
    let mut our_ids: Vec<u64> = o.node_ids().collect();
    our_ids.sort_unstable();
    assert_eq!(ids, our_ids, "{files:?}: node ids");
    for id in &ids {
        assert_eq!(r.display_name(*id).unwrap(), o.display_name(*id).unwrap());
        assert_eq!(r.node_kind(*id).unwrap(), o.node_kind(*id).unwrap());
    }
    assert!(reference == ours, "{files:?}: the loaded schemas differ");
    assert!(ids.len() > 1, "{files:?}: nothing loaded");
    println!("{files:?}: {} nodes equal", ids.len());
}

/// The test vectors' schema.
#[test]
fn all_types() {
    same_schema(&vectors_dir(), &[], &["all_types.capnp"]);
}

/// The project's test schemas: defaults of every kind, constants, imports,
/// generics bound to every kind of type, names, text that is not UTF-8.
#[test]
fn project_schemas() {
    let dir = workspace().join("tests/schemas");
    for f in [
        "codegen.capnp",
        "generics.capnp",
        "names.capnp",
        "nonutf8.capnp",
        "evolution_v3.capnp",
    ] {
        same_schema(&dir, &[], &[f]);
    }
}

/// Debian's schemas: schema.capnp, the RPC protocol, JSON annotations.
#[test]
fn debian_schemas() {
    let dir = Path::new("/usr/include");
    if !dir.join("capnp/schema.capnp").is_file() {
        println!("SKIP Debian schemas: /usr/include/capnp/schema.capnp is missing (libcapnp-dev)");
        return;
    }
    for f in [
        "capnp/schema.capnp",
        "capnp/c++.capnp",
        "capnp/rpc.capnp",
        "capnp/rpc-twoparty.capnp",
        "capnp/persistent.capnp",
        "capnp/compat/json.capnp",
    ] {
        same_schema(dir, &[dir], &[f]);
    }
}

/// The reference implementation's own test schema (from the conformance
/// corpus): every default, generics with brands, annotations of every
/// kind, interfaces.
#[test]
fn reference_test_schema() {
    let src = workspace().join("conformance/corpus/capnproto/c++/src");
    same_schema(
        &src,
        &[&src],
        &[
            "capnp/test.capnp",
            "capnp/test-import.capnp",
            "capnp/test-import2.capnp",
        ],
    );
}
