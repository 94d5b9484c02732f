//! The text format both ways, against the reference's own text and
//! messages (no `capnp` tool needed: its outputs are checked in):
//!
//! - Printing: each vector of `tests/vectors` prints as the reference
//!   printed it (`NAME.expected`, `capnp convert binary:text`), and the
//!   reference's `testdata/binary` as its `pretty.txt` and `short.txt`.
//! - Parsing: each text the reference read to make a vector (`NAME.txt`,
//!   and `pretty.txt` / `short.txt`) builds the message whose canonical
//!   form is the reference's (`NAME.canonical`; the canonical form of
//!   `testdata/binary`).
//! - Bad text is an error with its line, column and the reference's
//!   wording; limits hold; no input panics.

mod common;

use capnarena::{Message, MessageReader, SingleSegmentArena, Word};
use capnarena_dynamic::text::{self, MAX_TEXT_DEPTH, TextError};
use capnarena_dynamic::{DynamicStructBuilder, DynamicStructReader, LoadedSchema, StructSchema};
use common::*;
use proptest::prelude::*;

/// `conformance/corpus/capnproto/c++/src/capnp/testdata/NAME`: files of
/// the reference (capnproto/capnproto v0.9.2, MIT; provenance in
/// `conformance/corpus/PROVENANCE.md`).
fn testdata(name: &str) -> Vec<u8> {
    let path = workspace()
        .join("conformance/corpus/capnproto/c++/src/capnp/testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The reference's `test.capnp`, compiled in process.
fn test_capnp() -> LoadedSchema {
    let src = workspace().join("conformance/corpus/capnproto/c++/src");
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .no_standard_import()
            .import_path(&src)
            .src_prefix(&src)
            .file(src.join("capnp/test.capnp")),
    )
    .expect("test.capnp compiles")
}

fn print(r: &DynamicStructReader<'_>, pretty: bool) -> Vec<u8> {
    let mut out = Vec::new();
    text::write_struct(r, pretty, &mut out).expect("prints");
    out
}

/// Parses `text` as a message of `schema` and returns its canonical
/// form.
fn parse_canonical(schema: &StructSchema<'_>, text: &[u8]) -> Result<Vec<u8>, TextError> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = DynamicStructBuilder::init_root(&mut msg, schema.clone()).expect("a root");
    text::parse_struct(text, &mut root)?;
    let reader = msg.reader();
    let root = reader.root().expect("reads back");
    let mut canonical = Message::new(SingleSegmentArena::new());
    let words = canonical.set_root_canonical(&root).expect("canonicalises");
    Ok(Word::slice_as_bytes(words).to_vec())
}

/// Every vector prints as the reference printed it.
#[test]
fn vectors_print_as_the_reference() {
    let loaded = all_types();
    let schema = loaded.schema();
    for name in VECTORS {
        let root = schema
            .find_struct(&format!("all_types.capnp:{}", root_type(name)))
            .unwrap();
        let words = words(&vector(&format!("{name}.bin")));
        let reader = framed(&words);
        let r = DynamicStructReader::root(&reader, root).unwrap();
        let mut printed = print(&r, true);
        printed.push(b'\n');
        assert!(
            printed == vector(&format!("{name}.expected")),
            "{name}: {}",
            String::from_utf8_lossy(&printed)
        );
    }
}

/// The reference's testdata/binary prints as its pretty.txt and
/// short.txt (every type, lists of every kind, a union, nested structs).
#[test]
fn reference_testdata_prints_as_the_reference() {
    let loaded = test_capnp();
    let schema = loaded.schema();
    let root = schema.find_struct("capnp/test.capnp:TestAllTypes").unwrap();
    let words = words(&testdata("binary"));
    let reader = MessageReader::from_words(&words, options()).unwrap();
    let r = DynamicStructReader::root(&reader, root).unwrap();
    for (pretty, file) in [(true, "pretty.txt"), (false, "short.txt")] {
        let mut printed = print(&r, pretty);
        printed.push(b'\n');
        assert!(printed == testdata(file), "{file}");
    }
}

/// Each vector's text builds the message whose canonical form is the
/// reference's for the same text.
#[test]
fn vector_texts_build_the_reference_messages() {
    let loaded = all_types();
    let schema = loaded.schema();
    for name in VECTORS {
        let root = schema
            .find_struct(&format!("all_types.capnp:{}", root_type(name)))
            .unwrap();
        let built = parse_canonical(&root, &vector(&format!("{name}.txt"))).unwrap();
        assert!(built == vector(&format!("{name}.canonical")), "{name}");
    }
}

/// The reference's pretty.txt and short.txt build testdata/binary's
/// message (compared in canonical form).
#[test]
fn reference_texts_build_the_reference_message() {
    let loaded = test_capnp();
    let schema = loaded.schema();
    let root = schema.find_struct("capnp/test.capnp:TestAllTypes").unwrap();
    let words = words(&testdata("binary"));
    let reader = MessageReader::from_words(&words, options()).unwrap();
    let mut canonical = Message::new(SingleSegmentArena::new());
    let expected = Word::slice_as_bytes(
        canonical
            .set_root_canonical(&reader.root().unwrap())
            .unwrap(),
    )
    .to_vec();
    for file in ["pretty.txt", "short.txt"] {
        assert!(
            parse_canonical(&root, &testdata(file)).unwrap() == expected,
            "{file}"
        );
    }
}

/// Bad text: the first error, where it starts, in the reference's words.
#[test]
fn errors_carry_place_and_reference_wording() {
    let loaded = all_types();
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let cases: &[(&str, u32, u32, &str)] = &[
        ("(nope = 1)", 1, 2, "Struct has no field named 'nope'."),
        (
            "(\n  int8Field = 300)",
            2,
            15,
            "Integer value out of range.",
        ),
        // A negative number's place is its digits', as the reference's.
        ("(uint8Field = -1)", 1, 16, "Integer value out of range."),
        (
            "(int64Field = -9223372036854775809)",
            1,
            16,
            "Integer is too big to be negative.",
        ),
        ("(int8Field = 1.5)", 1, 14, "Type mismatch; expected Int8."),
        (
            "(textField = 0x\"00\")",
            1,
            14,
            "Type mismatch; expected Text.",
        ),
        (
            "(structField = 5)",
            1,
            16,
            "Type mismatch; expected AllTypes.",
        ),
        (
            "(int32List = [1, \"x\"])",
            1,
            18,
            "Type mismatch; expected Int32.",
        ),
        (
            "(listOfLists = [1])",
            1,
            17,
            "Type mismatch; expected List(Int32).",
        ),
        (
            "(enumField = purple)",
            1,
            14,
            "External constants not allowed.",
        ),
        (
            "(int8Field = Foo.bar)",
            1,
            14,
            "External constants not allowed.",
        ),
        ("(int8Field = .x)", 1, 14, "External constants not allowed."),
        (
            "(textField = embed \"f\")",
            1,
            14,
            "External embeds not allowed.",
        ),
        (
            "(anyField = [1])",
            1,
            13,
            "Type mismatch; expected AnyPointer.",
        ),
        ("(group = 1)", 1, 10, "Type mismatch; expected group."),
        ("(1, 2)", 1, 2, "Missing field name."),
        ("(int8Field = 1) x", 1, 17, "Extra tokens in input."),
        ("[1]", 1, 1, "Input does not contain a struct."),
        ("  # only a comment\n", 1, 1, "Failed to read input."),
        ("(int8Field = )", 1, 13, "Parse error."),
        (
            "(textField = \"open)",
            1,
            14,
            "Unterminated string literal.",
        ),
    ];
    for &(input, line, column, message) in cases {
        let err = parse_canonical(&root, input.as_bytes()).unwrap_err();
        let got = (err.line, err.column, err.message.as_str());
        assert_eq!(got, (line, column, message), "{input:?}");
    }
}

/// Values nest at most `MAX_TEXT_DEPTH` deep, and a short text cannot ask
/// for more than `MAX_TEXT_WORDS` words of message.
#[test]
fn limits() {
    let loaded = all_types();
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let nest = |n: usize| {
        let mut s = String::new();
        for _ in 0..n {
            s.push_str("(structField = ");
        }
        s.push_str("()");
        s.push_str(&")".repeat(n));
        s
    };
    // The root and depth - 1 nested structs are fine; one more is not.
    parse_canonical(&root, nest(MAX_TEXT_DEPTH as usize - 1).as_bytes()).unwrap();
    let err = parse_canonical(&root, nest(MAX_TEXT_DEPTH as usize).as_bytes()).unwrap_err();
    assert!(err.message.contains("nests more than 64"), "{err}");
    // Deeper than the lexer's own limit: refused there, never recursing.
    let err = parse_canonical(&root, nest(100_000).as_bytes()).unwrap_err();
    assert!(err.message.contains("Nesting deeper than"), "{err}");
    // 3 Mi list elements of a struct of 3 words: 9 Mi words from 9 MB.
    let mut big = String::from("(structList = [");
    big.push_str(&"(),".repeat(3 << 20));
    big.push_str("])");
    let err = parse_canonical(&root, big.as_bytes()).unwrap_err();
    assert!(err.message.contains("more than 8388608 words"), "{err}");
    assert_eq!((err.line, err.column), (1, 15));
}

/// Later assignments replace earlier ones; assigning a group clears it
/// first; a union takes its last member; `nan`, `inf` and integers fill
/// float fields.
#[test]
fn assignment_order() {
    let loaded = all_types();
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let a = parse_canonical(
        &root,
        b"(int8Field = 1, int8Field = 2, group = (a = 1), group = (b = \"x\"), \
          choice = (count = 3), choice = (none = void), float32Field = inf, float64Field = -7)",
    )
    .unwrap();
    let b = parse_canonical(
        &root,
        b"(int8Field = 2, group = (b = \"x\"), choice = (none = void), \
          float32Field = inf, float64Field = -7.0)",
    )
    .unwrap();
    assert!(a == b);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Arbitrary bytes never panic: they parse or fail with a place
    /// inside the text.
    #[test]
    fn arbitrary_text_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let loaded = all_types();
        let schema = loaded.schema();
        let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
        if let Err(e) = parse_canonical(&root, &bytes) {
            prop_assert!(e.line >= 1 && e.column >= 1);
            prop_assert!(e.offset as usize <= bytes.len());
        }
    }

    /// A vector's text with one byte changed, cut or duplicated never
    /// panics either.
    #[test]
    fn mutated_vector_text_never_panics(at in 0usize..4000, byte in any::<u8>(), cut in any::<bool>()) {
        let loaded = all_types();
        let schema = loaded.schema();
        let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
        let mut text = vector("full.txt");
        let at = at % text.len();
        if cut { text.truncate(at) } else { text[at] = byte }
        let _ = parse_canonical(&root, &text);
    }
}
