//! The JSON decoder on bad and hostile input: every error names the line
//! and column at fault (positions worked out by hand here), limits on
//! size and nesting hold with the numbers in the error, and no input
//! panics. The encoder refuses values without a JSON form, and schemas
//! whose JSON annotations the reference refuses are refused.

mod common;

use capnarena::{Message, SingleSegmentArena};
use capnarena_compiler::Compiler;
use capnarena_dynamic::json::{self, JsonCodec, JsonError, JsonLimits, JsonOptions};
use capnarena_dynamic::{DynamicStructBuilder, DynamicValue, LoadedSchema};
use common::{all_types, workspace};
use proptest::prelude::*;

/// Decodes `text` into a fresh AllTypes with `limits`.
fn decode_with(text: &[u8], limits: &JsonLimits) -> Result<(), JsonError> {
    thread_local! {
        static LOADED: &'static LoadedSchema = Box::leak(Box::new(all_types()));
    }
    let loaded: &'static LoadedSchema = LOADED.with(|l| *l);
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    let b = DynamicStructBuilder::init_root(&mut msg, root).unwrap();
    json::decode(text, b, limits)
}

fn decode(text: &str) -> Result<(), JsonError> {
    decode_with(text.as_bytes(), &JsonLimits::default())
}

/// (line, column) of an error, which must have one.
fn at(e: &JsonError) -> (u32, u32) {
    let p = e.position().unwrap_or_else(|| panic!("no position in {e}"));
    (p.line, p.column)
}

/// Syntax errors point at the first byte that cannot be read, on the
/// right line and column (columns count characters, not bytes).
#[test]
fn syntax_errors_have_line_and_column() {
    let cases: &[(&str, (u32, u32))] = &[
        ("", (1, 1)),
        ("   ", (1, 4)),
        ("{\"textField\": \"x\",\n  \"boolField\": tru}", (2, 19)),
        ("{\"textField\": \"é€\" x}", (1, 20)),
        ("{\n\n   \"a\" 1}", (3, 8)),
        ("{\"a\": [1, 2,, 3]}", (1, 13)),
        ("{\"a\": [1 2]}", (1, 10)),
        ("{\"a\": 01}", (1, 8)),
        ("{\"a\": -}", (1, 8)),
        ("{\"a\": 1e}", (1, 7)),
        ("{\"a\": \"\\x\"}", (1, 9)),
        ("{\"a\": \"\\u12g4\"}", (1, 12)),
        ("{\"a\": \"\\ud800\"}", (1, 8)),
        ("{\"a\": \"\\udc00\"}", (1, 8)),
        ("{\"a\": \"never closed}", (1, 7)),
        ("{\"a\": 1} x", (1, 10)),
        ("{a: 1}", (1, 2)),
        ("{\"a\": \"x\u{0}\"}", (1, 9)),
        ("[1,\r\n2,\r\n]", (3, 1)),
    ];
    for (text, want) in cases {
        match decode(text) {
            Err(e @ JsonError::Syntax { .. }) => assert_eq!(at(&e), *want, "{text:?}: {e}"),
            other => panic!("{text:?}: expected a syntax error, got {other:?}"),
        }
    }
    // Bytes that are not UTF-8: the first of them.
    let e = decode_with(b"{\"textField\":\n \"ab\xff\"}", &JsonLimits::default()).unwrap_err();
    assert!(matches!(e, JsonError::Syntax { .. }), "{e}");
    assert_eq!(at(&e), (2, 5));
}

