//! `capnarena::text` against the reference: a message's [`TextValue`] tree,
//! built by a schema-aware walker over the hand-offset reader API, prints
//! exactly what `capnp convert binary:text` (pretty) and `--short` print.
//!
//! The walker is table-driven: each struct is a list of fields in the
//! order of its schema node's `fields` list, with the offsets the
//! reference compiler chose (`capnp compile -ocapnp SCHEMA`), and it
//! follows the field-inclusion rules of the `capnarena::text` module docs,
//! the rules generated code must follow. Generated code replaces it later.
//!
//! Messages: the vectors in tests/vectors (schema all_types.capnp), and
//! the edge cases in tests/text_format/*.txt (schema
//! tests/schemas/text_format.capnp), encoded with `capnp encode` at test
//! time; a few built here with capnarena's builder (null union members
//! and list elements, capabilities, a broken pointer).
//!
//! Needs `capnp` on PATH for the live comparisons: without it they print
//! one SKIP line and pass, unless `CAPNARENA_REQUIRE_PEER=1`, which makes
//! them fail. The `.expected` comparison needs no tool.

#[path = "common/peer.rs"]
mod peer;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use capnarena::text::{
    TextValue, write_pretty, write_pretty_bytes, write_short, write_short_bytes,
};
use capnarena::{
    ElementSize, ListReader, Message, MessageReader, PointerReader, ReaderOptions,
    SingleSegmentArena, StructReader, StructSize, words_from_bytes,
};

// ---------------------------------------------------------------------------
// The walker: schema tables and the tree they give.

/// A field's type.
#[derive(Clone, Copy)]
enum Ty {
    Void,
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    Text,
    Data,
    Enum(&'static [&'static str]),
    Struct(&'static Schema),
    List(&'static Ty),
    Any,
    Iface,
}

impl Ty {
    fn is_pointer(self) -> bool {
        matches!(
            self,
            Ty::Text | Ty::Data | Ty::Struct(_) | Ty::List(_) | Ty::Any | Ty::Iface
        )
    }

    /// The element size a list of this type is read as.
    fn element_size(self) -> ElementSize {
        match self {
            Ty::Void => ElementSize::Void,
            Ty::Bool => ElementSize::Bit,
            Ty::I8 | Ty::U8 => ElementSize::Byte,
            Ty::I16 | Ty::U16 | Ty::Enum(_) => ElementSize::TwoBytes,
            Ty::I32 | Ty::U32 | Ty::F32 => ElementSize::FourBytes,
            Ty::I64 | Ty::U64 | Ty::F64 => ElementSize::EightBytes,
            Ty::Struct(_) => ElementSize::InlineComposite,
            Ty::Text | Ty::Data | Ty::List(_) | Ty::Any | Ty::Iface => ElementSize::Pointer,
        }
    }
}

/// A member of a struct or group node's `fields` list.
struct Field {
    name: &'static str,
    /// `Some(d)` for a union member with discriminant value `d`.
    disc: Option<u16>,
    kind: Kind,
}

enum Kind {
    /// `offset` in units of the type's size (bits for Bool, the pointer
    /// index for pointers); `default` the schema default's bits, XORed in.
    Slot {
        ty: Ty,
        offset: usize,
        default: u64,
    },
    Group(&'static Schema),
}

/// A struct or group node: its fields in `fields`-list order, and where
/// its union's discriminant is (in 16-bit units), if it has one.
struct Schema {
    fields: &'static [Field],
    disc_offset: usize,
}

const fn slot(name: &'static str, ty: Ty, offset: usize) -> Field {
    Field {
        name,
        disc: None,
        kind: Kind::Slot {
            ty,
            offset,
            default: 0,
        },
    }
}

const fn member(name: &'static str, disc: u16, ty: Ty, offset: usize) -> Field {
    Field {
        name,
        disc: Some(disc),
        kind: Kind::Slot {
            ty,
            offset,
            default: 0,
        },
    }
}

const fn group(name: &'static str, disc: Option<u16>, schema: &'static Schema) -> Field {
    Field {
        name,
        disc,
        kind: Kind::Group(schema),
    }
}

const fn plain(fields: &'static [Field]) -> Schema {
    Schema {
        fields,
        disc_offset: 0,
    }
}

/// The tree of a struct (or group) by the module docs' rules.
fn struct_value<'a>(s: &StructReader<'a>, schema: &Schema) -> TextValue<'a> {
    let disc = s.get::<u16>(schema.disc_offset);
    let mut out = Vec::new();
    for f in schema.fields {
        if f.disc.is_some_and(|d| d != disc) {
            continue; // not the active member
        }
        match &f.kind {
            Kind::Group(g) => out.push((f.name, struct_value(s, g))),
            Kind::Slot {
                ty,
                offset,
                default,
            } => {
                if ty.is_pointer() {
                    // A null pointer drops out, except as the active union
                    // member with a discriminant other than 0.
                    let keep_null = f.disc.is_some_and(|d| d != 0);
                    if !s.has_pointer(*offset) && !keep_null {
                        continue;
                    }
                    out.push((f.name, pointer_value(s.pointer(*offset), *ty)));
                } else {
                    out.push((f.name, data_value(s, *ty, *offset, *default)));
                }
            }
        }
    }
    TextValue::Struct(out)
}

