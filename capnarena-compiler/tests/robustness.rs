//! Damaged schemas never panic: every prefix of each test schema, and
//! copies with bytes replaced by structural characters, compile to a
//! request or to diagnostics whose positions lie inside the text.

use std::path::Path;

use capnarena_compiler::Compiler;

const OTHER: &str = "@0xd00dfeedd00dfeed;\nstruct Shared { a @0 :Int32; }\n";

fn compile(text: &[u8]) {
    let result = Compiler::new()
        .no_standard_import()
        .working_dir("/virtual")
        .import_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/include"))
        .source("/virtual/t.capnp", text.to_vec())
        .source("/virtual/sub/shared.capnp", OTHER)
        .file("t.capnp")
        .compile();
    if let Err(d) = result {
        let lines = text.iter().filter(|b| **b == b'\n').count() as u32 + 1;
        for x in &d.0 {
            if x.file == "t.capnp" {
                assert!(x.line() <= lines, "{x} is past the end");
            }
        }
    }
}

fn schemas() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    [
        "interfaces.capnp",
        "values.capnp",
        "layout.capnp",
        "imports.capnp",
    ]
    .iter()
    .map(|f| std::fs::read(dir.join(f)).expect("schema"))
    .collect()
}

/// Every prefix of every test schema (cut mid-token, mid-string,
/// mid-block) compiles or fails cleanly.
#[test]
fn every_prefix_compiles_or_fails_cleanly() {
    for s in schemas() {
        for cut in 0..=s.len() {
            compile(&s[..cut]);
        }
    }
}

/// Each byte replaced, in turn, by characters that change the structure
/// (`{`, `}`, `(`, `"`, `@`, `;`, `=`, a NUL) compiles or fails cleanly.
#[test]
fn replaced_bytes_compile_or_fail_cleanly() {
    for s in schemas() {
        for (i, c) in b"{}(\"@;=\0".iter().cycle().take(s.len()).enumerate() {
            let mut t = s.clone();
            t[i] = *c;
            compile(&t);
        }
    }
}
