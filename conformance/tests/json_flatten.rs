//! `$Json.flatten` (and a discriminator with `valueName` but no `name`)
//! through the generated serde impls, on `tests/schemas/json_flatten.capnp`
//! (every `/capnp/compat/json.capnp` annotation: capnarena-dynamic's
//! annotated `Event`, and `Outer`, which nests flattenings three deep,
//! flattens unions with and without a tag name, flattens a struct with a
//! union into a flattened union member, and has a union with `valueName`
//! and no tag). Three codecs are compared on each message: the generated
//! path (`capnarena_dynamic::json::to_string` / `from_str`, and
//! serde_json), the dynamic path (`json::message_to_json` /
//! `json_to_message`) and the reference (`capnp convert binary:json` and
//! `json:binary`, which apply the annotations).

use std::path::{Path, PathBuf};

use capnarena::typed::value::ReadStruct;
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, words_from_bytes};
use capnarena_conformance::json_flatten_capnp::{event, outer};
use capnarena_dynamic::LoadedSchema;
use capnarena_dynamic::json::{self, JsonLimits, JsonOptions};

#[path = "../../tests/common/peer.rs"]
mod peer;

fn schemas() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/schemas")
}

/// `capnp convert ARGS json_flatten.capnp ROOT` of `input`.
fn convert(capnp: &Path, args: &[&str], root: &str, input: &[u8]) -> Result<Vec<u8>, String> {
    let mut all = vec!["convert"];
    all.extend(args);
    all.extend(["json_flatten.capnp", root]);
    peer::run(capnp, &schemas(), &all, input)
}

/// The schema, loaded for the dynamic path.
fn schema() -> LoadedSchema {
    let dir = schemas();
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .src_prefix(&dir)
            .file(dir.join("json_flatten.capnp")),
    )
    .expect("json_flatten.capnp compiles")
}

/// `Outer` messages in the reference's text format: every flattened
/// member set, null and empty flattened structs, each union member (a
/// null flattened union member, a `Void` member under a tag), a union
/// with `valueName` and no tag.
const OUTERS: &[&str] = &[
    r#"(first = (leaf = (n = 1, s = "x"), m = true, shape = (circle = 2.5)), deep = (middle = (leaf = (n = 2)), extra = 7), choice = (leaf = (n = 3, s = "y")), tagged = (middle = (leaf = (n = 4), shape = (blob = 0x"0a"))), untagged = (q = "qq"), last = "z")"#,
    r#"(choice = (word = "w"), tagged = (num = 5))"#,
    r#"(choice = (empty = void), untagged = (p = -3), first = (), deep = (middle = (shape = (nothing = void))))"#,
    r#"(choice = (leaf = ()), tagged = (middle = ()))"#,
    r#"(choice = (count = 4000000000), tagged = (none = void), first = (shape = (square = (x = 1, tags = ["t"]))))"#,
    "()",
];

/// `Event` messages (capnarena-dynamic's annotated schema, flattened
/// struct, group and unions).
const EVENTS: &[&str] = &[
    r#"(id = 12, inner = (x = 5, tags = ["a"]), meta = (level = high, levels = [low, other, high], raw = 0x"010203"), key = (x = 3), shapes = [(circle = 1.5), (square = (x = 1)), (nothing = void), (blob = 0x"0aff")], payload = (bytes = "hi"), named = (b = 0.5), plain = (v = "vv"))"#,
    r#"(click = (x = 3, y = -4), payload = (text = "late"), inner = ())"#,
    r#"(idle = void, payload = (none = void), named = (a = true), plain = (u = 9))"#,
    r#"(note = "hello", id = 18446744073709551615, meta = (raw = ""))"#,
    r#"(key = (), shapes = [(blob = ""), (square = ()), (circle = -2.5)])"#,
    "()",
];

/// What each codec makes of one root type.
trait Root {
    const NAME: &'static str;
    /// The generated path's text of `bytes`, owned and borrowed (which
    /// must agree), and serde_json's text of the owned value.
    fn generated(bytes: &[u8], options: &JsonOptions) -> (String, String);
    /// The message the generated path reads from `text`, framed.
    fn read(text: &str) -> Result<Vec<u8>, String>;
    /// The generated value of message `bytes`, for comparing (a message
    /// may keep what a union member held before another was set, which
    /// is no part of the value).
    fn value(bytes: &[u8]) -> String;
}

