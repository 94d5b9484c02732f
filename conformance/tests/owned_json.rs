//! The serde impls follow the `/capnp/compat/json.capnp` annotations
//! (`tests/schemas/json_annotated.capnp`: `$Json.name` on fields, unions
//! and enumerants, `$Json.discriminator` with `name` and `valueName`,
//! `$Json.base64`, `$Json.hex`): serde_json's text of a value is the
//! reference codec's (`capnp convert --short binary:json`, which applies
//! the annotations) for the same message, byte for byte, owned and
//! borrowed, and the reference's JSON deserializes to the value read from
//! the message.

use std::path::{Path, PathBuf};

use capnarena::typed::value::ReadStruct;
use capnarena::{MessageReader, ReaderOptions};
use capnarena_conformance::json_annotated_capnp::{Level, event, shape};

#[path = "../../tests/common/peer.rs"]
mod peer;

/// Runs `capnp convert FORMATS json_annotated.capnp ROOT` on `input`.
fn convert(capnp: &Path, formats: &str, root: &str, input: &[u8]) -> Vec<u8> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/schemas");
    let args = ["convert", "--short", formats, "json_annotated.capnp", root];
    peer::run(capnp, &dir, &args, input).unwrap_or_else(|e| panic!("{root}: {e}"))
}

/// Messages of `Event` in the reference's text format: every annotated
/// field, each member of each union (a `Void` member under a tag, a text
/// member renamed, a hex member under `valueName`, a null pointer member).
const EVENTS: &[&str] = &[
    r#"(id = 12, inner = (x = 5, tags = ["a"]), level = high, levels = [low, other, high], raw = 0x"010203", key = (x = 3), shapes = [(circle = 1.5), (square = (x = 1)), (nothing = void), (blob = 0x"0aff")], payload = (bytes = "hi"), named = (b = 0.5))"#,
    r#"(click = (x = 3, y = -4), payload = (text = "late"))"#,
    r#"(idle = void, payload = (none = void), named = (a = true))"#,
    r#"(note = "hello", id = 18446744073709551615, raw = "")"#,
    r#"(shapes = [(blob = ""), (square = ()), (circle = -2.5)])"#,
    "()",
];

/// serde_json writes each message's owned and borrowed value as the
/// reference writes the message, and reads the reference's JSON back as
/// the value.
#[test]
fn annotated_json_matches_reference() {
    let Some(capnp) = peer::peer() else { return };
    for text in EVENTS {
        let bytes = convert(&capnp, "text:binary", "Event", text.as_bytes());
        let reference =
            String::from_utf8(convert(&capnp, "binary:json", "Event", &bytes)).expect("UTF-8 JSON");
        let reference = reference.trim_end_matches('\n');
        let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
        let value = event::Value::read_struct(reader.root().unwrap()).unwrap();
        let borrowed = event::ValueRef::read_struct(reader.root().unwrap()).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), reference, "{text}");
        assert_eq!(
            serde_json::to_string(&borrowed).unwrap(),
            reference,
            "{text} (borrowed)"
        );
        let read: event::Value =
            serde_json::from_str(reference).unwrap_or_else(|e| panic!("{text}: {reference}: {e}"));
        assert_eq!(read, value, "{text}: {reference}");
    }
}

/// Keys in any order read as the reference reads them (`capnp convert
/// json:binary`): a `valueName` value before its tag is read once the tag
/// is (it was refused), a member given before its tag is reset by the tag
/// (it was kept), a tag naming another member than one given before it
/// wins (it was refused), a tag naming no member is ignored (it was
/// refused), and a value given twice around its tag keeps the one given
/// first (read last, as the reference retries it).
#[test]
fn annotated_json_reads_in_any_order() {
    let shapes = [
        r#"{"data": 1.5, "kind": "circle"}"#,
        r#"{"data": 1.5, "kind": "circle", "data": 2.5}"#,
        r#"{"kind": "blob", "data": "0AfF"}"#,
        r#"{"kind": "nothing", "data": null}"#,
        r#"{"data": {"ex": 3}, "kind": "square"}"#,
        r#"{"kind": "triangle", "data": 1}"#,
    ];
    let events = [
        r#"{"message": "hi", "t": "message", "payload": {"payloadType": "bytes"}, "level": "LOW"}"#,
        r#"{"message": "x", "t": "idle"}"#,
        r#"{"t": "idle", "message": "x"}"#,
        r#"{"key": {"ex": 1}, "t": "click", "click": {"x": 2}}"#,
    ];
    let expect = |root: &str, json: &str| -> Option<Vec<u8>> {
        let capnp = peer::peer()?;
        Some(convert(&capnp, "json:binary", root, json.as_bytes()))
    };
    for json in shapes {
        let read: shape::Value =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        if let Some(bytes) = expect("Shape", json) {
            let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
            let want = shape::Value::read_struct(reader.root().unwrap()).unwrap();
            assert_eq!(read, want, "{json}");
        }
    }
    let read: shape::Value = serde_json::from_str(shapes[0]).unwrap();
    assert!(matches!(read.union, shape::WhichValue::Circle(v) if v == 1.5));
    for json in events {
        let read: event::Value =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        if let Some(bytes) = expect("Event", json) {
            let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
            let want = event::Value::read_struct(reader.root().unwrap()).unwrap();
            assert_eq!(read, want, "{json}");
        }
    }
    let read: event::Value = serde_json::from_str(events[0]).unwrap();
    assert!(matches!(&read.union, event::WhichValue::Note(None)));
    assert_eq!(read.level, Level::Low);
}

