//! `$Json.base64` read as the reference reads it: on a table of inputs
//! (padding full, partial, missing and misplaced, whitespace of each
//! kind, characters that are no digit, bits past the data), both JSON
//! decoders (the dynamic path's and the generated serde impls' through
//! capnarena's deserializer and serde_json) read the bytes `capnp
//! convert json:binary` (0.9.2) reads where its base64 decoder
//! (`kj::decodeBase64`) reports no error, and refuse the input where it
//! reports one, which the reference's JSON codec ignores, reading what
//! the decoder made of it (the bad character skipped, or bytes decoded
//! past the padding).

use std::path::PathBuf;

use capnarena::typed::value::ReadStruct;
use capnarena::{MessageReader, ReaderOptions};
use capnarena_conformance::reference_serde::json_test_capnp::test_json_annotations;
use capnarena_dynamic::LoadedSchema;
use capnarena_dynamic::json::{self, JsonLimits};

#[path = "../../tests/common/peer.rs"]
mod peer;

/// The reference's schema directory (`-I` and source prefix).
fn reference_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/capnproto/c++/src")
}

/// The `testBase64` bytes of a framed `TestJsonAnnotations` message.
fn base64_field(framed: &[u8]) -> Vec<u8> {
    let reader = MessageReader::from_bytes(framed, ReaderOptions::default()).unwrap();
    let v = test_json_annotations::Value::read_struct(reader.root().unwrap()).unwrap();
    v.test_base64.unwrap_or_default()
}

/// Base64 texts (as JSON string contents, escapes and all), and whether
/// the reference's decoder reads each without error (`kj::decodeBase64`
/// at v0.9.2: whitespace is space, tab, line feed, form feed and carriage
/// return; padding only after a group's second or third digit, at most
/// two or one `=`, nothing after it, and two digits with one `=` is
/// short; one digit alone in a group is short).
const TABLE: &[(&str, bool)] = &[
    ("", true),
    ("QQ==", true),
    ("QQ", true),
    ("QUI=", true),
    ("QUI", true),
    ("QUJD", true),
    ("QR==", true),
    ("QUJ=", true),
    ("Zm9v\\r\\nYg", true),
    ("Q Q = = ", true),
    ("\\tQ\\nQ\\f==", true),
    ("Zm9vYmFy", true),
    ("+/+/", true),
    ("QQ=", false),
    ("QUI==", false),
    ("A*", false),
    ("A", false),
    ("QUJD=", false),
    ("QUJDR", false),
    ("Q\\u000bQ", false),
    ("Q*Q", false),
    ("Q-Q_", false),
    ("QQ==QQ", false),
    ("Q=Q=", false),
    ("===", false),
    ("QQ===", false),
    ("=QQ", false),
    ("QU=I", false),
    ("Q\\u00e9Q", false),
];

/// Each decoder reads what the reference reads without error, byte for
/// byte, and refuses (at the string) what its decoder reports as an
/// error.
#[test]
fn base64_reads_as_the_reference() {
    let Some(capnp) = peer::peer() else { return };
    let src = reference_src();
    let loaded = LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .src_prefix(&src)
            .import_path(&src)
            .no_standard_import()
            .file(src.join("capnp/compat/json-test.capnp")),
    )
    .unwrap();
    let schema = loaded.schema();
    let root = schema
        .find_struct("capnp/compat/json-test.capnp:TestJsonAnnotations")
        .unwrap();
    let limits = JsonLimits::default();
    for &(text, clean) in TABLE {
        let doc = format!("{{\"testBase64\": \"{text}\"}}");
        let args = [
            "convert",
            "json:binary",
            "capnp/compat/json-test.capnp",
            "TestJsonAnnotations",
        ];
        let reference = peer::run(&capnp, &src, &args, doc.as_bytes())
            .unwrap_or_else(|e| panic!("{text}: the reference: {e}"));
        let reference = base64_field(&reference);
        let dynamic = json::json_to_message(&root, doc.as_bytes(), &limits);
        let generated = json::from_str::<test_json_annotations::Value>(&doc, &limits);
        let serde_json = serde_json::from_str::<test_json_annotations::Value>(&doc);
        if clean {
            let dynamic = dynamic.unwrap_or_else(|e| panic!("{text}: dynamic: {e}"));
            assert_eq!(base64_field(&dynamic), reference, "{text}: dynamic");
            let generated = generated.unwrap_or_else(|e| panic!("{text}: generated: {e}"));
            assert_eq!(
                generated.test_base64.unwrap(),
                reference,
                "{text}: generated"
            );
            let v = serde_json.unwrap_or_else(|e| panic!("{text}: serde_json: {e}"));
            assert_eq!(v.test_base64.unwrap(), reference, "{text}: serde_json");
        } else {
            let e = dynamic.expect_err(text);
            assert!(e.to_string().contains("base64"), "{text}: {e}");
            let at = e.position().expect("a position");
            // At the string (its quote is byte 15), or at a character in
            // it.
            assert!(
                at.offset >= 15 && at.offset <= 16 + text.len(),
                "{text}: {e}"
            );
            let e = generated.expect_err(text);
            assert!(e.to_string().contains("base64"), "{text}: {e}");
            assert!(serde_json.is_err(), "{text}: serde_json");
        }
    }
}