fn data_value<'a>(s: &StructReader<'a>, ty: Ty, i: usize, default: u64) -> TextValue<'a> {
    match ty {
        Ty::Void => TextValue::Void,
        Ty::Bool => TextValue::Bool(s.get_bool(i) ^ (default != 0)),
        Ty::I8 => TextValue::Int(s.get_or::<i8>(i, default as i8).into()),
        Ty::I16 => TextValue::Int(s.get_or::<i16>(i, default as i16).into()),
        Ty::I32 => TextValue::Int(s.get_or::<i32>(i, default as i32).into()),
        Ty::I64 => TextValue::Int(s.get_or::<i64>(i, default as i64)),
        Ty::U8 => TextValue::UInt(s.get_or::<u8>(i, default as u8).into()),
        Ty::U16 => TextValue::UInt(s.get_or::<u16>(i, default as u16).into()),
        Ty::U32 => TextValue::UInt(s.get_or::<u32>(i, default as u32).into()),
        Ty::U64 => TextValue::UInt(s.get_or::<u64>(i, default)),
        Ty::F32 => TextValue::Float32(f32::from_bits(s.get::<u32>(i) ^ default as u32)),
        Ty::F64 => TextValue::Float64(f64::from_bits(s.get::<u64>(i) ^ default)),
        Ty::Enum(names) => TextValue::enumerant(s.get_or::<u16>(i, default as u16), names),
        _ => unreachable!("pointer types are read by pointer_value"),
    }
}

fn pointer_value<'a>(p: PointerReader<'a>, ty: Ty) -> TextValue<'a> {
    let r = match ty {
        Ty::Text => p.get_text_bytes().map(TextValue::Text),
        Ty::Data => p.get_data().map(TextValue::Data),
        Ty::Struct(schema) => p.get_struct().map(|s| struct_value(&s, schema)),
        Ty::List(elem) => p
            .get_list(elem.element_size())
            .map(|l| list_value(&l, *elem)),
        Ty::Any => Ok(TextValue::AnyPointer),
        Ty::Iface => Ok(TextValue::Capability),
        _ => unreachable!("data types are read by data_value"),
    };
    TextValue::from_result(r)
}

fn list_value<'a>(l: &ListReader<'a>, elem: Ty) -> TextValue<'a> {
    let items = (0..l.len())
        .map(|i| match elem {
            Ty::Void => TextValue::Void,
            Ty::Bool => TextValue::Bool(l.get_bool(i)),
            Ty::I8 => TextValue::Int(l.get::<i8>(i).into()),
            Ty::I16 => TextValue::Int(l.get::<i16>(i).into()),
            Ty::I32 => TextValue::Int(l.get::<i32>(i).into()),
            Ty::I64 => TextValue::Int(l.get::<i64>(i)),
            Ty::U8 => TextValue::UInt(l.get::<u8>(i).into()),
            Ty::U16 => TextValue::UInt(l.get::<u16>(i).into()),
            Ty::U32 => TextValue::UInt(l.get::<u32>(i).into()),
            Ty::U64 => TextValue::UInt(l.get::<u64>(i)),
            Ty::F32 => TextValue::Float32(l.get::<f32>(i)),
            Ty::F64 => TextValue::Float64(l.get::<f64>(i)),
            Ty::Enum(names) => TextValue::enumerant(l.get::<u16>(i), names),
            Ty::Struct(schema) => struct_value(&l.get_struct(i), schema),
            _ => pointer_value(l.get_pointer(i), elem),
        })
        .collect();
    TextValue::List(items)
}

// ---------------------------------------------------------------------------
// tests/vectors/all_types.capnp (offsets: tests/vectors/all_types.layout.capnp)

const COLOR: &[&str] = &["red", "green", "blue"];

static POINT: Schema = plain(&[slot("x", Ty::I32, 0), slot("y", Ty::I32, 1)]);

static LABELED: Schema = plain(&[
    slot("label", Ty::Text, 0),
    slot("point", Ty::Struct(&POINT), 1),
    slot("weight", Ty::F64, 0),
]);

static CHOICE: Schema = Schema {
    fields: &[
        member("none", 0, Ty::Void, 0),
        member("count", 1, Ty::U32, 12),
        member("name", 2, Ty::Text, 21),
        member("point", 3, Ty::Struct(&POINT), 21),
    ],
    disc_offset: 19,
};

static GROUP: Schema = plain(&[slot("a", Ty::U16, 26), slot("b", Ty::Text, 22)]);

