//! One test per row of the table in capnarena-dynamic's crate docs
//! ("Beside capnproto-rust's reflection"): each public operation of
//! capnproto-rust's `dynamic_value`, `dynamic_struct`, `dynamic_list`,
//! `introspect` and `schema` modules, done with ours. A test is named
//! after the row it guards and checks the values the operation gives,
//! not only that it runs.

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/all_types_capnp.rs"]
mod all_types_capnp;

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/generics_capnp.rs"]
mod generics_capnp;

use std::collections::HashSet;

use all_types_capnp::{Color, all_types, labeled};
use capnarena::typed::{Data, EnumList, HasSchema, PrimitiveList, StructList, Text, TextList};
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
use capnarena_dynamic::{
    DynamicEnum, DynamicListBuilder, DynamicListReader, DynamicStructBuilder, DynamicStructReader,
    DynamicValue, DynamicValueBuilder, Error, LoadedSchema, Type,
};
use generics_capnp::{Mode, box_, uses};

/// A message of `AllTypes` with a scalar, text, data, an enum, a struct,
/// lists and a union member set, framed.
fn all_types_bytes() -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b = msg.init_root::<all_types::Builder<_>>().unwrap();
    b.set_int32_field(-7);
    b.set_uint64_field(1 << 40);
    b.set_float64_field(2.5);
    b.set_text_field("seven").unwrap();
    b.set_data_field(b"\x00\x01").unwrap();
    b.set_enum_field(Color::Blue);
    b.init_struct_field().unwrap().set_int8_field(3);
    b.set_uint32_list_from_slice(&[1, 2, 3]).unwrap();
    {
        let mut s = b.init_struct_list(2).unwrap();
        s.get(0).set_label("a").unwrap();
        s.get(1).set_weight(1.5);
    }
    {
        let mut e = b.init_enum_list(2).unwrap();
        e.set(0, Color::Green);
        e.set(1, Color::Red);
    }
    b.get_choice().set_count(9);
    msg.framed_bytes().unwrap().to_vec()
}

fn loaded() -> LoadedSchema {
    LoadedSchema::of::<all_types::Owned>().unwrap()
}

