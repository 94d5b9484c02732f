//! The conformance corpus (`corpus/`, see `corpus/PROVENANCE.md`): schemas
//! of public projects and the reference's test.capnp family. The build
//! script generates Rust for every file; this crate includes it all, so
//! building it (clippy-clean, in CI) shows the generated code of every
//! file compiles together. The tests compare each file's request with the
//! reference compiler's and port the reference's encoding tests.

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// The wire-compatibility vectors' schema (`tests/vectors/all_types.capnp`),
/// generated with owned values.
pub mod all_types_capnp {
    include!(concat!(env!("OUT_DIR"), "/vectors/all_types_capnp.rs"));
}

/// The RPC interop schema (`capnarena-rpc/tests/interop/test.capnp`), whose
/// `-> stream` method names StreamResult of a file it does not import,
/// generated with schema nodes.
pub mod streaming_capnp {
    include!(concat!(env!("OUT_DIR"), "/streaming/test_capnp.rs"));
}