static ALL_TYPES: Schema = plain(&[
    slot("voidField", Ty::Void, 0),
    slot("boolField", Ty::Bool, 0),
    slot("int8Field", Ty::I8, 1),
    slot("int16Field", Ty::I16, 1),
    slot("int32Field", Ty::I32, 1),
    slot("int64Field", Ty::I64, 1),
    slot("uint8Field", Ty::U8, 16),
    slot("uint16Field", Ty::U16, 9),
    slot("uint32Field", Ty::U32, 5),
    slot("uint64Field", Ty::U64, 3),
    slot("float32Field", Ty::F32, 8),
    slot("float64Field", Ty::F64, 5),
    slot("textField", Ty::Text, 0),
    slot("dataField", Ty::Data, 1),
    slot("structField", Ty::Struct(&ALL_TYPES), 2),
    slot("enumField", Ty::Enum(COLOR), 18),
    slot("voidList", Ty::List(&Ty::Void), 3),
    slot("boolList", Ty::List(&Ty::Bool), 4),
    slot("int8List", Ty::List(&Ty::I8), 5),
    slot("int16List", Ty::List(&Ty::I16), 6),
    slot("int32List", Ty::List(&Ty::I32), 7),
    slot("int64List", Ty::List(&Ty::I64), 8),
    slot("uint8List", Ty::List(&Ty::U8), 9),
    slot("uint16List", Ty::List(&Ty::U16), 10),
    slot("uint32List", Ty::List(&Ty::U32), 11),
    slot("uint64List", Ty::List(&Ty::U64), 12),
    slot("float32List", Ty::List(&Ty::F32), 13),
    slot("float64List", Ty::List(&Ty::F64), 14),
    slot("textList", Ty::List(&Ty::Text), 15),
    slot("dataList", Ty::List(&Ty::Data), 16),
    slot("structList", Ty::List(&Ty::Struct(&LABELED)), 17),
    slot("enumList", Ty::List(&Ty::Enum(COLOR)), 18),
    slot("listOfLists", Ty::List(&Ty::List(&Ty::I32)), 19),
    slot("pointList", Ty::List(&Ty::Struct(&POINT)), 20),
    group("choice", None, &CHOICE),
    group("group", None, &GROUP),
    slot("anyField", Ty::Any, 23),
]);

static ENTRY: Schema = plain(&[
    slot("timestamp", Ty::U64, 0),
    slot("level", Ty::U8, 8),
    slot("message", Ty::Text, 0),
    slot("tags", Ty::List(&Ty::Text), 1),
]);

static LOG: Schema = plain(&[slot("entries", Ty::List(&Ty::Struct(&ENTRY)), 0)]);

// ---------------------------------------------------------------------------
// tests/schemas/text_format.capnp (offsets: `capnp compile -ocapnp`)

const SMALL: &[&str] = &["zero", "one", "two"];

static FLOATS: Schema = plain(&[
    slot("f32", Ty::F32, 0),
    slot("f64", Ty::F64, 1),
    slot("f32s", Ty::List(&Ty::F32), 0),
    slot("f64s", Ty::List(&Ty::F64), 1),
]);

static TEXTS: Schema = plain(&[
    slot("text", Ty::Text, 0),
    slot("data", Ty::Data, 1),
    slot("texts", Ty::List(&Ty::Text), 2),
    slot("datas", Ty::List(&Ty::Data), 3),
]);

static GRP: Schema = plain(&[slot("x", Ty::I32, 3), slot("t", Ty::Text, 0)]);

static INNER: Schema = Schema {
    fields: &[
        member("first", 0, Ty::Void, 0),
        member("second", 1, Ty::I8, 16),
    ],
    disc_offset: 5,
};

static DEEPER: Schema = plain(&[slot("s", Ty::List(&Ty::Text), 2)]);

static OUTER: Schema = plain(&[
    group("inner", None, &INNER),
    slot("tail", Ty::Bool, 136),
    group("deeper", None, &DEEPER),
]);

/// `b @1` is declared before `a @0`; the `fields` list (ordinal order)
/// has `a` first, and `grp` (members @5, @6) after `nothing @4`.
static SHAPES: Schema = Schema {
    fields: &[
        Field {
            name: "a",
            disc: None,
            kind: Kind::Slot {
                ty: Ty::I32,
                offset: 0,
                default: 5,
            },
        },
        slot("b", Ty::I32, 1),
        member("ptr", 0, Ty::Text, 0),
        member("num", 1, Ty::I32, 3),
        member("nothing", 2, Ty::Void, 0),
        group("grp", Some(3), &GRP),
        slot("c", Ty::Text, 1),
        slot("v", Ty::Void, 0),
        group("outer", None, &OUTER),
        slot("nested", Ty::Struct(&SHAPES), 3),
        slot("list", Ty::List(&Ty::Struct(&SHAPES)), 4),
    ],
    disc_offset: 4,
};

static G: Schema = plain(&[slot("p", Ty::Text, 0)]);