/// Runs `f` on the dynamic root of [`all_types_bytes`].
fn with_root(f: impl FnOnce(DynamicStructReader<'_>)) {
    let loaded = loaded();
    let schema = loaded.schema();
    let bytes = all_types_bytes();
    let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
    let root = DynamicStructReader::root(&reader, schema.struct_for::<all_types::Owned>().unwrap())
        .unwrap();
    f(root);
}

/// A schema compiled in process, for defaults, constants, annotations
/// and interfaces.
fn compiled() -> LoadedSchema {
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .source(
                "/p.capnp",
                "@0xa1b2c3d4e5f60718;
             annotation note(struct, field) :Text;
             const answer :UInt32 = 42;
             interface Echo { echo @0 (x :Text) -> (y :Text); }
             struct S $note(\"s\") {
               n @0 :Int16 = 5 $note(\"n\");
               cap @1 :Echo;
             }",
            )
            .file("/p.capnp"),
    )
    .unwrap()
}

// ---- dynamic_value ----

/// Row `dynamic_value::Reader` (its variants): each kind of field reads
/// as its variant, with the value written.
#[test]
fn row_value_reader_variants() {
    with_root(|r| {
        assert!(matches!(
            r.get_by_name("voidField").unwrap(),
            DynamicValue::Void
        ));
        assert!(matches!(
            r.get_by_name("int32Field").unwrap(),
            DynamicValue::Int32(-7)
        ));
        assert!(matches!(
            r.get_by_name("uint64Field").unwrap(),
            DynamicValue::UInt64(x) if x == 1 << 40
        ));
        assert!(
            matches!(r.get_by_name("float64Field").unwrap(), DynamicValue::Float64(x) if x == 2.5)
        );
        assert!(matches!(
            r.get_by_name("textField").unwrap(),
            DynamicValue::Text("seven")
        ));
        assert!(matches!(
            r.get_by_name("dataField").unwrap(),
            DynamicValue::Data(b"\x00\x01")
        ));
        assert!(
            matches!(r.get_by_name("enumField").unwrap(), DynamicValue::Enum(e) if e.value() == 2)
        );
        assert!(matches!(
            r.get_by_name("structField").unwrap(),
            DynamicValue::Struct(_)
        ));
        assert!(
            matches!(r.get_by_name("uint32List").unwrap(), DynamicValue::List(l) if l.len() == 3)
        );
        assert!(
            matches!(r.get_by_name("anyField").unwrap(), DynamicValue::AnyPointer(p) if p.is_null())
        );
    });
}

/// Row `dynamic_value::Reader::new(value, type)`: a schema value read by
/// its type is a field's default, a constant's or an annotation's value.
#[test]
fn row_value_reader_from_schema_values() {
    let loaded = compiled();
    let schema = loaded.schema();
    let s = schema.find_struct("p.capnp:S").unwrap();
    let n = s.field_by_name("n").unwrap();
    assert!(matches!(n.default_value().unwrap(), DynamicValue::Int16(5)));
    let answer = schema.find_const("p.capnp:answer").unwrap();
    assert!(matches!(answer.value().unwrap(), DynamicValue::UInt32(42)));
    let note = n.annotations().iter().next().unwrap();
    assert!(matches!(note.value().unwrap(), DynamicValue::Text("n")));
}

/// Row `dynamic_value::Reader::downcast` (panics on a mismatch): ours is
/// a `match`, or `into_struct`/`into_list`/`into_enum`, which give
/// `Err(TypeMismatch)` on a mismatch.
#[test]
fn row_value_reader_downcast() {
    with_root(|r| {
        let DynamicValue::Int32(x) = r.get_by_name("int32Field").unwrap() else {
            panic!("not an Int32")
        };
        assert_eq!(x, -7);
        assert_eq!(
            r.get_by_name("uint32List")
                .unwrap()
                .into_list()
                .unwrap()
                .len(),
            3
        );
        assert_eq!(
            r.get_by_name("enumField")
                .unwrap()
                .into_enum()
                .unwrap()
                .name(),
            Some("blue")
        );
        assert!(matches!(
            r.get_by_name("int32Field").unwrap().into_struct(),
            Err(Error::TypeMismatch { .. })
        ));
    });
}

/// Row `dynamic_value::Reader::downcast_struct::<T>`: `into_struct()?
/// .downcast::<T>()`, checked by node id.
#[test]
fn row_value_reader_downcast_struct() {
    with_root(|r| {
        let inner = r.get_by_name("structField").unwrap().into_struct().unwrap();
        let typed = inner.downcast::<all_types::Owned>().unwrap();
        assert_eq!(typed.get_int8_field(), 3);
        assert!(matches!(
            inner.downcast::<labeled::Owned>(),
            Err(Error::WrongType { .. })
        ));
    });
}

/// Row `From<primitive> for dynamic_value::Reader`: scalars, text, data
/// and readers convert into a `DynamicValue`.
#[test]
fn row_value_from_primitives() {
    assert!(matches!(DynamicValue::from(true), DynamicValue::Bool(true)));
    assert!(matches!(DynamicValue::from(-3i8), DynamicValue::Int8(-3)));
    assert!(matches!(DynamicValue::from(7u64), DynamicValue::UInt64(7)));
    assert!(matches!(DynamicValue::from(0.5f32), DynamicValue::Float32(x) if x == 0.5));
    assert!(matches!(DynamicValue::from("t"), DynamicValue::Text("t")));
    assert!(matches!(
        DynamicValue::from(&b"d"[..]),
        DynamicValue::Data(b"d")
    ));
}

/// Row `dynamic_value::Builder` (its variants), `reborrow`, `downcast`
/// and `downcast_struct`: a field's builder is its variant; the struct
/// and list variants reborrow and downcast to generated builders.
#[test]
fn row_value_builder_variants_and_downcast() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    assert!(matches!(
        b.get_by_name("int16Field").unwrap(),
        DynamicValueBuilder::Int16(0)
    ));
    assert!(matches!(
        b.get_by_name("textField").unwrap(),
        DynamicValueBuilder::Text(_)
    ));
    let mut inner = b
        .init_by_name("structField")
        .unwrap()
        .into_struct()
        .unwrap();
    inner
        .reborrow()
        .set_by_name("int8Field", 4i8.into())
        .unwrap();
    let mut typed = inner.downcast::<all_types::Owned>().unwrap();
    assert_eq!(typed.get_int8_field(), 4);
    typed.set_int8_field(5);
    let list = b
        .init_list_by_name("uint32List", 2)
        .unwrap()
        .into_list()
        .unwrap();
    let mut typed = list.downcast::<PrimitiveList<u32>>().unwrap();
    typed.set(1, 11);
    b.with_reader(|r| {
        let inner = r.get_by_name("structField").unwrap().into_struct().unwrap();
        assert!(matches!(
            inner.get_by_name("int8Field").unwrap(),
            DynamicValue::Int8(5)
        ));
        let l = r.get_by_name("uint32List").unwrap().into_list().unwrap();
        assert!(matches!(l.get(1).unwrap(), DynamicValue::UInt32(11)));
    });
}

