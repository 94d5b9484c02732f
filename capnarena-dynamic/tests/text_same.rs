//! The streaming text parser (`text::parse_struct`) against the parser
//! it replaced, which built a token tree and an expression tree of the
//! whole text (kept as `support/text_tree.rs`). On every text, valid or
//! not, both must agree: the same message (compared in canonical form),
//! or the same first error at the same line and column in the same words.

mod common;

#[path = "support/text_tree.rs"]
mod text_tree;

use capnarena::{Message, SingleSegmentArena, Word};
use capnarena_dynamic::text;
use capnarena_dynamic::{DynamicStructBuilder, StructSchema};
use common::*;
use proptest::prelude::*;

/// What a parser made of a text: the canonical message, or the error's
/// line, column, offset and message.
type Outcome = Result<Vec<u8>, (u32, u32, u32, String)>;

fn canonical(msg: &Message<SingleSegmentArena>) -> Vec<u8> {
    let reader = msg.reader();
    let root = reader.root().expect("reads back");
    let mut canonical = Message::new(SingleSegmentArena::new());
    let words = canonical.set_root_canonical(&root).expect("canonicalises");
    Word::slice_as_bytes(words).to_vec()
}

fn streaming(schema: &StructSchema<'_>, t: &[u8]) -> Outcome {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = DynamicStructBuilder::init_root(&mut msg, schema.clone()).expect("a root");
    match text::parse_struct(t, &mut root) {
        Ok(()) => Ok(canonical(&msg)),
        Err(e) => Err((e.line, e.column, e.offset, e.message)),
    }
}

fn tree(schema: &StructSchema<'_>, t: &[u8]) -> Outcome {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = DynamicStructBuilder::init_root(&mut msg, schema.clone()).expect("a root");
    match text_tree::parse_struct(t, &mut root) {
        Ok(()) => Ok(canonical(&msg)),
        Err(e) => Err((e.line, e.column, e.offset, e.message)),
    }
}

fn same(t: &[u8]) -> core::result::Result<(), TestCaseError> {
    let loaded = all_types();
    let schema = loaded.schema();
    let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let new = streaming(&root, t);
    let old = tree(&root, t);
    prop_assert_eq!(
        &new,
        &old,
        "text {:?}: streaming {:?}, tree {:?}",
        String::from_utf8_lossy(t),
        new.as_ref().err(),
        old.as_ref().err()
    );
    Ok(())
}

/// Texts of the grammar's pieces: fields of every type, values of the
/// wrong type, names, members, applications, imports, embeds, nesting,
/// comments, bad numbers and escapes, stray delimiters.
fn piece() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "(",
        ")",
        "[",
        "]",
        ",",
        " ",
        "\n",
        "=",
        "-",
        ".",
        "# c\n",
        "\"a\\n\"",
        "\"b\"",
        "0x\"0a 1B\"",
        "0x\"\"",
        "0x\"1\"",
        "\"\\x\"",
        "\"\\q\"",
        "\"open",
        "1",
        "0",
        "-1",
        "300",
        "1.5",
        "1e3",
        "1e",
        "0x1f",
        "0xg",
        "017",
        "09",
        "1a",
        "18446744073709551616",
        "9223372036854775808",
        "inf",
        "nan",
        "void",
        "true",
        "false",
        "foo",
        "Foo.bar",
        "import",
        "embed",
        "import \"x\"",
        "embed \"f\"",
        "f(1)",
        "(x)",
        "((1))",
        "a.b",
        "int8Field",
        "uint8Field",
        "int64Field",
        "float32Field",
        "float64Field",
        "textField",
        "dataField",
        "structField",
        "enumField",
        "int32List",
        "listOfLists",
        "structList",
        "textList",
        "group",
        "choice",
        "anyField",
        "boolField",
        "uint64Field",
        ";",
        "{",
        "==",
        "=-",
        "\u{0}",
    ])
    .prop_map(str::to_string)
}

