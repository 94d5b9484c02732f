//! The reference's own JSON test data through generated code: the
//! messages of `capnp/testdata/` (`binary`, `segmented`, `flat`, `packed`,
//! `packedflat`, `segmented-packed`, `lists.binary`), read into the owned
//! `Value` and the borrowed `ValueRef` of the reference's `test.capnp`
//! generated with serde impls, are written by `capnarena_dynamic::json`
//! (pretty and short) byte for byte as the reference writes them (its
//! `pretty.json` and `short.json`, or `capnp convert binary:json` where
//! testdata has no JSON; serde_json too, up to how it spells some floats:
//! `0.0` for `0`), and the reference's JSON
//! read back through the generated `Deserialize` (by both deserializers)
//! builds the testdata's message (compared in canonical form).

use std::path::{Path, PathBuf};

use capnarena::serde::Serialize;
use capnarena::typed::value::ReadStruct;
use capnarena::{
    Message, MessageReader, ReaderOptions, SingleSegmentArena, StructReader, Word, words_from_bytes,
};
use capnarena_conformance::reference_serde::test_capnp::{test_all_types, test_lists};
use capnarena_dynamic::json::{self, JsonLimits, JsonOptions, JsonSerializer};

#[path = "../../tests/common/peer.rs"]
mod peer;

#[path = "common/json_numbers.rs"]
mod json_numbers;
use json_numbers::same_json;

/// The reference's schema directory (`-I` and source prefix).
fn reference_src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/capnproto/c++/src")
}

