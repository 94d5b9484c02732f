//! Reading the reference tool's messages: every `tests/vectors/NAME.bin`,
//! `NAME.flat` and `NAME.segN.bin` (written by `capnp convert` from
//! `NAME.txt`) reads back, field by field, the exact values of `NAME.txt`:
//! zero-copy through `MessageReader` and copied into each built-in arena
//! through `Message::read_from_bytes` and `Message::read_from`.
//!
//! Expectations come from the `.txt` sources alone: they are parsed by
//! `tests/common/alltxt.rs` (which knows nothing of the wire format) and
//! interpreted with the field offsets the reference compiler chose, copied
//! by hand below from `tests/vectors/all_types.layout.capnp`. Every field
//! of every struct is checked, including those the text leaves out (which
//! must read as their defaults, with null pointers).
//!
//! Also here: the segment limit on `log.seg1.bin` / `log.seg3.bin` on every
//! read path, fields past the end of a smaller struct, and schema defaults
//! stored XOR (against bytes the reference wrote for a schema with
//! defaults, since `all_types.capnp` has none).

#[path = "common/alltxt.rs"]
mod alltxt;
mod common;

use std::fmt::Debug;

use alltxt::Value;
use capnarena::{
    ElementSize, Error, FixedArena, ListReader, Message, MessageReader, MultiSegmentArena,
    PointerReader, Primitive, ReaderOptions, SingleSegmentArena, StructReader, StructSize, Word,
    words_from_bytes,
};
use common::vector;

// ---------------------------------------------------------------------------
// The schema, as `tests/vectors/all_types.layout.capnp` lays it out.
// ---------------------------------------------------------------------------