/// A field assignment of a plausible shape.
fn field() -> impl Strategy<Value = String> {
    let value = prop::sample::select(vec![
        "1",
        "-1",
        "300",
        "-129",
        "1.5",
        "-inf",
        "inf",
        "nan",
        "\"x\" \"y\"",
        "0x\"00ff\"",
        "[1, 2, 3]",
        "[]",
        "[[1], [], [2, 3]]",
        "()",
        "(int8Field = 1)",
        "(1)",
        "((2))",
        "[(), (int8Field = 2)]",
        "[\"a\", \"b\"]",
        "void",
        "true",
        "foo",
        "(a = 1)",
        "(b = \"x\")",
        "(count = 3)",
        "(none = void)",
        "[1,]",
        "(x = 1, )",
        "[-0]",
        "(structField = (structField = ()))",
    ]);
    let name = prop::sample::select(vec![
        "int8Field",
        "uint8Field",
        "int64Field",
        "uint64Field",
        "float32Field",
        "float64Field",
        "textField",
        "dataField",
        "structField",
        "enumField",
        "int32List",
        "listOfLists",
        "structList",
        "textList",
        "group",
        "choice",
        "anyField",
        "boolField",
        "nope",
    ]);
    (name, value).prop_map(|(n, v)| format!("{n} = {v}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Arbitrary sequences of the grammar's pieces: mostly errors, each
    /// reported the same way by both parsers.
    #[test]
    fn pieces_parse_the_same(pieces in prop::collection::vec(piece(), 0..24)) {
        same(pieces.concat().as_bytes())?;
    }

    /// Structs of plausible fields: mostly messages, built the same.
    #[test]
    fn fields_parse_the_same(fields in prop::collection::vec(field(), 0..8), comma in any::<bool>()) {
        let mut t = format!("({})", fields.join(", "));
        if comma {
            t.insert(t.len() - 1, ',');
        }
        same(t.as_bytes())?;
    }

    /// A vector's text with one byte changed or cut.
    #[test]
    fn mutated_vectors_parse_the_same(at in 0usize..4000, byte in any::<u8>(), cut in any::<bool>()) {
        let mut t = vector("full.txt");
        let at = at % t.len();
        if cut { t.truncate(at) } else { t[at] = byte }
        same(&t)?;
    }

    /// Arbitrary bytes.
    #[test]
    fn arbitrary_bytes_parse_the_same(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        same(&bytes)?;
    }
}

/// Every vector's text and the edge cases of the grammar build the same.
#[test]
fn vectors_and_edges_parse_the_same() {
    for name in VECTORS {
        same(&vector(&format!("{name}.txt"))).unwrap();
    }
    for t in [
        "",
        "  # only a comment\n",
        "(",
        "()",
        "(,)",
        "(int8Field = 1,,)",
        "(int8Field = 1 2)",
        "(int8Field = 1 . )",
        "(int8Field = import)",
        "(int8Field = import 1)",
        "(int8Field = -)",
        "(int8Field = - -1)",
        "(int8Field = -nan)",
        "((int8Field = 1))",
        "(((int8Field = 1)))",
        "((int8Field = 1), )",
        "((1), 2)",
        "(int8Field = (1).x)",
        "(int8Field = (1)(2))",
        "(textField = \"a\" \"b\" \"c\")",
        "[1]",
        "1",
        "x",
        "(a",
        "(int8Field = 1) x",
        "(int8Field = 1);",
        "(int8Field =)",
        "(int8Field = .)",
        "(int8Field = [1 2])",
        "(int32List = [1, , 2])",
        "(textField = \"a\\x\")",
    ] {
        same(t.as_bytes()).unwrap();
    }
    // The parser's limits: member suffixes past 256, expressions deeper
    // than 256 (brackets and members), brackets deeper than 200.
    let members = format!("(int8Field = a{})", ".b".repeat(300));
    let deep = format!(
        "(int32List = {}a{}{})",
        "[".repeat(150),
        ".b".repeat(120),
        "]".repeat(150)
    );
    let brackets = format!("(int32List = {}1{})", "[".repeat(250), "]".repeat(250));
    let calls = format!("(int8Field = f{})", "(1)".repeat(300));
    for t in [members, deep, brackets, calls] {
        same(t.as_bytes()).unwrap();
    }
}
