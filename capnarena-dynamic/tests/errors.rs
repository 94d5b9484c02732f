//! Errors, with the numbers that explain them: a schema (request) that
//! the dynamic layer cannot follow safely, and values that do not fit
//! the schema. Bad requests are a valid request changed in one place
//! through the `schema.capnp` builders; arbitrary requests (random bytes,
//! random changes to a valid one) never panic, and a schema that loads
//! can be walked without panicking.

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
use capnarena_compiler::Compiler;
use capnarena_dynamic::schema_capnp::{code_generator_request, field, node, type_, value};
use capnarena_dynamic::{
    DynamicStructBuilder, DynamicStructReader, DynamicValue, Error, LoadedSchema, Schema,
    StructSchema,
};
use proptest::prelude::*;

const SCHEMA: &str = r#"
@0xc1d2e3f4a5b69788;
enum Color { red @0; green @1; }
struct Inner { x @0 :Int32; }
struct S {
  i8 @0 :Int8;
  text @1 :Text;
  color @2 :Color;
  inner @3 :Inner;
  ints @4 :List(Int32);
  union {
    a @5 :Void;
    b @6 :UInt16;
  }
  g :group {
    y @7 :UInt32;
  }
}
"#;

fn request() -> Vec<u8> {
    Compiler::new()
        .no_standard_import()
        .source("/e.capnp", SCHEMA)
        .file("/e.capnp")
        .compile()
        .expect("compiles")
}

/// Index of the node named `name` in the request, and its id.
fn node_index(request: &[u8], name: &str) -> (u32, u64) {
    let reader = MessageReader::from_bytes(request, ReaderOptions::default()).unwrap();
    let req: code_generator_request::Reader<'_> = reader.get_root().unwrap();
    let nodes = req.get_nodes().unwrap();
    for i in 0..nodes.len() {
        let n = nodes.get(i);
        if n.get_display_name().unwrap() == format!("e.capnp:{name}") {
            return (i, n.get_id());
        }
    }
    panic!("no node {name}");
}