fn testdata(file: &str) -> Vec<u8> {
    let path = reference_src().join("capnp/testdata").join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The words of a packed testdata file.
fn unpacked(file: &str) -> Vec<Word> {
    let mut words = Vec::new();
    capnarena::serialize::packed::unpack_to_vec(&testdata(file), &mut words, 1 << 20)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    words
}

/// The testdata message `file` as words, and whether they are framed
/// (`flat` and `packedflat` are one bare segment).
fn message_words(file: &str) -> (Vec<Word>, bool) {
    match file {
        "flat" => (words_from_bytes(&testdata(file)).unwrap(), false),
        "packedflat" => (unpacked(file), false),
        "packed" | "segmented-packed" => (unpacked(file), true),
        _ => (words_from_bytes(&testdata(file)).unwrap(), true),
    }
}

/// The canonical form of a message's struct root.
fn canonical(reader: &MessageReader<'_>) -> Vec<u8> {
    let root: StructReader<'_> = reader.root().expect("a struct root");
    let mut out = Message::new(SingleSegmentArena::new());
    let canonical = out.set_root_canonical(&root).expect("canonicalizes");
    Word::slice_as_bytes(canonical).to_vec()
}

/// The canonical form of testdata message `file`.
fn testdata_canonical(file: &str) -> Vec<u8> {
    let (words, framed) = message_words(file);
    let segments = [words.as_slice()];
    let reader = if framed {
        MessageReader::from_words(&words, ReaderOptions::default()).unwrap()
    } else {
        MessageReader::from_segments(&segments, ReaderOptions::default()).unwrap()
    };
    canonical(&reader)
}

/// `capnp convert [--short] binary:json capnp/test.capnp ROOT` of
/// `bytes` (its output, with the newline the tool ends it with).
fn reference_json(capnp: &Path, root: &str, short: bool, bytes: &[u8]) -> String {
    let mut args = vec!["convert"];
    if short {
        args.push("--short");
    }
    args.extend(["binary:json", "capnp/test.capnp", root]);
    let out = peer::run(capnp, &reference_src(), &args, bytes).unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8(out).expect("capnp's JSON is UTF-8")
}

/// A generated root type with owned and borrowed values and their serde
/// impls: what each check needs of it.
trait Root {
    type Value: for<'a> ReadStruct<'a>
        + Serialize
        + capnarena::serde::de::DeserializeOwned
        + PartialEq;
    /// The schema's name of the type.
    const NAME: &'static str;
    /// The borrowed value's text, by `write`.
    fn borrowed_text(reader: &MessageReader<'_>, write: &dyn Fn(&dyn Erased) -> String) -> String;
    fn build(value: &Self::Value, message: &mut Message<SingleSegmentArena>);
}

/// A `Serialize` value the writers below take by reference.
trait Erased {
    fn json(&self, options: &JsonOptions) -> String;
    fn json_by_serializer(&self, options: &JsonOptions) -> String;
    fn serde_json(&self) -> String;
}

impl<T: Serialize> Erased for T {
    fn json(&self, options: &JsonOptions) -> String {
        json::to_string(self, options).expect("serializes")
    }
    fn json_by_serializer(&self, options: &JsonOptions) -> String {
        let mut serializer = JsonSerializer::new(options);
        self.serialize(&mut serializer).expect("serializes");
        serializer.into_string()
    }
    fn serde_json(&self) -> String {
        serde_json::to_string(self).expect("serializes")
    }
}

struct AllTypes;
impl Root for AllTypes {
    type Value = test_all_types::Value;
    const NAME: &'static str = "TestAllTypes";
    fn borrowed_text(reader: &MessageReader<'_>, write: &dyn Fn(&dyn Erased) -> String) -> String {
        write(&test_all_types::ValueRef::read_struct(reader.root().unwrap()).unwrap())
    }
    fn build(value: &Self::Value, message: &mut Message<SingleSegmentArena>) {
        value.build_root(message).expect("builds");
    }
}

struct Lists;
impl Root for Lists {
    type Value = test_lists::Value;
    const NAME: &'static str = "TestLists";
    fn borrowed_text(reader: &MessageReader<'_>, write: &dyn Fn(&dyn Erased) -> String) -> String {
        write(&test_lists::ValueRef::read_struct(reader.root().unwrap()).unwrap())
    }
    fn build(value: &Self::Value, message: &mut Message<SingleSegmentArena>) {
        value.build_root(message).expect("builds");
    }
}

/// Testdata message `file` (root `R`) written through the generated path
/// (owned and borrowed; `to_string`, `JsonSerializer` and, short only,
/// serde_json) equals `pretty` and `short` (the reference's text, each
/// with the tool's trailing newline).
fn encodes_as<R: Root>(file: &str, pretty: &str, short: &str) {
    let (words, framed) = message_words(file);
    let segments = [words.as_slice()];
    let reader = if framed {
        MessageReader::from_words(&words, ReaderOptions::default()).unwrap()
    } else {
        MessageReader::from_segments(&segments, ReaderOptions::default()).unwrap()
    };
    let owned = R::Value::read_struct(reader.root().unwrap()).expect("reads");
    for (options, want) in [
        (JsonOptions::pretty(), pretty),
        (JsonOptions::short(), short),
    ] {
        let want = want.strip_suffix('\n').expect("the tool's newline");
        let kind = if options.pretty { "pretty" } else { "short" };
        assert_eq!(
            owned.json(&options),
            want,
            "{file} ({kind}): to_string, owned"
        );
        assert_eq!(
            owned.json_by_serializer(&options),
            want,
            "{file} ({kind}): JsonSerializer, owned"
        );
        assert_eq!(
            R::borrowed_text(&reader, &|v| v.json(&options)),
            want,
            "{file} ({kind}): to_string, borrowed"
        );
        assert_eq!(
            R::borrowed_text(&reader, &|v| v.json_by_serializer(&options)),
            want,
            "{file} ({kind}): JsonSerializer, borrowed"
        );
        if !options.pretty {
            // serde_json spells some floats its own way (`0.0`, `-1.23e+47`):
            // the same doubles, all else byte for byte.
            same_json(&format!("{file}, owned"), want, &owned.serde_json());
            let borrowed = R::borrowed_text(&reader, &|v| v.serde_json());
            same_json(&format!("{file}, borrowed"), want, &borrowed);
        }
    }
}

/// The reference's JSON `text` read through the generated `Deserialize`
/// (by `json::from_str` and by serde_json) builds a message whose
/// canonical form is `want`.
fn decodes_as<R: Root>(what: &str, text: &str, want: &[u8]) {
    let by_json: R::Value = json::from_str(text, &JsonLimits::default())
        .unwrap_or_else(|e| panic!("{what}: json::from_str: {e}"));
    let by_serde_json: R::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: serde_json: {e}"));
    // Compared as messages: the values hold NaNs, unequal to themselves.
    for (by, value) in [("json::from_str", &by_json), ("serde_json", &by_serde_json)] {
        let mut message = Message::new(SingleSegmentArena::new());
        R::build(value, &mut message);
        let bytes = message.framed_bytes().expect("one segment").to_vec();
        let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
        assert!(
            canonical(&reader) == want,
            "{what} by {by}: not the testdata's message"
        );
    }
}

/// The `TestAllTypes` message, in every framing testdata holds, is written
/// through the generated path as the reference's `pretty.json` and
/// `short.json`, which the generated path reads back as that message.
#[test]
fn testdata_all_types_through_generated_serde() {
    let pretty = String::from_utf8(testdata("pretty.json")).unwrap();
    let short = String::from_utf8(testdata("short.json")).unwrap();
    for file in [
        "binary",
        "segmented",
        "flat",
        "packed",
        "packedflat",
        "segmented-packed",
    ] {
        encodes_as::<AllTypes>(file, &pretty, &short);
    }
    let want = testdata_canonical("binary");
    for file in [
        "segmented",
        "flat",
        "packed",
        "packedflat",
        "segmented-packed",
    ] {
        assert!(testdata_canonical(file) == want, "{file}: another message");
    }
    decodes_as::<AllTypes>("pretty.json", &pretty, &want);
    decodes_as::<AllTypes>("short.json", &short, &want);
}

/// `lists.binary` (`TestLists`, which testdata has no JSON of) is written
/// through the generated path as `capnp convert binary:json` writes it,
/// pretty and short, and that JSON reads back as the message.
#[test]
fn testdata_lists_through_generated_serde() {
    let Some(capnp) = peer::peer() else { return };
    let bytes = testdata("lists.binary");
    let pretty = reference_json(&capnp, Lists::NAME, false, &bytes);
    let short = reference_json(&capnp, Lists::NAME, true, &bytes);
    encodes_as::<Lists>("lists.binary", &pretty, &short);
    let want = testdata_canonical("lists.binary");
    decodes_as::<Lists>("lists.binary (pretty)", &pretty, &want);
    decodes_as::<Lists>("lists.binary (short)", &short, &want);
}

/// The reference's own JSON of `TestAllTypes` from `capnp convert`
/// (not only the files in testdata, which it may have written with
/// another version) is the generated path's, for `binary` and
/// `segmented`.
#[test]
fn testdata_all_types_matches_the_tool() {
    let Some(capnp) = peer::peer() else { return };
    for file in ["binary", "segmented"] {
        let bytes = testdata(file);
        let pretty = reference_json(&capnp, AllTypes::NAME, false, &bytes);
        let short = reference_json(&capnp, AllTypes::NAME, true, &bytes);
        encodes_as::<AllTypes>(file, &pretty, &short);
    }
}

/// `annotated-json.binary` (`compat/json-test.capnp`'s
/// `TestJsonAnnotations`, every JSON annotation and a `Json.Value` field
/// holding nested arrays and objects) through generated code is the
/// reference's `annotated.json`, from the owned and the borrowed value,
/// and `annotated.json` read through the generated `Deserialize` builds
/// the message. (The generator refused the `Json.Value` field before,
/// which the reference writes as the JSON value it holds.)
#[test]
fn testdata_annotated_json_through_generated_serde() {
    use capnarena_conformance::reference_serde::json_test_capnp::test_json_annotations;
    let bytes = testdata("annotated-json.binary");
    let pretty = String::from_utf8(testdata("annotated.json")).unwrap();
    let words = words_from_bytes(&bytes).unwrap();
    let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    let owned = test_json_annotations::Value::read_struct(reader.root().unwrap()).unwrap();
    let borrowed = test_json_annotations::ValueRef::read_struct(reader.root().unwrap()).unwrap();
    let want = pretty.strip_suffix('\n').unwrap();
    assert_eq!(owned.json(&JsonOptions::pretty()), want);
    assert_eq!(borrowed.json(&JsonOptions::pretty()), want);
    let read: test_json_annotations::Value =
        json::from_str(&pretty, &JsonLimits::default()).unwrap();
    let mut message = Message::new(SingleSegmentArena::new());
    read.build_root(&mut message).unwrap();
    let built = message.framed_bytes().unwrap().to_vec();
    let built = MessageReader::from_bytes(&built, ReaderOptions::default()).unwrap();
    assert!(canonical(&built) == canonical(&reader));
}
