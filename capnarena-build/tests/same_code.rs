//! The generated Rust is the same whichever compiler produced the request:
//! every checked-in generated file (the generator's own schema.capnp
//! bindings, the runtime's test and example code), which
//! `capnarena-codegen/tests/regenerate.rs` checks against requests from the
//! reference `capnp compile`, is also what the built-in Rust compiler's
//! request generates. Needs no `capnp` binary.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (generated file name, checked-in path).
type Output = (&'static str, &'static str);

/// Generated with (schema nodes, plain values).
type Flags = (bool, bool);

/// (src prefix, schema files, checked-in outputs, flags), paths from the
/// root.
const TARGETS: &[(&str, &[&str], &[Output], Flags)] = &[
    (
        "tests/schemas",
        &[
            "tests/schemas/codegen.capnp",
            "tests/schemas/imported.capnp",
        ],
        &[
            ("codegen_capnp.rs", "tests/generated/codegen_capnp.rs"),
            ("imported_capnp.rs", "tests/generated/imported_capnp.rs"),
        ],
        (false, false),
    ),
    (
        "tests/vectors",
        &["tests/vectors/all_types.capnp"],
        &[("all_types_capnp.rs", "tests/generated/all_types_capnp.rs")],
        (true, false),
    ),
    (
        "tests/schemas",
        &["tests/schemas/nonutf8.capnp"],
        &[("nonutf8_capnp.rs", "tests/generated/nonutf8_capnp.rs")],
        (false, false),
    ),
    (
        "examples/addressbook/schema",
        &["examples/addressbook/schema/addressbook.capnp"],
        &[(
            "addressbook_capnp.rs",
            "examples/generated/addressbook_capnp.rs",
        )],
        (false, true),
    ),
];

fn check(
    prefix: &Path,
    files: &[PathBuf],
    outputs: &[(&str, PathBuf)],
    (schema_nodes, owned_values): Flags,
) {
    let mut c = capnarena_compiler::Compiler::new().src_prefix(prefix);
    for f in files {
        c = c.file(f);
    }
    let request = c.compile().unwrap_or_else(|d| panic!("{files:?}: {d}"));
    let options = capnarena_codegen::Options::default()
        .schema_nodes(schema_nodes)
        .owned_values(owned_values);
    let generated = capnarena_codegen::generate(&request, &options)
        .unwrap_or_else(|e| panic!("{files:?}: {e}"));
    assert_eq!(generated.len(), outputs.len(), "{files:?}");
    for (name, path) in outputs {
        let g = generated.iter().find(|g| g.name == *name).unwrap();
        let want = std::fs::read_to_string(path).unwrap();
        assert!(
            g.contents == want,
            "{}: the built-in compiler's request generates different Rust",
            path.display()
        );
    }
}

/// The project's schemas give the checked-in code through the built-in
/// compiler.
#[test]
fn builtin_compiler_generates_the_checked_in_code() {
    let root = root();
    for (prefix, files, outputs, flags) in TARGETS {
        let files: Vec<PathBuf> = files.iter().map(|f| root.join(f)).collect();
        let outputs: Vec<(&str, PathBuf)> =
            outputs.iter().map(|(n, p)| (*n, root.join(p))).collect();
        check(&root.join(prefix), &files, &outputs, *flags);
    }
}

/// The generator's own bindings come out the same from the built-in
/// compiler (needs `/usr/include/capnp/schema.capnp`, Debian's
/// libcapnp-dev).
#[test]
fn builtin_compiler_regenerates_the_bootstrap_bindings() {
    let schema = Path::new("/usr/include/capnp/schema.capnp");
    if !schema.exists() {
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{} missing (install libcapnp-dev)", schema.display());
        }
        println!(
            "SKIP bootstrap bindings through the built-in compiler: {} missing (install libcapnp-dev)",
            schema.display()
        );
        return;
    }
    check(
        Path::new("/usr/include"),
        &[schema.to_path_buf()],
        &[(
            "schema_capnp.rs",
            root().join("capnarena-codegen/src/schema_capnp.rs"),
        )],
        (false, false),
    );
}
