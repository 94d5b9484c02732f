//! The JSON codec against the reference's (`capnp convert`, version
//! 0.9.2, which applies the `/capnp/compat/json.capnp` annotations):
//! every test vector and the reference's own test data encode to its
//! bytes exactly, pretty and short, and its JSON decodes to its message
//! (compared in canonical form).
//!
//! Needs `capnp` on PATH: without it each test prints a SKIP line and
//! passes, unless `CAPNARENA_REQUIRE_PEER=1`, which makes it fail.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructReader};
use capnarena_compiler::Compiler;
use capnarena_dynamic::json::{self, JsonLimits, JsonOptions};
use capnarena_dynamic::{
    DynamicStructReader, DynamicValue, DynamicValueBuilder, LoadedSchema, StructSchema,
};
use common::{VECTORS, root_type, vector, vectors_dir, workspace};

const SKIP: &str = "SKIP reference tests: capnp not on PATH (install Debian package capnproto)";

/// The reference `capnp` on PATH, or the SKIP line (a failure under
/// `CAPNARENA_REQUIRE_PEER=1`).
fn peer() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("capnp"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        if std::env::var("CAPNARENA_REQUIRE_PEER").as_deref() == Ok("1") {
            panic!("{SKIP}");
        }
        println!("{SKIP}");
    }
    found
}

/// `capnp convert ARGS` run in `dir` with `input` on stdin: its stdout,
/// or its stderr when it fails.
fn convert(capnp: &Path, dir: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(capnp)
        .current_dir(dir)
        .arg("convert")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running capnp");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let data = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().expect("capnp output");
    let _ = feeder.join();
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// A schema file under `dir` (imports from `dir` too), compiled in
/// process.
fn load(dir: &Path, file: &str) -> LoadedSchema {
    LoadedSchema::compile(
        &Compiler::new()
            .src_prefix(dir)
            .import_path(dir)
            .file(dir.join(file)),
    )
    .expect("the schema compiles")
}

fn options() -> ReaderOptions {
    ReaderOptions::new().segment_limit(4096)
}

/// The canonical form of a framed message's root.
fn canonical(framed: &[u8]) -> Vec<u8> {
    let reader = MessageReader::from_bytes(framed, options()).expect("a framed message");
    let root: StructReader<'_> = reader.root().expect("a struct root");
    let mut out = Message::new(SingleSegmentArena::new());
    let words = out.set_root_canonical(&root).expect("canonicalizes");
    capnarena::Word::slice_as_bytes(words).to_vec()
}

/// One schema file and root type, as the reference tool is asked about.
struct Case<'a> {
    capnp: &'a Path,
    dir: &'a Path,
    file: &'a str,
    root: StructSchema<'a>,
    root_name: &'a str,
}

impl Case<'_> {
    fn args<'b>(&'b self, conversion: &'b str, short: bool) -> Vec<&'b str> {
        let mut a = vec![conversion];
        if short {
            a.push("--short");
        }
        a.extend(["-I.", self.file, self.root_name]);
        a
    }

    /// Our JSON of `framed` is the tool's, pretty and short; returns the
    /// tool's pretty and short texts.
    fn encodes_as_reference(&self, what: &str, framed: &[u8]) -> [Vec<u8>; 2] {
        [false, true].map(|short| {
            let theirs = convert(
                self.capnp,
                self.dir,
                &self.args("binary:json", short),
                framed,
            )
            .unwrap_or_else(|e| panic!("{what}: capnp convert binary:json failed: {e}"));
            let opts = if short {
                JsonOptions::short()
            } else {
                JsonOptions::pretty()
            };
            let ours = json::message_to_json(&self.root, framed, options(), &opts)
                .unwrap_or_else(|e| panic!("{what} (short: {short}): {e}"));
            let mut ours = ours.into_bytes();
            ours.push(b'\n');
            assert!(
                ours == theirs,
                "{what} (short: {short}):\nours:\n{}\nthe reference's:\n{}",
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs)
            );
            theirs
        })
    }

    /// `text` decoded by us is the message the tool's `json:binary`
    /// writes for it (canonical forms equal).
    fn decodes_as_reference(&self, what: &str, text: &[u8]) {
        let theirs = convert(self.capnp, self.dir, &self.args("json:binary", false), text)
            .unwrap_or_else(|e| panic!("{what}: capnp convert json:binary failed: {e}"));
        let ours = json::json_to_message(&self.root, text, &JsonLimits::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let (ours, theirs) = (canonical(&ours), canonical(&theirs));
        if ours != theirs {
            let at = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
            panic!(
                "{what}: decoded message differs from the reference's at byte {at} of {} / {}: ours {:?}, the reference's {:?}",
                ours.len(),
                theirs.len(),
                &ours[at..(at + 16).min(ours.len())],
                &theirs[at..(at + 16).min(theirs.len())]
            );
        }
    }
}

