//! serde impls of the plain values (`capnarena_build::Config::serde`),
//! checked against the reference's JSON codec (`capnp convert --short
//! binary:json`) on every wire-compatibility vector (`tests/vectors`):
//! serde_json writes what the reference writes, and reads the
//! reference's JSON back into the value read from the message.
//!
//! One difference is allowed, in how a float's digits are spelled:
//! serde_json writes the shortest form that reads back (`0.0`,
//! `10000000000.0`, `3.141592653589793`), the reference C's `%.15g`, or
//! `%.17g` when 15 digits do not read back (`0`, `10000000000`,
//! `3.1415926535897931`). Such numbers must still be the same double;
//! everything else must be byte-identical.

use std::path::{Path, PathBuf};

use capnarena::typed::value::ReadStruct;
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, words_from_bytes};
use capnarena_conformance::all_types_capnp::{Color, all_types, log};

#[path = "../../tests/common/peer.rs"]
mod peer;

#[path = "common/json_numbers.rs"]
mod json_numbers;
use json_numbers::same_json;

const VECTORS: [&str; 5] = ["empty", "scalars", "lists", "full", "log"];

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

fn vector(name: &str) -> Vec<u8> {
    let path = vectors_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `capnp convert --short binary:json all_types.capnp ROOT` of `bytes`,
/// without its trailing line break.
fn reference_json(capnp: &Path, root: &str, bytes: &[u8]) -> String {
    let args = ["convert", "--short", "binary:json", "all_types.capnp", root];
    let out = peer::run(capnp, &vectors_dir(), &args, bytes).unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8(out).expect("capnp's JSON is UTF-8");
    text.trim_end_matches('\n').to_string()
}

/// The root value of vector `name` (its `.bin`), owned.
fn read<V: for<'a> ReadStruct<'a>>(name: &str) -> V {
    let words = words_from_bytes(&vector(&format!("{name}.bin"))).expect("framed words");
    let reader = MessageReader::from_words(&words, ReaderOptions::default()).expect("message");
    V::read_struct(reader.root().expect("root")).expect("value")
}

/// serde_json's output of each vector's owned and borrowed value is the
/// reference's `--short` JSON, numbers' spelling aside (printed).
#[test]
fn serialize_matches_reference() {
    let Some(capnp) = peer::peer() else { return };
    let mut spelled = Vec::new();
    for name in VECTORS {
        let root = if name == "log" { "Log" } else { "AllTypes" };
        let reference = reference_json(&capnp, root, &vector(&format!("{name}.bin")));
        let words = words_from_bytes(&vector(&format!("{name}.bin"))).expect("framed words");
        let reader = MessageReader::from_words(&words, ReaderOptions::default()).expect("message");
        let (owned, borrowed) = if name == "log" {
            let owned = log::Value::read_struct(reader.root().unwrap()).unwrap();
            let borrowed = log::ValueRef::read_struct(reader.root().unwrap()).unwrap();
            (
                serde_json::to_string(&owned),
                serde_json::to_string(&borrowed),
            )
        } else {
            let owned = all_types::Value::read_struct(reader.root().unwrap()).unwrap();
            let borrowed = all_types::ValueRef::read_struct(reader.root().unwrap()).unwrap();
            (
                serde_json::to_string(&owned),
                serde_json::to_string(&borrowed),
            )
        };
        let (owned, borrowed) = (owned.expect("serialize"), borrowed.expect("serialize"));
        assert_eq!(owned, borrowed, "{name}: owned and borrowed values");
        spelled.extend(same_json(name, &reference, &owned));
    }
    println!("numbers spelled differently (reference, serde_json): {spelled:?}");
}

/// serde_json reads the reference's JSON of each vector as the value read
/// from the message, and reads what it writes back as the same value.
#[test]
fn deserialize_reference_json() {
    for name in VECTORS {
        if name == "log" {
            let v: log::Value = read(name);
            let json = serde_json::to_string(&v).unwrap();
            let back: log::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(back, v, "{name}: round trip through serde_json");
        } else {
            let v: all_types::Value = read(name);
            let json = serde_json::to_string(&v).unwrap();
            let back: all_types::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(back, v, "{name}: round trip through serde_json");
        }
    }
    let Some(capnp) = peer::peer() else { return };
    for name in VECTORS {
        let bytes = vector(&format!("{name}.bin"));
        if name == "log" {
            let json = reference_json(&capnp, "Log", &bytes);
            let v: log::Value = serde_json::from_str(&json).expect("reference JSON");
            assert_eq!(v, read::<log::Value>(name), "{name}");
        } else {
            let json = reference_json(&capnp, "AllTypes", &bytes);
            let v: all_types::Value = serde_json::from_str(&json).expect("reference JSON");
            assert_eq!(v, read::<all_types::Value>(name), "{name}");
        }
    }
}

/// The values the vectors lack: non-finite floats (as "NaN", "Infinity",
/// "-Infinity"), extreme 64-bit integers (as strings), escapes in text,
/// a null union pointer member and null list elements (written as their
/// type's default, as the reference does); serde_json writes them as the
/// reference does, and reads the reference's JSON back.
#[test]
fn special_values_match_reference() {
    let mut value = all_types::Value {
        float32_field: f32::INFINITY,
        float64_field: f64::NEG_INFINITY,
        int64_field: i64::MIN,
        uint64_field: u64::MAX,
        float32_list: Some(vec![f32::NAN, -0.0, 0.1]),
        float64_list: Some(vec![f64::NAN, f64::MIN_POSITIVE, 1e300, 1e-7]),
        enum_list: Some(vec![Color::Blue]),
        text_list: Some(vec![Some("a\"b\\\u{1}é".into()), None]),
        data_list: Some(vec![None]),
        struct_field: Some(Default::default()),
        ..Default::default()
    };
    value.choice.union = all_types::choice::WhichValue::Name(None);
    let json = serde_json::to_string(&value).unwrap();
    for part in [
        r#""float32Field":"Infinity""#,
        r#""float64Field":"-Infinity""#,
        r#""int64Field":"-9223372036854775808""#,
        r#""uint64Field":"18446744073709551615""#,
        r#""float32List":["NaN",-0.0,0.10000000149011612]"#,
        r#""enumList":["blue"]"#,
        r#""choice":{"name":""}"#,
        r#""dataList":[[]]"#,
    ] {
        assert!(json.contains(part), "{part} not in {json}");
    }
    let back: all_types::Value = serde_json::from_str(&json).unwrap();
    // NaN is not equal to itself: compare the JSON of the value read back
    // (null elements read back as their defaults, which write the same).
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
    let Some(capnp) = peer::peer() else { return };
    let mut message = Message::new(SingleSegmentArena::new());
    value.build_root(&mut message).unwrap();
    let bytes = message.framed_bytes().unwrap().to_vec();
    let reference = reference_json(&capnp, "AllTypes", &bytes);
    let spelled = same_json("special", &reference, &json);
    println!("numbers spelled differently (reference, serde_json): {spelled:?}");
    let from_reference: all_types::Value = serde_json::from_str(&reference).unwrap();
    let mut expected = value.clone();
    // The reference writes the null union member as its default, so it
    // reads back as an empty text.
    expected.choice.union = all_types::choice::WhichValue::Name(Some(String::new()));
    expected.text_list = Some(vec![Some("a\"b\\\u{1}é".into()), Some(String::new())]);
    expected.data_list = Some(vec![Some(Vec::new())]);
    assert_eq!(
        serde_json::to_string(&from_reference).unwrap(),
        serde_json::to_string(&expected).unwrap()
    );
}

/// Bad input is an error naming the problem, never a panic: a number out
/// of its field's range, an unknown enumerant, an any pointer.
#[test]
fn bad_input_is_an_error() {
    for (json, what) in [
        (r#"{"int8Field":128}"#, "128 is out of the range of Int8"),
        (r#"{"uint64Field":"-1"}"#, "out of the range of UInt64"),
        (r#"{"int32Field":1.5}"#, "1.5 is not an integer"),
        (
            r#"{"enumField":"purple"}"#,
            "\"purple\" is not an enumerant",
        ),
        (r#"{"anyField":{}}"#, "no serde form"),
    ] {
        let err = serde_json::from_str::<all_types::Value>(json).unwrap_err();
        assert!(err.to_string().contains(what), "{json}: {err}");
    }
    let value = all_types::Value {
        any_field: Some(Default::default()),
        ..Default::default()
    };
    let err = serde_json::to_string(&value).unwrap_err();
    assert!(err.to_string().contains("no serde form"), "{err}");
}
