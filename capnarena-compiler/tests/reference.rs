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
