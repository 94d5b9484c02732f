//! `Config::default_parent_module` (capnpc's option): code that names an
//! imported file's types finds that file's module under the given path
//! from the crate root, not as a sibling; a file's own `module_path`
//! still wins over it.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Generates `codegen.capnp` (which imports `imported.capnp`) through
/// `config` into a scratch directory and returns its code.
fn generate(name: &str, config: capnarena_build::Config) -> String {
    let out = std::env::temp_dir().join(format!(
        "capnarena-build-parent-module-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("mkdir");
    config
        .src_prefix(root().join("tests/schemas"))
        .file(root().join("tests/schemas/codegen.capnp"))
        .out_dir(&out)
        .compile()
        .expect("codegen.capnp compiles");
    let code = std::fs::read_to_string(out.join("codegen_capnp.rs")).expect("generated");
    let _ = std::fs::remove_dir_all(&out);
    code
}

/// The imported file's types are named at `crate::gen::schemas::imported_capnp`.
#[test]
fn imported_types_are_named_under_the_default_parent_module() {
    let code = generate(
        "set",
        capnarena_build::Config::new().default_parent_module(["gen", "schemas"]),
    );
    assert!(
        code.contains("crate::gen::schemas::imported_capnp::point::Reader<'a>"),
        "no path under the parent module"
    );
    assert!(!code.contains("super::imported_capnp"));
}

/// With no parts, the modules sit at the crate root, as capnpc's empty
/// default does.
#[test]
fn an_empty_default_parent_module_is_the_crate_root() {
    let none: [&str; 0] = [];
    let code = generate(
        "root",
        capnarena_build::Config::new().default_parent_module(none),
    );
    assert!(code.contains("crate::imported_capnp::point::Reader<'a>"));
}

/// Without the option an imported file is a sibling (the default), and
/// a file's `module_path` wins over the option.
#[test]
fn sibling_by_default_and_module_path_wins() {
    let code = generate("unset", capnarena_build::Config::new());
    assert!(code.contains("super::super::imported_capnp::point::Reader<'a>"));
    assert!(!code.contains("crate::"));
    let code = generate(
        "both",
        capnarena_build::Config::new()
            .default_parent_module(["gen"])
            .module_path("imported.capnp", "::other::imported_capnp"),
    );
    assert!(code.contains("::other::imported_capnp::point::Reader<'a>"));
    assert!(!code.contains("crate::gen"));
}
