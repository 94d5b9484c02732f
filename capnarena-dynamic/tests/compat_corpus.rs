//! The compatibility check over the whole conformance corpus
//! (`conformance/corpus`, 212 schema files of 12 projects): each file
//! compiled in process and compared with itself (no finding) and with a
//! mutated copy (every `:Int32` field made `:Int64`: one finding per
//! such field, or more). The comparison time is printed, not asserted.
//!
//! The conformance crate is not built: the files are compiled here with
//! each project's import paths (as `conformance/src/corpus.rs` lists them).

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use capnarena_dynamic::compat::{self, CompatSchema, Rule};

/// Each project's directory and import paths (relative to it), as
/// `conformance/src/corpus.rs` has them.
const PROJECTS: &[(&str, &[&str])] = &[
    ("capnproto", &[]),
    ("capnproto-rust", &[]),
    ("capnproto-java", &["compiler/src/main/schema"]),
    ("go-capnp", &["std"]),
    ("pycapnp", &["test"]),
    ("capnp-ts", &["packages/capnp-ts-test/test/integration"]),
    ("sandstorm", &["src"]),
    ("workerd", &["src"]),
    ("rr", &[]),
    ("blackrock", &["src", "../sandstorm/src"]),
    ("tempest", &["capnp", "../go-capnp/std"]),
    ("cereal", &[]),
];

fn corpus() -> PathBuf {
    common::workspace().join("conformance/corpus")
}

fn capnp_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            capnp_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "capnp") {
            out.push(path);
        }
    }
}

/// Each file of the project compiled on its own (a project may hold two
/// copies of one file), as it is and with its text passed through
/// `edit` (`None` when the edit does not change it or does not compile).
fn compile_project(
    name: &str,
    imports: &[&str],
    edit: &dyn Fn(&str) -> String,
) -> Vec<(CompatSchema, Option<CompatSchema>)> {
    let root = corpus().join(name);
    let mut files = Vec::new();
    capnp_files(&root, &mut files);
    let compiler = || {
        let mut c = capnarena_compiler::Compiler::new()
            .no_standard_import()
            .src_prefix(&root);
        for i in imports {
            c = c.import_path(root.join(i));
        }
        c.import_path(corpus().join("capnproto/c++/src"))
    };
    let mut out = Vec::new();
    for f in &files {
        let text = std::fs::read(f).unwrap();
        let original = String::from_utf8_lossy(&text).into_owned();
        let path = f.display().to_string();
        let schema = CompatSchema::compile_with(compiler(), &[(path.clone(), text)])
            .unwrap_or_else(|e| panic!("{path} compiles: {e}"));
        let edited = edit(&original);
        let mutated = (edited != original)
            .then(|| CompatSchema::compile_with(compiler(), &[(path, edited)]).ok())
            .flatten();
        out.push((schema, mutated));
    }
    out
}

/// Every project against itself: no finding; against its mutated copy:
/// every change is a type change of the edited fields or what follows
/// from it (offsets, sections, defaults), and some project has them.
/// The time of the comparisons alone is printed.
#[test]
fn corpus_against_itself_and_a_mutated_copy() {
    let mutate = |t: &str| t.replace(" :Int32", " :Int64");
    let mut same_time = Duration::ZERO;
    let mut mutated_time = Duration::ZERO;
    let (mut files, mut mutated_files, mut nodes, mut findings) = (0, 0, 0, 0);
    for (name, imports) in PROJECTS {
        for (original, mutated) in compile_project(name, imports, &mutate) {
            files += 1;
            nodes += original.loaded().schema().node_ids().count();
            let start = Instant::now();
            let report = compat::check(&original, &original);
            same_time += start.elapsed();
            assert_eq!(report.findings, [], "{name} differs from itself");

            let Some(mutated) = mutated else { continue };
            mutated_files += 1;
            let start = Instant::now();
            let report = compat::check(&original, &mutated);
            mutated_time += start.elapsed();
            for f in &report.findings {
                assert!(
                    matches!(
                        f.rule,
                        Rule::FieldTypeChanged
                            | Rule::ListElementChanged
                            | Rule::FieldOffsetChanged
                            | Rule::SectionGrown
                            | Rule::DefaultChanged
                            | Rule::UnionDiscriminantChanged
                            | Rule::GenericBindingChanged
                    ),
                    "{name}: {f}"
                );
            }
            findings += report.findings.len();
        }
    }
    assert!(findings > 100, "the mutation changed {findings} things");
    println!(
        "compat over the corpus ({} projects, {files} files, {nodes} nodes with imports): \
         itself {same_time:?}; mutated copy ({mutated_files} files changed) {mutated_time:?}, {findings} findings",
        PROJECTS.len()
    );
}