/// A value that does not fit its field is an error at the value, naming
/// the field; nothing is silently truncated or wrapped.
#[test]
fn value_errors_name_field_and_position() {
    let cases: &[(&str, &str, (u32, u32))] = &[
        ("{\"int8Field\": 128}", "int8Field", (1, 15)),
        ("{\"int8Field\": 1.5}", "int8Field", (1, 15)),
        (
            "{\"int64Field\": \"9223372036854775808\"}",
            "int64Field",
            (1, 16),
        ),
        (
            "{\"int64Field\": 9223372036854775808}",
            "int64Field",
            (1, 16),
        ),
        ("{\"uint64Field\": \"-1\"}", "uint64Field", (1, 17)),
        ("{\"uint64Field\": \" 1\"}", "uint64Field", (1, 17)),
        ("{\"uint32Field\": -1}", "uint32Field", (1, 17)),
        ("{\"uint16Field\": \"0x10000\"}", "uint16Field", (1, 17)),
        ("{\"boolField\": \"true\"}", "boolField", (1, 15)),
        ("{\"voidField\": 0}", "voidField", (1, 15)),
        ("{\"textField\": 5}", "textField", (1, 15)),
        ("{\"float64Field\": \"fast\"}", "float64Field", (1, 18)),
        ("{\"enumField\": \"purple\"}", "enumField", (1, 15)),
        ("{\"enumField\": 65536}", "enumField", (1, 15)),
        ("{\"dataField\": [1, 256]}", "dataField", (1, 19)),
        ("{\"dataField\": \"AAEC\"}", "dataField", (1, 15)),
        ("{\"structField\": []}", "structField", (1, 17)),
        ("{\"int32List\": {}}", "int32List", (1, 15)),
        (
            "{\"structList\": [{\"point\":\n {\"x\": \"a\"}}]}",
            "structList[0].point.x",
            (2, 8),
        ),
        ("{\"anyField\": null}", "anyField", (1, 14)),
        ("{\"choice\": {\"count\": true}}", "choice.count", (1, 22)),
    ];
    for (text, field, want) in cases {
        match decode(text) {
            Err(e @ JsonError::Value { .. }) => {
                assert_eq!(at(&e), *want, "{text:?}: {e}");
                let JsonError::Value { context, .. } = &e else {
                    unreachable!()
                };
                assert_eq!(context, field, "{text:?}: {e}");
            }
            other => panic!("{text:?}: expected a value error, got {other:?}"),
        }
    }
}

/// Unknown members are skipped by default, as the reference does, and
/// refused (at the name) when asked.
#[test]
fn unknown_fields() {
    let text = "{\"int8Field\": 1,\n \"nope\": [1, {\"deep\": null}]}";
    decode(text).unwrap();
    let strict = JsonLimits {
        reject_unknown_fields: true,
        ..JsonLimits::default()
    };
    let e = decode_with(text.as_bytes(), &strict).unwrap_err();
    assert!(
        matches!(&e, JsonError::UnknownField { name, .. } if name == "nope"),
        "{e}"
    );
    assert_eq!(at(&e), (2, 2));
}