/// Row `dynamic_value::Builder::into_reader`: ours is `with_reader` on
/// the struct and list builders (a read view borrows the builder).
#[test]
fn row_value_builder_into_reader() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    b.set_by_name("textField", "built".into()).unwrap();
    let text = b.with_reader(|r| match r.get_by_name("textField").unwrap() {
        DynamicValue::Text(t) => t.to_owned(),
        other => panic!("{other:?}"),
    });
    assert_eq!(text, "built");
    let mut l = b
        .init_list_by_name("int8List", 1)
        .unwrap()
        .into_list()
        .unwrap();
    l.set(0, (-1i8).into()).unwrap();
    assert!(l.with_reader(|r| matches!(r.get(0).unwrap(), DynamicValue::Int8(-1))));
}

/// Row `dynamic_value::Enum` (`new`, `get_value`, `get_enumerant`):
/// `DynamicEnum::new`, `value`, `enumerant`, and to and from the
/// generated enum.
#[test]
fn row_value_enum() {
    let loaded = LoadedSchema::of::<Color>().unwrap();
    let schema = loaded.schema();
    let color = schema.enum_for::<Color>().unwrap();
    let e = DynamicEnum::new(1, color);
    assert_eq!(e.value(), 1);
    assert_eq!(e.enumerant().unwrap().name(), "green");
    assert_eq!(e.downcast::<Color>().unwrap(), Color::Green);
    assert_eq!(
        DynamicEnum::from_typed(&schema, Color::Blue)
            .unwrap()
            .name(),
        Some("blue")
    );
    assert!(DynamicEnum::new(9, color).enumerant().is_none());
}

/// Row `dynamic_value::Capability`: an interface field reads as its
/// index in the message's capability table (`None` for null) and is set
/// from one.
#[test]
fn row_value_capability() {
    let loaded = compiled();
    let schema = loaded.schema();
    let s = schema.find_struct("p.capnp:S").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b = DynamicStructBuilder::init_root(&mut msg, s).unwrap();
    assert!(b.with_reader(|r| matches!(
        r.get_by_name("cap").unwrap(),
        DynamicValue::Capability(None)
    )));
    b.set_by_name("cap", DynamicValue::Capability(Some(3)))
        .unwrap();
    assert!(b.with_reader(|r| matches!(
        r.get_by_name("cap").unwrap(),
        DynamicValue::Capability(Some(3))
    )));
}

// ---- dynamic_struct ----

/// Row `dynamic_struct::Reader::new` and `get_schema`.
#[test]
fn row_struct_reader_new_and_schema() {
    with_root(|r| {
        let again = DynamicStructReader::new(r.schema().clone(), r.as_struct_reader());
        assert_eq!(again.schema(), r.schema());
        assert_eq!(again.schema().id(), all_types::TYPE_ID);
    });
}

/// Row `dynamic_struct::Reader::total_size`: the words the root and
/// everything under it take, as the runtime counts them for the typed
/// reader.
#[test]
fn row_struct_reader_total_size() {
    let bytes = all_types_bytes();
    let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
    let typed = reader.get_root::<all_types::Reader<'_>>().unwrap();
    let expected = typed.as_struct_reader().total_size().unwrap();
    with_root(|r| {
        let size = r.total_size().unwrap();
        assert_eq!(size, expected);
        assert!(size.word_count > 0);
    });
}

/// Row `dynamic_struct::Reader::get`, `get_named`: by field and by name
/// give the same value.
#[test]
fn row_struct_reader_get() {
    with_root(|r| {
        let f = r.schema().field_by_name("float64Field").unwrap();
        assert!(matches!(r.get(&f).unwrap(), DynamicValue::Float64(x) if x == 2.5));
        assert!(
            matches!(r.get_by_name("float64Field").unwrap(), DynamicValue::Float64(x) if x == 2.5)
        );
        assert!(matches!(
            r.get_by_name("nope"),
            Err(Error::NoSuchField { .. })
        ));
    });
}

/// Row `dynamic_struct::Reader::which`: the active member of the union
/// (`choice`, a group) is `count`.
#[test]
fn row_struct_reader_which() {
    with_root(|r| {
        let choice = r.get_by_name("choice").unwrap().into_struct().unwrap();
        assert_eq!(choice.which().unwrap().unwrap().name(), "count");
        assert!(r.which().unwrap().is_none());
    });
}