/// A field's type, with what a reader needs to find its value.
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
    /// An enum: its enumerants in ordinal order.
    Enum(&'static [&'static str]),
    Text,
    Data,
    Struct(&'static Schema),
    List(&'static Ty),
    AnyPointer,
}

/// A field: `at` is a data index in units of the type's own size (a bit
/// for `Bool`) or a pointer index, as the crate's accessors take them.
struct Field {
    name: &'static str,
    ty: Ty,
    at: usize,
}

enum Member {
    Field(Field),
    /// A union: its tag's `u16` index and its variants in tag order.
    Union {
        name: &'static str,
        tag: usize,
        variants: &'static [Field],
    },
    Group {
        name: &'static str,
        fields: &'static [Field],
    },
}

struct Schema {
    name: &'static str,
    size: StructSize,
    members: &'static [Member],
}

const fn field(name: &'static str, ty: Ty, at: usize) -> Field {
    Field { name, ty, at }
}

const fn member(name: &'static str, ty: Ty, at: usize) -> Member {
    Member::Field(field(name, ty, at))
}

const COLOR: &[&str] = &["red", "green", "blue"];

/// `struct Point  # 8 bytes, 0 ptrs`
static POINT: Schema = Schema {
    name: "Point",
    size: StructSize::new(1, 0),
    members: &[
        member("x", Ty::I32, 0), // bits[0, 32)
        member("y", Ty::I32, 1), // bits[32, 64)
    ],
};

/// `struct Labeled  # 8 bytes, 2 ptrs`
static LABELED: Schema = Schema {
    name: "Labeled",
    size: StructSize::new(1, 2),
    members: &[
        member("label", Ty::Text, 0),           // ptr[0]
        member("point", Ty::Struct(&POINT), 1), // ptr[1]
        member("weight", Ty::F64, 0),           // bits[0, 64)
    ],
};

/// `struct AllTypes  # 56 bytes, 24 ptrs`
static ALL_TYPES: Schema = Schema {
    name: "AllTypes",
    size: StructSize::new(7, 24),
    members: &[
        member("voidField", Ty::Void, 0),                 // bits[0, 0)
        member("boolField", Ty::Bool, 0),                 // bits[0, 1)
        member("int8Field", Ty::I8, 1),                   // bits[8, 16)
        member("int16Field", Ty::I16, 1),                 // bits[16, 32)
        member("int32Field", Ty::I32, 1),                 // bits[32, 64)
        member("int64Field", Ty::I64, 1),                 // bits[64, 128)
        member("uint8Field", Ty::U8, 16),                 // bits[128, 136)
        member("uint16Field", Ty::U16, 9),                // bits[144, 160)
        member("uint32Field", Ty::U32, 5),                // bits[160, 192)
        member("uint64Field", Ty::U64, 3),                // bits[192, 256)
        member("float32Field", Ty::F32, 8),               // bits[256, 288)
        member("float64Field", Ty::F64, 5),               // bits[320, 384)
        member("textField", Ty::Text, 0),                 // ptr[0]
        member("dataField", Ty::Data, 1),                 // ptr[1]
        member("structField", Ty::Struct(&ALL_TYPES), 2), // ptr[2]
        member("enumField", Ty::Enum(COLOR), 18),         // bits[288, 304)
        member("voidList", Ty::List(&Ty::Void), 3),
        member("boolList", Ty::List(&Ty::Bool), 4),
        member("int8List", Ty::List(&Ty::I8), 5),
        member("int16List", Ty::List(&Ty::I16), 6),
        member("int32List", Ty::List(&Ty::I32), 7),
        member("int64List", Ty::List(&Ty::I64), 8),
        member("uint8List", Ty::List(&Ty::U8), 9),
        member("uint16List", Ty::List(&Ty::U16), 10),
        member("uint32List", Ty::List(&Ty::U32), 11),
        member("uint64List", Ty::List(&Ty::U64), 12),
        member("float32List", Ty::List(&Ty::F32), 13),
        member("float64List", Ty::List(&Ty::F64), 14),
        member("textList", Ty::List(&Ty::Text), 15),
        member("dataList", Ty::List(&Ty::Data), 16),
        member("structList", Ty::List(&Ty::Struct(&LABELED)), 17),
        member("enumList", Ty::List(&Ty::Enum(COLOR)), 18),
        member("listOfLists", Ty::List(&Ty::List(&Ty::I32)), 19),
        member("pointList", Ty::List(&Ty::Struct(&POINT)), 20),
        // union { # tag bits [304, 320)
        Member::Union {
            name: "choice",
            tag: 19,
            variants: &[
                field("none", Ty::Void, 0),             // union tag = 0
                field("count", Ty::U32, 12),            // bits[384, 416), tag = 1
                field("name", Ty::Text, 21),            // ptr[21], tag = 2
                field("point", Ty::Struct(&POINT), 21), // ptr[21], tag = 3
            ],
        },
        Member::Group {
            name: "group",
            fields: &[
                field("a", Ty::U16, 26),  // bits[416, 432)
                field("b", Ty::Text, 22), // ptr[22]
            ],
        },
        member("anyField", Ty::AnyPointer, 23), // ptr[23]
    ],
};

/// `struct Entry  # 16 bytes, 2 ptrs`
static ENTRY: Schema = Schema {
    name: "Entry",
    size: StructSize::new(2, 2),
    members: &[
        member("timestamp", Ty::U64, 0),        // bits[0, 64)
        member("level", Ty::U8, 8),             // bits[64, 72)
        member("message", Ty::Text, 0),         // ptr[0]
        member("tags", Ty::List(&Ty::Text), 1), // ptr[1]
    ],
};

/// `struct Log  # 0 bytes, 1 ptrs`
static LOG: Schema = Schema {
    name: "Log",
    size: StructSize::new(0, 1),
    members: &[member("entries", Ty::List(&Ty::Struct(&ENTRY)), 0)], // ptr[0]
};

/// The list element size the reference encodes a `List(ty)` with.
fn element_size(ty: Ty) -> ElementSize {
    match ty {
        Ty::Void => ElementSize::Void,
        Ty::Bool => ElementSize::Bit,
        Ty::I8 | Ty::U8 => ElementSize::Byte,
        Ty::I16 | Ty::U16 | Ty::Enum(_) => ElementSize::TwoBytes,
        Ty::I32 | Ty::U32 | Ty::F32 => ElementSize::FourBytes,
        Ty::I64 | Ty::U64 | Ty::F64 => ElementSize::EightBytes,
        Ty::Text | Ty::Data | Ty::List(_) | Ty::AnyPointer => ElementSize::Pointer,
        Ty::Struct(_) => ElementSize::InlineComposite,
    }
}

// ---------------------------------------------------------------------------
// The checker: every field of a reader against a parsed text value.
// ---------------------------------------------------------------------------

/// Where a value lives: a struct field or a list element.
#[derive(Clone, Copy)]
enum Src<'a> {
    Field(StructReader<'a>, usize),
    Elem(ListReader<'a>, u32),
}

impl<'a> Src<'a> {
    fn get<T: Primitive>(self) -> T {
        match self {
            Src::Field(s, i) => s.get::<T>(i),
            Src::Elem(l, i) => l.get::<T>(i),
        }
    }

    fn get_bool(self) -> bool {
        match self {
            Src::Field(s, i) => s.get_bool(i),
            Src::Elem(l, i) => l.get_bool(i),
        }
    }

    fn pointer(self) -> PointerReader<'a> {
        match self {
            Src::Field(s, i) => s.pointer(i),
            Src::Elem(l, i) => l.get_pointer(i),
        }
    }
}

/// Mismatches found so far, each with the path of the field.
#[derive(Default)]
struct Check {
    errors: Vec<String>,
}

impl Check {
    fn eq<T: PartialEq + Debug>(&mut self, path: &str, got: T, want: T) {
        if got != want {
            self.errors
                .push(format!("{path}: read {got:?}, text says {want:?}"));
        }
    }

    fn ok<T>(&mut self, path: &str, r: capnarena::Result<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(format!("{path}: read failed: {e}"));
                None
            }
        }
    }

    /// Every member of `schema` in `s` against `fields` (the text's
    /// fields; those it leaves out must read as defaults).
    fn check_struct(
        &mut self,
        path: &str,
        s: StructReader<'_>,
        schema: &Schema,
        fields: &[(String, Value)],
    ) {
        for (name, _) in fields {
            let known = schema.members.iter().any(|m| match m {
                Member::Field(f) => f.name == name,
                Member::Union { name: n, .. } | Member::Group { name: n, .. } => n == name,
            });
            assert!(
                known,
                "{path}: the text names `{name}`, not a field of {}",
                schema.name
            );
        }
        let lookup = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| v);
        for m in schema.members {
            match m {
                Member::Field(f) => {
                    let p = format!("{path}.{}", f.name);
                    self.check_value(&p, Src::Field(s, f.at), f.ty, lookup(f.name));
                }
                Member::Union {
                    name,
                    tag,
                    variants,
                } => {
                    let (which, value) = match lookup(name) {
                        None => (0, None),
                        Some(v) => {
                            let [(variant, value)] = v.fields() else {
                                panic!("{path}.{name}: a union value names one variant: {v:?}")
                            };
                            let which = variants
                                .iter()
                                .position(|f| f.name == variant)
                                .unwrap_or_else(|| panic!("{path}.{name}: no variant `{variant}`"));
                            (which, Some(value))
                        }
                    };
                    let f = &variants[which];
                    self.eq(
                        &format!("{path}.{name} (tag)"),
                        s.get::<u16>(*tag),
                        which as u16,
                    );
                    let p = format!("{path}.{name}.{}", f.name);
                    self.check_value(&p, Src::Field(s, f.at), f.ty, value);
                }
                Member::Group {
                    name,
                    fields: members,
                } => {
                    let given = lookup(name).map(Value::fields).unwrap_or_default();
                    for (n, _) in given {
                        assert!(
                            members.iter().any(|f| f.name == n),
                            "{path}.{name}: no field `{n}`"
                        );
                    }
                    for f in *members {
                        let value = given.iter().find(|(n, _)| n == f.name).map(|(_, v)| v);
                        let p = format!("{path}.{name}.{}", f.name);
                        self.check_value(&p, Src::Field(s, f.at), f.ty, value);
                    }
                }
            }
        }
    }

    /// One value of type `ty` at `src` against the text's `want` (`None`:
    /// the default: zero, or a null pointer).
    fn check_value(&mut self, path: &str, src: Src<'_>, ty: Ty, want: Option<&Value>) {
        match ty {
            Ty::Void => {
                if let Some(v) = want {
                    assert_eq!(v, &Value::Word("void".into()), "{path}");
                }
            }
            Ty::Bool => {
                let want = match want {
                    None => false,
                    Some(Value::Word(w)) if w == "true" => true,
                    Some(Value::Word(w)) if w == "false" => false,
                    Some(v) => panic!("{path}: not a Bool: {v:?}"),
                };
                self.eq(path, src.get_bool(), want);
            }
            Ty::I8 => self.eq(path, src.get::<i8>(), int(path, want)),
            Ty::I16 => self.eq(path, src.get::<i16>(), int(path, want)),
            Ty::I32 => self.eq(path, src.get::<i32>(), int(path, want)),
            Ty::I64 => self.eq(path, src.get::<i64>(), int(path, want)),
            Ty::U8 => self.eq(path, src.get::<u8>(), int(path, want)),
            Ty::U16 => self.eq(path, src.get::<u16>(), int(path, want)),
            Ty::U32 => self.eq(path, src.get::<u32>(), int(path, want)),
            Ty::U64 => self.eq(path, src.get::<u64>(), int(path, want)),
            // Compared as bits, so -0.0 is told from 0.0. The reference parses
            // a Float32 literal as a double, then narrows it.
            Ty::F32 => {
                let want = float(path, want) as f32;
                let got = src.get::<f32>();
                self.eq(path, (got.to_bits(), got), (want.to_bits(), want));
            }
            Ty::F64 => {
                let want = float(path, want);
                let got = src.get::<f64>();
                self.eq(path, (got.to_bits(), got), (want.to_bits(), want));
            }
            Ty::Enum(names) => {
                let want = match want {
                    None => 0,
                    Some(Value::Word(w)) => names
                        .iter()
                        .position(|n| n == w)
                        .unwrap_or_else(|| panic!("{path}: no enumerant `{w}`")),
                    Some(v) => panic!("{path}: not an enumerant: {v:?}"),
                };
                self.eq(path, src.get::<u16>(), want as u16);
            }
            Ty::Text | Ty::Data | Ty::Struct(_) | Ty::List(_) | Ty::AnyPointer => {
                let p = src.pointer();
                match want {
                    None => self.eq(&format!("{path} (null)"), p.is_null(), true),
                    Some(v) => self.check_pointer(path, p, ty, v),
                }
            }
        }
    }

    fn check_pointer(&mut self, path: &str, p: PointerReader<'_>, ty: Ty, want: &Value) {
        match (ty, want) {
            (Ty::Text, Value::Str(want)) => {
                if let Some(got) = self.ok(path, p.get_text()) {
                    self.eq(path, got.as_bytes(), &want[..]);
                }
            }
            (Ty::Data, Value::Str(want)) => {
                if let Some(got) = self.ok(path, p.get_data()) {
                    self.eq(path, got, &want[..]);
                }
            }
            (Ty::Struct(schema), Value::Struct(fields)) => {
                if let Some(s) = self.ok(path, p.get_struct()) {
                    self.eq(&format!("{path} (size)"), s.size(), schema.size);
                    self.check_struct(path, s, schema, fields);
                }
            }
            (Ty::List(elem), Value::List(items)) => {
                let Some(l) = self.ok(path, p.get_list(element_size(*elem))) else {
                    return;
                };
                self.eq(
                    &format!("{path} (element size)"),
                    l.element_size(),
                    element_size(*elem),
                );
                self.eq(&format!("{path} (len)"), l.len() as usize, items.len());
                for (i, item) in items.iter().enumerate().take(l.len() as usize) {
                    let p = format!("{path}[{i}]");
                    let i = i as u32;
                    match elem {
                        Ty::Struct(schema) => {
                            let s = l.get_struct(i);
                            self.eq(&format!("{p} (size)"), s.size(), schema.size);
                            self.check_struct(&p, s, schema, item.fields());
                        }
                        _ => self.check_value(&p, Src::Elem(l, i), *elem, Some(item)),
                    }
                }
            }
            (_, v) => panic!("{path}: the text's value {v:?} does not fit the schema's type"),
        }
    }
}

