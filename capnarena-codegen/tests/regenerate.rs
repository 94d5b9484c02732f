//! Every checked-in generated file is what the generator makes today: the
//! generator's own `schema.capnp` bindings (the bootstrap) and the code the
//! runtime's tests and examples use.
//!
//! The golden fixtures (`tests/fixtures/NAME.capnp`, one construct each,
//! beside the request the reference wrote for it and the code the
//! generator makes from it, reviewed) are checked the same way.
//!
//! Each target is regenerated twice: from the CodeGeneratorRequest the
//! reference `capnp compile -o-` wrote for it (checked in under
//! `tests/requests/`, so this runs without the tool), and, when `capnp` is
//! on PATH, from a request compiled now (so a schema edited without
//! regenerating its code is caught). Without `capnp` the second half prints
//! a SKIP line, and fails under `CAPNARENA_REQUIRE_PEER=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../tests/common/peer.rs"]
mod peer;

/// One generated target: the request file, how to compile it, and the
/// checked-in Rust files it must reproduce.
struct Target {
    request: &'static str,
    /// `capnp compile -o-` arguments (paths relative to the workspace root).
    args: &'static [&'static str],
    /// Checked-in files (relative to the workspace root), by generated name.
    outputs: &'static [(&'static str, &'static str)],
    /// Generated with typed RPC code (`Options::rpc`).
    rpc: bool,
    /// Generated with schema nodes (`Options::schema_nodes`).
    schema_nodes: bool,
    /// Generated with plain values (`Options::owned_values`).
    owned_values: bool,
}

