//! Fields of type `/capnp/compat/json.capnp`'s `Value`
//! (`tests/schemas/json_value.capnp`), which the reference's codec writes
//! as the JSON value they hold and reads from any JSON value: the
//! generated path (`capnarena_dynamic::json::to_string` / `from_str`,
//! owned and borrowed values), the dynamic path (`json::message_to_json`
//! / `json_to_message`) and the reference (`capnp convert binary:json`
//! and `json:binary`) give the same text and build the same message, on
//! every kind of value, nested, in every place a `Value` can be.

use std::path::{Path, PathBuf};

use capnarena::typed::value::ReadStruct;
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, words_from_bytes};
use capnarena_conformance::canonical_root as canonical;
use capnarena_conformance::json_value_capnp::holder;
use capnarena_conformance::reference_serde::json_capnp::value;
use capnarena_dynamic::LoadedSchema;
use capnarena_dynamic::json::{self, JsonLimits, JsonOptions};

#[path = "../../tests/common/peer.rs"]
mod peer;

fn schemas() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/schemas")
}

/// Where `/capnp/compat/json.capnp` is (the reference's own copy).
fn standard() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/capnproto/c++/src")
}

/// `capnp convert [--short] FORMATS json_value.capnp Holder` of `input`.
fn convert(capnp: &Path, formats: &str, short: bool, input: &[u8]) -> Result<Vec<u8>, String> {
    let std = standard();
    let include = format!("-I{}", std.display());
    let mut args = vec!["convert", formats, &include, "--no-standard-import"];
    if short {
        args.push("--short");
    }
    args.extend(["json_value.capnp", "Holder"]);
    peer::run(capnp, &schemas(), &args, input)
}

fn schema() -> LoadedSchema {
    let dir = schemas();
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .src_prefix(&dir)
            .import_path(standard())
            .no_standard_import()
            .file(dir.join("json_value.capnp")),
    )
    .expect("json_value.capnp compiles")
}

fn framed(v: &holder::Value) -> Vec<u8> {
    let mut message = Message::new(SingleSegmentArena::new());
    v.build_root(&mut message).unwrap();
    message.framed_bytes().unwrap().to_vec()
}

// Json.Value builders.
fn null() -> value::Value {
    value::Value {
        union: value::WhichValue::Null,
    }
}
fn boolean(v: bool) -> value::Value {
    value::Value {
        union: value::WhichValue::Boolean(v),
    }
}
fn number(v: f64) -> value::Value {
    value::Value {
        union: value::WhichValue::Number(v),
    }
}
fn string(v: &str) -> value::Value {
    value::Value {
        union: value::WhichValue::String(Some(v.into())),
    }
}
fn array(items: Vec<value::Value>) -> value::Value {
    value::Value {
        union: value::WhichValue::Array(Some(items)),
    }
}
fn member(name: &str, v: value::Value) -> value::field::Value {
    value::field::Value {
        name: Some(name.into()),
        value: Some(v),
    }
}
fn object(members: Vec<(&str, value::Value)>) -> value::Value {
    value::Value {
        union: value::WhichValue::Object(Some(
            members.into_iter().map(|(n, v)| member(n, v)).collect(),
        )),
    }
}
fn call(function: &str, params: Vec<value::Value>) -> value::Value {
    value::Value {
        union: value::WhichValue::Call(Some(value::call::Value {
            function: Some(function.into()),
            params: Some(params),
        })),
    }
}

/// A value of every JSON kind, nested arrays and objects in each other,
/// escapes, a member name given twice, numbers that need 17 digits.
fn every_kind() -> value::Value {
    object(vec![
        ("n", null()),
        ("t", boolean(true)),
        ("f", boolean(false)),
        ("ints", array(vec![number(0.0), number(-3.0), number(1e15)])),
        (
            "fractions",
            array(vec![number(0.1), number(-2.5e-310), number(1e300)]),
        ),
        ("s", string("a\"b\\\u{1}é\u{2028}\n")),
        ("empty", array(vec![])),
        ("none", object(vec![])),
        (
            "deep",
            array(vec![array(vec![object(vec![(
                "x",
                array(vec![null(), string("")]),
            )])])]),
        ),
        ("s", string("again")),
    ])
}