/// An integer from the text (0 when left out), narrowed to the field's type.
fn int<T: TryFrom<i128>>(path: &str, want: Option<&Value>) -> T {
    let v = match want {
        None => 0,
        Some(Value::Int(i)) => *i,
        Some(v) => panic!("{path}: not an integer: {v:?}"),
    };
    T::try_from(v).unwrap_or_else(|_| panic!("{path}: {v} out of the field's range"))
}

/// A float from the text (0 when left out).
fn float(path: &str, want: Option<&Value>) -> f64 {
    match want {
        None => 0.0,
        Some(Value::Float(f)) => *f,
        Some(Value::Int(i)) => *i as f64,
        Some(v) => panic!("{path}: not a number: {v:?}"),
    }
}

// ---------------------------------------------------------------------------
// Vectors and read paths.
// ---------------------------------------------------------------------------

/// Every message source in `tests/vectors`, with its root type.
const VECTORS: [(&str, &Schema); 5] = [
    ("empty", &ALL_TYPES),
    ("scalars", &ALL_TYPES),
    ("lists", &ALL_TYPES),
    ("full", &ALL_TYPES),
    ("log", &LOG),
];

/// The framed files of each vector (the segment table at the front).
const FRAMED: [&str; 4] = ["bin", "seg1.bin", "seg3.bin", "seg16.bin"];

/// Words of the buffer under each `FixedArena`: the largest vector
/// (`log.seg1.bin`, table included) is 6,532 words.
const FIXED_WORDS: usize = 1 << 14;