const TARGETS: &[Target] = &[
    Target {
        request: "schema.bin",
        args: &[
            "--src-prefix=/usr/include",
            "/usr/include/capnp/schema.capnp",
        ],
        outputs: &[("schema_capnp.rs", "capnarena-codegen/src/schema_capnp.rs")],
        rpc: false,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "codegen.bin",
        args: &[
            "--src-prefix=tests/schemas",
            "tests/schemas/codegen.capnp",
            "tests/schemas/imported.capnp",
        ],
        outputs: &[
            ("codegen_capnp.rs", "tests/generated/codegen_capnp.rs"),
            ("imported_capnp.rs", "tests/generated/imported_capnp.rs"),
        ],
        rpc: false,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "evolution.bin",
        args: &[
            "--src-prefix=tests/schemas",
            "tests/schemas/evolution_v1.capnp",
            "tests/schemas/evolution_v2.capnp",
            "tests/schemas/evolution_v3.capnp",
        ],
        outputs: &[
            (
                "evolution_v1_capnp.rs",
                "tests/generated/evolution_v1_capnp.rs",
            ),
            (
                "evolution_v2_capnp.rs",
                "tests/generated/evolution_v2_capnp.rs",
            ),
            (
                "evolution_v3_capnp.rs",
                "tests/generated/evolution_v3_capnp.rs",
            ),
        ],
        rpc: false,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "all_types.bin",
        args: &[
            "--src-prefix=tests/vectors",
            "tests/vectors/all_types.capnp",
        ],
        outputs: &[("all_types_capnp.rs", "tests/generated/all_types_capnp.rs")],
        rpc: false,
        // The dynamic layer's tests load the schema from the generated types.
        schema_nodes: true,
        owned_values: false,
    },
    Target {
        request: "generics.bin",
        args: &["--src-prefix=tests/schemas", "tests/schemas/generics.capnp"],
        outputs: &[("generics_capnp.rs", "tests/generated/generics_capnp.rs")],
        rpc: false,
        // The dynamic layer's tests carry generic bindings from the types.
        schema_nodes: true,
        owned_values: false,
    },
    Target {
        request: "names.bin",
        args: &["--src-prefix=tests/schemas", "tests/schemas/names.capnp"],
        outputs: &[("names_capnp.rs", "tests/generated/names_capnp.rs")],
        rpc: false,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "nonutf8.bin",
        args: &["--src-prefix=tests/schemas", "tests/schemas/nonutf8.capnp"],
        outputs: &[("nonutf8_capnp.rs", "tests/generated/nonutf8_capnp.rs")],
        rpc: false,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "renamed.bin",
        args: &[
            "--src-prefix=tests/schemas",
            "tests/schemas/renamed.capnp",
            "tests/schemas/renamed_parent.capnp",
        ],
        outputs: &[
            ("renamed_capnp.rs", "tests/generated/renamed_capnp.rs"),
            (
                "renamed_parent_capnp.rs",
                "tests/generated/renamed_parent_capnp.rs",
            ),
        ],
        rpc: false,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "addressbook.bin",
        args: &[
            "--src-prefix=examples/addressbook/schema",
            "examples/addressbook/schema/addressbook.capnp",
        ],
        outputs: &[(
            "addressbook_capnp.rs",
            "examples/generated/addressbook_capnp.rs",
        )],
        rpc: false,
        schema_nodes: false,
        owned_values: true,
    },
    Target {
        request: "rpc.bin",
        args: &[
            "--src-prefix=/usr/include",
            "/usr/include/capnp/rpc.capnp",
            "/usr/include/capnp/rpc-twoparty.capnp",
        ],
        outputs: &[
            ("rpc_capnp.rs", "capnarena-rpc/src/rpc_capnp.rs"),
            (
                "rpc_twoparty_capnp.rs",
                "capnarena-rpc/src/rpc_twoparty_capnp.rs",
            ),
        ],
        rpc: false,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "rpc_reference.bin",
        args: &[
            "--no-standard-import",
            "-Iconformance/corpus/capnproto/c++/src",
            "--src-prefix=conformance/corpus/capnproto/c++/src/capnp",
            "conformance/corpus/capnproto/c++/src/capnp/schema.capnp",
            "conformance/corpus/capnproto/c++/src/capnp/test.capnp",
            "conformance/corpus/capnproto/c++/src/capnp/test-import.capnp",
            "conformance/corpus/capnproto/c++/src/capnp/test-import2.capnp",
        ],
        outputs: &[
            (
                "schema_capnp.rs",
                "capnarena-rpc/tests/generated/reference/schema_capnp.rs",
            ),
            (
                "test_capnp.rs",
                "capnarena-rpc/tests/generated/reference/test_capnp.rs",
            ),
            (
                "test_import_capnp.rs",
                "capnarena-rpc/tests/generated/reference/test_import_capnp.rs",
            ),
            (
                "test_import2_capnp.rs",
                "capnarena-rpc/tests/generated/reference/test_import2_capnp.rs",
            ),
        ],
        rpc: true,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "rpc_schemas.bin",
        args: &[
            "--no-standard-import",
            "-Iconformance/corpus/capnproto/c++/src",
            "--src-prefix=tests/schemas",
            "--src-prefix=capnarena-compiler/tests/schemas",
            "--src-prefix=conformance/corpus/capnproto/c++/src/capnp",
            "conformance/corpus/capnproto/c++/src/capnp/stream.capnp",
            "tests/schemas/owned_generics.capnp",
            "tests/schemas/text_format.capnp",
            "capnarena-compiler/tests/schemas/misc.capnp",
            "capnarena-compiler/tests/schemas/interfaces.capnp",
        ],
        outputs: &[
            (
                "stream_capnp.rs",
                "capnarena-rpc/tests/generated/schemas/stream_capnp.rs",
            ),
            (
                "owned_generics_capnp.rs",
                "capnarena-rpc/tests/generated/schemas/owned_generics_capnp.rs",
            ),
            (
                "text_format_capnp.rs",
                "capnarena-rpc/tests/generated/schemas/text_format_capnp.rs",
            ),
            (
                "misc_capnp.rs",
                "capnarena-rpc/tests/generated/schemas/misc_capnp.rs",
            ),
            (
                "interfaces_capnp.rs",
                "capnarena-rpc/tests/generated/schemas/interfaces_capnp.rs",
            ),
        ],
        rpc: true,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "rpc_test.bin",
        args: &[
            "--src-prefix=capnarena-rpc/tests/interop",
            "capnarena-rpc/tests/interop/test.capnp",
        ],
        outputs: &[(
            "test_capnp.rs",
            "capnarena-rpc/tests/generated/test_capnp.rs",
        )],
        rpc: true,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "codegen.bin",
        args: &[
            "--src-prefix=tests/schemas",
            "tests/schemas/codegen.capnp",
            "tests/schemas/imported.capnp",
        ],
        outputs: &[
            (
                "codegen_capnp.rs",
                "capnarena-rpc/tests/generated/codegen_capnp.rs",
            ),
            (
                "imported_capnp.rs",
                "capnarena-rpc/tests/generated/imported_capnp.rs",
            ),
        ],
        rpc: true,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "names.bin",
        args: &["--src-prefix=tests/schemas", "tests/schemas/names.capnp"],
        outputs: &[(
            "names_capnp.rs",
            "capnarena-rpc/tests/generated/names_capnp.rs",
        )],
        rpc: true,
        schema_nodes: false,
        owned_values: false,
    },
    Target {
        request: "calculator.bin",
        args: &[
            "--src-prefix=capnarena-rpc/examples/calculator",
            "capnarena-rpc/examples/calculator/calculator.capnp",
        ],
        outputs: &[(
            "calculator_capnp.rs",
            "capnarena-rpc/examples/generated/calculator_capnp.rs",
        )],
        rpc: true,
        schema_nodes: false,
        owned_values: false,
    },
];

