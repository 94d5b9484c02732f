//! The request capnarena-compile writes is the one `capnp compile -o-`
//! writes for the same arguments: both rendered through `capnp convert
//! binary:text /usr/include/capnp/schema.capnp CodeGeneratorRequest` must
//! be identical line for line, `capnpVersion` aside. One test per schema:
//! every .capnp file of Debian's libcapnp-dev, the project's test vectors
//! and this crate's test schemas.
//!
//! Needs `capnp` on PATH and libcapnp-dev's schemas; without them each test
//! prints a SKIP line and passes, unless `CAPNARENA_REQUIRE_PEER=1`.

#[path = "../../tests/common/peer.rs"]
mod peer;
#[path = "../../tests/common/request.rs"]
mod request;

use std::path::{Path, PathBuf};
use std::process::Command;

use capnarena_compiler::Compiler;
use request::{our_request, reference_request, render, tool};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn crate_schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas")
}

/// Compiles `args` in `cwd` with both compilers and compares the renderings.
fn same_request(cwd: &Path, args: &[&str]) {
    let Some(capnp) = tool() else { return };
    let reference = render(&capnp, &reference_request(&capnp, cwd, args));
    let ours = render(&capnp, &our_request(cwd, args));
    assert!(
        reference == ours,
        "requests differ for {args:?} in {}:\n{}",
        cwd.display(),
        peer::diff(&reference, &ours)
    );
}

/// A Debian schema compiled from its own directory and with
/// `--src-prefix=/usr/include` from `/`.
fn debian(file: &str) {
    same_request(Path::new("/usr/include/capnp"), &[file]);
    let abs = format!("/usr/include/capnp/{file}");
    same_request(Path::new("/"), &["--src-prefix=/usr/include", &abs]);
}

/// c++.capnp: annotations only.
#[test]
fn debian_cxx() {
    debian("c++.capnp");
}

/// schema.capnp: unions, groups, nested groups, constants, imports.
#[test]
fn debian_schema() {
    debian("schema.capnp");
}

/// persistent.capnp: generic interfaces with struct parameter lists.
#[test]
fn debian_persistent() {
    debian("persistent.capnp");
}

/// rpc.capnp: large unions, AnyPointer, many doc comments.
#[test]
fn debian_rpc() {
    debian("rpc.capnp");
}

/// rpc-twoparty.capnp: enums and small structs.
#[test]
fn debian_rpc_twoparty() {
    debian("rpc-twoparty.capnp");
}

/// stream.capnp: a lone struct.
#[test]
fn debian_stream() {
    debian("stream.capnp");
}

/// compat/json.capnp: generic-free annotations with struct targets,
/// unions of lists.
#[test]
fn debian_compat_json() {
    debian("compat/json.capnp");
}

/// Several files in one request (imports shared between them).
#[test]
fn debian_several_files() {
    same_request(
        Path::new("/usr/include"),
        &[
            "capnp/rpc.capnp",
            "capnp/schema.capnp",
            "capnp/persistent.capnp",
        ],
    );
}

/// tests/vectors/all_types.capnp, the project's interop schema.
#[test]
fn vectors_all_types() {
    same_request(&repo(), &["tests/vectors/all_types.capnp"]);
}

/// tests/vectors/all_types.layout.capnp.
#[test]
fn vectors_all_types_layout() {
    same_request(&repo(), &["tests/vectors/all_types.layout.capnp"]);
}

/// Interfaces: named and struct parameter lists, implicit generics,
/// streaming, superclasses, generic structs and interfaces, brands.
#[test]
fn schema_interfaces() {
    same_request(&crate_schemas(), &["interfaces.capnp"]);
}

/// Default values and constants in every form of the value syntax.
#[test]
fn schema_values() {
    same_request(&crate_schemas(), &["values.capnp"]);
}

/// Generics through brands: aliases to parameters and to branded
/// generics, struct literals of generic types, a generic annotation, a
/// struct embedded from a message file.
#[test]
fn schema_generics() {
    same_request(&crate_schemas(), &["generics.capnp"]);
}

/// Generic superclasses, method generics in lists, unions in groups in
/// unions, list and struct defaults and constants.
#[test]
fn schema_misc() {
    same_request(&crate_schemas(), &["misc.capnp"]);
}