/// Nesting over the limit (default 64, the reference's) is an error at
/// the first bracket too deep, with the limit; a hundred thousand levels
/// do not reach the stack. Input over the size limit is refused before
/// it is read; a depth limit over the ceiling is refused.
#[test]
fn limits_hold() {
    let nest = |levels: usize| {
        format!(
            "{{\"unknown\": {}{}}}",
            "[".repeat(levels - 1),
            "]".repeat(levels - 1)
        )
    };
    decode(&nest(64)).unwrap();
    let e = decode(&nest(65)).unwrap_err();
    assert!(matches!(e, JsonError::TooDeep { limit: 64, .. }), "{e}");
    // "{\"unknown\": " is 12 characters; the 64th '[' is level 65.
    assert_eq!(at(&e), (1, 12 + 64));
    let e = decode(&"[".repeat(100_000)).unwrap_err();
    assert!(matches!(e, JsonError::TooDeep { limit: 64, .. }), "{e}");
    let e = decode(&"{\"a\":".repeat(100_000)).unwrap_err();
    assert!(matches!(e, JsonError::TooDeep { limit: 64, .. }), "{e}");
    let low = JsonLimits {
        max_depth: 3,
        ..JsonLimits::default()
    };
    assert!(decode_with(b"{\"a\": [[]]}", &low).is_ok());
    let e = decode_with(b"{\"a\": [[[]]]}", &low).unwrap_err();
    assert!(matches!(e, JsonError::TooDeep { limit: 3, .. }), "{e}");
    assert_eq!(at(&e), (1, 9));

    let small = JsonLimits {
        max_input_bytes: 10,
        ..JsonLimits::default()
    };
    assert!(decode_with(b"{\"a\": 100}", &small).is_ok());
    let e = decode_with(b"{\"a\": 1000}", &small).unwrap_err();
    assert!(
        matches!(
            e,
            JsonError::InputTooLarge {
                size: 11,
                limit: 10
            }
        ),
        "{e}"
    );
    // The message's size: an AllTypes is 7 data words and 24 pointers
    // (31 words), a List(Int64) of n elements n words, a List(Point) of n
    // one-word structs n + 1 words.
    let words = JsonLimits {
        max_message_words: 1000,
        ..JsonLimits::default()
    };
    let list = |n: usize| {
        format!(
            "{{\"textField\": \"x\",\n \"structField\": {{\"int64List\": [{}]}}}}",
            vec!["0"; n].join(",")
        )
    };
    // 1 (text) + 31 (the struct) + n (the list) words.
    assert!(decode_with(list(968).as_bytes(), &words).is_ok());
    let e = decode_with(list(969).as_bytes(), &words).unwrap_err();
    assert!(
        matches!(e, JsonError::MessageTooLarge { limit: 1000, .. }),
        "{e}"
    );
    assert_eq!(at(&e), (2, 31));
    let e = decode_with(
        format!(
            "{{\"unknown\": 1, \"structField\": {{\"structField\": {{}}}}, \"pointList\": [{}]}}",
            vec!["{}"; 100_000].join(",")
        )
        .as_bytes(),
        &words,
    )
    .unwrap_err();
    assert!(
        matches!(e, JsonError::MessageTooLarge { limit: 1000, .. }),
        "{e}"
    );
    assert_eq!(at(&e), (1, 65));

    let deep = JsonLimits {
        max_depth: 5000,
        ..JsonLimits::default()
    };
    let e = decode_with(b"{}", &deep).unwrap_err();
    assert!(
        matches!(
            e,
            JsonError::LimitTooHigh {
                value: 5000,
                ceiling: 1024,
                ..
            }
        ),
        "{e}"
    );
}

/// An `AnyPointer` or capability that is set has no JSON form: an error
/// naming the field, as in the reference.
#[test]
fn encode_refuses_any_pointer() {
    let loaded = all_types();
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b = DynamicStructBuilder::init_root(&mut msg, root.clone()).unwrap();
    b.set_by_name("textField", DynamicValue::Text("x")).unwrap();
    let ok = b.with_reader(|r| json::encode(&r, &JsonOptions::short()).unwrap());
    assert_eq!(ok.matches("textField").count(), 1);
    let capnarena_dynamic::DynamicValueBuilder::AnyPointer(p) = b.init_by_name("anyField").unwrap()
    else {
        panic!()
    };
    p.set_text("set").unwrap();
    let e = b
        .with_reader(|r| json::encode(&r, &JsonOptions::short()))
        .unwrap_err();
    assert!(
        matches!(&e, JsonError::Encode { context, .. } if context == "anyField"),
        "{e}"
    );
}

/// Annotations the reference refuses are refused when the codec is made:
/// flatten on a non-struct, base64 on a non-Data field, discriminator on
/// a plain field, two members with one JSON name, a flattening cycle.
#[test]
fn bad_annotations_refused() {
    let src = workspace().join("conformance/corpus/capnproto/c++/src");
    let cases: &[(&str, &str)] = &[
        (
            "struct S { a @0 :Text $Json.flatten(); }",
            "only struct types can be flattened",
        ),
        ("struct S { a @0 :Text $Json.base64; }", "only Data"),
        (
            "struct S { a @0 :Text; b @1 :Text $Json.name(\"a\"); }",
            "two members",
        ),
        (
            "struct S { a @0 :T $Json.flatten(); } struct T { s @0 :S $Json.flatten(); }",
            "cyclic",
        ),
        (
            "struct S { a @0 :E; } enum E { x @0; y @1 $Json.name(\"x\"); }",
            "two enumerants",
        ),
    ];
    for (body, want) in cases {
        let text = format!(
            "@0xd3bd7ff1e1ed8b6a;\nusing Json = import \"/capnp/compat/json.capnp\";\n{body}\n"
        );
        let loaded = LoadedSchema::compile(
            &Compiler::new()
                .import_path(&src)
                .source("/bad.capnp", text)
                .file("/bad.capnp"),
        )
        .unwrap_or_else(|e| panic!("{body}: {e}"));
        let schema = loaded.schema();
        let s = schema.find_struct("bad.capnp:S").unwrap();
        let e = JsonCodec::new(&s).unwrap_err();
        assert!(
            matches!(&e, JsonError::Annotation { message, .. } if message.contains(want)),
            "{body}: {e}"
        );
    }
}

