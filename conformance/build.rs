//! Generates Rust with capnarena-build for every schema of the corpus (one
//! request per file, as its project compiles it), and writes `corpus.rs`
//! into `OUT_DIR`: a module per project holding a module per file, so that
//! building (and `cargo clippy -- -D warnings` on) this crate checks that
//! all the generated code compiles together, clippy-clean.
//!
//! A file importing another refers to the other's module through
//! `Config::module_path`, found by file ID in the requests. Every file is
//! generated with owned values, schema nodes and typed RPC code (so every
//! interface of the corpus compiles against capnarena-rpc); `corpus.rs`
//! also lists
//! each file's `SCHEMA_NODES` (tests/schema_nodes.rs).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use capnarena::{MessageReader, ReaderOptions};
use capnarena_codegen::schema_capnp::{code_generator_request, node};

#[path = "src/corpus.rs"]
mod corpus;

/// Corpus files (`project/path`) whose generated Rust does not compile
/// yet, each with the first error rustc gives; they are left out of the
/// crate, and so is every file that imports one. Generator bugs: empty
/// this list as capnarena-codegen learns each construct.
const NOT_YET_COMPILING: &[(&str, &str)] = &[];

/// One corpus file, compiled.
struct Unit {
    project: usize,
    path: String,
    module: String,
    id: u64,
    /// The file nodes of its request other than its own: (id, displayName).
    others: Vec<(u64, String)>,
}

fn config(project: &corpus::Project, corpus_dir: &Path) -> capnarena_build::Config {
    let root = project.root(corpus_dir);
    let mut c = capnarena_build::Config::new().src_prefix(&root);
    for p in project.import_paths {
        c = c.import_path(root.join(p));
    }
    c.import_path(corpus_dir.join(corpus::STANDARD))
        .no_standard_import()
        .owned_values(true)
        .schema_nodes(true)
        // Typed RPC code too: every interface of the corpus compiles.
        .rpc(true)
}

/// Generates the wire-compatibility vectors' schema
/// (`tests/vectors/all_types.capnp`), with owned values and their serde
/// impls (tests/owned_serde.rs), into
/// `OUT_DIR/vectors/all_types_capnp.rs`, which `src/lib.rs` includes.
fn vectors(manifest: &Path, out: &Path) -> io::Result<()> {
    let dir = manifest.join("../tests/vectors");
    println!("cargo:rerun-if-changed=../tests/vectors/all_types.capnp");
    capnarena_build::Config::new()
        .src_prefix(&dir)
        .file(dir.join("all_types.capnp"))
        .out_dir(out.join("vectors"))
        .serde(true)
        .schema_nodes(true)
        .compile()
        .map_err(|e| io::Error::other(format!("tests/vectors/all_types.capnp: {e}")))
}

/// Generates the RPC interop schema (`capnarena-rpc/tests/interop/test.capnp`,
/// with a `-> stream` method and no import of stream.capnp) with schema
/// nodes into `OUT_DIR/streaming/test_capnp.rs`, which `src/lib.rs`
/// includes: its interface's schema node carries StreamResult's node
/// itself (tests/schema_nodes.rs).
fn streaming(manifest: &Path, out: &Path) -> io::Result<()> {
    let dir = manifest.join("../capnarena-rpc/tests/interop");
    println!("cargo:rerun-if-changed=../capnarena-rpc/tests/interop/test.capnp");
    capnarena_build::Config::new()
        .src_prefix(&dir)
        .file(dir.join("test.capnp"))
        .out_dir(out.join("streaming"))
        .schema_nodes(true)
        .compile()
        .map_err(|e| io::Error::other(format!("capnarena-rpc/tests/interop/test.capnp: {e}")))
}