/// Row `dynamic_struct::Reader::has`, `has_named`: a set pointer is
/// there, a null one is not; an inactive union member is not.
#[test]
fn row_struct_reader_has() {
    with_root(|r| {
        assert!(r.has_by_name("textField").unwrap());
        assert!(!r.has_by_name("int8List").unwrap());
        let choice = r.get_by_name("choice").unwrap().into_struct().unwrap();
        assert!(!choice.has_by_name("name").unwrap());
        let f = r.schema().field_by_name("dataField").unwrap();
        assert!(r.has(&f).unwrap());
    });
}

/// Row `dynamic_struct::Reader::downcast`: checked by node id and by
/// generic bindings.
#[test]
fn row_struct_reader_downcast() {
    with_root(|r| {
        assert_eq!(
            r.downcast::<all_types::Owned>().unwrap().get_int32_field(),
            -7
        );
        assert!(matches!(
            r.downcast::<labeled::Owned>(),
            Err(Error::WrongType { .. })
        ));
    });
}

/// Row `Debug for dynamic_struct::Reader` (capnproto-rust prints the
/// value): ours prints it in the reference's text format through
/// `text::write_struct`; `Debug` names the struct.
#[test]
fn row_struct_reader_debug_as_text() {
    with_root(|r| {
        let mut out = Vec::new();
        capnarena_dynamic::text::write_struct(&r, false, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("int32Field = -7"), "{text}");
        assert!(text.contains("textField = \"seven\""), "{text}");
        assert!(format!("{r:?}").contains("AllTypes"));
    });
}

/// Row `SetterInput<any_pointer::Owned> for dynamic_struct::Reader` (and
/// for `dynamic_list::Reader`): a dynamic struct or list is set into an
/// `AnyPointer` field and reads back through its schema.
#[test]
fn row_struct_and_list_reader_into_any_pointer() {
    let bytes = all_types_bytes();
    let loaded = loaded();
    let schema = loaded.schema();
    let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
    let all = schema.struct_for::<all_types::Owned>().unwrap();
    let src = DynamicStructReader::root(&reader, all.clone()).unwrap();
    let inner = src.get_by_name("structField").unwrap();
    let list = src.get_by_name("uint32List").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b = DynamicStructBuilder::init_root(&mut msg, all.clone()).unwrap();
    b.set_by_name("anyField", inner).unwrap();
    let mut inner_b = b
        .init_by_name("structField")
        .unwrap()
        .into_struct()
        .unwrap();
    inner_b.set_by_name("anyField", list).unwrap();
    let out = msg.framed_bytes().unwrap().to_vec();
    let reader = MessageReader::from_bytes(&out, ReaderOptions::default()).unwrap();
    let typed = reader.get_root::<all_types::Reader<'_>>().unwrap();
    let any = typed.get_any_field().get_as::<all_types::Owned>().unwrap();
    assert_eq!(any.get_int8_field(), 3);
    let l = typed.get_struct_field().unwrap().get_any_field();
    assert_eq!(
        l.get_as::<PrimitiveList<u32>>().unwrap().to_vec(),
        [1, 2, 3]
    );
}

/// Row `dynamic_struct::Builder::new`, `get_schema`: a builder of the
/// schema's size is accepted; a smaller one is `StructSize`.
#[test]
fn row_struct_builder_new() {
    let loaded = loaded();
    let schema = loaded.schema();
    let all = schema.struct_for::<all_types::Owned>().unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    let small = msg
        .init_root_struct(capnarena::StructSize::new(0, 0))
        .unwrap();
    assert!(matches!(
        DynamicStructBuilder::new(all.clone(), small),
        Err(Error::StructSize { .. })
    ));
    let b = DynamicStructBuilder::init_root(&mut msg, all.clone()).unwrap();
    assert_eq!(*b.schema(), all);
}

/// Row `dynamic_struct::Builder::reborrow`, `reborrow_as_reader`,
/// `into_reader`: a reborrowed builder writes the same struct;
/// `with_reader` reads it as built.
#[test]
fn row_struct_builder_reborrow_and_reader() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    b.reborrow()
        .set_by_name("uint16Field", 77u16.into())
        .unwrap();
    assert!(b.with_reader(|r| matches!(
        r.get_by_name("uint16Field").unwrap(),
        DynamicValue::UInt16(77)
    )));
}

/// Row `dynamic_struct::Builder::get`, `get_named`, `which`, `has`,
/// `has_named`.
#[test]
fn row_struct_builder_get_which_has() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    let mut choice = b.get_by_name("choice").unwrap().into_struct().unwrap();
    assert_eq!(choice.which().unwrap().unwrap().name(), "none");
    choice.set_by_name("name", "n".into()).unwrap();
    assert_eq!(choice.which().unwrap().unwrap().name(), "name");
    assert!(choice.has_by_name("name").unwrap());
    let f = b.schema().field_by_name("boolField").unwrap();
    b.set(&f, true.into()).unwrap();
    assert!(matches!(
        b.get(&f).unwrap(),
        DynamicValueBuilder::Bool(true)
    ));
    assert!(b.has(&f).unwrap());
}