/// An imported file whose unused declaration imports a missing file:
/// nothing resolves that import, so the request is made.
#[test]
fn schema_unused_broken_import() {
    same_request(&crate_schemas().join("lazy"), &["top.capnp"]);
}

/// Bytes kept exactly (regression: bytes that are not UTF-8 became
/// U+FFFD, so `"\xff"` as Data was 3 bytes, and Sandstorm's 8-byte magic
/// number 15): `\x80`-`\xff` and octal escapes in Text and Data
/// constants, defaults, list elements and annotation values, raw bytes in
/// text literals and doc comments, an embedded file that is not UTF-8.
#[test]
fn schema_bytes() {
    same_request(&crate_schemas(), &["bytes.capnp"]);
}

/// Layout corner cases: unions in unions, retroactive unions.
#[test]
fn schema_layout() {
    same_request(&crate_schemas(), &["layout.capnp"]);
}

/// Relative and standard imports, `using`, embeds, file annotations,
/// named under a --src-prefix and with an extra -I.
#[test]
fn schema_imports() {
    same_request(&crate_schemas(), &["imports.capnp"]);
    same_request(&crate_schemas(), &["imports.capnp", "sub/shared.capnp"]);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    same_request(&dir, &["--src-prefix=schemas", "schemas/imports.capnp"]);
    same_request(&dir, &["-Ischemas/sub", "schemas/imports.capnp"]);
}

/// The binary: `capnarena-compile -o-` writes the same bytes as the
/// library, and `capnp` renders them like its own request.
#[test]
fn cli_writes_the_request() {
    let Some(capnp) = tool() else { return };
    let out = Command::new(env!("CARGO_BIN_EXE_capnarena-compile"))
        .current_dir("/usr/include/capnp")
        .args(["-o-", "schema.capnp"])
        .output()
        .expect("run capnarena-compile");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reference = render(
        &capnp,
        &reference_request(&capnp, Path::new("/usr/include/capnp"), &["schema.capnp"]),
    );
    assert_eq!(render(&capnp, &out.stdout), reference);
}

