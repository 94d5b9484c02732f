//! Schema doc comments become rustdoc that a user's `cargo test` never
//! runs: no code block of generated docs is Rust to rustdoc. Code
//! generated for Debian's json.capnp, persistent.capnp and stream.capnp
//! failed 8 doctests, from indented examples in their comments.
//!
//! Checked on every checked-in request and fixture, and, when `capnp` is
//! on PATH, on every schema of the conformance corpus (the field's
//! schemas), compiled now.

use std::path::{Path, PathBuf};

use capnarena_codegen::{Options, generate};

#[path = "../../tests/common/peer.rs"]
mod peer;

#[path = "../../conformance/src/corpus.rs"]
mod corpus;

/// The code blocks of the doc comments of `code` that rustdoc runs as
/// doctests: (line number, the block's first line).
///
/// A doc comment is a run of `///` lines, unindented by its least indent
/// as rustdoc does. A fenced block is run unless its info string names a
/// language other than Rust; an indented block (four columns or more,
/// after a blank line or at the start) always is.
fn doctests(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let lines: Vec<&str> = code.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim_start().starts_with("///") {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].trim_start().starts_with("///") {
            i += 1;
        }
        let doc: Vec<&str> = lines[start..i]
            .iter()
            .map(|l| l.trim_start().trim_start_matches("///"))
            .collect();
        let least = doc
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        let mut fence: Option<String> = None;
        let mut after_blank = true;
        for (n, line) in doc.iter().enumerate() {
            let line = line.get(least..).unwrap_or("");
            let indent = line.len() - line.trim_start().len();
            let text = line.trim_start();
            if let Some(open) = &fence {
                if indent < 4
                    && text.starts_with(open.as_str())
                    && text.trim_matches(|c| c == '`' || c == '~').is_empty()
                {
                    fence = None;
                }
                after_blank = false;
                continue;
            }
            let marker: String = text
                .chars()
                .take_while(|c| *c == '`' || *c == '~')
                .collect();
            if indent < 4
                && marker.len() >= 3
                && (marker.chars().all(|c| c == '`') || marker.chars().all(|c| c == '~'))
            {
                let info = text[marker.len()..].trim();
                let language = info.split([',', ' ']).next().unwrap_or("");
                if language.is_empty()
                    || language == "rust"
                    || language == "no_run"
                    || language == "ignore"
                    || language == "should_panic"
                {
                    found.push((start + n + 1, line.to_string()));
                }
                fence = Some(marker);
                after_blank = false;
                continue;
            }
            if text.is_empty() {
                after_blank = true;
                continue;
            }
            if after_blank && indent >= 4 {
                found.push((start + n + 1, line.to_string()));
            }
            after_blank = false;
        }
    }
    found
}

/// Fails with every doctest found in the files generated from `request`.
fn check(what: &str, request: &[u8]) -> usize {
    let files = generate(request, &Options::default().rpc(true))
        .unwrap_or_else(|e| panic!("{what}: generation: {e}"));
    let mut failures = Vec::new();
    for file in &files {
        for (line, text) in doctests(&file.contents) {
            failures.push(format!("{what}: {} line {line}: {text}", file.name));
        }
    }
    assert!(
        failures.is_empty(),
        "doctests in generated docs:\n{}",
        failures.join("\n")
    );
    files.len()
}

/// The checker finds what rustdoc runs: an indented block after a blank
/// line and a fence without a language, and not a fence naming another
/// language or an indented line that continues a paragraph.
#[test]
fn the_checker_finds_doctests() {
    let code = "/// Intro:\n///\n///     code()\n/// Text\n///     continued\n/// ```\n/// x\n/// ```\n/// ```c++\n/// y\n/// ```\nfn f() {}\n";
    let found: Vec<usize> = doctests(code).into_iter().map(|(n, _)| n).collect();
    assert_eq!(found, [3, 6]);
}

/// The checked-in requests (written by the reference tool) and the golden
/// fixtures give docs without doctests.
#[test]
fn checked_in_requests_give_no_doctests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut paths: Vec<PathBuf> = Vec::new();
    for dir in ["requests", "fixtures"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("tests dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "bin") {
                paths.push(path);
            }
        }
    }
    assert!(paths.len() > 20, "{} requests", paths.len());
    for path in paths {
        let bytes = std::fs::read(&path).expect("request");
        check(&path.display().to_string(), &bytes);
    }
}

/// Every schema of the conformance corpus, compiled now: among them the
/// reference's json.capnp (`Value.call`), stream.capnp (`StreamResult`)
/// and persistent.capnp, whose indented examples failed as doctests
/// (Debian installs the same files).
#[test]
fn corpus_schemas_give_no_doctests() {
    let Some(capnp) = peer::peer() else {
        assert!(
            std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() != Ok("1"),
            "capnp is not on PATH"
        );
        eprintln!("SKIP: capnp is not on PATH");
        return;
    };
    let corpus_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/corpus");
    let mut generated = 0;
    for project in corpus::PROJECTS {
        let root = project.root(&corpus_dir);
        let files = project.files(&corpus_dir).expect("corpus files");
        for file in &files {
            let mut args: Vec<String> = vec!["compile".into(), "-o-".into()];
            args.extend(project.args(&corpus_dir));
            args.push(file.clone());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let request = peer::run(&capnp, &root, &args, &[])
                .unwrap_or_else(|e| panic!("{}/{file}: {e}", project.dir));
            generated += check(&format!("{}/{file}", project.dir), &request);
        }
    }
    assert!(generated >= 200, "{generated} files generated");
}