/// The request with node `name` changed by `f`.
fn mutate(name: &str, f: impl FnOnce(node::Builder<'_, SingleSegmentArena>)) -> Vec<u8> {
    let bytes = request();
    let (index, _) = node_index(&bytes, name);
    let source = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.set_root(&source.root().unwrap()).unwrap();
    {
        let mut root: code_generator_request::Builder<'_, _> = msg.get_root().unwrap();
        let mut nodes = root.get_nodes().unwrap();
        f(nodes.get(index));
    }
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// Field `index` of struct node `n`.
fn with_field(
    mut n: node::Builder<'_, SingleSegmentArena>,
    index: u32,
    f: impl FnOnce(field::Builder<'_, SingleSegmentArena>),
) {
    let node::WhichBuilder::Struct(mut s) = n.which().unwrap() else {
        panic!("not a struct")
    };
    let mut fields = s.get_fields().unwrap();
    f(fields.get(index));
}

/// The slot's type of field `index` of struct node `n`.
fn with_slot(
    n: node::Builder<'_, SingleSegmentArena>,
    index: u32,
    f: impl FnOnce(field::slot::Builder<'_, SingleSegmentArena>),
) {
    with_field(n, index, |mut fb| {
        let field::WhichBuilder::Slot(slot) = fb.which().unwrap() else {
            panic!("not a slot")
        };
        f(slot)
    });
}

fn load_err(bytes: &[u8]) -> Error {
    LoadedSchema::from_request_bytes(bytes).expect_err("the request must be refused")
}

/// The unchanged request loads (so each refusal below is the change's).
#[test]
fn the_base_request_loads() {
    let loaded = LoadedSchema::from_request_bytes(&request()).unwrap();
    assert!(loaded.schema().find_struct("e.capnp:S").is_ok());
}

/// A field past its struct's data section, or pointer section, is refused
/// with the struct, field, offset, width and section size.
#[test]
fn field_outside_its_section() {
    let (_, s) = node_index(&request(), "S");
    let bytes = mutate("S", |n| with_slot(n, 0, |mut slot| slot.set_offset(1000)));
    let err = load_err(&bytes);
    assert!(
        matches!(err, Error::FieldOutOfBounds { struct_id, field: 0, what: "data offset", offset: 1000, bits: 8, section: 128 } if struct_id == s),
        "{err}"
    );
    let bytes = mutate("S", |n| with_slot(n, 1, |mut slot| slot.set_offset(99)));
    let err = load_err(&bytes);
    assert!(
        matches!(
            err,
            Error::FieldOutOfBounds {
                field: 1,
                what: "pointer",
                offset: 99,
                bits: 64,
                ..
            }
        ),
        "{err}"
    );
    let bytes = mutate("S", |mut n| {
        let node::WhichBuilder::Struct(mut st) = n.which().unwrap() else {
            panic!()
        };
        st.set_discriminant_offset(5000);
    });
    let err = load_err(&bytes);
    assert!(
        matches!(
            err,
            Error::FieldOutOfBounds {
                what: "discriminant offset",
                offset: 5000,
                bits: 16,
                ..
            }
        ),
        "{err}"
    );
}

/// A type naming a missing node, or a node of another kind.
#[test]
fn type_naming_a_missing_or_wrong_node() {
    let bytes = mutate("S", |n| {
        with_slot(n, 3, |mut slot| {
            let mut ty = slot.get_type().unwrap();
            let type_::WhichBuilder::Struct(mut st) = ty.which().unwrap() else {
                panic!()
            };
            st.set_type_id(0x1234_5678);
        })
    });
    let err = load_err(&bytes);
    assert!(
        matches!(err, Error::MissingNode { id: 0x1234_5678 }),
        "{err}"
    );
    let (_, inner) = node_index(&request(), "Inner");
    let bytes = mutate("S", |n| {
        with_slot(n, 2, |mut slot| {
            let mut ty = slot.get_type().unwrap();
            let type_::WhichBuilder::Enum(mut e) = ty.which().unwrap() else {
                panic!()
            };
            e.set_type_id(inner);
        })
    });
    let err = load_err(&bytes);
    assert!(
        matches!(err, Error::WrongNodeKind { id, expected: "enum", found: "struct" } if id == inner),
        "{err}"
    );
}

/// A group field naming its own struct (a loop), a group of another
/// scope, or a node used twice is refused; so is a node id given twice.
#[test]
fn groups_and_ids() {
    let (_, s) = node_index(&request(), "S");
    let group_field = 7; // i8 text color inner ints a b g
    let bytes = mutate("S", |n| {
        with_field(n, group_field, |mut fb| {
            let field::WhichBuilder::Group(mut g) = fb.which().unwrap() else {
                panic!()
            };
            g.set_type_id(s);
        })
    });
    let err = load_err(&bytes);
    assert!(
        matches!(&err, Error::BadGroup { group, parent, field: 7, .. } if *group == s && *parent == s),
        "{err}"
    );

    let (_, inner) = node_index(&request(), "Inner");
    let bytes = mutate("S.g", |mut n| n.set_scope_id(inner));
    let err = load_err(&bytes);
    assert!(
        matches!(&err, Error::BadGroup { problem, .. } if problem.contains(&format!("{inner:#018x}"))),
        "{err}"
    );

    let (_, color) = node_index(&request(), "Color");
    let bytes = mutate("Inner", |mut n| n.set_id(color));
    let err = load_err(&bytes);
    assert!(
        matches!(err, Error::DuplicateNode { id } if id == color),
        "{err}"
    );
}

/// A default value of another kind than its field's type.
#[test]
fn default_of_another_kind() {
    let bytes = mutate("S", |n| {
        with_slot(n, 0, |mut slot| {
            let mut v: value::Builder<'_, _> = slot.get_default_value().unwrap();
            v.set_text("not an Int8").unwrap();
        })
    });
    let err = load_err(&bytes);
    assert!(
        matches!(err, Error::BadValue { found: "text", .. }),
        "{err}"
    );
}

/// A type nested past the bound is refused before going deeper.
#[test]
fn type_nested_too_deeply() {
    let bytes = mutate("S", |n| {
        with_slot(n, 4, |mut slot| {
            // Through the untyped builders: `Type` is a union whose `list`
            // member (discriminant 14) holds the element type in pointer 0.
            let mut t = slot.get_type().unwrap().into_struct_builder();
            for _ in 0..100 {
                t.set::<u16>(0, 14);
                t = t.into_pointer(0).init_struct(type_::STRUCT_SIZE).unwrap();
            }
            t.set::<u16>(0, 4); // int32
        })
    });
    let err = load_err(&bytes);
    assert!(
        matches!(
            err,
            Error::Limit {
                what: "levels of nesting in a type",
                found: 65,
                limit: 64,
                ..
            }
        ),
        "{err}"
    );
}

/// Generic bindings made by hand nest at most
/// `MAX_RESOLVED_TYPE_DEPTH` levels: binding a deeper type is refused
/// with its depth, and types of any depth compare and print in constant
/// stack.
#[test]
fn bindings_nested_too_deeply() {
    use capnarena_dynamic::{MAX_RESOLVED_TYPE_DEPTH, Type};
    use std::sync::Arc;
    let loaded = LoadedSchema::from_request_bytes(&request()).unwrap();
    let schema = loaded.schema();
    let inner = schema.find_struct("e.capnp:Inner").unwrap();
    let mut deep = Type::Text;
    for _ in 0..MAX_RESOLVED_TYPE_DEPTH {
        deep = Type::List(Arc::new(deep));
    }
    // 256 lists, and the binding's own level.
    let err = inner.bind(vec![deep.clone()]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Limit {
                found: 257,
                limit: 256,
                ..
            }
        ),
        "{err}"
    );
    let mut ok = Type::Text;
    for _ in 0..MAX_RESOLVED_TYPE_DEPTH - 1 {
        ok = Type::List(Arc::new(ok));
    }
    assert!(inner.bind(vec![ok]).is_ok());
    let mut huge = Type::Text;
    for _ in 0..200_000 {
        huge = Type::List(Arc::new(huge));
    }
    assert!(huge.same_as(&huge.clone()));
    assert!(huge.to_string().starts_with("List(List("));
    assert!(inner.bind(vec![huge.clone()]).is_err());
    // Drop the deep chain one level at a time (Arc's drop recurses).
    while let Type::List(e) = huge {
        huge = Arc::try_unwrap(e).unwrap_or(Type::Void);
    }
}

/// A request cut short is the runtime's error.
#[test]
fn truncated_request() {
    let bytes = request();
    let err = load_err(&bytes[..bytes.len() / 2]);
    assert!(matches!(err, Error::Wire(_)), "{err}");
}

fn schema_s<'s>(schema: &'s Schema<'s>) -> StructSchema<'s> {
    schema.find_struct("e.capnp:S").unwrap()
}

/// Values that do not fit the schema are refused with what was expected
/// and what was given; the struct is unchanged.
#[test]
fn values_that_do_not_fit() {
    let loaded = LoadedSchema::from_request_bytes(&request()).unwrap();
    let schema = loaded.schema();
    let s = schema_s(&schema);
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b = DynamicStructBuilder::init_root(&mut msg, s.clone()).unwrap();

    let err = b.set_by_name("text", DynamicValue::Int32(5)).unwrap_err();
    assert!(
        matches!(&err, Error::TypeMismatch { expected, found, .. } if expected == "Text" && found == "Int32"),
        "{err}"
    );
    let err = b.set_by_name("i8", DynamicValue::Int32(300)).unwrap_err();
    assert!(
        matches!(&err, Error::ValueOutOfRange { expected: "Int8", value, .. } if value == "300"),
        "{err}"
    );
    let err = b.set_by_name("i8", DynamicValue::Float64(1.0)).unwrap_err();
    assert!(matches!(err, Error::TypeMismatch { .. }), "{err}");
    let err = b.set_by_name("color", "purple".into()).unwrap_err();
    let color = schema.find("e.capnp:Color").unwrap();
    assert!(
        matches!(&err, Error::NoSuchEnumerant { enum_id, name } if *enum_id == color && name == "purple"),
        "{err}"
    );
    let err = b
        .set_by_name("color", DynamicValue::UInt32(70000))
        .unwrap_err();
    assert!(matches!(err, Error::ValueOutOfRange { .. }), "{err}");
    let err = b
        .set_by_name("ints", DynamicValue::Data(b"xy"))
        .unwrap_err();
    assert!(
        matches!(&err, Error::TypeMismatch { expected, .. } if expected == "List(Int32)"),
        "{err}"
    );
    let err = b.get_by_name("nope").err().unwrap();
    assert!(
        matches!(&err, Error::NoSuchField { struct_id, name } if *struct_id == s.id() && name == "nope"),
        "{err}"
    );
    // A field of another struct.
    let x = schema
        .find_struct("e.capnp:Inner")
        .unwrap()
        .field_by_name("x")
        .unwrap();
    let err = b.set(&x, DynamicValue::Int32(1)).unwrap_err();
    assert!(
        matches!(err, Error::FieldOfOtherStruct { field: 0, field_struct, value_struct } if field_struct == x.parent().id() && value_struct == s.id()),
        "{err}"
    );
    // A struct of another type.
    {
        let mut other = Message::new(SingleSegmentArena::new());
        DynamicStructBuilder::init_root(&mut other, s.clone()).unwrap();
        let reader = other.reader();
        let wrong = DynamicStructReader::root(&reader, s.clone()).unwrap();
        let err = b
            .set_by_name("inner", DynamicValue::Struct(wrong))
            .unwrap_err();
        assert!(matches!(err, Error::TypeMismatch { .. }), "{err}");
    }
    // Lists: out of range on builders and readers.
    let mut ints = b.init_list_by_name("ints", 2).unwrap().into_list().unwrap();
    ints.set(1, DynamicValue::Int32(-7)).unwrap();
    let err = ints.set(2, DynamicValue::Int32(1)).unwrap_err();
    assert!(
        matches!(err, Error::IndexOutOfRange { index: 2, len: 2 }),
        "{err}"
    );
    assert!(matches!(
        ints.get(9).err().unwrap(),
        Error::IndexOutOfRange { index: 9, len: 2 }
    ));
    assert!(matches!(
        ints.init(0, 3).err().unwrap(),
        Error::IndexOutOfRange { .. } | Error::TypeMismatch { .. }
    ));
    // Union: the inactive member.
    b.set_by_name("b", DynamicValue::UInt16(3)).unwrap();
    let a = s.field_by_name("a").unwrap();
    let err = b.get(&a).err().unwrap();
    assert!(
        matches!(
            err,
            Error::InactiveUnionMember {
                field: 5,
                expected: 0,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    drop(b);
    let reader = msg.reader();
    let r = DynamicStructReader::root(&reader, s.clone()).unwrap();
    // Nothing refused was written.
    assert!(matches!(
        r.get_by_name("i8").unwrap(),
        DynamicValue::Int8(0)
    ));
    assert!(!r.has_by_name("text").unwrap());
    assert_eq!(r.which().unwrap().unwrap().name(), "b");
    assert!(matches!(
        r.get(&a).err().unwrap(),
        Error::InactiveUnionMember { .. }
    ));
    let ints = r.get_by_name("ints").unwrap().into_list().unwrap();
    assert!(matches!(
        ints.get(2).err().unwrap(),
        Error::IndexOutOfRange { index: 2, len: 2 }
    ));
    assert!(matches!(ints.get(1).unwrap(), DynamicValue::Int32(-7)));
}

/// A discriminant the schema does not list is an error naming it.
#[test]
fn unknown_discriminant() {
    let loaded = LoadedSchema::from_request_bytes(&request()).unwrap();
    let schema = loaded.schema();
    let s = schema_s(&schema);
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut raw = msg.init_root_struct(s.size()).unwrap();
        raw.set::<u16>(s.discriminant_offset() as usize, 9);
    }
    let reader = msg.reader();
    let r = DynamicStructReader::root(&reader, s.clone()).unwrap();
    let err = r.which().unwrap_err();
    assert!(
        matches!(err, Error::NotInSchema { value: 9, struct_id } if struct_id == s.id()),
        "{err}"
    );
}

/// Reads every field of every struct of `schema` from an empty message
/// and from `words` (one level, every list element): never a panic.
fn walk(schema: &Schema<'_>, words: &[capnarena::Word]) {
    let mut ids: Vec<u64> = schema.node_ids().collect();
    ids.sort_unstable();
    for id in ids {
        let Ok(s) = schema.struct_schema(id) else {
            continue;
        };
        let segments = [words];
        let Ok(reader) = MessageReader::from_segments(&segments, ReaderOptions::default()) else {
            continue;
        };
        let Ok(root) = reader.root() else { continue };
        let d = DynamicStructReader::new(s.clone(), root);
        let _ = d.which();
        for f in s.fields() {
            let _ = d.has(&f);
            if let Ok(DynamicValue::List(l)) = d.get(&f) {
                for e in l.iter() {
                    let _ = e;
                }
            }
        }
        let mut msg = Message::new(SingleSegmentArena::new());
        if let Ok(mut b) = DynamicStructBuilder::init_root(&mut msg, s.clone()) {
            for f in s.fields() {
                let _ = b.get(&f).map(|_| ());
                let _ = b.init(&f).map(|_| ());
                let _ = b.init_list(&f, 2).map(|_| ());
                let _ = b.set(&f, DynamicValue::UInt8(1));
                let _ = b.clear(&f);
            }
            let _ = b.copy_fields(&d);
        }
    }
}

proptest! {
    /// Arbitrary bytes as a request: an error or a schema, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = LoadedSchema::from_request_bytes(&bytes);
    }

    /// A valid request with bytes changed: an error or a schema that
    /// readers and builders walk without a panic.
    #[test]
    fn changed_requests_never_panic(
        changes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        message in proptest::collection::vec(any::<u64>(), 0..24),
    ) {
        let mut bytes = request();
        // Past the segment table.
        for (at, byte) in changes {
            let i = 8 + at.index(bytes.len() - 8);
            bytes[i] = byte;
        }
        if let Ok(loaded) = LoadedSchema::from_request_bytes(&bytes) {
            let words: Vec<capnarena::Word> = message.into_iter().map(capnarena::Word::from_u64).collect();
            walk(&loaded.schema(), &words);
        }
    }
}
