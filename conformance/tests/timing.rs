//! The time to compile the whole corpus, file by file as each project's
//! build would, with capnarena-compiler in-process and with `capnp compile
//! -o-` (a process per file): printed, never asserted. What is checked is
//! that both compilers accept every file and write a non-empty request.
//!
//! Run `cargo test -p capnarena-conformance --release --test timing` for
//! optimised figures (a plain `cargo test` times a debug build). Needs
//! `capnp` on PATH for the second figure; without it that half prints a
//! SKIP line, unless `CAPNARENA_REQUIRE_PEER=1`.

#[path = "../src/corpus.rs"]
mod corpus;
#[path = "../../tests/common/peer.rs"]
mod peer;
#[path = "../../tests/common/request.rs"]
mod request;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use request::{reference_request, tool, try_our_request, visible};

/// Rounds over the corpus; the fastest is reported.
const ROUNDS: usize = 3;

/// Every corpus file: (project directory, arguments ending in the file).
fn jobs(corpus: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut out = Vec::new();
    for p in corpus::PROJECTS {
        for f in p.files(corpus).expect("read the corpus") {
            let mut args = p.args(corpus);
            args.push(f);
            out.push((p.root(corpus), args));
        }
    }
    out
}

/// The fastest of [`ROUNDS`] runs of `compile` over every job.
fn best(jobs: &[(PathBuf, Vec<String>)], mut compile: impl FnMut(&Path, &[&str])) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for (root, args) in jobs {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                compile(root, &args);
            }
            start.elapsed()
        })
        .min()
        .expect("at least one round")
}

/// Prints the time each compiler takes over the whole corpus.
#[test]
fn compile_whole_corpus() {
    let corpus = corpus::corpus_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let jobs = jobs(&corpus);
    assert!(jobs.len() > 100, "the corpus has {} files", jobs.len());
    let profile = if cfg!(debug_assertions) {
        "debug build"
    } else {
        "release build"
    };
    let ours = best(&jobs, |root, args| {
        let request = try_our_request(root, args)
            .unwrap_or_else(|d| panic!("capnarena-compile {args:?} failed:\n{d}"));
        assert!(!request.is_empty(), "empty request for {args:?}");
    });
    visible(&format!(
        "corpus timing: {} files, capnarena-compiler in-process ({profile}): {:.1} ms",
        jobs.len(),
        ours.as_secs_f64() * 1e3
    ));
    let Some(capnp) = tool() else { return };
    let theirs = best(&jobs, |root, args| {
        assert!(!reference_request(&capnp, root, args).is_empty());
    });
    visible(&format!(
        "corpus timing: {} files, capnp compile -o- (a process per file): {:.1} ms",
        jobs.len(),
        theirs.as_secs_f64() * 1e3
    ));
}