/// Base64 and hex that do not decode are errors naming what is wrong,
/// placed at the character at fault (or at the string, for a length, or
/// when an escape comes before the fault and the decoded offset is not
/// the text's); their bytes decode, base64 padded or not, with line
/// breaks or bits past the data (as the reference reads it).
#[test]
fn bad_base64_and_hex_are_placed() {
    let src = workspace().join("conformance/corpus/capnproto/c++/src");
    let loaded = LoadedSchema::compile(
        &Compiler::new()
            .import_path(&src)
            .source(
                "/enc.capnp",
                "@0xd3bd7ff1e1ed8b6b;\nusing Json = import \"/capnp/compat/json.capnp\";\n\
                 struct S { b @0 :Data $Json.base64; h @1 :Data $Json.hex; }\n",
            )
            .file("/enc.capnp"),
    )
    .unwrap();
    let schema = loaded.schema();
    let s = schema.find_struct("enc.capnp:S").unwrap();
    let decode = |text: &str| {
        let mut msg = Message::new(SingleSegmentArena::new());
        let b = DynamicStructBuilder::init_root(&mut msg, s.clone()).unwrap();
        json::decode(text.as_bytes(), b, &JsonLimits::default())
    };
    for ok in [
        r#"{"b": "Zm9vYg==", "h": "0aFF"}"#,
        r#"{"b": "Zm9vYg"}"#,
        r#"{"b": "Zh=="}"#,
        r#"{"b": "Zm9v\nYg"}"#,
    ] {
        decode(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    for (text, col, want) in [
        (
            r#"{"b": "Zm9*"}"#,
            11,
            "b: character 4 of the base64 is '*'",
        ),
        (
            r#"{"b": "Zm9vY"}"#,
            7,
            "b: base64 of 5 characters (5 digits, 0 padding)",
        ),
        (
            r#"{"b": "Zg==Zg"}"#,
            12,
            "b: character 5 of the base64 is 'Z'",
        ),
        (
            r#"{"b": "\u005am9*"}"#,
            7,
            "b: character 4 of the base64 is '*'",
        ),
        (r#"{"h": "00 1"}"#, 10, "h: character 3 of the hex is ' '"),
        (r#"{"h": "abc"}"#, 7, "h: hex of odd length 3"),
    ] {
        let e = decode(text).unwrap_err();
        assert_eq!(at(&e), (1, col), "{text}: {e}");
        assert!(e.to_string().contains(want), "{text}: {e}");
    }
}

/// A type error in a value held until its union's tag (a `valueName`
/// value, a member of a flattened union member, given before the tag) is
/// placed at that value's own line and column, not at the object
/// holding it.
#[test]
fn held_value_errors_are_placed_at_the_value() {
    let src = workspace().join("conformance/corpus/capnproto/c++/src");
    let loaded = LoadedSchema::compile(
        &Compiler::new()
            .import_path(&src)
            .source(
                "/held.capnp",
                "@0xd3bd7ff1e1ed8b6c;\nusing Json = import \"/capnp/compat/json.capnp\";\n\
                 struct S $Json.discriminator(name = \"kind\", valueName = \"v\") {\n\
                   union { n @0 :UInt32; t @1 :Text; }\n}\n\
                 struct F $Json.discriminator(name = \"kind\") {\n\
                   union { a @0 :A $Json.flatten(); b @1 :Void; }\n}\n\
                 struct A { x @0 :UInt32; }\n",
            )
            .file("/held.capnp"),
    )
    .unwrap();
    let schema = loaded.schema();
    for (root, text, line, column, part) in [
        (
            "S",
            "{\"v\": \"x\",\n \"kind\": \"n\"}",
            1,
            7,
            "v: \"x\" is not an integer",
        ),
        ("S", "{\n  \"v\":\n    -1,\n  \"kind\": \"n\"}", 3, 5, "v: "),
        ("F", "{\"x\": [1], \"kind\": \"a\"}", 1, 7, "x: "),
    ] {
        let s = schema.find_struct(&format!("held.capnp:{root}")).unwrap();
        let mut msg = Message::new(SingleSegmentArena::new());
        let b = DynamicStructBuilder::init_root(&mut msg, s).unwrap();
        let e = json::decode(text.as_bytes(), b, &JsonLimits::default()).unwrap_err();
        assert_eq!(at(&e), (line, column), "{text}: {e}");
        assert!(e.to_string().contains(part), "{text}: {e}");
    }
}

const VALID: &str = r#"{"voidField": null, "boolField": true, "int8Field": -7, "int64Field": "123",
 "uint64Field": "0x10", "float32Field": "NaN", "float64Field": 1.5e3, "textField": "h\u00e9\n",
 "dataField": [0, 1, 255], "structField": {"textField": "x", "structField": {}},
 "enumField": "blue", "boolList": [true, false], "int64List": ["1", -2],
 "textList": ["a", ""], "structList": [{"label": "l", "point": {"x": 1, "y": 2}}],
 "enumList": ["red", 1], "listOfLists": [[1], [], [2, 3]], "choice": {"name": "n"},
 "group": {"a": 1, "b": "b"}}"#;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 2000 }))]

    /// Any bytes: an `Ok` or an error, never a panic; an error with a
    /// position points inside the input.
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Err(e) = decode_with(&bytes, &JsonLimits::default()) {
            if let Some(p) = e.position() {
                prop_assert!(p.offset <= bytes.len() && p.line >= 1 && p.column >= 1);
            }
        }
    }

    /// A valid document with bytes changed, cut or inserted: never a
    /// panic.
    #[test]
    fn mutated_documents_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6)
    ) {
        let mut bytes = VALID.as_bytes().to_vec();
        for (i, b, op) in edits {
            let at = i.index(bytes.len().max(1));
            match op {
                0 if !bytes.is_empty() => bytes[at] = b,
                1 => bytes.insert(at.min(bytes.len()), b),
                _ => bytes.truncate(at),
            }
        }
        if let Err(e) = decode_with(&bytes, &JsonLimits::default()) {
            if let Some(p) = e.position() {
                prop_assert!(p.offset <= bytes.len());
            }
        }
    }

    /// The serde deserializer (the generated path's reader) reads a
    /// mutated document as the decoder's parser does: it refuses it
    /// exactly when the decoder's error is about the text (syntax, UTF-8,
    /// nesting), with the same error at the same place.
    #[test]
    fn serde_reads_text_as_decoder(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6)
    ) {
        let mut bytes = VALID.as_bytes().to_vec();
        for (i, b, op) in edits {
            let at = i.index(bytes.len().max(1));
            match op {
                0 if !bytes.is_empty() => bytes[at] = b,
                1 => bytes.insert(at.min(bytes.len()), b),
                _ => bytes.truncate(at),
            }
        }
        let limits = JsonLimits::default();
        let decoded = decode_with(&bytes, &limits);
        let serde = json::from_slice::<serde::de::IgnoredAny>(&bytes, &limits);
        let about_text = |e: &json::JsonError| {
            matches!(e, json::JsonError::Syntax { .. } | json::JsonError::TooDeep { .. })
        };
        match (&decoded, &serde) {
            (Err(d), Err(s)) if about_text(d) => prop_assert_eq!(d.to_string(), s.to_string()),
            (Err(d), Ok(_)) => prop_assert!(!about_text(d), "{}", d),
            (_, Err(s)) => prop_assert!(false, "serde refuses what the decoder parses: {}", s),
            (Ok(()), Ok(_)) => {}
        }
    }
}