/// Every test vector, in every framing, encodes to the reference's JSON
/// byte for byte (pretty and short), and the reference's JSON of it
/// decodes to the reference's message.
#[test]
fn vectors_match_reference() {
    let Some(capnp) = peer() else { return };
    let dir = vectors_dir();
    let loaded = load(&dir, "all_types.capnp");
    let schema = loaded.schema();
    for name in VECTORS {
        let root_name = root_type(name);
        let case = Case {
            capnp: &capnp,
            dir: &dir,
            file: "all_types.capnp",
            root: schema
                .find_struct(&format!("all_types.capnp:{root_name}"))
                .unwrap(),
            root_name,
        };
        let [pretty, short] = case.encodes_as_reference(name, &vector(&format!("{name}.bin")));
        // The same message on many segments (more than the tool reads,
        // for log): the same JSON.
        for framing in ["seg1.bin", "seg3.bin", "seg16.bin"] {
            let framed = vector(&format!("{name}.{framing}"));
            for (opts, theirs) in [
                (JsonOptions::pretty(), &pretty),
                (JsonOptions::short(), &short),
            ] {
                let mut ours = json::message_to_json(&case.root, &framed, options(), &opts)
                    .unwrap_or_else(|e| panic!("{name}.{framing}: {e}"))
                    .into_bytes();
                ours.push(b'\n');
                assert!(&ours == theirs, "{name}.{framing}");
            }
        }
        case.decodes_as_reference(&format!("{name} (pretty)"), &pretty);
        case.decodes_as_reference(&format!("{name} (short)"), &short);
    }
}

/// `c++/src/capnp` of the reference (tag v0.9.2) as the conformance
/// corpus holds it: test.capnp, compat/json-test.capnp, testdata/.
fn reference_src() -> PathBuf {
    workspace().join("conformance/corpus/capnproto/c++/src")
}

/// The reference's test data for `TestAllTypes` (one and many segments,
/// flat, packed) and `TestLists` encode as the reference does; its own
/// `pretty.json` and `short.json` decode to its message.
#[test]
fn reference_testdata_matches() {
    let Some(capnp) = peer() else { return };
    let src = reference_src();
    let dir = src.as_path();
    let loaded = load(dir, "capnp/test.capnp");
    let schema = loaded.schema();
    let testdata = |f: &str| std::fs::read(src.join("capnp/testdata").join(f)).unwrap();
    for (file, root_name) in [
        ("binary", "TestAllTypes"),
        ("segmented", "TestAllTypes"),
        ("lists.binary", "TestLists"),
    ] {
        let case = Case {
            capnp: &capnp,
            dir,
            file: "capnp/test.capnp",
            root: schema
                .find_struct(&format!("capnp/test.capnp:{root_name}"))
                .unwrap(),
            root_name,
        };
        let [pretty, short] = case.encodes_as_reference(file, &testdata(file));
        case.decodes_as_reference(&format!("{file} (pretty)"), &pretty);
        case.decodes_as_reference(&format!("{file} (short)"), &short);
        if file == "binary" {
            assert_eq!(pretty, testdata("pretty.json"));
            assert_eq!(short, testdata("short.json"));
        }
    }
    // The same TestAllTypes message in the other framings (the tool's
    // flat:json, packed:json, flat-packed:json of them are pretty.json):
    // read by capnarena, encoded to the same text.
    let root = schema.find_struct("capnp/test.capnp:TestAllTypes").unwrap();
    let unpack = |f: &str| {
        let mut words = Vec::new();
        capnarena::serialize::packed::unpack_to_vec(&testdata(f), &mut words, 1 << 20).unwrap();
        words
    };
    for (file, words, framed) in [
        (
            "flat",
            capnarena::words_from_bytes(&testdata("flat")).unwrap(),
            false,
        ),
        ("packedflat", unpack("packedflat"), false),
        ("packed", unpack("packed"), true),
        ("segmented-packed", unpack("segmented-packed"), true),
    ] {
        let segments = [words.as_slice()];
        let reader = if framed {
            MessageReader::from_words(&words, options()).unwrap()
        } else {
            MessageReader::from_segments(&segments, options()).unwrap()
        };
        let value = DynamicStructReader::root(&reader, root.clone()).unwrap();
        for (opts, want) in [
            (JsonOptions::pretty(), "pretty.json"),
            (JsonOptions::short(), "short.json"),
        ] {
            let mut ours = json::encode(&value, &opts).unwrap().into_bytes();
            ours.push(b'\n');
            assert!(ours == testdata(want), "{file}: not {want}");
        }
    }
}