/// The parsed `NAME.txt`.
fn expected(name: &str) -> Value {
    let text = String::from_utf8(vector(&format!("{name}.txt"))).unwrap();
    alltxt::parse(&text)
}

/// All mismatches between the message `reader` holds and `want`.
fn mismatches(
    label: &str,
    reader: &MessageReader<'_>,
    schema: &Schema,
    want: &Value,
) -> Vec<String> {
    let mut check = Check::default();
    if let Some(root) = check.ok(&format!("{label}: root"), reader.root()) {
        check.eq(&format!("{label}: root (size)"), root.size(), schema.size);
        check.check_struct(label, root, schema, want.fields());
    }
    check.errors
}

/// Asserts that `reader` holds exactly `want`.
fn assert_reads(label: &str, reader: &MessageReader<'_>, schema: &Schema, want: &Value) {
    let errors = mismatches(label, reader, schema, want);
    assert!(errors.is_empty(), "{label}:\n{}", errors.join("\n"));
}

/// The segment count a framed file declares (first `u32`, plus one),
/// straight from its bytes.
fn declared_segments(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[..4].try_into().unwrap()) + 1
}

/// `bytes` copied to an address that is 1 mod 8, so a path that needs no
/// alignment is shown to need none.
fn misaligned(bytes: &[u8]) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; bytes.len() + 16];
    let shift = (9 - buf.as_ptr() as usize % 8) % 8;
    buf[shift..shift + bytes.len()].copy_from_slice(bytes);
    assert_eq!(buf[shift..].as_ptr() as usize % 8, 1);
    (buf, shift)
}

/// Reads the framed message in `bytes` on every path with `options`
/// and checks each against `want`: zero-copy from words and from aligned
/// bytes, then copied from misaligned bytes and from a stream into each
/// built-in arena.
fn check_framed(label: &str, bytes: &[u8], options: ReaderOptions, schema: &Schema, want: &Value) {
    let segments = declared_segments(bytes);
    let words = words_from_bytes(bytes).unwrap();

    let r = MessageReader::from_words(&words, options).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(r.segment_count(), segments, "{label}");
    assert_reads(&format!("{label} from_words"), &r, schema, want);

    let aligned = Word::slice_as_bytes(&words);
    let r = MessageReader::from_bytes(aligned, options).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(r.segment_count(), segments, "{label}");
    assert_reads(&format!("{label} from_bytes"), &r, schema, want);

    let (buf, shift) = misaligned(bytes);
    let unaligned = &buf[shift..shift + bytes.len()];
    let mut fixed_buf = vec![Word::ZERO; FIXED_WORDS];
    let mut single = Message::new(SingleSegmentArena::new());
    let mut multi = Message::new(MultiSegmentArena::new());
    let mut fixed = Message::new(FixedArena::new(&mut fixed_buf));
    macro_rules! into_arena {
        ($msg:ident) => {
            let what = concat!(" read_from_bytes into ", stringify!($msg));
            let r = $msg
                .read_from_bytes(unaligned, options)
                .unwrap_or_else(|e| panic!("{label}{what}: {e}"));
            assert_eq!(r.segment_count(), segments, "{label}{what}");
            assert_reads(&format!("{label}{what}"), &r, schema, want);

            let what = concat!(" read_from stream into ", stringify!($msg));
            let r = $msg
                .read_from(bytes, options)
                .unwrap_or_else(|e| panic!("{label}{what}: {e}"));
            assert_eq!(r.segment_count(), segments, "{label}{what}");
            assert_reads(&format!("{label}{what}"), &r, schema, want);
        };
    }
    into_arena!(single);
    into_arena!(multi);
    into_arena!(fixed);
}

/// `NAME.flat` (one segment, no table): read zero-copy as a segment, and,
/// framed here with a one-segment table, into each arena.
fn check_flat(name: &str, schema: &Schema, want: &Value) {
    let label = format!("{name}.flat");
    let flat = vector(&label);
    assert_eq!(flat.len() % 8, 0, "{label}");
    let words = words_from_bytes(&flat).unwrap();
    let segs: [&[Word]; 1] = [&words];
    let r = MessageReader::from_segments(&segs, ReaderOptions::new()).unwrap();
    assert_eq!(r.segment_count(), 1);
    assert_reads(&format!("{label} from_segments"), &r, schema, want);

    // The table of one segment: (count - 1) = 0, then the segment's words.
    let mut framed = 0u32.to_le_bytes().to_vec();
    framed.extend_from_slice(&u32::try_from(words.len()).unwrap().to_le_bytes());
    framed.extend_from_slice(&flat);
    check_framed(
        &format!("{label} (framed here)"),
        &framed,
        ReaderOptions::new(),
        schema,
        want,
    );
}

/// Every framing of vector `name` reads back `NAME.txt`, with `options`
/// for the framed files.
fn check_vector(name: &str, options: impl Fn(&str) -> ReaderOptions) {
    let schema = VECTORS.iter().find(|(n, _)| *n == name).unwrap().1;
    let want = expected(name);
    for ext in FRAMED {
        let file = format!("{name}.{ext}");
        check_framed(&file, &vector(&file), options(ext), schema, &want);
    }
    check_flat(name, schema, &want);
}

/// `tests/vectors` holds exactly the message sources this file checks, each
/// with all its framed files, so a new vector cannot go unread.
#[test]
fn every_vector_on_disk_is_covered() {
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".txt").map(str::to_owned))
        .collect();
    on_disk.sort();
    let mut covered: Vec<String> = VECTORS.iter().map(|(n, _)| n.to_string()).collect();
    covered.sort();
    assert_eq!(on_disk, covered);
    for (name, _) in VECTORS {
        for ext in FRAMED.iter().chain(&["flat"]) {
            let path = format!("{dir}/{name}.{ext}");
            assert!(std::fs::metadata(&path).is_ok(), "missing {path}");
        }
    }
}