/// Input the reference refuses is an error naming what is wrong: a tag
/// given twice, a tag that is not a string, bad base64 and bad hex, an
/// unknown enumerant.
#[test]
fn annotated_json_errors() {
    let cases: &[(&str, &str)] = &[
        (r#"{"kind": "circle", "kind": "circle"}"#, "given twice"),
        (r#"{"kind": 3}"#, "a string naming a union member"),
        (
            r#"{"kind": "blob", "data": "0g"}"#,
            "character 2 of the hex",
        ),
        (r#"{"data": "abc", "kind": "blob"}"#, "hex of odd length 3"),
    ];
    for (json, expected) in cases {
        let e = serde_json::from_str::<shape::Value>(json).unwrap_err();
        assert!(e.to_string().contains(expected), "{json}: {e}");
    }
    let events: &[(&str, &str)] = &[
        (r#"{"raw": "AQ="}"#, "does not end on a byte"),
        (r#"{"raw": "A*"}"#, "character 2 of the base64"),
        (r#"{"level": "high"}"#, "is not an enumerant"),
        (
            r#"{"payload": {"payloadType": "none", "payloadType": "text"}}"#,
            "given twice",
        ),
    ];
    for (json, expected) in events {
        let e = serde_json::from_str::<event::Value>(json).unwrap_err();
        assert!(e.to_string().contains(expected), "{json}: {e}");
    }
}

/// `capnp compile -o-` of `file` (in `dir`): the request.
fn request(capnp: &Path, dir: &Path, file: &str) -> Vec<u8> {
    peer::run(capnp, dir, &["compile", "-o-", file], &[]).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// `$Json.flatten` generates (capnarena-dynamic's annotated schema, which
/// was refused), and annotations the reference refuses make generation
/// fail with an error naming the field: `$Json.base64` on a field that
/// is not `Data`, two flattened members with one JSON name (and a
/// flattened member named as a field), flattening a field that is not a
/// struct, and a flattening cycle; flattening deeper than the
/// generator's limit is an `Error::Limit`.
#[test]
fn refused_annotations_are_generation_errors() {
    let Some(capnp) = peer::peer() else { return };
    let options = capnarena_codegen::Options::default().serde(true);
    let dynamic = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../capnarena-dynamic/tests/json");
    let flattened = request(&capnp, &dynamic, "annotations.capnp");
    capnarena_codegen::generate(&flattened, &options).expect("$Json.flatten generates");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("owned_json");
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "struct S { t @0 :Text $Json.base64; }",
            "bad.capnp:S.t",
            "only Data",
        ),
        (
            "struct S { a @0 :A $Json.flatten(); b @1 :A $Json.flatten(); }\nstruct A { x @0 :Int32; }",
            "bad.capnp:S.b",
            "not mutually exclusive",
        ),
        (
            "struct S { x @0 :Int32; a @1 :A $Json.flatten(); }\nstruct A { x @0 :Int32; }",
            "bad.capnp:S.a",
            "not mutually exclusive",
        ),
        (
            "struct S { g :group $Json.flatten(prefix = \"p\") { x @0 :Int32; } px @1 :Int32; }",
            "bad.capnp:S.px",
            "two members are named \"px\"",
        ),
        (
            "struct S { t @0 :Text $Json.flatten(); }",
            "bad.capnp:S.t",
            "only struct types can be flattened",
        ),
        (
            "struct S { c @0 :C $Json.flatten(); }\nstruct C { s @0 :S $Json.flatten(); }",
            "bad.capnp:C.s",
            "cyclic JSON flattening",
        ),
    ];
    // A chain of 70 structs, each flattening the next: over the 64 levels
    // the generator allows.
    let mut chain = String::new();
    for i in 0..70 {
        chain.push_str(&format!(
            "struct S{i} {{ x @0 :Int32; n @1 :S{} $Json.flatten(prefix = \"n\"); }}\n",
            i + 1
        ));
    }
    chain.push_str("struct S70 { x @0 :Int32; }");
    let deep = (
        chain.as_str(),
        "levels of JSON flattening",
        "the limit of 64",
    );
    for (schema, field, message) in cases.into_iter().chain([deep]) {
        std::fs::write(
            dir.join("bad.capnp"),
            format!(
                "@0xe2a7b61a3e9f8c11;\nusing Json = import \"/capnp/compat/json.capnp\";\n{schema}\n"
            ),
        )
        .unwrap();
        let bad = request(&capnp, &dir, "bad.capnp");
        let e = capnarena_codegen::generate(&bad, &options).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains(field) && text.contains(message),
            "{schema}: {text}"
        );
    }
}