/// The reference's annotation test (`compat/json-test.capnp`: `name`,
/// `flatten` with and without prefix, `discriminator` with `name` and
/// `valueName`, flattened union members, `base64`, `hex`, annotated
/// enumerants, a `json.Value` field): its `annotated-json.binary`
/// encodes to the reference's JSON and `annotated.json` decodes to its
/// message; so do the other shapes the schema allows, written here as
/// JSON and checked through the reference both ways.
#[test]
fn reference_annotations_match() {
    let Some(capnp) = peer() else { return };
    let src = reference_src();
    let dir = src.as_path();
    let loaded = load(dir, "capnp/compat/json-test.capnp");
    let schema = loaded.schema();
    let case = |root_name: &'static str| Case {
        capnp: &capnp,
        dir,
        file: "capnp/compat/json-test.capnp",
        root: schema
            .find_struct(&format!("capnp/compat/json-test.capnp:{root_name}"))
            .unwrap(),
        root_name,
    };
    let main = case("TestJsonAnnotations");
    let binary = std::fs::read(src.join("capnp/testdata/annotated-json.binary")).unwrap();
    let [pretty, short] = main.encodes_as_reference("annotated-json.binary", &binary);
    assert_eq!(
        pretty,
        std::fs::read(src.join("capnp/testdata/annotated.json")).unwrap()
    );
    main.decodes_as_reference("annotated.json (pretty)", &pretty);
    main.decodes_as_reference("annotated.json (short)", &short);

    // Other shapes, each: the reference's message of the JSON, encoded
    // by both, and the JSON decoded by both.
    let shapes: &[(&str, &str)] = &[
        (
            "TestJsonAnnotations",
            r#"{"union-type": "foo", "fooMember": "x", "multiMember": 5,
            "bUnion": "foo", "bValue": "text", "unionWithVoid": {"type": "intValue", "intValue": 9},
            "externalUnion": {"type": "foo", "foo": 77}, "testBase64": "", "testHex": "00ff10",
            "innerJson": {"a": [null, true, false, 1.5, "s", {}], "b": -0.25},
            "enums": ["foo", "renamed-baz", "qux"]}"#,
        ),
        // Flattened union members before their tag: read after it.
        (
            "TestJsonAnnotations",
            r#"{"barMember": 1, "multiMember": "late", "bValue": 3,
            "union-type": "renamed-bar", "bUnion": "renamed-bar",
            "unionWithVoid": {"textValue": "t", "type": "textValue"}}"#,
        ),
        (
            "TestJsonAnnotations",
            r#"{"pfx.baz": {"hello": false}, "renamed-flatBaz": {},
            "simpleGroup": {}, "dependency": {"cycle": {"dependency": {"renamed-foo": "deep"}}},
            "unknown": [1, {"x": null}], "innerJson": "just a string"}"#,
        ),
        (
            "TestJsonAnnotations",
            r#"{"testBase64": "AAECAwQ=", "innerJson": [[[]], {"k": {"k": 1e300}}]}"#,
        ),
        ("TestJsonAnnotations3", r#"{"type": "bar", "value": "v"}"#),
        (
            "TestJsonAnnotations3",
            r#"{"type": "foo", "foo": 4294967295}"#,
        ),
        ("TestBase64Union", r#"{"foo": "aGVsbG8gd29ybGQ="}"#),
        ("TestBase64Union", r#"{"bar": "text"}"#),
    ];
    for (i, (root_name, text)) in shapes.iter().enumerate() {
        let c = case(root_name);
        let what = format!("shape {i} ({root_name})");
        c.decodes_as_reference(&what, text.as_bytes());
        let message = convert(&capnp, dir, &c.args("json:binary", false), text.as_bytes())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        c.encodes_as_reference(&what, &message);
    }
}

/// Floats are written as the reference writes them (`%.15g`, or `%.17g`
/// when 15 digits do not read back; NaN and infinities as strings), for
/// thousands of bit patterns of every class; integers at the edges of
/// their ranges too; text with every ASCII control character and
/// non-ASCII characters is escaped as the reference escapes it.
#[test]
fn numbers_and_strings_match_reference() {
    let Some(capnp) = peer() else { return };
    let dir = vectors_dir();
    let loaded = load(&dir, "all_types.capnp");
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    // A deterministic spread of bit patterns: random, and near powers of
    // ten, subnormals, integers.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut f64s: Vec<f64> = (0..1500).map(|_| f64::from_bits(next())).collect();
    for e in -30..30 {
        let p = 10f64.powi(e);
        f64s.extend([
            p,
            -p,
            p * 1.5,
            f64::from_bits(p.to_bits() + 1),
            f64::from_bits(p.to_bits() - 1),
        ]);
    }
    f64s.extend([
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e15,
        1e16,
        1e17,
        123456789012345680.0,
        0.1,
        0.2,
        0.3,
    ]);
    let f32s: Vec<f32> = (0..1500)
        .map(|_| f32::from_bits(next() as u32))
        .chain([0.1f32, 1e-45, 3.4e38, 16777216.0])
        .collect();
    let text: String = (1u8..0x80)
        .map(char::from)
        .chain("é€😀\u{7ff}".chars())
        .collect();
    let build = |text: &str| -> Vec<u8> {
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut b =
            capnarena_dynamic::DynamicStructBuilder::init_root(&mut msg, root.clone()).unwrap();
        let DynamicValueBuilder::List(mut l) = b
            .init_list_by_name("float64List", f64s.len() as u32)
            .unwrap()
        else {
            panic!()
        };
        for (i, v) in f64s.iter().enumerate() {
            l.set(i as u32, DynamicValue::Float64(*v)).unwrap();
        }
        let DynamicValueBuilder::List(mut l) = b
            .init_list_by_name("float32List", f32s.len() as u32)
            .unwrap()
        else {
            panic!()
        };
        for (i, v) in f32s.iter().enumerate() {
            l.set(i as u32, DynamicValue::Float32(*v)).unwrap();
        }
        let ints: [i64; 6] = [i64::MIN, i64::MAX, -1, 0, 1 << 53, (1 << 53) + 1];
        let DynamicValueBuilder::List(mut l) = b.init_list_by_name("int64List", 6).unwrap() else {
            panic!()
        };
        for (i, v) in ints.iter().enumerate() {
            l.set(i as u32, DynamicValue::Int64(*v)).unwrap();
        }
        b.set_by_name("textField", DynamicValue::Text(text))
            .unwrap();
        b.set_by_name("uint32Field", DynamicValue::UInt32(u32::MAX))
            .unwrap();
        b.set_by_name("int32Field", DynamicValue::Int32(i32::MIN))
            .unwrap();
        b.set_by_name("float32Field", DynamicValue::Float32(f32::NAN))
            .unwrap();
        b.set_by_name("float64Field", DynamicValue::Float64(f64::NEG_INFINITY))
            .unwrap();
        let mut framed = Vec::new();
        msg.append_to(&mut framed);
        framed
    };
    let case = Case {
        capnp: &capnp,
        dir: &dir,
        file: "all_types.capnp",
        root: root.clone(),
        root_name: "AllTypes",
    };
    case.encodes_as_reference("numbers and text", &build(&text));
    // The reference misreads its own escapes of 0x0b, 0x0e, 0x0f and
    // 0x1a-0x1f (hex letters in `\u` escapes), so those stay out of the
    // text decoded by both.
    let readable: String = text
        .chars()
        .filter(|c| !matches!(*c as u32, 0x0b | 0x0e | 0x0f | 0x1a..=0x1f))
        .collect();
    let [pretty, short] = case.encodes_as_reference("numbers", &build(&readable));
    case.decodes_as_reference("numbers (pretty)", &pretty);
    case.decodes_as_reference("numbers (short)", &short);
    // Escapes the reference reads the same way as JSON does (no hex
    // letters: its parser reads `a`-`f` in `\u` escapes as 0-5).
    let escaped =
        r#"{"textField": "a\"b\\c\/d\b\f\n\r\t\u0001\u0019\u0041\u00e9x", "float32Field": null}"#;
    let ours =
        json::json_to_message(&case.root, escaped.as_bytes(), &JsonLimits::default()).unwrap();
    let reader = MessageReader::from_bytes(&ours, options()).unwrap();
    let r = DynamicStructReader::root(&reader, case.root.clone()).unwrap();
    assert!(
        matches!(
            r.get_by_name("textField").unwrap(),
            DynamicValue::Text("a\"b\\c/d\u{8}\u{c}\n\r\t\u{1}\u{19}Aéx")
        ),
        "escapes decode as JSON says"
    );
    case.decodes_as_reference("escapes without hex letters", br#"{"textField": "a\"b\\c\/d\b\f\n\r\t\u0001\u0019\u0041x", "float32Field": null, "float64Field": "-Infinity", "int64Field": "-0x10", "uint8Field": "0x1F", "int8Field": -1e2, "enumField": 2}"#);
}

/// The annotations the reference refuses (it fails before reading any
/// input) are refused by the codec too, each with its reason.
#[test]
fn bad_annotations_refused_as_by_reference() {
    let Some(capnp) = peer() else { return };
    let src = reference_src();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("json-bad-annotations");
    std::fs::create_dir_all(&dir).unwrap();
    let cases: &[(&str, &str)] = &[
        (
            "struct S { a @0 :Text $Json.flatten(); }",
            "only struct types can be flattened",
        ),
        ("struct S { a @0 :Text $Json.base64; }", "only Data"),
        ("struct S { a @0 :Text $Json.hex; }", "only Data"),
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
        (
            "struct S { u :union $Json.discriminator(name = \"b\") $Json.flatten() { a @0 :Void; b @1 :Text; } }",
            "two members",
        ),
        (
            "struct S { a @0 :T $Json.flatten(); b @1 :T $Json.flatten(); } struct T { x @0 :Text; }",
            "not mutually exclusive",
        ),
    ];
    for (i, (body, want)) in cases.iter().enumerate() {
        let file = format!("bad{i}.capnp");
        std::fs::write(
            dir.join(&file),
            format!(
                "@0xd3bd7ff1e1ed8b6a;\nusing Json = import \"/capnp/compat/json.capnp\";\n{body}\n"
            ),
        )
        .unwrap();
        let include = format!("-I{}", src.display());
        let refused = convert(&capnp, &dir, &["json:binary", &include, &file, "S"], b"{}");
        assert!(refused.is_err(), "{body}: the reference accepts it");
        let loaded = LoadedSchema::compile(
            &Compiler::new()
                .src_prefix(&dir)
                .import_path(&src)
                .file(dir.join(&file)),
        )
        .unwrap();
        let schema = loaded.schema();
        let s = schema.find_struct(&format!("{file}:S")).unwrap();
        match json::JsonCodec::new(&s) {
            Err(json::JsonError::Annotation { message, .. }) if message.contains(want) => {}
            other => panic!("{body}: expected an annotation error with {want:?}, got {other:?}"),
        }
    }
}

/// Values the reference reads loosely but the same way as this codec:
/// integers in strings (signs, hex), numbers with exponents for integer
/// fields, floats from strings and `null`, enum numbers, a member given
/// twice (the last wins, a struct rebuilt), union members given after
/// one another, unknown members at any depth, escapes, whitespace of
/// every kind.
#[test]
fn loose_values_read_as_reference() {
    let Some(capnp) = peer() else { return };
    let dir = vectors_dir();
    let loaded = load(&dir, "all_types.capnp");
    let schema = loaded.schema();
    let case = Case {
        capnp: &capnp,
        dir: &dir,
        file: "all_types.capnp",
        root: schema.find_struct("all_types.capnp:AllTypes").unwrap(),
        root_name: "AllTypes",
    };
    let docs: &[&str] = &[
        r#"{"int8Field": "-128", "int16Field": "+12", "int32Field": "0x7fffffff", "int64Field": "-0X10",
            "uint8Field": "0xff", "uint16Field": 6.5e4, "uint32Field": 4294967295, "uint64Field": 1e19,
            "float32Field": "1e-3", "float64Field": null, "enumField": 1, "enumList": [2, "red", 0]}"#,
        r#"{"float32Field": 3.4028235677973366e38, "float64Field": "-0", "int64Field": -9007199254740992,
            "uint64Field": "18446744073709551615", "int32List": [-0, 1E2, 2e+1, 30e-1]}"#,
        r#"{"structField": {"int8Field": 1, "textField": "a"}, "structField": {"int16Field": 2},
            "textField": "first", "textField": "second", "int32List": [1], "int32List": []}"#,
        r#"{"choice": {"count": 5, "name": "later"}, "group": {"a": 1}, "group": {"b": "only b"}}"#,
        r#"{"choice": {"point": {"x": 1}}, "structList": [{"label": "l", "unknown": {"deep": [1, {"x": null}]}},
            {"point": {"y": -1}, "weight": "Infinity"}], "listOfLists": [[1, 2], [], [3]]}"#,
        "{\t\"textField\" :\r\n \"tab\\tquote\\\"slash\\/back\\\\\" ,\n\"dataField\":[ 0 , 255 ]\r}",
        r#"{"voidList": [null, null], "boolList": [false], "dataList": [[1], [], [2, 3]], "textList": ["é€", "😀"],
            "uint64List": ["0", "1"], "int64List": ["-1", 2], "float32List": [0.1, "NaN", null, "-Infinity"]}"#,
    ];
    for (i, doc) in docs.iter().enumerate() {
        case.decodes_as_reference(&format!("document {i}"), doc.as_bytes());
    }
}