/// `full` (every field kind set, nested structs two deep, every list kind,
/// union `name`, the group) reads back exactly on every path and framing.
#[test]
fn full_reads_back_on_every_path() {
    check_vector("full", |_| ReaderOptions::new());
}

/// `scalars` (extreme values of every primitive, union `count`, the
/// group) reads back exactly on every path and framing.
#[test]
fn scalars_reads_back_on_every_path() {
    check_vector("scalars", |_| ReaderOptions::new());
}

/// `lists` (empty lists, a 67-bit bool list crossing a word, empty texts,
/// empty structs, lists of empty lists, union `point`) reads back exactly
/// on every path and framing.
#[test]
fn lists_reads_back_on_every_path() {
    check_vector("lists", |_| ReaderOptions::new());
}

/// `empty` (no field set) reads every field as its default, every pointer
/// null, on every path and framing.
#[test]
fn empty_reads_back_on_every_path() {
    check_vector("empty", |_| ReaderOptions::new());
}

/// `log` (300 entries) reads back exactly on every path and framing; its
/// seg1 and seg3 files (over 512 segments) with the limit raised to 2000.
#[test]
fn log_reads_back_on_every_path() {
    check_vector("log", |ext| match ext {
        "seg1.bin" | "seg3.bin" => ReaderOptions::new().segment_limit(2000),
        _ => ReaderOptions::new(),
    });
}

/// The parsed `log.txt` agrees with the shared Log parser
/// (`tests/common/logtxt.rs`) entry by entry, so the two independent
/// readings of the text back each other.
#[test]
fn log_text_parsers_agree() {
    let text = String::from_utf8(vector("log.txt")).unwrap();
    let shared = common::logtxt::parse_log(&text);
    let parsed = alltxt::parse(&text);
    let Value::List(entries) = &parsed.fields()[0].1 else {
        panic!("log.txt: entries is not a list")
    };
    assert_eq!(entries.len(), shared.len());
    assert_eq!(entries.len(), 300);
    for (e, s) in entries.iter().zip(&shared) {
        let f = |n: &str| e.fields().iter().find(|(k, _)| k == n).map(|(_, v)| v);
        assert_eq!(f("timestamp"), Some(&Value::Int(i128::from(s.timestamp))));
        assert_eq!(f("level"), Some(&Value::Int(i128::from(s.level))));
        assert_eq!(
            f("message"),
            Some(&Value::Str(s.message.clone().into_bytes()))
        );
        let tags: Vec<Value> = s
            .tags
            .iter()
            .map(|t| Value::Str(t.clone().into_bytes()))
            .collect();
        assert_eq!(f("tags"), Some(&Value::List(tags)));
    }
}

/// The checker is not vacuous: `full.bin` checked against `scalars.txt`
/// fails on the fields they differ in, and a single flipped byte of
/// `full.bin`'s `int32Field` is reported on that field alone.
#[test]
fn checker_reports_wrong_values() {
    let bytes = vector("full.bin");
    let words = words_from_bytes(&bytes).unwrap();
    let r = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
    let errors = mismatches("full.bin", &r, &ALL_TYPES, &expected("scalars"));
    for field in [
        "int8Field",
        "uint64Field",
        "float64Field",
        "textField (null)",
        "choice (tag)",
        "group.b",
    ] {
        assert!(
            errors
                .iter()
                .any(|e| e.contains(&format!("full.bin.{field}"))),
            "no mismatch on {field}: {errors:#?}"
        );
    }

    // Bytes 8..16: the root pointer, a struct pointer with offset 0, data 7
    // words, 24 pointers, so the data section starts at byte 16 and
    // int32Field (bits [32, 64)) is bytes 20..24.
    assert_eq!(&bytes[8..16], &[0, 0, 0, 0, 7, 0, 24, 0]);
    let mut bad = words_from_bytes(&bytes).unwrap();
    Word::slice_as_bytes_mut(&mut bad)[20] ^= 0x01;
    let r = MessageReader::from_words(&bad, ReaderOptions::new()).unwrap();
    let errors = mismatches("flipped", &r, &ALL_TYPES, &expected("full"));
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].starts_with("flipped.int32Field:"), "{errors:#?}");
}

/// A change to an expectation.
type Edit = fn(&mut Value);

/// Field `name` of a struct value, to change an expectation.
fn field_mut<'v>(v: &'v mut Value, name: &str) -> &'v mut Value {
    let Value::Struct(fields) = v else {
        panic!("not a struct: {v:?}")
    };
    &mut fields.iter_mut().find(|(n, _)| n == name).unwrap().1
}

/// Element `i` of a list value.
fn item_mut(v: &mut Value, i: usize) -> &mut Value {
    let Value::List(items) = v else {
        panic!("not a list: {v:?}")
    };
    &mut items[i]
}

