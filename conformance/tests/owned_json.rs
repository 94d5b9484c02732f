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

/// Keys in any order: a union's members before its tag, and the tag
/// before the `valueName` member (the order the reference writes), read
/// as the values they name.
#[test]
fn annotated_json_reads_in_any_order() {
    let event: event::Value = serde_json::from_str(
        r#"{"message": "hi", "t": "message", "payload": {"payloadType": "bytes"}, "level": "LOW"}"#,
    )
    .unwrap();
    assert!(matches!(&event.union, event::WhichValue::Note(Some(m)) if m == "hi"));
    assert_eq!(event.level, Level::Low);
    assert!(matches!(
        &event.payload.union,
        event::payload::WhichValue::Bytes(None)
    ));
    let shape: shape::Value = serde_json::from_str(r#"{"kind": "blob", "data": "0AfF"}"#).unwrap();
    assert!(matches!(&shape.union, shape::WhichValue::Blob(Some(b)) if b == &[0x0a, 0xff]));
    let shape: shape::Value = serde_json::from_str(r#"{"kind": "nothing", "data": null}"#).unwrap();
    assert!(matches!(shape.union, shape::WhichValue::Nothing));
}

/// Input the annotations make wrong is an error naming what is wrong:
/// a tag naming no member, a tag given twice, a member's value beside a
/// tag naming another, a `valueName` value before its tag, bad base64 and
/// bad hex.
#[test]
fn annotated_json_errors() {
    let cases: &[(&str, &str)] = &[
        (r#"{"kind": "triangle"}"#, "names no member"),
        (r#"{"kind": "circle", "kind": "circle"}"#, "given twice"),
        (
            r#"{"data": 1.5, "kind": "circle"}"#,
            "before the union's tag",
        ),
        (
            r#"{"kind": "blob", "data": "0g"}"#,
            "character 2 of the hex",
        ),
        (r#"{"kind": "blob", "data": "abc"}"#, "hex of odd length 3"),
    ];
    for (json, expected) in cases {
        let e = serde_json::from_str::<shape::Value>(json).unwrap_err();
        assert!(e.to_string().contains(expected), "{json}: {e}");
    }
    let events: &[(&str, &str)] = &[
        (
            r#"{"message": "x", "t": "idle"}"#,
            "another member was given",
        ),
        (r#"{"t": "idle", "message": "x"}"#, "its tag names another"),
        (r#"{"raw": "AQ="}"#, "does not end on a byte"),
        (r#"{"raw": "A*"}"#, "character 2 of the base64"),
        (r#"{"level": "high"}"#, "is not an enumerant"),
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

/// Annotations the serde impls cannot follow make generation fail with
/// an error naming the field, rather than write another JSON form:
/// `$Json.flatten` (not supported yet; capnarena-dynamic's annotated
/// schema) and `$Json.base64` on a field that is not `Data` (which the
/// reference refuses too).
#[test]
fn unfollowed_annotations_are_generation_errors() {
    let Some(capnp) = peer::peer() else { return };
    let options = capnarena_codegen::Options::default().serde(true);
    let dynamic = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../capnarena-dynamic/tests/json");
    let flattened = request(&capnp, &dynamic, "annotations.capnp");
    let e = capnarena_codegen::generate(&flattened, &options).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("$Json.flatten") && text.contains("annotations.capnp:Event.inner"),
        "{text}"
    );
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("owned_json");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.capnp"),
        "@0xe2a7b61a3e9f8c11;\nusing Json = import \"/capnp/compat/json.capnp\";\nstruct S { t @0 :Text $Json.base64; }\n",
    )
    .unwrap();
    let bad = request(&capnp, &dir, "bad.capnp");
    let e = capnarena_codegen::generate(&bad, &options).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("bad.capnp:S.t") && text.contains("only Data"),
        "{text}"
    );
}