/// The document the mutation test starts from decodes.
#[test]
fn valid_document_decodes() {
    decode(VALID).unwrap();
}

/// A framed message that does not start on an 8-byte boundary (as a
/// command line tool may hold it) reads, from a copy, to the same JSON as
/// the aligned one, rather than failing on alignment.
#[test]
fn unaligned_framed_input() {
    let loaded = all_types();
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let framed = json::json_to_message(&root, VALID.as_bytes(), &JsonLimits::default()).unwrap();
    let options = capnarena::ReaderOptions::default();
    let aligned = json::message_to_json(&root, &framed, options, &JsonOptions::short()).unwrap();
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&framed);
    let unaligned =
        json::message_to_json(&root, &shifted[1..], options, &JsonOptions::short()).unwrap();
    assert_eq!(unaligned, aligned);
    assert!(aligned.contains(r#""textField":"hé\n""#), "{aligned}");
}

/// A stream of documents (whitespace between them, or none) reads one
/// document a call, positions counted from the start of the stream; a
/// document longer than the size limit is refused where it starts,
/// without reading the rest of the stream; bytes that are not UTF-8 are
/// refused where they are.
#[test]
fn document_stream() {
    thread_local! {
        static LOADED: &'static LoadedSchema = Box::leak(Box::new(all_types()));
    }
    let loaded: &'static LoadedSchema = LOADED.with(|l| *l);
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let codec = JsonCodec::new(&root).unwrap();
    let read_all = |stream: &[u8], limits: &JsonLimits| -> Result<Vec<i8>, JsonError> {
        let mut at = 0;
        let mut out = Vec::new();
        loop {
            let mut msg = Message::new(SingleSegmentArena::new());
            let b = DynamicStructBuilder::init_root(&mut msg, root.clone()).unwrap();
            match codec.decode_prefix(stream, at, b, limits)? {
                None => return Ok(out),
                Some(next) => {
                    assert!(next > at, "progress");
                    at = next;
                    let v = DynamicStructBuilder::get_root(&mut msg, root.clone())
                        .unwrap()
                        .with_reader(|r| match r.get_by_name("int8Field").unwrap() {
                            DynamicValue::Int8(v) => v,
                            other => panic!("{other:?}"),
                        });
                    out.push(v);
                }
            }
        }
    };
    let limits = JsonLimits::default();
    let stream = b"  {\"int8Field\": 1}{\"int8Field\": 2} \n\n {\"int8Field\": 3}\r\n\t";
    assert_eq!(read_all(stream, &limits).unwrap(), vec![1, 2, 3]);
    assert_eq!(read_all(b"", &limits).unwrap(), Vec::<i8>::new());
    assert_eq!(read_all(b" \n ", &limits).unwrap(), Vec::<i8>::new());

    let bad = b"{\"int8Field\": 1}\n{\"int8Field\":\n  300}\n{}";
    let e = read_all(bad, &limits).unwrap_err();
    assert!(matches!(e, JsonError::Value { .. }), "{e}");
    assert_eq!(at(&e), (3, 3));

    // Documents of 17 bytes under a limit of 20; then one of 34.
    let small = JsonLimits {
        max_input_bytes: 20,
        ..JsonLimits::default()
    };
    assert_eq!(
        read_all(b"{\"int8Field\": 1} {\"int8Field\": 2}", &small).unwrap(),
        vec![1, 2]
    );
    let long = b"{\"int8Field\": 1}\n {\"int8Field\": 2, \"int16Field\": 3}\n{}";
    let e = read_all(long, &small).unwrap_err();
    assert!(
        matches!(e, JsonError::DocumentTooLarge { limit: 20, .. }),
        "{e}"
    );
    assert_eq!(at(&e), (2, 2));
    // Cut inside a string, a number and a literal: the same error.
    for doc in [
        &b"{\"textField\": \"0123456789abcdef\"}"[..],
        b"{\"int64Field\": 12345678901234567}",
        b"{\"boolField\":      false}",
    ] {
        let mut stream = doc.to_vec();
        stream.extend_from_slice(b" {}");
        let e = read_all(&stream, &small).unwrap_err();
        assert!(
            matches!(e, JsonError::DocumentTooLarge { limit: 20, .. }),
            "{e}"
        );
    }

    let e = read_all(b"{}\n{\"textField\": \"ab\xffc\"}", &limits).unwrap_err();
    assert!(matches!(e, JsonError::Syntax { .. }), "{e}");
    assert_eq!(at(&e), (2, 18));
}

/// A flattened struct field, made when its first member is read, counts
/// against the message size limit (here: its struct is one word, the text
/// one more).
#[test]
fn flattened_struct_counts_against_message_limit() {
    let src = workspace().join("conformance/corpus/capnproto/c++/src");
    let loaded = LoadedSchema::compile(
        &Compiler::new()
            .src_prefix(&src)
            .import_path(&src)
            .file(src.join("capnp/compat/json-test.capnp")),
    )
    .unwrap();
    let schema = loaded.schema();
    let root = schema
        .find_struct("capnp/compat/json-test.capnp:TestJsonAnnotations3")
        .unwrap();
    let text = br#"{"type": "bar", "value": "v"}"#;
    let limit = |words: u64| JsonLimits {
        max_message_words: words,
        ..JsonLimits::default()
    };
    json::json_to_message(&root, text, &limit(2)).unwrap();
    let e = json::json_to_message(&root, text, &limit(1)).unwrap_err();
    assert!(
        matches!(e, JsonError::MessageTooLarge { limit: 1, .. }),
        "{e}"
    );
    assert_eq!(at(&e), (1, 26));
}

/// What the encoder writes, the decoder reads back: a `json.Value`
/// number that is not finite has no JSON form (the reference writes a
/// bare `inf`, which no JSON reader takes), so both writers refuse it
/// with an error naming the value; a finite one goes and comes back.
#[test]
fn non_finite_json_value_number_is_refused() {
    let src = workspace().join("conformance/corpus/capnproto/c++/src");
    let loaded = LoadedSchema::compile(
        &Compiler::new()
            .import_path(&src)
            .source(
                "/nf.capnp",
                "@0xd3bd7ff1e1ed8b6d;\nusing Json = import \"/capnp/compat/json.capnp\";\n\
                 struct W { v @0 :Json.Value; }\n",
            )
            .file("/nf.capnp"),
    )
    .unwrap();
    let schema = loaded.schema();
    let w = schema.find_struct("nf.capnp:W").unwrap();
    let encoded = |n: f64| {
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut b = DynamicStructBuilder::init_root(&mut msg, w.clone()).unwrap();
        let capnarena_dynamic::DynamicValueBuilder::Struct(mut v) = b.init_by_name("v").unwrap()
        else {
            panic!("v is a struct");
        };
        v.set_by_name("number", DynamicValue::Float64(n)).unwrap();
        let bytes = msg.framed_bytes().unwrap().to_vec();
        json::message_to_json(
            &w,
            &bytes,
            capnarena::ReaderOptions::default(),
            &JsonOptions::short(),
        )
    };
    for n in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e308 * 10.0] {
        let e = encoded(n).unwrap_err();
        assert!(
            matches!(&e, JsonError::Encode { message, .. } if message.contains("not finite")),
            "{n}: {e}"
        );
    }
    let text = encoded(1.5).unwrap();
    assert_eq!(text, r#"{"v":1.5}"#);
    let back = json::json_to_message(&w, text.as_bytes(), &JsonLimits::default()).unwrap();
    assert_eq!(
        json::message_to_json(
            &w,
            &back,
            capnarena::ReaderOptions::default(),
            &JsonOptions::short()
        )
        .unwrap(),
        text
    );

    /// A `json.Value` number as generated code hands it to a serializer.
    struct Number(f64);
    impl serde::Serialize for Number {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(capnarena::typed::value::serde_support::JSON_NUMBER, &self.0)
        }
    }
    let e = json::to_string(&Number(f64::INFINITY), &JsonOptions::short()).unwrap_err();
    assert!(e.to_string().contains("not finite"), "{e}");
    assert_eq!(
        json::to_string(&Number(2.0), &JsonOptions::short()).unwrap(),
        "2"
    );
}