/// The checker reaches inside every kind of list, nested structs and the
/// union: one changed element or field in the expectation for `full` is
/// reported at exactly its path, and nowhere else (`-0.0` against `0.0`
/// included: floats are compared by bits).
#[test]
fn checker_reports_each_changed_element() {
    let mut want = expected("full");
    let edits: [(&str, Edit); 10] = [
        ("full.bin.listOfLists[3][1]", |v| {
            *item_mut(item_mut(field_mut(v, "listOfLists"), 3), 1) = Value::Int(7)
        }),
        ("full.bin.structList[1].label", |v| {
            *field_mut(item_mut(field_mut(v, "structList"), 1), "label") =
                Value::Str(b"secone".to_vec())
        }),
        ("full.bin.structList[2].point.y", |v| {
            *field_mut(
                field_mut(item_mut(field_mut(v, "structList"), 2), "point"),
                "y",
            ) = Value::Int(5)
        }),
        ("full.bin.boolList[8]", |v| {
            *item_mut(field_mut(v, "boolList"), 8) = Value::Word("false".into())
        }),
        ("full.bin.float64List[1]", |v| {
            *item_mut(field_mut(v, "float64List"), 1) = Value::Float(0.0)
        }),
        ("full.bin.enumList[2]", |v| {
            *item_mut(field_mut(v, "enumList"), 2) = Value::Word("green".into())
        }),
        ("full.bin.dataList[1]", |v| {
            *item_mut(field_mut(v, "dataList"), 1) = Value::Str(vec![1])
        }),
        ("full.bin.structField.structField.textList[0]", |v| {
            let inner = field_mut(field_mut(v, "structField"), "structField");
            *item_mut(field_mut(inner, "textList"), 0) = Value::Str(b"deep!".to_vec())
        }),
        ("full.bin.choice.name", |v| {
            *field_mut(field_mut(v, "choice"), "name") = Value::Str(b"union texT".to_vec())
        }),
        ("full.bin.int8List (len)", |v| {
            let Value::List(items) = field_mut(v, "int8List") else {
                unreachable!()
            };
            items.pop();
        }),
    ];
    for (_, edit) in &edits {
        edit(&mut want);
    }
    let words = words_from_bytes(&vector("full.bin")).unwrap();
    let r = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
    let errors = mismatches("full.bin", &r, &ALL_TYPES, &want);
    let mut got: Vec<&str> = errors
        .iter()
        .map(|e| e.split(": ").next().unwrap())
        .collect();
    let mut paths: Vec<&str> = edits.iter().map(|(p, _)| *p).collect();
    got.sort_unstable();
    paths.sort_unstable();
    assert_eq!(got, paths, "{errors:#?}");
}

// ---------------------------------------------------------------------------
// The segment limit.
// ---------------------------------------------------------------------------

/// A refused read: `SegmentLimitExceeded` with the file's segment count and
/// the limit in force.
fn assert_refused<T>(what: &str, r: capnarena::Result<T>, count: u64, limit: u32) {
    match r {
        Err(Error::SegmentLimitExceeded { count: c, limit: l }) => {
            assert_eq!((c, l), (count, limit), "{what}");
        }
        Err(e) => panic!("{what}: wrong error: {e:?}"),
        Ok(_) => panic!("{what}: read {count} segments under a limit of {limit}"),
    }
}

/// Every read path refuses the framed message in `bytes` under `options`
/// (whose limit is below its `count` segments), and copies nothing into
/// any arena first.
fn assert_refused_everywhere(file: &str, bytes: &[u8], options: ReaderOptions, count: u64) {
    let limit = options.segment_limit;
    let words = words_from_bytes(bytes).unwrap();
    assert_refused(
        &format!("{file} from_words"),
        MessageReader::from_words(&words, options),
        count,
        limit,
    );
    assert_refused(
        &format!("{file} from_words_prefix"),
        MessageReader::from_words_prefix(&words, options),
        count,
        limit,
    );
    let aligned = Word::slice_as_bytes(&words);
    assert_refused(
        &format!("{file} from_bytes"),
        MessageReader::from_bytes(aligned, options),
        count,
        limit,
    );

    let mut single = Message::new(SingleSegmentArena::new());
    assert_refused(
        &format!("{file} read_from_bytes single"),
        single.read_from_bytes(bytes, options),
        count,
        limit,
    );
    assert_refused(
        &format!("{file} read_from single"),
        single.read_from(bytes, options),
        count,
        limit,
    );
    assert_eq!(
        single.arena().capacity(),
        0,
        "{file}: single arena allocated before refusing"
    );

    let mut multi = Message::new(MultiSegmentArena::new());
    assert_refused(
        &format!("{file} read_from_bytes multi"),
        multi.read_from_bytes(bytes, options),
        count,
        limit,
    );
    assert_refused(
        &format!("{file} read_from multi"),
        multi.read_from(bytes, options),
        count,
        limit,
    );
    assert_eq!(
        multi.arena().capacity(),
        0,
        "{file}: multi arena allocated before refusing"
    );

    let mut buf = vec![Word::ZERO; FIXED_WORDS];
    let mut fixed = Message::new(FixedArena::new(&mut buf));
    assert_refused(
        &format!("{file} read_from_bytes fixed"),
        fixed.read_from_bytes(bytes, options),
        count,
        limit,
    );
    assert_refused(
        &format!("{file} read_from fixed"),
        fixed.read_from(bytes, options),
        count,
        limit,
    );
    assert_eq!(
        fixed.arena().used(),
        0,
        "{file}: fixed arena allocated before refusing"
    );
}

/// `log.seg1.bin` (1,186 segments) and `log.seg3.bin` (1,142) are refused
/// under the default `ReaderOptions` (limit 512) on every read path, with
/// `SegmentLimitExceeded { count, limit: 512 }`, and nothing is copied.
#[test]
fn many_segments_refused_by_default() {
    for (file, count) in [("log.seg1.bin", 1186), ("log.seg3.bin", 1142)] {
        let bytes = vector(file);
        assert_eq!(u64::from(declared_segments(&bytes)), count, "{file}");
        assert_eq!(ReaderOptions::default().segment_limit, 512);
        assert_refused_everywhere(file, &bytes, ReaderOptions::default(), count);
    }
}

/// The limit is exact: `log.seg1.bin` reads (on every path, every field)
/// under a limit of exactly 1,186 segments and is refused under 1,185; and
/// `from_segments` holds the same limit for segments given one by one.
#[test]
fn segment_limit_is_exact() {
    let bytes = vector("log.seg1.bin");
    let want = expected("log");
    check_framed(
        "log.seg1.bin",
        &bytes,
        ReaderOptions::new().segment_limit(1186),
        &LOG,
        &want,
    );
    assert_refused_everywhere(
        "log.seg1.bin",
        &bytes,
        ReaderOptions::new().segment_limit(1185),
        1186,
    );

    // The same segments, split by the table here and given as slices.
    let words = words_from_bytes(&bytes).unwrap();
    let count = declared_segments(&bytes) as usize;
    let table_words = (count + 2) / 2;
    let mut segs: Vec<&[Word]> = Vec::with_capacity(count);
    let mut at = table_words;
    for i in 0..count {
        let len = u32::from_le_bytes(bytes[4 + 4 * i..8 + 4 * i].try_into().unwrap()) as usize;
        segs.push(&words[at..at + len]);
        at += len;
    }
    assert_eq!(at, words.len());
    assert_refused(
        "log.seg1.bin from_segments",
        MessageReader::from_segments(&segs, ReaderOptions::default()),
        1186,
        512,
    );
    let r = MessageReader::from_segments(&segs, ReaderOptions::new().segment_limit(2000)).unwrap();
    assert_reads("log.seg1.bin from_segments", &r, &LOG, &want);
}