/// Row `dynamic_struct::Builder::set`, `set_named`: a value of the
/// field's type is stored; another type is `TypeMismatch`.
#[test]
fn row_struct_builder_set() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    b.set_by_name("int64Field", (-9i64).into()).unwrap();
    b.set_by_name("enumField", DynamicValue::Text("green"))
        .unwrap();
    assert!(matches!(
        b.set_by_name("textField", 1u8.into()),
        Err(Error::TypeMismatch { .. })
    ));
    let typed = b.downcast::<all_types::Owned>().unwrap();
    assert_eq!(typed.get_int64_field(), -9);
    assert_eq!(typed.get_enum_field(), Ok(Color::Green));
}

/// Row `dynamic_struct::Builder::init`, `init_named`, `initn`,
/// `initn_named`: a struct field gets a new struct, a list field a list
/// of the length asked.
#[test]
fn row_struct_builder_init() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    let s = b
        .init_by_name("structField")
        .unwrap()
        .into_struct()
        .unwrap();
    assert_eq!(s.schema().id(), all_types::TYPE_ID);
    let f = b.schema().field_by_name("textList").unwrap();
    let l = b.init_list(&f, 4).unwrap().into_list().unwrap();
    assert_eq!(l.len(), 4);
    let l = b
        .init_list_by_name("structList", 2)
        .unwrap()
        .into_list()
        .unwrap();
    assert_eq!(l.len(), 2);
    assert_eq!(
        *l.element_type(),
        schema.type_for::<labeled::Owned>().unwrap()
    );
}

/// Row `dynamic_struct::Builder::clear`, `clear_named`: a scalar goes
/// back to its default, a pointer to null.
#[test]
fn row_struct_builder_clear() {
    let loaded = compiled();
    let schema = loaded.schema();
    let s = schema.find_struct("p.capnp:S").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b = DynamicStructBuilder::init_root(&mut msg, s).unwrap();
    b.set_by_name("n", 9i16.into()).unwrap();
    b.set_by_name("cap", DynamicValue::Capability(Some(0)))
        .unwrap();
    b.clear_by_name("n").unwrap();
    let cap = b.schema().field_by_name("cap").unwrap();
    b.clear(&cap).unwrap();
    b.with_reader(|r| {
        assert!(matches!(
            r.get_by_name("n").unwrap(),
            DynamicValue::Int16(5)
        ));
        assert!(!r.has_by_name("cap").unwrap());
    });
    assert!(matches!(
        b.clear_by_name("nope"),
        Err(Error::NoSuchField { .. })
    ));
}

/// Row `dynamic_struct::Builder::downcast`: checked by node id.
#[test]
fn row_struct_builder_downcast() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    assert!(matches!(
        b.downcast::<labeled::Owned>(),
        Err(Error::WrongType { .. })
    ));
}

// ---- dynamic_list ----

/// Row `dynamic_list::Reader::new`, `len`, `is_empty`, `element_type`.
#[test]
fn row_list_reader_new_len_element_type() {
    with_root(|r| {
        let l = r.get_by_name("enumList").unwrap().into_list().unwrap();
        assert_eq!(l.len(), 2);
        assert!(!l.is_empty());
        assert_eq!(
            *l.element_type(),
            Type::Enum(<Color as HasSchema>::schema_node().id())
        );
        let again = DynamicListReader::new(
            r.schema().schema(),
            l.element_type().clone(),
            l.as_list_reader(),
        );
        assert_eq!(again.len(), 2);
        let empty = r.get_by_name("int8List").unwrap().into_list().unwrap();
        assert!(empty.is_empty());
    });
}

/// Row `dynamic_list::Reader::get`: an element by index; past the end
/// is `IndexOutOfRange` (capnproto-rust panics).
#[test]
fn row_list_reader_get() {
    with_root(|r| {
        let l = r.get_by_name("structList").unwrap().into_list().unwrap();
        let first = l.get(0).unwrap().into_struct().unwrap();
        assert!(matches!(
            first.get_by_name("label").unwrap(),
            DynamicValue::Text("a")
        ));
        assert!(matches!(
            l.get(2),
            Err(Error::IndexOutOfRange { index: 2, len: 2 })
        ));
    });
}

