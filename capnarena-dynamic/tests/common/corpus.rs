//! The conformance corpus (`conformance/corpus`, 212 schema files of 12
//! projects) compiled in process, each file on its own, for the
//! compatibility check's corpus test and benchmark. The conformance crate
//! is not built: each project's import paths are the ones
//! `conformance/src/corpus.rs` lists.

use std::path::{Path, PathBuf};

use capnarena_dynamic::compat::CompatSchema;

/// The corpus's projects and import paths, as the conformance crate
/// compiles them.
#[path = "../../../conformance/src/corpus.rs"]
mod projects;

pub use projects::{PROJECTS, Project};

/// `conformance/corpus` of the workspace.
pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/corpus")
}

/// Each file of the project compiled on its own (a project may hold two
/// copies of one file), as it is and with its text passed through
/// `edit` (`None` when the edit does not change it or does not compile).
pub fn compile_project(
    project: &Project,
    edit: &dyn Fn(&str) -> String,
) -> Vec<(CompatSchema, Option<CompatSchema>)> {
    let root = project.root(&corpus());
    let compiler = || {
        let mut c = capnarena_compiler::Compiler::new()
            .no_standard_import()
            .src_prefix(&root);
        for i in project.import_paths {
            c = c.import_path(root.join(i));
        }
        c.import_path(corpus().join(projects::STANDARD))
    };
    let files = project.files(&corpus()).unwrap();
    let mut out = Vec::new();
    for f in files.iter().map(|f| root.join(f)) {
        let text = std::fs::read(&f).unwrap();
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
