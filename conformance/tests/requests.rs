//! For every corpus file, the request capnarena-compile writes is the one
//! `capnp compile -o-` writes, given the same arguments in the project's
//! directory (its `-I` paths, the standard schemas, the file): both
//! rendered through `capnp convert binary:text schema.capnp
//! CodeGeneratorRequest` must be identical line for line, `capnpVersion`
//! aside. One test per project.
//!
//! Files known to differ are listed in [`KNOWN_MISMATCHES`] with the
//! first difference: each project's test fails if any other file differs,
//! and also if a listed file no longer differs (so the list shrinks as the
//! compiler is fixed).
//!
//! Needs `capnp` on PATH and libcapnp-dev's schema.capnp; without them each
//! test prints a SKIP line and passes, unless `CAPNARENA_REQUIRE_PEER=1`.

#[path = "../src/corpus.rs"]
mod corpus;
#[path = "../../tests/common/peer.rs"]
mod peer;
#[path = "../../tests/common/request.rs"]
mod request;

use std::path::Path;

use request::{reference_request, render, tool, try_our_request};

/// Corpus files (`project/path`) whose requests differ today, and how.
/// Compiler bugs: empty this list as they are fixed.
const KNOWN_MISMATCHES: &[(&str, &str)] = &[];

/// Compares every file of `project` and checks the differences are
/// exactly the known ones.
fn project(dir: &str) {
    let Some(capnp) = tool() else { return };
    let corpus = corpus::corpus_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let project = corpus::PROJECTS
        .iter()
        .find(|p| p.dir == dir)
        .expect("a project of the corpus");
    let root = project.root(&corpus);
    let files = project.files(&corpus).expect("read the corpus");
    assert!(!files.is_empty(), "no .capnp file under {}", root.display());
    let mut differ = Vec::new();
    let mut stale = Vec::new();
    for file in &files {
        let key = format!("{dir}/{file}");
        let mut args: Vec<String> = project.args(&corpus);
        args.push(file.clone());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let reference = render(&capnp, &reference_request(&capnp, &root, &args));
        let problem = match try_our_request(&root, &args) {
            Err(d) => Some(format!("capnarena-compile rejects it:\n{d}")),
            Ok(ours) => {
                let ours = render(&capnp, &ours);
                (ours != reference).then(|| {
                    format!(
                        "(`expected`: capnp compile; `capnp`: capnarena-compile)\n{}",
                        peer::diff(&reference, &ours)
                    )
                })
            }
        };
        let known = KNOWN_MISMATCHES.iter().any(|(k, _)| *k == key);
        match (problem, known) {
            (Some(p), false) => differ.push(format!("{key}:\n{p}")),
            (None, true) => stale.push(key),
            _ => {}
        }
    }
    assert!(
        differ.is_empty() && stale.is_empty(),
        "{} of {} files of {dir} differ from capnp compile -o-:\n{}\n\
         listed in KNOWN_MISMATCHES but now equal: {stale:?}",
        differ.len(),
        files.len(),
        differ.join("\n")
    );
}

/// The reference's own schemas at v0.9.2: test.capnp family, standard
/// schemas, the compiler's grammar, the benchmarks.
#[test]
fn capnproto() {
    project("capnproto");
}

/// capnproto-rust: its test schemas (rust.capnp annotations), RPC examples,
/// vendored copies of the standard schemas.
#[test]
fn capnproto_rust() {
    project("capnproto-rust");
}

/// capnproto-java: its test schemas (java.capnp annotations), benchmarks.
#[test]
fn capnproto_java() {
    project("capnproto-java");
}

/// go-capnp: code generator test data, the standard schemas with go.capnp
/// annotations, RPC tests.
#[test]
fn go_capnp() {
    project("go-capnp");
}

/// pycapnp: test schemas (a file name with spaces, absolute imports).
#[test]
fn pycapnp() {
    project("pycapnp");
}

/// capnp-ts: integration tests (embeds, generics, constants, upgrades).
#[test]
fn capnp_ts() {
    project("capnp-ts");
}

/// Sandstorm's platform API (large interfaces, embeds, doc comments).
#[test]
fn sandstorm() {
    project("sandstorm");
}

/// workerd's schemas that capnp 0.9.2 accepts.
#[test]
fn workerd() {
    project("workerd");
}

/// rr's trace format.
#[test]
fn rr() {
    project("rr");
}

/// Blackrock (imports Sandstorm's schemas from the other project).
#[test]
fn blackrock() {
    project("blackrock");
}

/// Tempest (Sandstorm's schemas with go.capnp annotations).
#[test]
fn tempest() {
    project("tempest");
}

/// openpilot's cereal: large structs and unions, many enums.
#[test]
fn cereal() {
    project("cereal");
}