macro_rules! root {
    ($t:ident, $module:ident, $name:literal) => {
        struct $t;
        impl Root for $t {
            const NAME: &'static str = $name;
            fn generated(bytes: &[u8], options: &JsonOptions) -> (String, String) {
                let words = words_from_bytes(bytes).expect("framed words");
                let reader =
                    MessageReader::from_words(&words, ReaderOptions::default()).expect("message");
                let owned = $module::Value::read_struct(reader.root().unwrap()).unwrap();
                let borrowed = $module::ValueRef::read_struct(reader.root().unwrap()).unwrap();
                let text = json::to_string(&owned, options).expect("the owned value serializes");
                assert_eq!(
                    text,
                    json::to_string(&borrowed, options).expect("the borrowed value serializes"),
                    "owned and borrowed values"
                );
                let serde = serde_json::to_string(&owned).expect("serde_json writes");
                assert_eq!(
                    serde,
                    serde_json::to_string(&borrowed).expect("serde_json writes"),
                    "owned and borrowed values through serde_json"
                );
                (text, serde)
            }
            fn read(text: &str) -> Result<Vec<u8>, String> {
                let v: $module::Value =
                    json::from_str(text, &JsonLimits::default()).map_err(|e| e.to_string())?;
                let through_serde_json: $module::Value =
                    serde_json::from_str(text).map_err(|e| e.to_string())?;
                assert_eq!(
                    v, through_serde_json,
                    "{text}: serde_json reads another value"
                );
                let mut message = Message::new(SingleSegmentArena::new());
                v.build_root(&mut message).expect("builds");
                Ok(message.framed_bytes().expect("one segment").to_vec())
            }
            fn value(bytes: &[u8]) -> String {
                let words = words_from_bytes(bytes).expect("framed words");
                let reader =
                    MessageReader::from_words(&words, ReaderOptions::default()).expect("message");
                let v = $module::Value::read_struct(reader.root().unwrap()).unwrap();
                format!("{v:?}")
            }
        }
    };
}

root!(Outer, outer, "Outer");
root!(Event, event, "Event");

/// The value each codec reads from `text`: the generated path's, the
/// dynamic path's and the reference's, which must agree (`what` names
/// the case).
fn read_all<R: Root>(capnp: &Path, loaded: &LoadedSchema, what: &str, text: &str) {
    let schema = loaded.schema();
    let root = schema
        .find_struct(&format!("json_flatten.capnp:{}", R::NAME))
        .expect("root type");
    let generated = R::read(text).unwrap_or_else(|e| panic!("{what}: {text}: {e}"));
    let value = R::value(&generated);
    let dynamic = json::json_to_message(&root, text.as_bytes(), &JsonLimits::default())
        .unwrap_or_else(|e| panic!("{what}: {text}: the dynamic path: {e}"));
    assert_eq!(R::value(&dynamic), value, "{what}: {text}: dynamic");
    let reference = convert(capnp, &["json:binary"], R::NAME, text.as_bytes())
        .unwrap_or_else(|e| panic!("{what}: {text}: capnp: {e}"));
    assert_eq!(R::value(&reference), value, "{what}: {text}: reference");
}

/// The top-level members of a JSON object, in order.
struct Members(Vec<(String, serde_json::Value)>);

impl<'de> capnarena::serde::Deserialize<'de> for Members {
    fn deserialize<D: capnarena::serde::Deserializer<'de>>(d: D) -> Result<Members, D::Error> {
        struct Visit;
        impl<'de> capnarena::serde::de::Visitor<'de> for Visit {
            type Value = Members;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: capnarena::serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Members, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// `members` as one JSON object, in their order.
fn object(members: &[(String, serde_json::Value)]) -> String {
    let parts: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), v))
        .collect();
    format!("{{{}}}", parts.join(","))
}

