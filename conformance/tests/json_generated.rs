//! JSON through generated code (the `serde` impls of owned and borrowed
//! values, written by `capnarena_dynamic::json::to_string` and read by
//! `json::from_str`) against JSON through dynamic values
//! (`json::message_to_json` / `json_to_message`) and against the
//! reference's codec (`capnp convert binary:json`, pretty and `--short`):
//! on every wire-compatibility vector (`tests/vectors`, the schema this
//! crate generates with serde impls) and on the values the vectors lack,
//! the three texts are byte-identical, and the reference's JSON read
//! through the generated path builds the message the vector holds.

use std::path::{Path, PathBuf};

use capnarena::typed::value::ReadStruct;
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, words_from_bytes};
use capnarena_conformance::all_types_capnp::{Color, all_types, log};
use capnarena_conformance::canonical_root as canonical;
use capnarena_dynamic::LoadedSchema;
use capnarena_dynamic::json::{self, JsonLimits, JsonOptions};

#[path = "../../tests/common/peer.rs"]
mod peer;

const VECTORS: [&str; 5] = ["empty", "scalars", "lists", "full", "log"];

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

fn vector(name: &str) -> Vec<u8> {
    let path = vectors_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn root_name(name: &str) -> &'static str {
    if name == "log" { "Log" } else { "AllTypes" }
}

/// The vectors' schema, loaded for the dynamic path.
fn schema() -> LoadedSchema {
    let dir = vectors_dir();
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .src_prefix(&dir)
            .file(dir.join("all_types.capnp")),
    )
    .expect("all_types.capnp compiles")
}

/// `capnp convert [--short] binary:json all_types.capnp ROOT` of `bytes`,
/// without its trailing line break.
fn reference_json(capnp: &Path, root: &str, short: bool, bytes: &[u8]) -> String {
    let mut args = vec!["convert"];
    if short {
        args.push("--short");
    }
    args.extend(["binary:json", "all_types.capnp", root]);
    let out = peer::run(capnp, &vectors_dir(), &args, bytes).unwrap_or_else(|e| panic!("{e}"));
    let text = String::from_utf8(out).expect("capnp's JSON is UTF-8");
    text.strip_suffix('\n').unwrap_or(&text).to_string()
}

/// The generated path's text of the message `bytes` (root `root`), from
/// the owned and the borrowed value, which must agree.
fn generated_json(root: &str, bytes: &[u8], options: &JsonOptions) -> String {
    let words = words_from_bytes(bytes).expect("framed words");
    let reader = MessageReader::from_words(&words, ReaderOptions::default()).expect("message");
    let (owned, borrowed) = if root == "Log" {
        let owned = log::Value::read_struct(reader.root().unwrap()).unwrap();
        let borrowed = log::ValueRef::read_struct(reader.root().unwrap()).unwrap();
        (
            json::to_string(&owned, options),
            json::to_string(&borrowed, options),
        )
    } else {
        let owned = all_types::Value::read_struct(reader.root().unwrap()).unwrap();
        let borrowed = all_types::ValueRef::read_struct(reader.root().unwrap()).unwrap();
        (
            json::to_string(&owned, options),
            json::to_string(&borrowed, options),
        )
    };
    let owned = owned.expect("the owned value serializes");
    assert_eq!(
        owned,
        borrowed.expect("the borrowed value serializes"),
        "owned and borrowed values"
    );
    owned
}

/// The message the generated path builds from `text` (root `root`),
/// framed.
fn generated_message(root: &str, text: &str) -> Vec<u8> {
    let limits = JsonLimits::default();
    let mut message = Message::new(SingleSegmentArena::new());
    if root == "Log" {
        let v: log::Value = json::from_str(text, &limits).expect("JSON reads");
        v.build_root(&mut message).expect("builds");
    } else {
        let v: all_types::Value = json::from_str(text, &limits).expect("JSON reads");
        v.build_root(&mut message).expect("builds");
    }
    message.framed_bytes().expect("one segment").to_vec()
}

/// Checks one message both ways, pretty and short: the generated path's
/// text is the dynamic path's and the reference's, and each path reads
/// the reference's text back into the message (in canonical form).
fn check(capnp: Option<&Path>, loaded: &LoadedSchema, what: &str, root: &str, bytes: &[u8]) {
    let schema = loaded.schema();
    let root_schema = schema
        .find_struct(&format!("all_types.capnp:{root}"))
        .expect("root type");
    let want = canonical(bytes);
    for options in [JsonOptions::pretty(), JsonOptions::short()] {
        let generated = generated_json(root, bytes, &options);
        let dynamic =
            json::message_to_json(&root_schema, bytes, ReaderOptions::default(), &options)
                .expect("the dynamic path encodes");
        assert_eq!(
            generated, dynamic,
            "{what} ({options:?}): generated against dynamic"
        );
        // The generated path reads its own text back.
        assert_eq!(
            canonical(&generated_message(root, &generated)),
            want,
            "{what} ({options:?}): generated text read back"
        );
        let Some(capnp) = capnp else { continue };
        let reference = reference_json(capnp, root, !options.pretty, bytes);
        assert_eq!(
            generated, reference,
            "{what} ({options:?}): generated against the reference"
        );
        assert_eq!(
            canonical(&generated_message(root, &reference)),
            want,
            "{what} ({options:?}): the reference's JSON through the generated path"
        );
        let through_dynamic =
            json::json_to_message(&root_schema, reference.as_bytes(), &JsonLimits::default())
                .expect("the dynamic path decodes");
        assert_eq!(
            canonical(&through_dynamic),
            want,
            "{what} ({options:?}): the reference's JSON through the dynamic path"
        );
    }
}

