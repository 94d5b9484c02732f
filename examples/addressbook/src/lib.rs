//! The address book's generated module as a library, and the home of the
//! doctests of the snippets that need a build script's `OUT_DIR`: the
//! workspace README's and capnarena-build's README's examples run here,
//! against the code this crate's `build.rs` generates.

capnarena::include_generated!(pub mod addressbook_capnp);

/// The workspace README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct WorkspaceReadmeDoctests;

/// capnarena-build's README examples, compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../capnarena-build/README.md")]
struct BuildReadmeDoctests;