/// Holders whose JSON reads back as the message: each place a
/// `Json.Value` can be, holding each kind.
fn readable() -> Vec<holder::Value> {
    let mut all = Vec::new();
    let mut h = holder::Value {
        value: Some(every_kind()),
        values: Some(vec![
            null(),
            number(1.0),
            string("s"),
            array(vec![]),
            every_kind(),
        ]),
        nested: Some(vec![
            Some(vec![object(vec![("a", number(1.0))])]),
            Some(vec![]),
        ]),
        member: Some(member("m", array(vec![boolean(false)]))),
        inner: Some(Box::new({
            // Null union members would read back as Values of null.
            let mut inner = holder::Value {
                value: Some(null()),
                after: Some("inner".into()),
                ..Default::default()
            };
            inner.choice.union = holder::choice::WhichValue::Raw(Some(number(3.0)));
            inner.held.union = holder::held::WhichValue::Json(Some(null()));
            inner
        })),
        after: Some("last".into()),
        ..Default::default()
    };
    h.choice.union = holder::choice::WhichValue::Raw(Some(array(vec![number(2.0)])));
    h.held.union = holder::held::WhichValue::Json(Some(every_kind()));
    all.push(h);
    // A null at the top of each place (a field holding null is set).
    let mut h = holder::Value {
        value: Some(null()),
        values: Some(vec![null()]),
        ..Default::default()
    };
    h.choice.union = holder::choice::WhichValue::Raw(Some(null()));
    h.held.union = holder::held::WhichValue::Json(Some(string("held")));
    all.push(h);
    let mut h = holder::Value::default();
    h.held.union = holder::held::WhichValue::Count(7);
    h.choice.union = holder::choice::WhichValue::Text(Some("t".into()));
    all.push(h);
    all
}

/// Holders the reference writes but JSON cannot read back: calls
/// (nested in arrays, objects and each other; null, and with no
/// parameters), null pointers where a
/// `Json.Value` holds text, a list, an object or a call (written as their
/// defaults), a member whose value is null.
fn write_only() -> Vec<holder::Value> {
    let long = "a parameter long enough that the call goes one parameter a line";
    let mut h = holder::Value {
        value: Some(call("BinData", vec![number(0.0), string("Zm9vCg==")])),
        values: Some(vec![
            call("f", vec![]),
            call(
                "g",
                vec![
                    call("h", vec![array(vec![null()])]),
                    object(vec![("k", call("i", vec![]))]),
                ],
            ),
            call("long", vec![string(long), number(1.0)]),
            value::Value {
                union: value::WhichValue::Call(None),
            },
            value::Value {
                union: value::WhichValue::String(None),
            },
            value::Value {
                union: value::WhichValue::Array(None),
            },
            value::Value {
                union: value::WhichValue::Object(None),
            },
            value::Value {
                union: value::WhichValue::Object(Some(vec![value::field::Value::default()])),
            },
        ]),
        member: Some(value::field::Value::default()),
        ..Default::default()
    };
    h.choice.union = holder::choice::WhichValue::Raw(None);
    h.held.union = holder::held::WhichValue::Json(None);
    vec![h]
}

/// The generated path's text of `v`, owned and borrowed (which must
/// agree).
fn generated(v: &holder::Value, options: &JsonOptions) -> String {
    let bytes = framed(v);
    let words = words_from_bytes(&bytes).unwrap();
    let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    let borrowed = holder::ValueRef::read_struct(reader.root().unwrap()).unwrap();
    let owned = json::to_string(v, options).expect("the owned value serializes");
    let text = json::to_string(&borrowed, options).expect("the borrowed value serializes");
    assert_eq!(owned, text, "owned and borrowed");
    owned
}

