//! The conformance corpus (`corpus/`, see `corpus/PROVENANCE.md`): schemas
//! of public projects and the reference's test.capnp family. The build
//! script generates Rust for every file; this crate includes it all, so
//! building it (clippy-clean, in CI) shows the generated code of every
//! file compiles together. The tests compare each file's request with the
//! reference compiler's and port the reference's encoding tests.

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// The canonical form of a framed message's root: what the JSON tests
/// compare when two paths must build the same message.
///
/// # Panics
/// When `framed` is not a framed message with a struct root.
pub fn canonical_root(framed: &[u8]) -> Vec<u8> {
    let words = capnarena::words_from_bytes(framed).expect("framed words");
    let reader = capnarena::MessageReader::from_words(&words, capnarena::ReaderOptions::default())
        .expect("message");
    let root: capnarena::StructReader<'_> = reader.root().expect("a struct root");
    let mut out = capnarena::Message::new(capnarena::SingleSegmentArena::new());
    let canonical = out.set_root_canonical(&root).expect("canonicalizes");
    capnarena::Word::slice_as_bytes(canonical).to_vec()
}

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

/// `tests/schemas/owned_cycles.capnp` and `owned_cycles_b.capnp` (which
/// import each other), generated with owned values: structs holding
/// structs inline, boxed on cycles.
pub mod owned_cycles {
    /// `owned_cycles.capnp`.
    pub mod owned_cycles_capnp {
        include!(concat!(
            env!("OUT_DIR"),
            "/owned_cycles/owned_cycles_capnp.rs"
        ));
    }
    /// `owned_cycles_b.capnp`.
    pub mod owned_cycles_b_capnp {
        include!(concat!(
            env!("OUT_DIR"),
            "/owned_cycles/owned_cycles_b_capnp.rs"
        ));
    }
}

/// `tests/schemas/json_annotated.capnp`, generated with owned values and
/// serde impls that follow its `/capnp/compat/json.capnp` annotations.
pub mod json_annotated_capnp {
    include!(concat!(
        env!("OUT_DIR"),
        "/json_annotated/json_annotated_capnp.rs"
    ));
}

/// `tests/schemas/json_flatten.capnp`, generated with owned values and
/// serde impls that follow its `/capnp/compat/json.capnp` annotations,
/// `$Json.flatten` included.
pub mod json_flatten_capnp {
    include!(concat!(
        env!("OUT_DIR"),
        "/json_flatten/json_flatten_capnp.rs"
    ));
}

/// `tests/schemas/owned_generics.capnp`, generated with owned values and
/// serde impls: generic structs' values with type parameters.
pub mod owned_generics_capnp {
    include!(concat!(
        env!("OUT_DIR"),
        "/owned_generics/owned_generics_capnp.rs"
    ));
}

/// The reference's `capnp/test.capnp`, `capnp/compat/json-test.capnp`
/// and the `capnp/compat/json.capnp` it imports, generated with owned
/// values and serde impls (tests/reference_json.rs).
pub mod reference_serde {
    /// `capnp/test.capnp`.
    pub mod test_capnp {
        include!(concat!(
            env!("OUT_DIR"),
            "/reference_serde/test/test_capnp.rs"
        ));
    }
    /// `capnp/compat/json-test.capnp`.
    pub mod json_test_capnp {
        include!(concat!(
            env!("OUT_DIR"),
            "/reference_serde/json_test/json_test_capnp.rs"
        ));
    }
    /// `capnp/compat/json.capnp`: its `Value` is written as the JSON
    /// value it holds.
    pub mod json_capnp {
        include!(concat!(
            env!("OUT_DIR"),
            "/reference_serde/json/json_capnp.rs"
        ));
    }
}

/// `tests/schemas/json_value.capnp`, generated with owned values and
/// serde impls: `Json.Value` fields of every kind (tests/json_value.rs).
pub mod json_value_capnp {
    include!(concat!(env!("OUT_DIR"), "/json_value/json_value_capnp.rs"));
}