static GROUP_FIRST: Schema = Schema {
    fields: &[
        group("g", Some(0), &G),
        member("n", 1, Ty::I16, 1),
        slot("after", Ty::I16, 2),
    ],
    disc_offset: 0,
};

static ODD: Schema = Schema {
    fields: &[
        slot("e", Ty::Enum(SMALL), 0),
        slot("es", Ty::List(&Ty::Enum(SMALL)), 0),
        member("a", 0, Ty::Void, 0),
        member("b", 1, Ty::I32, 1),
        slot("any", Ty::Any, 1),
        slot("cap", Ty::Iface, 2),
        slot("caps", Ty::List(&Ty::Iface), 3),
        slot("anyNull", Ty::Any, 4),
    ],
    disc_offset: 1,
};

static LISTS: Schema = plain(&[
    slot("voids", Ty::List(&Ty::Void), 0),
    slot("bools", Ty::List(&Ty::Bool), 1),
    slot("ints", Ty::List(&Ty::I64), 2),
    slot("nested", Ty::List(&Ty::List(&Ty::List(&Ty::I32))), 3),
    slot("texts", Ty::List(&Ty::List(&Ty::Text)), 4),
    slot("points", Ty::List(&Ty::Struct(&POINT)), 5),
    slot("empty", Ty::List(&Ty::Struct(&FLOATS)), 6),
    slot("uints", Ty::List(&Ty::U64), 7),
    slot("u8s", Ty::List(&Ty::U8), 8),
    slot("i16s", Ty::List(&Ty::I16), 9),
    slot("e", Ty::List(&Ty::Enum(SMALL)), 10),
]);

/// The schema of a root type of text_format.capnp.
fn own_schema(root: &str) -> &'static Schema {
    match root {
        "Floats" => &FLOATS,
        "Texts" => &TEXTS,
        "Shapes" => &SHAPES,
        "GroupFirst" => &GROUP_FIRST,
        "Odd" => &ODD,
        "Lists" => &LISTS,
        _ => panic!("no table for {root}"),
    }
}

// ---------------------------------------------------------------------------
// Helpers

/// The tree of the root struct of the framed message `bytes`.
fn tree_of<'a>(reader: &'a MessageReader<'a>, schema: &Schema) -> TextValue<'a> {
    match reader.root() {
        Ok(root) => struct_value(&root, schema),
        Err(e) => TextValue::Error(e),
    }
}

/// Reads `bytes` (standard framing) with segment and traversal limits
/// wide enough for every vector, and gives the pretty and short bytes of
/// its root as `schema`, plus the `fmt::Write` forms.
fn render(bytes: &[u8], schema: &Schema) -> Rendered {
    let words = words_from_bytes(bytes).expect("whole words");
    let options = ReaderOptions::default().segment_limit(4096);
    let reader = MessageReader::from_words(&words, options).expect("framing");
    let tree = tree_of(&reader, schema);
    let mut pretty = String::new();
    write_pretty(&tree, &mut pretty).expect("fmt");
    let mut short = String::new();
    write_short(&tree, &mut short).expect("fmt");
    Rendered {
        pretty_bytes: to_pretty_bytes(&tree),
        short_bytes: to_short_bytes(&tree),
        pretty,
        short,
    }
}

fn to_short_bytes(v: &TextValue<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    write_short_bytes(v, &mut out).expect("printing to a Vec");
    out
}

fn to_pretty_bytes(v: &TextValue<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    write_pretty_bytes(v, &mut out).expect("printing to a Vec");
    out
}

struct Rendered {
    pretty_bytes: Vec<u8>,
    short_bytes: Vec<u8>,
    pretty: String,
    short: String,
}

/// The reference's bytes as `write_short`/`write_pretty` give them: every
/// byte of a sequence that is not UTF-8 as an octal escape.
fn escape_invalid(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out += chunk.valid();
        for b in chunk.invalid() {
            out += &format!("\\{b:03o}");
        }
    }
    out
}

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas")
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/text_format")
}