// ---------------------------------------------------------------------------
// Fields past the end of a smaller struct.
// ---------------------------------------------------------------------------

/// Every `AllTypes` field lying wholly past a struct of `size` reads as its
/// default (zero, empty, null), checked through the schema above with an
/// empty expectation, restricted to fields past the struct's sections.
fn assert_defaults_past(label: &str, s: StructReader<'_>, size: StructSize) {
    let data_bits = usize::from(size.data_words) * 64;
    let ptrs = usize::from(size.pointers);
    let mut check = Check::default();
    let past = |f: &Field| match f.ty {
        Ty::Void => false,
        Ty::Bool => f.at >= data_bits,
        Ty::I8 | Ty::U8 => f.at * 8 >= data_bits,
        Ty::I16 | Ty::U16 | Ty::Enum(_) => f.at * 16 >= data_bits,
        Ty::I32 | Ty::U32 | Ty::F32 => f.at * 32 >= data_bits,
        Ty::I64 | Ty::U64 | Ty::F64 => f.at * 64 >= data_bits,
        _ => f.at >= ptrs,
    };
    let mut seen = 0;
    for m in ALL_TYPES.members {
        let fields: &[Field] = match m {
            Member::Field(f) => std::slice::from_ref(f),
            Member::Union { variants, .. } => variants,
            Member::Group { fields, .. } => fields,
        };
        for f in fields.iter().filter(|f| past(f)) {
            seen += 1;
            let p = format!("{label}.{}", f.name);
            check.check_value(&p, Src::Field(s, f.at), f.ty, None);
            // A pointer past the section also reads as an empty value of
            // its type, not only as null.
            match f.ty {
                Ty::Text => check.eq(&p, check_ok(s.get_text(f.at)), ""),
                Ty::Data => check.eq(&p, check_ok(s.get_data(f.at)), &[][..]),
                Ty::Struct(_) => check.eq(
                    &p,
                    check_ok(s.get_struct(f.at)).size(),
                    StructSize::new(0, 0),
                ),
                Ty::List(e) => check.eq(&p, check_ok(s.get_list(f.at, element_size(*e))).len(), 0),
                _ => {}
            }
        }
    }
    assert!(seen > 20, "{label}: only {seen} fields past the struct");
    assert!(
        check.errors.is_empty(),
        "{label}:\n{}",
        check.errors.join("\n")
    );
}

fn check_ok<T>(r: capnarena::Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("reading past a struct failed: {e}"))
}

/// A struct with one data word and no pointers (a `Point`, words spelled
/// by hand) read as `AllTypes`: the fields inside its data word read its
/// bytes, every field past it reads as the default, every pointer as null.
#[test]
fn fields_past_a_smaller_struct_read_as_defaults() {
    let words: Vec<Word> = [
        0x0000_0002_0000_0000u64, // segment table: 1 segment (count - 1 = 0), of 2 words
        0x0000_0001_0000_0000u64, // root: struct, offset 0, data 1 word, 0 pointers
        0xFFFF_FFEC_0000_000Au64, // Point: x = 10 (bits [0, 32)), y = -20 (bits [32, 64))
    ]
    .iter()
    .map(|w| Word(w.to_le_bytes()))
    .collect();
    let r = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
    let root = r.root().unwrap();
    assert_eq!(root.size(), StructSize::new(1, 0));
    // Inside the data word, as `AllTypes` lays it out.
    assert_eq!(root.get::<i32>(1), -20, "int32Field = Point.y");
    assert_eq!(root.get::<i8>(1), 0, "int8Field = byte 1 of x");
    assert_eq!(root.get::<i16>(1), 0, "int16Field = bytes 2..4 of x");
    assert!(!root.get_bool(0), "boolField = bit 0 of x = 10");
    assert!(root.get_bool(1), "bit 1 of x = 10");
    // With a schema default, a field past the section reads the default.
    assert_eq!(root.get_or::<u64>(3, 0xDEAD_BEEF), 0xDEAD_BEEF);
    assert!(root.get_bool_or(64, true));
    assert_eq!(root.get_or::<f64>(5, -2.5), -2.5);
    assert_defaults_past("Point as AllTypes", root, StructSize::new(1, 0));
}

/// Elements of the reference's struct lists in `full.bin` read as the
/// larger `AllTypes`: fields past each element's sections read as defaults,
/// never as the next element's words (`pointList[0]` is followed by
/// `(x = 2, y = -2)`; `structList[0]` by the second `Labeled`). Every
/// framing, so far pointers lead to the lists.
#[test]
fn struct_list_elements_read_as_larger_struct() {
    for ext in FRAMED {
        let file = format!("full.{ext}");
        let words = words_from_bytes(&vector(&file)).unwrap();
        let r = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
        let root = r.root().unwrap();

        // pointList = [(x = 1, y = -1), (x = 2, y = -2), (x = 2147483647, y = -2147483648)]
        let points = root.get_list(20, ElementSize::InlineComposite).unwrap();
        assert_eq!(points.len(), 3, "{file}");
        for (i, (x, y)) in [(1, -1), (2, -2), (i32::MAX, i32::MIN)]
            .into_iter()
            .enumerate()
        {
            let p = points.get_struct(i as u32);
            assert_eq!(
                (p.get::<i32>(0), p.get::<i32>(1)),
                (x, y),
                "{file} pointList[{i}]"
            );
            assert_defaults_past(&format!("{file} pointList[{i}] as AllTypes"), p, POINT.size);
        }

        // structList = [(label = "first", point = (x = 1, y = 2), weight = 0.5),
        //               (label = "second", weight = -1.0), (point = (x = -3, y = 4))]
        let labeled = root.get_list(17, ElementSize::InlineComposite).unwrap();
        assert_eq!(labeled.len(), 3, "{file}");
        let first = labeled.get_struct(0);
        assert_eq!(
            first.get_text(0).unwrap(),
            "first",
            "{file}: textField = Labeled.label"
        );
        assert_eq!(first.get::<f64>(0), 0.5, "{file}: weight in data word 0");
        assert_defaults_past(
            &format!("{file} structList[0] as AllTypes"),
            first,
            LABELED.size,
        );
    }
}