/// A `json.Value` holding a call (`f(1, "x")`, which only a message can
/// hold; JSON text has no calls), short and pretty, with parameters long
/// enough to go one a line, is written as the reference writes it.
#[test]
fn json_value_call_matches_reference() {
    let Some(capnp) = peer() else { return };
    let src = reference_src();
    let dir = src.as_path();
    let loaded = load(dir, "capnp/compat/json-test.capnp");
    let schema = loaded.schema();
    let root = schema
        .find_struct("capnp/compat/json-test.capnp:TestJsonAnnotations")
        .unwrap();
    let case = Case {
        capnp: &capnp,
        dir,
        file: "capnp/compat/json-test.capnp",
        root: root.clone(),
        root_name: "TestJsonAnnotations",
    };
    for params in [
        vec!["1", "x"],
        vec!["a long parameter, longer than fifty bytes of text", "b"],
    ] {
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut b =
            capnarena_dynamic::DynamicStructBuilder::init_root(&mut msg, root.clone()).unwrap();
        let DynamicValueBuilder::Struct(mut value) = b.init_by_name("innerJson").unwrap() else {
            panic!("innerJson is a struct")
        };
        let DynamicValueBuilder::Struct(mut call) = value.init_by_name("call").unwrap() else {
            panic!("call is a struct")
        };
        call.set_by_name("function", DynamicValue::Text("BinData"))
            .unwrap();
        let DynamicValueBuilder::List(mut list) = call
            .init_list_by_name("params", params.len() as u32)
            .unwrap()
        else {
            panic!("params is a list")
        };
        for (i, p) in params.iter().enumerate() {
            let DynamicValueBuilder::Struct(mut v) = list.get(i as u32).unwrap() else {
                panic!("a Value")
            };
            match p.parse::<f64>() {
                Ok(n) => v.set_by_name("number", DynamicValue::Float64(n)).unwrap(),
                Err(_) => v.set_by_name("string", DynamicValue::Text(p)).unwrap(),
            }
        }
        let mut framed = Vec::new();
        msg.append_to(&mut framed);
        case.encodes_as_reference("a json.Value call", &framed);
    }
}