/// The golden fixtures, by name: `tests/fixtures/NAME.capnp`,
/// `NAME.bin`, `NAME_capnp.rs`.
const FIXTURES: &[&str] = &[
    "any_pointer",
    "const",
    "enum",
    "generic",
    "group",
    "group_union",
    "interface_field",
    "lists",
    "nested_struct",
    "scalars",
    "text_data",
    "union",
];

const FIXTURE_DIR: &str = "capnarena-codegen/tests/fixtures";

/// Checks that fixture `name`'s `request` generates exactly its
/// checked-in code.
fn check_fixture(name: &str, request: &[u8], source: &str) {
    let files = capnarena_codegen::generate(request, &capnarena_codegen::Options::default())
        .unwrap_or_else(|e| panic!("fixture {name}: generation failed ({source}): {e}"));
    let file_name = format!("{name}_capnp.rs");
    assert_eq!(
        files.iter().map(|f| &f.name).collect::<Vec<_>>(),
        [&file_name],
        "fixture {name}"
    );
    let path = root().join(FIXTURE_DIR).join(&file_name);
    let checked_in =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        files[0].contents == checked_in,
        "{} differs from what the generator makes now ({source}); review the change and \
         regenerate it (capnarena-codegen/regenerate.sh)",
        path.display()
    );
}

/// The fixtures' checked-in requests regenerate their checked-in code.
#[test]
fn fixture_requests_regenerate_fixture_code() {
    let dir = root().join(FIXTURE_DIR);
    let mut schemas: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".capnp")?.to_string())
        })
        .collect();
    schemas.sort();
    assert_eq!(schemas, FIXTURES, "every fixture schema is listed");
    for name in FIXTURES {
        let path = root().join(FIXTURE_DIR).join(format!("{name}.bin"));
        let request = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        check_fixture(name, &request, "checked-in request");
    }
}

/// The fixtures' schemas compiled now regenerate their checked-in code
/// (a schema edited without regenerating is caught).
#[test]
fn fixture_schemas_compiled_now_regenerate_fixture_code() {
    let Some(capnp) = peer::peer() else { return };
    for name in FIXTURES {
        let out = Command::new(&capnp)
            .current_dir(root())
            .arg("compile")
            .arg("-o-")
            .arg(format!("--src-prefix={FIXTURE_DIR}"))
            .arg(format!("{FIXTURE_DIR}/{name}.capnp"))
            .output()
            .expect("running capnp");
        assert!(
            out.status.success(),
            "capnp compile {name}.capnp: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        check_fixture(name, &out.stdout, "request compiled now");
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Checks that `request` generates exactly the checked-in files of `t`.
fn check(t: &Target, request: &[u8], source: &str) {
    let options = capnarena_codegen::Options::default()
        .rpc(t.rpc)
        .schema_nodes(t.schema_nodes)
        .owned_values(t.owned_values);
    let files = capnarena_codegen::generate(request, &options)
        .unwrap_or_else(|e| panic!("{}: generation failed ({source}): {e}", t.request));
    assert_eq!(
        files.len(),
        t.outputs.len(),
        "{}: generated {:?}",
        t.request,
        files.iter().map(|f| &f.name).collect::<Vec<_>>()
    );
    for (name, path) in t.outputs {
        let generated = files
            .iter()
            .find(|f| f.name == *name)
            .unwrap_or_else(|| panic!("{}: no {name} generated", t.request));
        let checked_in = std::fs::read_to_string(root().join(path))
            .unwrap_or_else(|e| panic!("reading {path}: {e}"));
        assert!(
            generated.contents == checked_in,
            "{path} differs from what the generator makes now ({source}); regenerate it \
             (capnp compile -o target/debug/capnpc-capnarena:DIR ... or see CONTRIBUTING in README)"
        );
    }
}

/// The checked-in requests (written by the reference tool) regenerate the
/// checked-in code byte for byte.
#[test]
fn checked_in_requests_regenerate_checked_in_code() {
    for t in TARGETS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/requests")
            .join(t.request);
        let request = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        check(t, &request, "checked-in request");
    }
}

/// Requests compiled now from the schemas regenerate the checked-in code.
#[test]
fn schemas_compiled_now_regenerate_checked_in_code() {
    let Some(capnp) = peer::peer() else { return };
    for t in TARGETS {
        if t.args
            .iter()
            .any(|a| a.starts_with("/usr/include/") && !Path::new(a).exists())
        {
            if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
                panic!("{}: schema missing (install libcapnp-dev)", t.request);
            }
            println!(
                "SKIP {}: /usr/include/capnp schemas missing (install libcapnp-dev)",
                t.request
            );
            continue;
        }
        let out = Command::new(&capnp)
            .current_dir(root())
            .arg("compile")
            .arg("-o-")
            .args(t.args)
            .output()
            .expect("running capnp");
        assert!(
            out.status.success(),
            "capnp compile {:?}: {}",
            t.args,
            String::from_utf8_lossy(&out.stderr)
        );
        check(t, &out.stdout, "request compiled now");
    }
}