/// Generates `tests/schemas/owned_cycles.capnp` and the file it imports
/// (which imports it back), with owned values and their serde impls,
/// into `OUT_DIR/owned_cycles/`, which `src/lib.rs` includes
/// (tests/owned_boxing.rs).
fn owned_cycles(manifest: &Path, out: &Path) -> io::Result<()> {
    let dir = manifest.join("../tests/schemas");
    let files = ["owned_cycles.capnp", "owned_cycles_b.capnp"];
    for file in files {
        println!("cargo:rerun-if-changed=../tests/schemas/{file}");
    }
    capnarena_build::Config::new()
        .src_prefix(&dir)
        .files(files.map(|f| dir.join(f)))
        .out_dir(out.join("owned_cycles"))
        .serde(true)
        .compile()
        .map_err(|e| io::Error::other(format!("tests/schemas/owned_cycles.capnp: {e}")))
}

/// Generates `tests/schemas/json_annotated.capnp` and
/// `tests/schemas/json_flatten.capnp` (the `/capnp/compat/json.capnp`
/// annotations, `$Json.flatten` in the second) with owned values and
/// their serde impls into `OUT_DIR/json_annotated/` and
/// `OUT_DIR/json_flatten/`, which `src/lib.rs` includes
/// (tests/owned_json.rs).
fn json_annotated(manifest: &Path, out: &Path) -> io::Result<()> {
    let dir = manifest.join("../tests/schemas");
    for name in ["json_annotated", "json_flatten"] {
        println!("cargo:rerun-if-changed=../tests/schemas/{name}.capnp");
        capnarena_build::Config::new()
            .src_prefix(&dir)
            .file(dir.join(format!("{name}.capnp")))
            .out_dir(out.join(name))
            .serde(true)
            .compile()
            .map_err(|e| io::Error::other(format!("tests/schemas/{name}.capnp: {e}")))?;
    }
    Ok(())
}

/// Generates `tests/schemas/owned_generics.capnp` (generic structs) with
/// owned values and their serde impls into `OUT_DIR/owned_generics/`, which `src/lib.rs`
/// includes (tests/owned_generics.rs).
fn owned_generics(manifest: &Path, out: &Path) -> io::Result<()> {
    let dir = manifest.join("../tests/schemas");
    println!("cargo:rerun-if-changed=../tests/schemas/owned_generics.capnp");
    capnarena_build::Config::new()
        .src_prefix(&dir)
        .file(dir.join("owned_generics.capnp"))
        .out_dir(out.join("owned_generics"))
        .serde(true)
        .compile()
        .map_err(|e| io::Error::other(format!("tests/schemas/owned_generics.capnp: {e}")))
}

/// Generates the reference's `capnp/test.capnp` (whose testdata/ holds
/// its messages and their JSON), `capnp/compat/json-test.capnp` (the
/// testdata's `annotated-json.binary` and `annotated.json`) and the
/// `capnp/compat/json.capnp` it imports (whose `Value` is written as the
/// JSON it holds) with owned values and serde impls into
/// `OUT_DIR/reference_serde/`, which `src/lib.rs` includes
/// (tests/reference_json.rs); and `tests/schemas/json_value.capnp`
/// (`Json.Value` fields of every kind) into `OUT_DIR/json_value/`, its
/// import of json.capnp naming that module (tests/json_value.rs).
fn reference_serde(manifest: &Path, corpus_dir: &Path, out: &Path) -> io::Result<()> {
    let src = corpus_dir.join(corpus::STANDARD);
    let dir = out.join("reference_serde");
    let _ = std::fs::remove_dir_all(&dir);
    let config = || {
        capnarena_build::Config::new()
            .src_prefix(&src)
            .import_path(&src)
            .no_standard_import()
            .serde(true)
    };
    for (file, module) in [
        ("capnp/test.capnp", "test"),
        ("capnp/compat/json-test.capnp", "json_test"),
        ("capnp/compat/json.capnp", "json"),
    ] {
        config()
            .file(src.join(file))
            .out_dir(dir.join(module))
            .compile()
            .map_err(|e| io::Error::other(format!("{file}: {e}")))?;
    }
    let schemas = manifest.join("../tests/schemas");
    println!("cargo:rerun-if-changed=../tests/schemas/json_value.capnp");
    capnarena_build::Config::new()
        .src_prefix(&schemas)
        .import_path(&src)
        .no_standard_import()
        .serde(true)
        .module_path(
            "capnp/compat/json.capnp",
            "crate::reference_serde::json_capnp",
        )
        .file(schemas.join("json_value.capnp"))
        .out_dir(out.join("json_value"))
        .compile()
        .map_err(|e| io::Error::other(format!("tests/schemas/json_value.capnp: {e}")))
}