/// Checks one message: the generated path writes the dynamic path's and
/// the reference's text (pretty and short; serde_json the short one),
/// and the reference's text, its members reversed and its members sorted
/// by name (union values and flattened union members before their tags)
/// read, through all three codecs alike, to the message the reference
/// reads.
fn check<R: Root>(capnp: &Path, loaded: &LoadedSchema, text: &str) {
    let bytes = convert(capnp, &["text:binary"], R::NAME, text.as_bytes())
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let schema = loaded.schema();
    let root = schema
        .find_struct(&format!("json_flatten.capnp:{}", R::NAME))
        .expect("root type");
    for options in [JsonOptions::pretty(), JsonOptions::short()] {
        let (generated, serde) = R::generated(&bytes, &options);
        let dynamic = json::message_to_json(&root, &bytes, ReaderOptions::default(), &options)
            .expect("the dynamic path encodes");
        assert_eq!(generated, dynamic, "{text} ({options:?}): against dynamic");
        let args: &[&str] = if options.pretty {
            &["binary:json"]
        } else {
            &["--short", "binary:json"]
        };
        let reference =
            String::from_utf8(convert(capnp, args, R::NAME, &bytes).unwrap()).expect("UTF-8 JSON");
        let reference = reference.trim_end_matches('\n');
        assert_eq!(
            generated, reference,
            "{text} ({options:?}): against the reference"
        );
        if !options.pretty {
            assert_eq!(serde, reference, "{text}: serde_json against the reference");
        }
        read_all::<R>(capnp, loaded, text, reference);
        // Other orders read as the reference reads them (which may differ
        // from the message: a tag after its member resets the member).
        let Members(mut members) = serde_json::from_str(reference).expect("an object");
        members.reverse();
        read_all::<R>(capnp, loaded, text, &object(&members));
        members.sort_by(|a, b| a.0.cmp(&b.0));
        read_all::<R>(capnp, loaded, text, &object(&members));
    }
}

/// Flattened structs, groups and unions (nested, prefixes added up, tags
/// named by `name` or by the union's field), written and read as the
/// reference writes and reads them, in any member order.
#[test]
fn flattened_json_matches_reference_and_dynamic() {
    let Some(capnp) = peer::peer() else { return };
    let loaded = schema();
    for text in OUTERS {
        check::<Outer>(&capnp, &loaded, text);
    }
    for text in EVENTS {
        check::<Event>(&capnp, &loaded, text);
    }
}

/// Inputs the reference reads in a particular way are read the same way
/// by all three codecs: a member of a flattened union member or a
/// `valueName` value before its tag (read after the other members), a
/// value given twice around its tag (the one after the tag is read
/// before the one kept), a tag naming no member and what waits for it
/// (ignored), a `valueName` value with no tag at all (dropped), a member
/// given before its tag (the tag resets it), a tag after a member of
/// another (the tag wins).
#[test]
fn key_orders_read_as_the_reference_reads_them() {
    let Some(capnp) = peer::peer() else { return };
    let loaded = schema();
    let outers = [
        r#"{"tg_mid_sh_data": "0a", "tg_mid_sh_kind": "blob", "tg_tt": "middle", "a_c_n": 3}"#,
        r#"{"ch.lf_s": "s", "ch.lf_n": 2, "ch.choice": "leaf"}"#,
        r#"{"ch.choiceValue": "a", "ch.choice": "word", "ch.choiceValue": "b"}"#,
        r#"{"ch.choice": "word", "ch.choiceValue": "b", "ch.choiceValue": "c"}"#,
        r#"{"ch.choice": "nope", "ch.lf_n": 1, "ch.choiceValue": "x"}"#,
        r#"{"val": 5, "untagged": {"val": 6}, "tg_num": "7"}"#,
        r#"{"a_sh_data": 1.5, "a_m": true, "a_sh_kind": "circle", "b_sh_kind": "nothing"}"#,
        r#"{"tg_mid_sh_data": {"ex": 4}, "tg_tt": "middle", "tg_mid_sh_kind": "square"}"#,
        r#"{"unknown": [1, {"a": null}], "b_extra": 9}"#,
    ];
    for text in outers {
        read_all::<Outer>(&capnp, &loaded, "outer", text);
    }
    let events = [
        r#"{"message": "hi", "t": "message"}"#,
        r#"{"message": "x", "t": "idle"}"#,
        r#"{"t": "idle", "message": "x"}"#,
        r#"{"k_ex": 5, "t": "key", "k_tags": ["a", "b"]}"#,
        r#"{"x": 1, "y": 2, "t": "click"}"#,
        r#"{"t": "triangle", "x": 1}"#,
        r#"{"p_bytes": "aGk=", "p_payloadType": "bytes"}"#,
        r#"{"shapes": [{"data": 1.5, "kind": "circle"}, {"data": "0AfF", "kind": "blob"}]}"#,
        r#"{"in_ex": 1, "event-id": "5", "in_tags": ["q"], "m.raw": "AQID"}"#,
    ];
    for text in events {
        read_all::<Event>(&capnp, &loaded, "event", text);
    }
}