/// A primitive list read as a struct list (as the spec allows for schema
/// evolution): each `int32List` element (`[1, -2, 3, -4, 5]`) is a struct
/// whose first 32-bit field is the value; wider or later fields read 0 and
/// pointers null.
#[test]
fn primitive_list_read_as_struct_list() {
    let words = words_from_bytes(&vector("full.bin")).unwrap();
    let r = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
    let list = r
        .root()
        .unwrap()
        .get_list(7, ElementSize::InlineComposite)
        .unwrap();
    assert_eq!(list.len(), 5);
    for (i, v) in [1i32, -2, 3, -4, 5].into_iter().enumerate() {
        let s = list.get_struct(i as u32);
        assert_eq!(s.get::<i32>(0), v, "int32List[{i}]");
        assert_eq!(
            s.get::<i32>(1),
            0,
            "int32List[{i}]: second i32 is past the element"
        );
        assert_eq!(
            s.get::<i64>(0),
            0,
            "int32List[{i}]: an i64 does not fit in 32 bits"
        );
        assert!(s.pointer(0).is_null(), "int32List[{i}]");
        assert_eq!(s.get_text(0).unwrap(), "");
    }
}

// ---------------------------------------------------------------------------
// Schema defaults, stored XOR.
// ---------------------------------------------------------------------------

/// `all_types.capnp` declares no defaults, so this one comes from the
/// reference for this schema (`capnp compile -ocapnp` layout in comments):
///
/// ```capnp
/// struct Defaults {                    # 24 bytes, 0 ptrs
///   i32 @0 :Int32 = 5;                 # bits[0, 32)
///   flag @1 :Bool = true;              # bits[32, 33)
///   f64 @2 :Float64 = 1.5;             # bits[64, 128)
///   u16 @3 :UInt16 = 7;                # bits[48, 64)
///   color @4 :Color = blue;            # bits[128, 144)
///   f32 @5 :Float32 = -2;              # bits[160, 192)
///   i8 @6 :Int8 = -3;                  # bits[40, 48)
/// }
/// ```
/// `DEFAULTS_SET` is `capnp convert text:flat` of
/// `(i32 = 5, flag = false, f64 = 0, u16 = 0, color = red, f32 = 2.0, i8 = 100)`;
/// `DEFAULTS_EMPTY` of `()`.
const DEFAULTS_SET: [u64; 4] = [
    0x0000_0003_0000_0000, // root: struct, offset 0, data 3 words, 0 pointers
    0x0007_9901_0000_0000, // i32 5^5 = 0; flag bit 32 = false^true; i8 100^-3 = 0x99; u16 0^7
    0x3FF8_0000_0000_0000, // f64: bits of 0.0 ^ bits of 1.5
    0x8000_0000_0000_0002, // color red^blue = 2; f32: bits of 2.0 ^ bits of -2.0
];
const DEFAULTS_EMPTY: [u64; 4] = [0x0000_0003_0000_0000, 0, 0, 0];

fn segment(words: &[u64]) -> Vec<Word> {
    words.iter().map(|w| Word(w.to_le_bytes())).collect()
}

/// `get_or` / `get_bool_or` give the text's values for fields stored XOR
/// their schema default, in bytes the reference wrote: values equal to the
/// default, values different from it, and an all-zero section reading as
/// every default; a struct with no data section reads the defaults too.
#[test]
fn schema_defaults_are_stored_xor() {
    let set = segment(&DEFAULTS_SET);
    let segs: [&[Word]; 1] = [&set];
    let r = MessageReader::from_segments(&segs, ReaderOptions::new()).unwrap();
    let s = r.root().unwrap();
    assert_eq!(s.get_or::<i32>(0, 5), 5, "i32 = 5");
    assert!(!s.get_bool_or(32, true), "flag = false");
    assert_eq!(s.get_or::<f64>(1, 1.5).to_bits(), 0f64.to_bits(), "f64 = 0");
    assert_eq!(s.get_or::<u16>(3, 7), 0, "u16 = 0");
    assert_eq!(s.get_or::<u16>(8, 2), 0, "color = red");
    assert_eq!(s.get_or::<f32>(5, -2.0), 2.0, "f32 = 2.0");
    assert_eq!(s.get_or::<i8>(5, -3), 100, "i8 = 100");

    let empty = segment(&DEFAULTS_EMPTY);
    // root: struct, offset -1 (zero-sized, as the spec encodes it), no data, no pointers
    let no_data = segment(&[0x0000_0000_FFFF_FFFC]);
    for words in [&empty, &no_data] {
        let segs: [&[Word]; 1] = [words];
        let r = MessageReader::from_segments(&segs, ReaderOptions::new()).unwrap();
        let s = r.root().unwrap();
        assert_eq!(s.get_or::<i32>(0, 5), 5);
        assert!(s.get_bool_or(32, true));
        assert_eq!(s.get_or::<f64>(1, 1.5), 1.5);
        assert_eq!(s.get_or::<u16>(3, 7), 7);
        assert_eq!(s.get_or::<u16>(8, 2), 2, "color = blue");
        assert_eq!(s.get_or::<f32>(5, -2.0), -2.0);
        assert_eq!(s.get_or::<i8>(5, -3), -3);
    }
}