/// The requested file's ID and the other file nodes of a request.
fn files_of(request: &[u8]) -> Result<(u64, Vec<(u64, String)>), capnarena::Error> {
    let words = capnarena::words_from_bytes(request)?;
    let message = MessageReader::from_words(&words, ReaderOptions::default())?;
    let root = message.get_root::<code_generator_request::Reader<'_>>()?;
    let requested = root.get_requested_files()?;
    let id = requested.get(0).get_id();
    let mut others = Vec::new();
    for n in root.get_nodes()? {
        if matches!(n.which()?, node::Which::File) && n.get_id() != id {
            others.push((n.get_id(), n.get_display_name()?.to_string()));
        }
    }
    Ok((id, others))
}

fn main() -> io::Result<()> {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let corpus_dir = corpus::corpus_dir(&manifest);
    println!("cargo:rerun-if-changed=corpus");
    println!("cargo:rerun-if-changed=src/corpus.rs");
    vectors(&manifest, &out)?;
    streaming(&manifest, &out)?;
    owned_cycles(&manifest, &out)?;
    json_annotated(&manifest, &out)?;
    owned_generics(&manifest, &out)?;
    reference_serde(&manifest, &corpus_dir, &out)?;

    let excluded: HashMap<&str, &str> = NOT_YET_COMPILING.iter().copied().collect();
    let mut units = Vec::new();
    let mut left_out: Vec<(String, String)> = Vec::new();
    for (pi, project) in corpus::PROJECTS.iter().enumerate() {
        for path in project.files(&corpus_dir)? {
            let key = format!("{}/{path}", project.dir);
            if let Some(why) = excluded.get(key.as_str()) {
                left_out.push((key, why.to_string()));
                continue;
            }
            let request = config(project, &corpus_dir)
                .file(project.root(&corpus_dir).join(&path))
                .request()
                .map_err(|e| io::Error::other(format!("{key}: {e}")))?;
            let (id, others) = files_of(&request)
                .map_err(|e| io::Error::other(format!("{key}: reading its request: {e}")))?;
            units.push(Unit {
                project: pi,
                module: corpus::file_module(&path),
                path,
                id,
                others,
            });
        }
    }
    for (key, _) in NOT_YET_COMPILING {
        if !left_out.iter().any(|(k, _)| k == key) {
            return Err(io::Error::other(format!(
                "NOT_YET_COMPILING names {key}, which is not in the corpus"
            )));
        }
    }

    // Which unit a file node of a request is: same ID, a path ending in
    // its display name; the importer's own project first, then the
    // standard schemas' project.
    let find = |from: usize, id: u64, name: &str| -> Option<usize> {
        let name = name.trim_start_matches('/');
        let mut found: Vec<usize> = (0..units.len())
            .filter(|&u| units[u].id == id && units[u].path.ends_with(name))
            .collect();
        found.sort_by_key(|&u| (units[u].project != from, units[u].project != 0));
        found.first().copied()
    };
    let path_of = |u: usize| {
        format!(
            "crate::{}::{}",
            corpus::PROJECTS[units[u].project].module(),
            units[u].module
        )
    };

    // A file whose imports are left out is left out too (until none is).
    let mut dropped = vec![false; units.len()];
    let mut why_dropped: Vec<String> = vec![String::new(); units.len()];
    loop {
        let mut changed = false;
        for u in 0..units.len() {
            if dropped[u] {
                continue;
            }
            for (id, name) in &units[u].others {
                let missing = match find(units[u].project, *id, name) {
                    None => Some(format!("imports {name}, left out")),
                    Some(o) if dropped[o] => Some(format!("imports {name}, left out")),
                    Some(_) => None,
                };
                if let Some(m) = missing {
                    dropped[u] = true;
                    why_dropped[u] = m;
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }

    let mut mods = String::new();
    let mut generated = Vec::new();
    let mut schema_nodes = Vec::new();
    let mut failures = Vec::new();
    for (pi, project) in corpus::PROJECTS.iter().enumerate() {
        let _ = writeln!(
            mods,
            "/// Generated code of corpus/{}/.\npub mod {} {{",
            project.dir,
            project.module()
        );
        for u in (0..units.len()).filter(|&u| units[u].project == pi) {
            let unit = &units[u];
            let key = format!("{}/{}", project.dir, unit.path);
            if dropped[u] {
                left_out.push((key, why_dropped[u].clone()));
                continue;
            }
            let dir = out.join(project.dir).join(&unit.module);
            let _ = std::fs::remove_dir_all(&dir);
            let mut c = config(project, &corpus_dir)
                .file(project.root(&corpus_dir).join(&unit.path))
                .out_dir(&dir);
            for (id, name) in &unit.others {
                if let Some(o) = find(pi, *id, name) {
                    c = c.module_path(name.clone(), path_of(o));
                }
            }
            if let Err(e) = c.compile() {
                failures.push(format!("{key}: {e}"));
                continue;
            }
            let mut rs = std::fs::read_dir(&dir)?
                .map(|e| e.map(|e| e.path()))
                .collect::<io::Result<Vec<_>>>()?;
            if rs.len() != 1 {
                return Err(io::Error::other(format!(
                    "{key}: expected one generated file in {}, found {}",
                    dir.display(),
                    rs.len()
                )));
            }
            let file = rs.pop().expect("one file");
            // Schema doc comments are prose, not rustdoc: its link, HTML,
            // URL and code block lints are off for them (clippy's are not).
            let _ = writeln!(
                mods,
                "    /// Generated from corpus/{key}.\n    #[allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags, rustdoc::bare_urls, rustdoc::invalid_rust_codeblocks)]\n    pub mod {} {{\n        include!({:?});\n    }}",
                unit.module,
                file.display().to_string()
            );
            schema_nodes.push(format!(
                "({key:?}, {}::{}::SCHEMA_NODES)",
                project.module(),
                unit.module
            ));
            generated.push(key);
        }
        mods.push_str("}\n");
    }
    if !failures.is_empty() {
        return Err(io::Error::other(format!(
            "capnarena-build failed on {} corpus files (add them to NOT_YET_COMPILING):\n{}",
            failures.len(),
            failures.join("\n")
        )));
    }
    left_out.sort();
    let _ = writeln!(
        mods,
        "/// Every corpus file whose generated code is in this crate.\npub const GENERATED: &[&str] = &{generated:?};"
    );
    let _ = writeln!(
        mods,
        "/// A generated file module's `SCHEMA_NODES`.\npub type FileSchemaNodes = &'static [fn() -> &'static capnarena::typed::SchemaNode];\n/// The schema nodes of every struct, enum and interface of each corpus file\n/// whose generated code is in this crate (its module's `SCHEMA_NODES`).\npub const SCHEMA_NODES: &[(&str, FileSchemaNodes)] = &[{}];",
        schema_nodes.join(", ")
    );
    let _ = writeln!(
        mods,
        "/// Corpus files left out of this crate, and why.\npub const LEFT_OUT: &[(&str, &str)] = &{left_out:?};"
    );
    std::fs::write(out.join("corpus.rs"), mods)?;
    Ok(())
}