/// Runs `capnp ARGS` in `dir` with `input` on stdin: stdout, or the
/// failure with stderr.
fn capnp(tool: &Path, dir: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(tool)
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running {}: {e}", tool.display()))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    feeder
        .join()
        .expect("stdin thread")
        .map_err(|e| format!("writing to capnp: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "capnp {args:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The first lines where capnarena's rendering differs from the
/// reference's, for a panic message.
fn diff(reference: &[u8], ours: &[u8]) -> String {
    let (r, o) = (
        String::from_utf8_lossy(reference),
        String::from_utf8_lossy(ours),
    );
    let (r, o): (Vec<&str>, Vec<&str>) = (r.lines().collect(), o.lines().collect());
    let mut out = String::new();
    for i in (0..r.len().max(o.len()))
        .filter(|&i| r.get(i) != o.get(i))
        .take(8)
    {
        out += &format!(
            "  line {}:\n    capnp {:?}\n    ours  {:?}\n",
            i + 1,
            r.get(i).copied().unwrap_or("<none>"),
            o.get(i).copied().unwrap_or("<none>")
        );
    }
    out
}

/// `capnp convert binary:text [--short] SCHEMA ROOT` of `bin`, without
/// its final newline.
fn reference(
    tool: &Path,
    dir: &Path,
    schema: &str,
    root: &str,
    short: bool,
    bin: &[u8],
) -> Vec<u8> {
    let mut args = vec!["convert", "binary:text"];
    if short {
        args.push("--short");
    }
    args.extend([schema, root]);
    let mut out = capnp(tool, dir, &args, bin).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.pop(),
        Some(b'\n'),
        "capnp ends its output with a newline"
    );
    out
}

/// Asserts that capnarena's four renderings of `bin` equal the
/// reference's two (the `fmt::Write` forms up to the octal escapes of
/// invalid UTF-8).
fn assert_matches_reference(
    tool: &Path,
    dir: &Path,
    schema_file: &str,
    root: &str,
    bin: &[u8],
    what: &str,
    schema: &Schema,
) {
    let ours = render(bin, schema);
    let pretty = reference(tool, dir, schema_file, root, false, bin);
    let short = reference(tool, dir, schema_file, root, true, bin);
    assert!(
        ours.pretty_bytes == pretty,
        "{what}: pretty differs\n{}",
        diff(&pretty, &ours.pretty_bytes)
    );
    assert!(
        ours.short_bytes == short,
        "{what}: short differs\n  capnp {:?}\n  ours  {:?}",
        String::from_utf8_lossy(&short),
        String::from_utf8_lossy(&ours.short_bytes)
    );
    assert_eq!(ours.pretty, escape_invalid(&pretty), "{what}: write_pretty");
    assert_eq!(ours.short, escape_invalid(&short), "{what}: write_short");
}

// ---------------------------------------------------------------------------
// Vectors

/// The vectors and their root types.
const VECTORS: [(&str, &str); 5] = [
    ("empty", "AllTypes"),
    ("full", "AllTypes"),
    ("lists", "AllTypes"),
    ("log", "Log"),
    ("scalars", "AllTypes"),
];

fn vector_schema(root: &str) -> &'static Schema {
    if root == "Log" { &LOG } else { &ALL_TYPES }
}

fn read_vector(name: &str) -> Vec<u8> {
    let path = peer::vectors_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Every vector's pretty form equals `NAME.expected`, the reference's own
/// rendering stored beside it (no tool needed), whatever the segment
/// layout of the message (one segment, or 1-, 3- and 16-word segments
/// full of far pointers).
#[test]
fn vectors_print_as_expected_files() {
    for (name, root) in VECTORS {
        let expected = read_vector(&format!("{name}.expected"));
        let expected = expected.strip_suffix(b"\n").expect("final newline");
        for framing in ["bin", "seg1.bin", "seg3.bin", "seg16.bin"] {
            let ours = render(
                &read_vector(&format!("{name}.{framing}")),
                vector_schema(root),
            );
            assert!(
                ours.pretty_bytes == expected,
                "{name}.{framing}\n{}",
                diff(expected, &ours.pretty_bytes)
            );
            assert_eq!(
                ours.pretty.as_bytes(),
                expected,
                "{name}.{framing}: write_pretty"
            );
        }
    }
}

/// Every vector prints as the live reference tool prints it, pretty and
/// short.
#[test]
fn vectors_print_as_the_reference() {
    let Some(tool) = peer::peer() else { return };
    for (name, root) in VECTORS {
        let bin = read_vector(&format!("{name}.bin"));
        assert_matches_reference(
            &tool,
            &peer::vectors_dir(),
            "all_types.capnp",
            root,
            &bin,
            name,
            vector_schema(root),
        );
    }
}

// ---------------------------------------------------------------------------
// Own schema

/// The messages in tests/text_format: file, root type written as, root
/// type read as.
const FIXTURES: &[(&str, &str, &str)] = &[
    ("floats", "Floats", "Floats"),
    ("texts", "Texts", "Texts"),
    ("texts_boundary", "Texts", "Texts"),
    ("texts_boundary_over", "Texts", "Texts"),
    ("shapes_empty", "Shapes", "Shapes"),
    ("shapes_ptr", "Shapes", "Shapes"),
    ("shapes_num", "Shapes", "Shapes"),
    ("shapes_grp", "Shapes", "Shapes"),
    ("shapes_grp_full", "Shapes", "Shapes"),
    ("shapes_outer", "Shapes", "Shapes"),
    ("shapes_nested", "Shapes", "Shapes"),
    ("groupfirst_empty", "GroupFirst", "GroupFirst"),
    ("groupfirst_g", "GroupFirst", "GroupFirst"),
    ("groupfirst_n", "GroupFirst", "GroupFirst"),
    ("odd_unknown", "OddWriter", "Odd"),
    ("odd_b", "OddWriter", "Odd"),
    ("odd_a", "OddWriter", "Odd"),
    ("lists", "Lists", "Lists"),
    ("lists_empty", "Lists", "Lists"),
    ("lists_points", "Lists", "Lists"),
];

/// Every file in tests/text_format is in [`FIXTURES`], so none is
/// silently left out.
#[test]
fn every_fixture_is_listed() {
    let mut files: Vec<String> = std::fs::read_dir(fixtures_dir())
        .expect("tests/text_format")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = FIXTURES
        .iter()
        .map(|(f, _, _)| format!("{f}.txt"))
        .collect();
    listed.sort();
    assert_eq!(files, listed);
}

/// The edge cases of tests/text_format (floats, escapes and invalid UTF-8,
/// unions, groups, defaults, unknown enumerants and union members, opaque
/// pointers, nested and long lists, line breaking) print as the reference
/// prints them, after `capnp encode` wrote them.
#[test]
fn edge_cases_print_as_the_reference() {
    let Some(tool) = peer::peer() else { return };
    for (file, writer, root) in FIXTURES {
        let text = std::fs::read(fixtures_dir().join(format!("{file}.txt"))).expect("fixture");
        let bin = capnp(
            &tool,
            &schemas_dir(),
            &["encode", "text_format.capnp", writer],
            &text,
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_matches_reference(
            &tool,
            &schemas_dir(),
            "text_format.capnp",
            root,
            &bin,
            file,
            own_schema(root),
        );
    }
}

/// Framed bytes of a message built by `build`.
fn built(build: impl FnOnce(&mut Message<SingleSegmentArena>)) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    build(&mut msg);
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// The active member of a union with a discriminant other than 0 prints
/// even when its pointer is null, as the value a reader returns (`""`, a
/// default struct); a discriminant the schema does not name prints
/// nothing; null elements of pointer lists print as empty values.
/// Messages built here (the text format cannot write a null member).
#[test]
fn null_members_and_elements_print_as_the_reference() {
    let Some(tool) = peer::peer() else { return };
    const ALL: StructSize = StructSize::new(7, 24);
    // choice's discriminant: bits [304, 320) = u16 index 19.
    for disc in [2u16, 3, 1, 0, 7] {
        let bin = built(|m| {
            let mut root = m.init_root_struct(ALL).expect("root");
            root.set::<u16>(19, disc);
            // Null elements: textList (ptr 15) and listOfLists (ptr 19).
            root.init_list(15, ElementSize::Pointer, 2).expect("list");
            let mut lists = root.init_list(19, ElementSize::Pointer, 2).expect("list");
            lists
                .init_list(1, ElementSize::FourBytes, 1)
                .expect("inner");
        });
        assert_matches_reference(
            &tool,
            &peer::vectors_dir(),
            "all_types.capnp",
            "AllTypes",
            &bin,
            &format!("choice discriminant {disc}"),
            &ALL_TYPES,
        );
    }
}

/// A struct built with an interface field and a list of capabilities
/// prints `<external capability>` for each (null list elements
/// included), and a null interface field is left out. The reference tool
/// cannot print capabilities (it fails: no capability context), so the
/// expected text is the reference printer's string for them
/// (`stringify.c++`) in the layout the rest of this file checks.
#[test]
fn capabilities_print_as_external() {
    const ODD_SIZE: StructSize = StructSize::new(1, 5);
    let bin = built(|m| {
        let mut root = m.init_root_struct(ODD_SIZE).expect("root");
        root.pointer(2).set_capability(0);
        let mut caps = root.init_list(3, ElementSize::Pointer, 2).expect("list");
        caps.pointer(0).set_capability(5);
    });
    let ours = render(&bin, &ODD);
    assert_eq!(
        ours.short,
        "(e = zero, a = void, cap = <external capability>, caps = [<external capability>, <external capability>])"
    );
    assert_eq!(
        ours.pretty,
        "( e = zero,\n  a = void,\n  cap = <external capability>,\n  caps = [<external capability>, <external capability>] )"
    );
    let without = built(|m| {
        m.init_root_struct(ODD_SIZE).expect("root");
    });
    assert_eq!(render(&without, &ODD).short, "(e = zero, a = void)");
}

/// A pointer the reader rejects prints as `<error: ...>` in its field's
/// place, and the rest of the struct still prints (the reference tool
/// fails on the whole message).
#[test]
fn read_errors_print_in_place() {
    const TEXTS_SIZE: StructSize = StructSize::new(0, 4);
    let mut bin = built(|m| {
        let mut root = m.init_root_struct(TEXTS_SIZE).expect("root");
        root.set_text(0, "ok").expect("text");
        root.set_data(1, b"x").expect("data");
    });
    // Word 3 of the segment (after the table word and the root pointer and
    // the first pointer) is `data`'s pointer: make it a list pointer
    // reaching far past the segment's end.
    let at = 8 + 2 * 8;
    let mut w = u64::from_le_bytes(bin[at..at + 8].try_into().unwrap());
    assert_eq!(w & 3, 1, "data is a list pointer");
    w = (w & !0xffff_fffc) | (1000 << 2);
    bin[at..at + 8].copy_from_slice(&w.to_le_bytes());
    let ours = render(&bin, &TEXTS);
    assert!(
        ours.short.starts_with("(text = \"ok\", data = <error: ") && ours.short.ends_with(">)"),
        "{}",
        ours.short
    );
    if let Some(tool) = peer::peer() {
        let failed = capnp(
            &tool,
            &schemas_dir(),
            &["convert", "binary:text", "text_format.capnp", "Texts"],
            &bin,
        );
        assert!(failed.is_err(), "the reference rejects the message");
    }
}

// ---------------------------------------------------------------------------
// Floats across their range

/// A deterministic stream of bit patterns (SplitMix64).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Floats that probe the formatting: random bit patterns (every exponent,
/// subnormals, NaN payloads), short decimals, and numbers with an exact
/// tie at 15 or 17 significant digits.
// 1e15 + 0.25 and + 0.75 are exact doubles; their 17th digit is a tie.
#[allow(clippy::excessive_precision)]
fn probe_floats(count: usize) -> Vec<f64> {
    let mut state = 0x7e57_f10a_u64;
    let mut out = vec![
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::EPSILON,
        1000000000000000.25,
        1000000000000000.75,
        1000000000000005.0,
        9007199254740994.0,
        0.5,
        2.5,
    ];
    while out.len() < count {
        let r = splitmix(&mut state);
        out.push(match r % 4 {
            0 | 1 => f64::from_bits(splitmix(&mut state)),
            // A few digits times a power of ten.
            2 => (r >> 8) as f64 % 100_000.0 * 10f64.powi((r >> 40) as i32 % 60 - 30),
            // Integers near 2^50, with halves and quarters: ties at 17.
            _ => (1u64 << 50) as f64 + (r >> 20) as f64 % 1_000_000.0 + 0.25 * (r % 4) as f64,
        });
    }
    out
}

/// Float64 and Float32 values from across the whole range print as the
/// reference prints them (`%.15g` or `%.17g`, `%.6g` or `%.8g`, the
/// reference's roundtrip and range checks, ties to even).
#[test]
fn floats_across_the_range_print_as_the_reference() {
    let Some(tool) = peer::peer() else { return };
    const FLOATS_SIZE: StructSize = StructSize::new(2, 2);
    let values = probe_floats(4000);
    let bin = built(|m| {
        let mut root = m.init_root_struct(FLOATS_SIZE).expect("root");
        let mut f32s = root
            .init_list(0, ElementSize::FourBytes, values.len() as u32)
            .expect("list");
        for (i, &x) in values.iter().enumerate() {
            // Float32s of every bit pattern too, not only narrowed doubles.
            let bits = if i % 2 == 0 {
                (x as f32).to_bits()
            } else {
                x.to_bits() as u32
            };
            f32s.set::<u32>(i as u32, bits);
        }
        let mut f64s = root
            .init_list(1, ElementSize::EightBytes, values.len() as u32)
            .expect("list");
        for (i, &x) in values.iter().enumerate() {
            f64s.set::<f64>(i as u32, x);
        }
    });
    assert_matches_reference(
        &tool,
        &schemas_dir(),
        "text_format.capnp",
        "Floats",
        &bin,
        "floats across the range",
        &FLOATS,
    );
}

/// Every finite Float64's text reads back as the same number (17 digits
/// identify any double). A Float32's reads back as the same float or
/// its neighbour: the reference's 8 digits (`FLT_DIG + 2`) are one short
/// of always identifying a float (see `floats_print_as_the_reference` in
/// src/text/tests.rs for one that comes back different).
#[test]
fn every_float_reads_back() {
    for x in probe_floats(20_000) {
        let mut s = String::new();
        write_short(&TextValue::Float64(x), &mut s).expect("fmt");
        if x.is_finite() {
            assert_eq!(s.parse::<f64>().map(f64::to_bits), Ok(x.to_bits()), "{s}");
        } else {
            assert!(["nan", "inf", "-inf"].contains(&s.as_str()), "{s}");
        }
        let y = f32::from_bits(x.to_bits() as u32);
        let mut s = String::new();
        write_short(&TextValue::Float32(y), &mut s).expect("fmt");
        if y.is_finite() {
            let back = s.parse::<f32>().expect("a float").to_bits();
            assert!(
                back.abs_diff(y.to_bits()) <= 1,
                "{s}: {back:#x} vs {:#x}",
                y.to_bits()
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Properties

use proptest::prelude::*;

/// Words for an untrusted message: a root pointer to an AllTypes-sized
/// struct (so fields are read) followed by arbitrary words.
fn hostile_message() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u64>(), 0..48).prop_map(|mut words| {
        let root = (7u64 << 32) | (24 << 48); // struct, offset 0, 7 data, 24 ptrs
        words.insert(0, root);
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&(words.len() as u32).to_le_bytes());
        for w in words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes
    })
}

const FIELD_NAMES: &[&str] = &["a", "name", "longerFieldName", "x2"];
const SAMPLE_TEXTS: &[&str] = &[
    "",
    "a",
    "twelve chars",
    "exactly twenty-two ch",
    "a piece of text long enough to break any line",
];

/// A tree for proptest (which needs `Clone`; `TextValue` holds an
/// `Error`, which is not).
#[derive(Clone, Debug)]
enum Gen {
    Void,
    Bool(bool),
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
    Text(&'static str),
    Data(&'static str),
    Enum(&'static str),
    EnumNumber(u16),
    Any,
    List(Vec<Gen>),
    Struct(Vec<(&'static str, Gen)>),
}

impl Gen {
    fn value(&self) -> TextValue<'static> {
        match self {
            Gen::Void => TextValue::Void,
            Gen::Bool(b) => TextValue::Bool(*b),
            Gen::Int(i) => TextValue::Int(*i),
            Gen::UInt(u) => TextValue::UInt(*u),
            Gen::F32(x) => TextValue::Float32(*x),
            Gen::F64(x) => TextValue::Float64(*x),
            Gen::Text(t) => TextValue::Text(t.as_bytes()),
            Gen::Data(t) => TextValue::Data(t.as_bytes()),
            Gen::Enum(n) => TextValue::Enum(n),
            Gen::EnumNumber(n) => TextValue::EnumNumber(*n),
            Gen::Any => TextValue::AnyPointer,
            Gen::List(items) => TextValue::List(items.iter().map(Gen::value).collect()),
            Gen::Struct(fields) => {
                TextValue::Struct(fields.iter().map(|(n, g)| (*n, g.value())).collect())
            }
        }
    }
}

/// Trees of every shape: scalars, texts of lengths around the line-break
/// limits, nested structs and lists.
fn tree() -> impl Strategy<Value = Gen> {
    let leaf = prop_oneof![
        Just(Gen::Void),
        any::<bool>().prop_map(Gen::Bool),
        any::<i64>().prop_map(Gen::Int),
        any::<u64>().prop_map(Gen::UInt),
        any::<f32>().prop_map(Gen::F32),
        any::<f64>().prop_map(Gen::F64),
        proptest::sample::select(SAMPLE_TEXTS).prop_map(Gen::Text),
        proptest::sample::select(SAMPLE_TEXTS).prop_map(Gen::Data),
        proptest::sample::select(FIELD_NAMES).prop_map(Gen::Enum),
        any::<u16>().prop_map(Gen::EnumNumber),
        Just(Gen::Any),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Gen::List),
            proptest::collection::vec((proptest::sample::select(FIELD_NAMES), inner), 0..8)
                .prop_map(Gen::Struct),
        ]
    })
}

/// The pretty form with its line breaks and bracket padding taken out.
fn collapse(pretty: &str) -> String {
    let mut out = String::new();
    let mut lines = pretty.split('\n');
    out += lines.next().unwrap_or("");
    for line in lines {
        let line = line.trim_start_matches(' ');
        // A break after an opening bracket joins directly; between
        // elements (after `,`) with one space.
        if out.ends_with(',') {
            out.push(' ');
        }
        out += line;
    }
    out.replace("( ", "(")
        .replace("[ ", "[")
        .replace(" )", ")")
        .replace(" ]", "]")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any message, however broken, gives a tree that prints in both
    /// forms without panicking; read errors print in place; a pretty
    /// form without line breaks is the short form.
    #[test]
    fn hostile_messages_print(bytes in hostile_message()) {
        let ours = render(&bytes, &ALL_TYPES);
        prop_assert!(!ours.short.contains('\n'));
        if !ours.pretty.contains('\n') {
            prop_assert_eq!(&ours.pretty, &ours.short);
        }
    }

    /// The pretty form differs from the short one only in line breaks,
    /// indentation and bracket padding; every line break is followed by
    /// an even indent; and the bytes forms equal the `fmt` forms for
    /// UTF-8 content.
    #[test]
    fn pretty_is_short_with_breaks(g in tree()) {
        let v = g.value();
        let mut short = String::new();
        write_short(&v, &mut short).expect("fmt");
        let mut pretty = String::new();
        write_pretty(&v, &mut pretty).expect("fmt");
        prop_assert_eq!(collapse(&pretty), short.clone());
        for line in pretty.split('\n').skip(1) {
            let indent = line.len() - line.trim_start_matches(' ').len();
            prop_assert!(indent >= 2 && indent % 2 == 0, "{:?}", line);
        }
        prop_assert_eq!(to_short_bytes(&v), short.into_bytes());
        prop_assert_eq!(to_pretty_bytes(&v), pretty.into_bytes());
    }
}