/// Input the reference refuses is an error through the generated path
/// (both JSON readers) and the dynamic path alike, naming what is wrong:
/// a member of a flattened union member while the active member is not
/// flattened, a flattened union's tag given twice, a tag that is not a
/// string, a kept value of the wrong type.
#[test]
fn flattened_json_errors() {
    let capnp = peer::peer();
    let loaded = schema();
    let schema = loaded.schema();
    let cases: &[(&str, &str, &str)] = &[
        (
            "Outer",
            r#"{"ch.choice": "word", "ch.lf_n": 1}"#,
            "is not flattened",
        ),
        (
            "Outer",
            r#"{"ch.lf_n": 1, "ch.choice": "leaf", "ch.choice": "leaf"}"#,
            "given twice",
        ),
        (
            "Outer",
            r#"{"ch.choice": 5}"#,
            "a string naming a union member",
        ),
        (
            "Outer",
            r#"{"tg_tt": "middle", "tg_tt": "num"}"#,
            "given twice",
        ),
        (
            "Outer",
            r#"{"tg_mid_sh_data": [1], "tg_tt": "middle", "tg_mid_sh_kind": "square"}"#,
            "expected a Inner struct",
        ),
    ];
    for (root, text, expected) in cases {
        let (ours, serde) = if *root == "Outer" {
            (
                json::from_str::<outer::Value>(text, &JsonLimits::default()).map(drop),
                serde_json::from_str::<outer::Value>(text).map(drop),
            )
        } else {
            (
                json::from_str::<event::Value>(text, &JsonLimits::default()).map(drop),
                serde_json::from_str::<event::Value>(text).map(drop),
            )
        };
        let e = ours.unwrap_err().to_string();
        assert!(e.contains(expected), "{text}: {e}");
        let e = serde.unwrap_err().to_string();
        assert!(e.contains(expected), "{text}: {e}");
        let root_schema = schema
            .find_struct(&format!("json_flatten.capnp:{root}"))
            .expect("root type");
        assert!(
            json::json_to_message(&root_schema, text.as_bytes(), &JsonLimits::default()).is_err(),
            "{text}: the dynamic path reads it"
        );
        if let Some(capnp) = &capnp {
            assert!(
                convert(capnp, &["json:binary"], root, text.as_bytes()).is_err(),
                "{text}: the reference reads it"
            );
        }
    }
}

/// A value kept until its tag (here nested 2,000 arrays deep) is refused
/// when it nests deeper than the reader allows, without overflowing the
/// stack; a kept value of many members reads back whole.
#[test]
fn kept_values_are_bounded() {
    let deep = format!(
        r#"{{"ch.choiceValue": {}1{}, "ch.choice": "count"}}"#,
        "[".repeat(2000),
        "]".repeat(2000)
    );
    assert!(serde_json::from_str::<outer::Value>(&deep).is_err());
    assert!(json::from_str::<outer::Value>(&deep, &JsonLimits::default()).is_err());
    let long = format!(
        r#"{{"ch.lf_s": "{}", "ch.lf_n": 7, "ch.choice": "leaf"}}"#,
        "s".repeat(100_000)
    );
    let v: outer::Value = serde_json::from_str(&long).unwrap();
    match &v.choice.union {
        outer::choice::WhichValue::Leaf(Some(leaf)) => {
            assert_eq!(leaf.n, 7);
            assert_eq!(leaf.s.as_deref().map(str::len), Some(100_000));
        }
        other => panic!("{other:?}"),
    }
}