/// The generated path reads `text` into this message (framed).
fn generated_message(text: &str) -> Vec<u8> {
    let v: holder::Value =
        json::from_str(text, &JsonLimits::default()).unwrap_or_else(|e| panic!("{text}: {e}"));
    framed(&v)
}

/// Each holder's text is the same through the generated path (owned and
/// borrowed), the dynamic path and the reference, pretty and short; the
/// readable ones read back, through the generated path (capnarena's
/// deserializer and serde_json) and the dynamic path, as the message (and
/// as the reference reads the text).
#[test]
fn json_values_agree() {
    let capnp = peer::peer();
    let loaded = schema();
    let s = loaded.schema();
    let root = s.find_struct("json_value.capnp:Holder").unwrap();
    for (i, h) in readable().iter().chain(&write_only()).enumerate() {
        let bytes = framed(h);
        let readable = i < readable().len();
        for options in [JsonOptions::pretty(), JsonOptions::short()] {
            let what = format!("holder {i} ({options:?})");
            let text = generated(h, &options);
            let dynamic =
                json::message_to_json(&root, &bytes, ReaderOptions::default(), &options).unwrap();
            assert_eq!(text, dynamic, "{what}: generated against dynamic");
            if let Some(capnp) = &capnp {
                let reference = convert(capnp, "binary:json", !options.pretty, &bytes).unwrap();
                let reference = String::from_utf8(reference).unwrap();
                assert_eq!(
                    text,
                    reference.strip_suffix('\n').unwrap(),
                    "{what}: generated against the reference"
                );
            }
            if !readable {
                continue;
            }
            let want = canonical(&bytes);
            assert_eq!(
                canonical(&generated_message(&text)),
                want,
                "{what}: read back"
            );
            let through_dynamic =
                json::json_to_message(&root, text.as_bytes(), &JsonLimits::default()).unwrap();
            assert_eq!(
                canonical(&through_dynamic),
                want,
                "{what}: dynamic read back"
            );
            let v: holder::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(&v, h, "{what}: serde_json read back");
            if let Some(capnp) = &capnp {
                let reference = convert(capnp, "json:binary", false, text.as_bytes()).unwrap();
                assert_eq!(
                    canonical(&reference),
                    want,
                    "{what}: the reference reads it"
                );
            }
        }
    }
}

/// A number that is not finite: the reference writes it bare (`nan`,
/// `inf`, `-inf`), which no JSON reader reads back, its own included.
/// Both of our writers, the generated path (owned and borrowed) and the
/// dynamic one, refuse it with an error that names it.
#[test]
fn non_finite_numbers_are_refused() {
    let loaded = schema();
    let s = loaded.schema();
    let root = s.find_struct("json_value.capnp:Holder").unwrap();
    for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let h = holder::Value {
            values: Some(vec![number(1.0), number(x)]),
            ..Default::default()
        };
        let bytes = framed(&h);
        let words = words_from_bytes(&bytes).unwrap();
        let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
        let borrowed = holder::ValueRef::read_struct(reader.root().unwrap()).unwrap();
        for options in [JsonOptions::pretty(), JsonOptions::short()] {
            let owned = json::to_string(&h, &options).expect_err("owned: refused");
            let text = json::to_string(&borrowed, &options).expect_err("borrowed: refused");
            let dynamic = json::message_to_json(&root, &bytes, ReaderOptions::default(), &options)
                .expect_err("dynamic: refused");
            for e in [owned.to_string(), text.to_string(), dynamic.to_string()] {
                assert!(e.contains("not finite"), "{x}: {e}");
            }
        }
    }
}