/// Row `dynamic_list::Reader::iter`, `IntoIterator`: every element in
/// order.
#[test]
fn row_list_reader_iter() {
    with_root(|r| {
        let l = r.get_by_name("uint32List").unwrap().into_list().unwrap();
        let values: Vec<u32> = l
            .iter()
            .map(|v| match v.unwrap() {
                DynamicValue::UInt32(x) => x,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(values, [1, 2, 3]);
    });
}

/// Row `dynamic_list::Builder::new`, `reborrow`, `len`, `is_empty`,
/// `element_type`, `get`, `set`, `init`.
#[test]
fn row_list_builder_operations() {
    let loaded = loaded();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<all_types::Owned>().unwrap())
            .unwrap();
    let mut l = b
        .init_list_by_name("listOfLists", 2)
        .unwrap()
        .into_list()
        .unwrap();
    assert_eq!(l.len(), 2);
    assert!(!l.is_empty());
    assert_eq!(*l.element_type(), Type::list_of(Type::Int32));
    let mut inner = l.init(0, 3).unwrap().into_list().unwrap();
    inner.set(2, 8i32.into()).unwrap();
    assert!(matches!(
        inner.get(2).unwrap(),
        DynamicValueBuilder::Int32(8)
    ));
    assert!(matches!(l.reborrow().get(1).unwrap(), DynamicValueBuilder::List(e) if e.is_empty()));
    let raw = l.into_list_builder();
    let again = DynamicListBuilder::new(&schema, Type::list_of(Type::Int32), raw).unwrap();
    assert_eq!(again.len(), 2);
}

/// Our checked conversion between dynamic and typed lists (capnproto-rust
/// has `downcast` for lists through `DowncastReader`, unchecked): a
/// `List(Box(Text))` is a `StructList<box_::Owned<Text>>`, not one of
/// `Box(Data)`; a `List(UInt32)` is not a `List(Int32)`.
#[test]
fn row_list_downcast_checked() {
    with_root(|r| {
        let l = r.get_by_name("uint32List").unwrap().into_list().unwrap();
        assert_eq!(
            l.downcast::<PrimitiveList<u32>>().unwrap().to_vec(),
            [1, 2, 3]
        );
        assert!(matches!(
            l.downcast::<PrimitiveList<i32>>(),
            Err(Error::TypeMismatch { .. })
        ));
        let e = r.get_by_name("enumList").unwrap().into_list().unwrap();
        let typed = e.downcast::<EnumList<Color>>().unwrap();
        assert_eq!(typed.get(0), Ok(Color::Green));
        let s = r.get_by_name("structList").unwrap().into_list().unwrap();
        assert_eq!(
            s.downcast::<StructList<labeled::Owned>>()
                .unwrap()
                .get(0)
                .get_label()
                .unwrap(),
            "a"
        );
        assert!(s.downcast::<TextList>().is_err());
    });

    // Brands: the generated type's bindings must be the list's
    // (`boxes @2 :List(Box(Data))` of `Uses`).
    let loaded = LoadedSchema::of::<uses::Owned>().unwrap();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut u =
        DynamicStructBuilder::init_root(&mut msg, schema.struct_for::<uses::Owned>().unwrap())
            .unwrap();
    let boxes = u
        .init_list_by_name("boxes", 1)
        .unwrap()
        .into_list()
        .unwrap();
    let mut typed = boxes.downcast::<StructList<box_::Owned<Data>>>().unwrap();
    typed.get(0).set_value(b"\x05").unwrap();
    u.with_reader(|r| {
        let boxes = r.get_by_name("boxes").unwrap().into_list().unwrap();
        let typed = boxes.downcast::<StructList<box_::Owned<Data>>>().unwrap();
        assert_eq!(typed.get(0).get_value().unwrap(), b"\x05");
        match boxes.downcast::<StructList<box_::Owned<Text>>>() {
            Err(Error::TypeMismatch {
                expected, found, ..
            }) => {
                assert_ne!(expected, found);
                assert!(expected.contains("Text"), "{expected}");
                assert!(found.contains("Data"), "{found}");
            }
            other => panic!("{:?}", other.map(|l| l.len())),
        }
    });
}

/// Row `dynamic_list::Builder::into_reader` and the typed round trip:
/// a generated list builder converts to a dynamic one and back, checked
/// by element type.
#[test]
fn row_list_builder_from_typed_and_downcast() {
    let loaded = LoadedSchema::of::<all_types::Owned>().unwrap();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut b = msg.init_root::<all_types::Builder<_>>().unwrap();
    {
        let typed = b.init_text_list(2).unwrap();
        let mut d = DynamicListBuilder::from_typed::<TextList>(&schema, typed).unwrap();
        d.set(0, "x".into()).unwrap();
        assert!(d.with_reader(|r| matches!(r.get(0).unwrap(), DynamicValue::Text("x"))));
    }
    {
        let d = DynamicListBuilder::from_typed::<TextList>(&schema, b.get_text_list().unwrap())
            .unwrap();
        assert!(matches!(
            d.downcast::<capnarena::typed::DataList>(),
            Err(Error::TypeMismatch { .. })
        ));
    }
    {
        let d = DynamicListBuilder::from_typed::<TextList>(&schema, b.get_text_list().unwrap())
            .unwrap();
        let mut back = d.downcast::<TextList>().unwrap();
        back.set(1, "y").unwrap();
    }
    let r = b.into_reader();
    let r = r.get();
    let list =
        DynamicListReader::from_typed::<TextList>(&schema, r.get_text_list().unwrap()).unwrap();
    assert!(matches!(list.get(1).unwrap(), DynamicValue::Text("y")));
}

// ---- introspect ----

/// Row `Introspect::introspect()`: `Schema::type_for::<T>()` gives the
/// type of any generated or runtime type, bindings included.
#[test]
fn row_introspect() {
    let loaded = LoadedSchema::of::<box_::Owned<Text>>().unwrap();
    let schema = loaded.schema();
    assert_eq!(schema.type_for::<u16>().unwrap(), Type::UInt16);
    assert_eq!(schema.type_for::<Text>().unwrap(), Type::Text);
    assert_eq!(
        schema.type_for::<PrimitiveList<f32>>().unwrap(),
        Type::list_of(Type::Float32)
    );
    assert_eq!(
        schema.type_for::<EnumList<Mode>>().unwrap(),
        Type::list_of(Type::Enum(<Mode as HasSchema>::schema_node().id()))
    );
    let Type::Struct(st) = schema.type_for::<box_::Owned<Text>>().unwrap() else {
        panic!("not a struct")
    };
    assert_eq!(st.id(), box_::TYPE_ID);
    assert_eq!(st.brand().binding(box_::TYPE_ID, 0), Type::Text);
}

/// Row `Type::list_of`, `which`/`TypeVariant`, `is_pointer_type`: ours
/// is an enum to match directly.
#[test]
fn row_type_list_of_which_is_pointer() {
    let t = Type::list_of(Type::list_of(Type::Bool));
    let Type::List(inner) = &t else {
        panic!("not a list")
    };
    assert!(matches!(&**inner, Type::List(e) if matches!(**e, Type::Bool)));
    assert!(t.is_pointer());
    assert!(!Type::Float64.is_pointer());
    assert!(Type::AnyPointer.is_pointer());
}

/// Row `Type::loose_equals` and `PartialEq`/`Hash for Type`: `same_as`
/// ignores bindings, `==` and the hash take them into account.
#[test]
fn row_type_equality_and_hash() {
    let loaded = LoadedSchema::of::<box_::Owned<Text>>().unwrap();
    let schema = loaded.schema();
    let text = schema.type_for::<box_::Owned<Text>>().unwrap();
    let data = schema.type_for::<box_::Owned<Data>>().unwrap();
    assert!(text.same_as(&data));
    assert_ne!(text, data);
    let set: HashSet<Type> = [text.clone(), data.clone(), text.clone(), Type::Text]
        .into_iter()
        .collect();
    assert_eq!(set.len(), 3);
    assert!(set.contains(&schema.type_for::<box_::Owned<Text>>().unwrap()));
}

/// Row `RawStructSchema`/`RawEnumSchema` (the generated statics) and
/// `StructSchema::new(raw)`: ours are `HasSchema::schema_node` and
/// `LoadedSchema::of` / `Schema::struct_for`.
#[test]
fn row_raw_schemas_from_generated_code() {
    let node = <all_types::Owned as HasSchema>::schema_node();
    assert_eq!(node.id(), all_types::TYPE_ID);
    let loaded = LoadedSchema::of::<all_types::Owned>().unwrap();
    let schema = loaded.schema();
    let s = schema.struct_for::<all_types::Owned>().unwrap();
    assert_eq!(s.display_name(), "all_types.capnp:AllTypes");
    assert_eq!(schema.enum_for::<Color>().unwrap().enumerants().len(), 3);
}

// ---- schema ----

/// Row `StructSchema::get_fields`, `get_union_fields`,
/// `get_non_union_fields`, `find_field_by_name`, `get_field_by_name`.
#[test]
fn row_schema_fields() {
    let loaded = loaded();
    let schema = loaded.schema();
    let s = schema.struct_for::<all_types::Owned>().unwrap();
    assert_eq!(s.fields().len(), 37);
    assert_eq!(s.non_union_fields().count(), 37);
    let choice = s.field_by_name("choice").unwrap().group().unwrap();
    let names: Vec<&str> = choice.union_fields().map(|f| f.name()).collect();
    assert_eq!(names, ["none", "count", "name", "point"]);
    assert!(matches!(
        s.field_by_name("missing"),
        Err(Error::NoSuchField { .. })
    ));
}

/// Row `StructSchema::get_field_by_discriminant`.
#[test]
fn row_schema_field_by_discriminant() {
    let loaded = loaded();
    let schema = loaded.schema();
    let s = schema.struct_for::<all_types::Owned>().unwrap();
    let choice = s.field_by_name("choice").unwrap().group().unwrap();
    assert_eq!(choice.field_by_discriminant(2).unwrap().name(), "name");
    assert!(choice.field_by_discriminant(4).is_none());
    assert!(s.field_by_discriminant(0).is_none());
}

/// Row `StructSchema::get_annotations`, `Field::get_annotations`,
/// `Annotation::get_id`, `get_value`, `get_type`, `AnnotationList::find`.
#[test]
fn row_schema_annotations() {
    let loaded = compiled();
    let schema = loaded.schema();
    let s = schema.find_struct("p.capnp:S").unwrap();
    let note = schema.find_annotation("p.capnp:note").unwrap();
    let on_struct = s.annotations().get(note.id()).unwrap();
    assert_eq!(on_struct.id(), note.id());
    assert_eq!(on_struct.ty().unwrap(), Type::Text);
    assert!(matches!(
        on_struct.value().unwrap(),
        DynamicValue::Text("s")
    ));
    let f = s.field_by_name("n").unwrap();
    assert_eq!(f.annotations().len(), 1);
    assert!(!f.annotations().is_empty());
    assert!(f.annotations().get(1).is_none());
}

/// Row `PartialEq`, `Hash`, `Debug` for `StructSchema`, `Field`,
/// `EnumSchema`, `Enumerant`: views of one node are equal and hash
/// equal; views of another are not equal.
#[test]
// The views hash their node's id, which the schema's caches never change.
#[allow(clippy::mutable_key_type)]
fn row_schema_equality_hash_debug() {
    let loaded = loaded();
    let schema = loaded.schema();
    let s = schema.struct_for::<all_types::Owned>().unwrap();
    let l = schema.struct_for::<labeled::Owned>().unwrap();
    let set: HashSet<_> = [
        s.clone(),
        l.clone(),
        schema.struct_for::<all_types::Owned>().unwrap(),
    ]
    .into_iter()
    .collect();
    assert_eq!(set.len(), 2);
    let fields: HashSet<_> = s.fields().chain(s.fields()).collect();
    assert_eq!(fields.len(), 37);
    let color = schema.enum_for::<Color>().unwrap();
    let enumerants: HashSet<_> = color.enumerants().chain(color.enumerants()).collect();
    assert_eq!(enumerants.len(), 3);
    assert!(format!("{s:?}").contains("AllTypes"));
    assert_ne!(s, l);
}

/// Row `Field::get_type`, `get_index`, `get_proto` (ours: typed
/// accessors of what the node holds).
#[test]
fn row_schema_field_accessors() {
    let loaded = loaded();
    let schema = loaded.schema();
    let s = schema.struct_for::<all_types::Owned>().unwrap();
    let f = s.field_by_name("structList").unwrap();
    assert_eq!(f.index(), 30);
    assert_eq!(f.ordinal(), Some(30));
    assert_eq!(
        f.ty().unwrap(),
        Type::list_of(schema.type_for::<labeled::Owned>().unwrap())
    );
    assert!(f.offset().is_some());
    assert!(!f.is_group());
}

/// Row `EnumSchema::get_enumerants`, `Enumerant::get_containing_enum`,
/// `get_ordinal`, `get_annotations`.
#[test]
fn row_schema_enumerants() {
    let loaded = LoadedSchema::of::<Mode>().unwrap();
    let schema = loaded.schema();
    let mode = schema.enum_for::<Mode>().unwrap();
    let names: Vec<&str> = mode.enumerants().map(|e| e.name()).collect();
    assert_eq!(names, ["off", "on"]);
    let on = mode.enumerant(1).unwrap();
    assert_eq!(on.value(), 1);
    assert_eq!(on.enum_schema(), mode);
    let off = mode.enumerant(0).unwrap();
    assert_eq!(off.annotations().len(), 1);
}