/// A chain of 300 files, each importing the next for a field type, and
/// in each a struct whose field names the next struct: the node order,
/// now produced with a heap stack instead of recursion, is still the
/// reference's.
#[test]
fn import_chain_order() {
    let dir = std::env::temp_dir().join(format!("capnarena-chain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let n = 300;
    for i in 0..n {
        std::fs::write(
            dir.join(format!("f{i}.capnp")),
            format!(
                "@0x{:x};\nusing N = import \"f{}.capnp\";\nstruct S {{ n @0 :N.S; m @1 :M; }}\nstruct M {{ s @0 :N.S; }}\n",
                (1u64 << 63) | (i as u64 + 7),
                i + 1
            ),
        )
        .expect("write");
    }
    std::fs::write(
        dir.join(format!("f{n}.capnp")),
        format!("@0x{:x};\nstruct S {{}}\n", (1u64 << 63) | 1),
    )
    .expect("write");
    same_request(&dir, &["f0.capnp"]);
    same_request(&dir, &["f5.capnp", "f0.capnp"]);
}

/// A file reached by two paths (`-I src/lib` and a relative import, and
/// a symbolic link to its directory) is one file, named by the path the
/// compile resolves first, as in the reference: field `r @0` is compiled
/// before `s @1` whatever the order of the `using` lines (regression: it
/// took the name of the import written first). The reference's warning
/// comes with it.
#[test]
fn file_reached_by_two_paths() {
    let Some(capnp) = tool() else { return };
    let dir = std::env::temp_dir().join(format!("capnarena-two-paths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/lib")).expect("mkdir");
    std::fs::write(
        dir.join("src/lib/b.capnp"),
        "@0xd0a4c1b3e2f50611;\nstruct B {}\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("src/m.capnp"),
        "@0xd0a4c1b3e2f50612;\nusing R = import \"lib/b.capnp\";\nusing S = import \"/b.capnp\";\nstruct M { r @0 :R.B; s @1 :S.B; }\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("src/n.capnp"),
        "@0xd0a4c1b3e2f50613;\nusing S = import \"/b.capnp\";\nusing R = import \"lib/b.capnp\";\nstruct M { s @1 :S.B; r @0 :R.B; }\n",
    )
    .expect("write");
    for file in ["src/m.capnp", "src/n.capnp"] {
        same_request(&dir, &["--no-standard-import", "-Isrc/lib", file]);
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("src/lib"), dir.join("link")).expect("symlink");
        same_request(&dir, &["--no-standard-import", "-Ilink", "src/n.capnp"]);
    }
    let report = Compiler::new()
        .working_dir(&dir)
        .no_standard_import()
        .import_path("src/lib")
        .file("src/n.capnp")
        .compile_report();
    report.request.expect("compiles");
    let warnings = report.warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let ours = &warnings[0].message;
    assert!(
        ours.starts_with("Found exactly the same source file mapped at two different paths.")
            && ours.ends_with("; path = b.capnp; other.path = src/lib/b.capnp"),
        "{ours}"
    );
    let out = Command::new(&capnp)
        .current_dir(&dir)
        .args([
            "compile",
            "-o-",
            "--no-standard-import",
            "-Isrc/lib",
            "src/n.capnp",
        ])
        .output()
        .expect("run capnp");
    let theirs = String::from_utf8_lossy(&out.stderr);
    assert!(theirs.contains(ours.as_str()), "{theirs}");
}

/// A file that only an uncompiled declaration's import names is one the
/// reference never loads: its parse errors and an id it shares with a
/// reached file are no errors, and the reached file keeps its id whatever
/// the order of the imports (regression: every file imports reach was
/// loaded and checked, so `capnarena compile` failed where `capnp
/// compile` succeeds). Two files that are both reached still collide.
#[test]
fn files_no_compiled_import_names_are_not_checked() {
    let Some(capnp) = tool() else { return };
    let dir = std::env::temp_dir().join(format!("capnarena-unreached-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inc/x")).expect("mkdir");
    let lib = "@0xd0a1b2c3d4e5f601;\nstruct S { a @0 :UInt8; }\n";
    for (file, text) in [
        ("lib.capnp", lib),
        ("inc/x/lib.capnp", lib),
        (
            "syn.capnp",
            "@0xd0a1b2c3d4e5f60a;\nstruct B { x @0 :UInt8\n",
        ),
        // Its struct uses lib.capnp, but nothing uses its struct.
        (
            "two.capnp",
            "@0xd0a1b2c3d4e5f602;\nusing L = import \"lib.capnp\";\nstruct T { s @0 :L.S; }\n",
        ),
        (
            "syn_user.capnp",
            "@0xd0a1b2c3d4e5f60b;\nusing N = import \"syn.capnp\";\nstruct U { m @0 :UInt8; }\n",
        ),
        (
            "after.capnp",
            "@0xd0a1b2c3d4e5f603;\nusing M = import \"/x/lib.capnp\";\nusing N = import \"two.capnp\";\nstruct U { m @0 :M.S; }\n",
        ),
        (
            "before.capnp",
            "@0xd0a1b2c3d4e5f60d;\nusing N = import \"two.capnp\";\nusing M = import \"/x/lib.capnp\";\nstruct U { m @0 :M.S; }\n",
        ),
        (
            "deep.capnp",
            "@0xd0a1b2c3d4e5f60c;\nusing N = import \"syn_user.capnp\";\nstruct U { m @0 :UInt8; }\n",
        ),
        (
            "both.capnp",
            "@0xd0a1b2c3d4e5f604;\nusing L = import \"lib.capnp\";\nusing M = import \"/x/lib.capnp\";\nstruct T { s @0 :L.S; m @1 :M.S; }\n",
        ),
    ] {
        std::fs::write(dir.join(file), text).expect("write");
    }
    for file in ["after.capnp", "before.capnp", "deep.capnp"] {
        same_request(&dir, &["--no-standard-import", "-Iinc", file]);
    }
    let status = Command::new(&capnp)
        .current_dir(&dir)
        .args([
            "compile",
            "-o-",
            "--no-standard-import",
            "-Iinc",
            "both.capnp",
        ])
        .output()
        .expect("run capnp")
        .status;
    assert!(!status.success(), "the reference accepts both.capnp");
    let errors = Compiler::new()
        .working_dir(&dir)
        .no_standard_import()
        .import_path("inc")
        .file("both.capnp")
        .compile()
        .expect_err("two reached files share an id");
    assert!(
        errors
            .to_string()
            .contains("Duplicate ID @0xd0a1b2c3d4e5f601."),
        "{errors}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
