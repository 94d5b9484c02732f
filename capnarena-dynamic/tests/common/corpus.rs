//! The conformance corpus (`conformance/corpus`, 212 schema files of 12
//! projects) compiled in process, each file on its own, for the
//! compatibility check's corpus test and benchmark. The conformance crate
//! is not built: each project's import paths are the ones
//! `conformance/src/corpus.rs` lists.

use std::path::{Path, PathBuf};

use capnarena_dynamic::compat::CompatSchema;

/// Each project's directory and import paths (relative to it), as
/// `conformance/src/corpus.rs` has them.
pub const PROJECTS: &[(&str, &[&str])] = &[
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

/// `conformance/corpus` of the workspace.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/corpus")
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
pub fn compile_project(
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

/// The mutation the corpus test and benchmark apply: every `:Int32`
/// field made `:Int64`.
pub fn widen_int32(text: &str) -> String {
    text.replace(" :Int32", " :Int64")
}