/// JSON the holder's writers do not write reads as the reference reads
/// it, through the generated and the dynamic path: a `Value` given before
/// its union's tag (held, then read), `null` for a `Value` field (a
/// `Value` holding null, not a null pointer), integers past 2^53 and
/// with exponents (doubles), a member name given twice, whitespace.
#[test]
fn loose_json_reads_as_reference() {
    let loaded = schema();
    let s = loaded.schema();
    let root = s.find_struct("json_value.capnp:Holder").unwrap();
    let docs = [
        r#"{"payload": {"a": [1, null, {"b": "c"}]}, "after": "x", "kind": "json"}"#,
        r#"{"payload": null, "kind": "json", "value": null, "choice": {"raw": null}}"#,
        r#"{"value": [9007199254740993, -0, 1E2, 2e-1], "values": [{"k": 1, "k": 2}]}"#,
        "{ \"value\" :\n\t[ true ,false ] , \"member\": {\"name\": \"n\", \"value\": null}}",
        r#"{"inner": {"inner": {"payload": [[]], "kind": "json"}}}"#,
    ];
    let capnp = peer::peer();
    for doc in docs {
        let generated = generated_message(doc);
        let dynamic = json::json_to_message(&root, doc.as_bytes(), &JsonLimits::default()).unwrap();
        assert_eq!(canonical(&generated), canonical(&dynamic), "{doc}");
        let v: holder::Value = serde_json::from_str(doc).unwrap();
        assert_eq!(
            canonical(&framed(&v)),
            canonical(&dynamic),
            "{doc} (serde_json)"
        );
        if let Some(capnp) = &capnp {
            let reference = convert(capnp, "json:binary", false, doc.as_bytes()).unwrap();
            assert_eq!(
                canonical(&generated),
                canonical(&reference),
                "{doc}: reference"
            );
        }
    }
    // A null field holds a Value of null.
    let v: holder::Value = json::from_str(docs[1], &JsonLimits::default()).unwrap();
    assert_eq!(v.value, Some(null()));
    assert_eq!(v.held.union, holder::held::WhichValue::Json(Some(null())));
}

/// `Json.Value` nests without bound in its type, not in what is read or
/// written: JSON nested past the reader's depth limit is an error (the
/// generated path's and the dynamic path's, held before its tag too),
/// never a stack overflow, and so is a value nested past the writer's.
#[test]
fn nesting_is_bounded() {
    let limits = JsonLimits::default();
    let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    let loaded = schema();
    let s = loaded.schema();
    let root = s.find_struct("json_value.capnp:Holder").unwrap();
    for doc in [
        format!("{{\"value\": {}}}", deep(100_000)),
        format!("{{\"payload\": {}, \"kind\": \"json\"}}", deep(100_000)),
    ] {
        let err = json::from_str::<holder::Value>(&doc, &limits).unwrap_err();
        assert!(
            matches!(err, json::JsonError::TooDeep { limit: 64, .. }),
            "{err}"
        );
        let err = json::json_to_message(&root, doc.as_bytes(), &limits).unwrap_err();
        assert!(
            matches!(err, json::JsonError::TooDeep { limit: 64, .. }),
            "{err}"
        );
        assert!(serde_json::from_str::<holder::Value>(&doc).is_err());
    }
    // One level under the limit reads (the holder's object is one).
    let doc = format!("{{\"value\": {}}}", deep(63));
    json::from_str::<holder::Value>(&doc, &limits).unwrap();
}

/// A `Json.Value` nested past the writer's limit
/// ([`json::MAX_ENCODE_DEPTH`], 1,024 levels) is an error, not a stack
/// overflow. (The writer recurses once a level: in a debug build 1,024
/// levels need more than a test thread's 2 MiB of stack, so this runs on
/// a thread of its own with 32 MiB, as a value that deep needs of any
/// code recursing over it.)
#[test]
fn writing_nesting_is_bounded() {
    let write = || {
        let mut v = null();
        for _ in 0..json::MAX_ENCODE_DEPTH + 8 {
            v = array(vec![v]);
        }
        let h = holder::Value {
            value: Some(v),
            ..Default::default()
        };
        let err = json::to_string(&h, &JsonOptions::short()).unwrap_err();
        assert!(err.to_string().contains("nests more than"), "{err}");
    };
    std::thread::Builder::new()
        .stack_size(32 << 20)
        .spawn(write)
        .unwrap()
        .join()
        .unwrap();
}