/// On every vector, the generated path writes the dynamic path's and the
/// reference's text exactly (pretty and short; floats spelled as `%.15g`
/// / `%.17g`), and reads the reference's text into the vector's message.
#[test]
fn vectors_generated_dynamic_and_reference_agree() {
    let capnp = peer::peer();
    let loaded = schema();
    for name in VECTORS {
        let bytes = vector(&format!("{name}.bin"));
        check(capnp.as_deref(), &loaded, name, root_name(name), &bytes);
    }
}

/// The values the vectors lack (non-finite and extreme floats, floats
/// needing 17 digits, `-0`, extreme 64-bit integers, escapes and
/// non-ASCII text, a null union pointer member, null list elements, an
/// enumerant past the schema's), through the three paths alike.
#[test]
fn special_values_agree() {
    let capnp = peer::peer();
    let loaded = schema();
    let mut value = all_types::Value {
        float32_field: f32::INFINITY,
        float64_field: f64::NEG_INFINITY,
        int64_field: i64::MIN,
        uint64_field: u64::MAX,
        float32_list: Some(vec![f32::NAN, -0.0, 0.1, f32::MAX, f32::MIN_POSITIVE]),
        float64_list: Some(vec![
            f64::NAN,
            f64::MIN_POSITIVE,
            1e300,
            1e-7,
            1e15,
            123456789012345.0,
            1.0 / 3.0,
            -2.5e-310,
            f64::MAX,
            0.1 + 0.2,
        ]),
        enum_list: Some(vec![Color::Blue]),
        text_list: Some(vec![
            Some("a\"b\\\u{1}\u{1f}\u{7f}é\u{2028}\n\t/".into()),
            None,
        ]),
        data_list: Some(vec![None, Some(vec![0, 255])]),
        struct_field: Some(Default::default()),
        ..Default::default()
    };
    value.choice.union = all_types::choice::WhichValue::Name(None);
    let mut message = Message::new(SingleSegmentArena::new());
    value.build_root(&mut message).unwrap();
    let bytes = message.framed_bytes().unwrap().to_vec();
    // A null pointer reads back as its default, as the reference writes
    // it: compared in canonical form, the message read back has the
    // default where the original has null, so only the text is checked
    // against the original here.
    let schema = loaded.schema();
    let root_schema = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    for options in [JsonOptions::pretty(), JsonOptions::short()] {
        let generated = json::to_string(&value, &options).unwrap();
        let dynamic =
            json::message_to_json(&root_schema, &bytes, ReaderOptions::default(), &options)
                .unwrap();
        assert_eq!(generated, dynamic, "{options:?}");
        if let Some(capnp) = &capnp {
            assert_eq!(
                generated,
                reference_json(capnp, "AllTypes", !options.pretty, &bytes),
                "{options:?}"
            );
        }
        // Each path reads the text into the same message.
        let through_dynamic =
            json::json_to_message(&root_schema, generated.as_bytes(), &JsonLimits::default())
                .unwrap();
        assert_eq!(
            canonical(&generated_message("AllTypes", &generated)),
            canonical(&through_dynamic),
            "{options:?}"
        );
    }
}

/// Bad JSON read through the generated path is an error at the line and
/// column at fault, with the path to the field, never a panic.
#[test]
fn bad_input_is_placed() {
    let limits = JsonLimits::default();
    for (text, line, column, part) in [
        (
            "{\"int8Field\": 128}",
            1,
            15,
            "int8Field: 128 is out of the range of Int8",
        ),
        (
            "{\"structField\": {\"enumList\": [\"red\", \n \"purple\"]}}",
            2,
            2,
            "structField.enumList[1]: \"purple\" is not an enumerant",
        ),
        ("{\"textField\": \"a\" \"b\"}", 1, 19, "expected ',' or '}'"),
        ("{\"boolField\": tru}", 1, 18, "expected \"true\""),
        ("{} {}", 1, 4, "input remains"),
        ("{\"anyField\": {}}", 1, 14, "anyField: an AnyPointer"),
    ] {
        let err = json::from_str::<all_types::Value>(text, &limits).unwrap_err();
        let at = err.position().expect("a position");
        assert_eq!((at.line, at.column), (line, column), "{text}: {err}");
        assert!(err.to_string().contains(part), "{text}: {err}");
    }
    // Nesting past the limit stops at the level that is too deep.
    let deep = format!("{}{}", "{\"structField\": ".repeat(70), "}".repeat(70));
    let err = json::from_str::<all_types::Value>(&deep, &limits).unwrap_err();
    assert!(
        matches!(err, json::JsonError::TooDeep { limit: 64, .. }),
        "{err}"
    );
    // Unknown members are skipped, or refused when asked.
    let text = "{\"nope\": 1, \"int8Field\": 3}";
    let v: all_types::Value = json::from_str(text, &limits).unwrap();
    assert_eq!(v.int8_field, 3);
    let strict = JsonLimits {
        reject_unknown_fields: true,
        ..JsonLimits::default()
    };
    let err = json::from_str::<all_types::Value>(text, &strict).unwrap_err();
    assert!(
        matches!(&err, json::JsonError::UnknownField { name, .. } if name == "nope"),
        "{err}"
    );
    // Serializing a value with no JSON form names its path.
    let value = all_types::Value {
        struct_field: Some(Box::new(all_types::Value {
            any_field: Some(Default::default()),
            ..Default::default()
        })),
        ..Default::default()
    };
    let err = json::to_string(&value, &JsonOptions::short()).unwrap_err();
    assert!(err.to_string().contains("structField.anyField"), "{err}");
}
