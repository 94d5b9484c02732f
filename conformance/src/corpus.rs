//! The corpus: which projects it holds and how each is compiled. Shared by
//! the build script (which generates Rust for every file), the request
//! tests and the timing report, through `#[path]`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// One project's schemas: `corpus/<dir>/`, compiled from that directory
/// with its own import paths (as the project's build passes them to
/// `capnp compile -I`, relative to `corpus/<dir>/`).
pub struct Project {
    /// Directory under `corpus/`, and the name of the Rust module the
    /// project's generated code goes in (after `-` becomes `_`).
    pub dir: &'static str,
    /// `-I` directories, relative to the project's directory.
    pub import_paths: &'static [&'static str],
}

/// Every project (see corpus/PROVENANCE.md for where each comes from).
pub const PROJECTS: &[Project] = &[
    Project {
        dir: "capnproto",
        import_paths: &[],
    },
    Project {
        dir: "capnproto-rust",
        import_paths: &[],
    },
    Project {
        dir: "capnproto-java",
        import_paths: &["compiler/src/main/schema"],
    },
    Project {
        dir: "go-capnp",
        import_paths: &["std"],
    },
    Project {
        dir: "pycapnp",
        import_paths: &["test"],
    },
    Project {
        dir: "capnp-ts",
        import_paths: &["packages/capnp-ts-test/test/integration"],
    },
    Project {
        dir: "sandstorm",
        import_paths: &["src"],
    },
    Project {
        dir: "workerd",
        import_paths: &["src"],
    },
    Project {
        dir: "rr",
        import_paths: &[],
    },
    Project {
        dir: "blackrock",
        import_paths: &["src", "../sandstorm/src"],
    },
    Project {
        dir: "tempest",
        import_paths: &["capnp", "../go-capnp/std"],
    },
    Project {
        dir: "cereal",
        import_paths: &[],
    },
];

/// The reference's standard schemas (v0.9.2), the last import path of
/// every project, relative to `corpus/`: `/capnp/c++.capnp` and the rest
/// resolve here unless a project vendors its own copy. With
/// `--no-standard-import`, nothing outside the corpus is read.
pub const STANDARD: &str = "capnproto/c++/src";

impl Project {
    /// The project's directory.
    pub fn root(&self, corpus: &Path) -> PathBuf {
        corpus.join(self.dir)
    }

    /// The `capnp compile` arguments before the file names, to be run in
    /// [`root`](Self::root): the project's `-I` directories, the standard
    /// schemas, `--no-standard-import`.
    pub fn args(&self, corpus: &Path) -> Vec<String> {
        let mut args: Vec<String> = self.import_paths.iter().map(|p| format!("-I{p}")).collect();
        args.push(format!("-I{}", corpus.join(STANDARD).display()));
        args.push("--no-standard-import".into());
        args
    }

    /// Every `.capnp` file of the project, relative to its directory,
    /// sorted.
    pub fn files(&self, corpus: &Path) -> std::io::Result<Vec<String>> {
        let root = self.root(corpus);
        let mut out = Vec::new();
        walk(&root, &root, &mut out)?;
        out.sort();
        Ok(out)
    }

    /// The Rust module name of the project.
    pub fn module(&self) -> String {
        self.dir.replace('-', "_")
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "capnp") {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// The Rust module a corpus file's generated code goes in (inside its
/// project's module): its path with every run of other characters than
/// ASCII letters and digits made one `_`, lower case, then `_capnp`
/// (`src/sandstorm/grain.capnp` -> `src_sandstorm_grain_capnp`).
pub fn file_module(path: &str) -> String {
    let stem = path.strip_suffix(".capnp").unwrap_or(path);
    let mut out = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    format!("{}_capnp", out.trim_matches('_'))
}

/// The corpus directory, given the crate's directory.
pub fn corpus_dir(manifest_dir: &Path) -> PathBuf {
    manifest_dir.join("corpus")
}
