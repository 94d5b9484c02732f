//! Generic bindings carried from generated types (`tests/schemas/
//! generics.capnp`, generated with schema nodes): `LoadedSchema::of` loads
//! the types a generic's arguments name, `struct_for` and `from_typed`
//! read fields of a parameter's type as the bound type, `downcast` checks
//! the bindings as well as the struct, and `Type`'s `==` tells bindings
//! apart where `same_as` does not.

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/generics_capnp.rs"]
mod generics_capnp;

use capnarena::typed::{AnyPointer, Data, EnumList, HasSchema, Introspect, SchemaType, Text};
use capnarena::{Message, SingleSegmentArena};
use capnarena_dynamic::{
    DynamicStructBuilder, DynamicStructReader, DynamicValue, Error, LoadedSchema, Type,
};
use generics_capnp::{Mode, box_, triple, uses};

/// `Triple(Text, Box(Data), List(Mode))`: `Triple` itself names neither
/// `Box` nor `Mode`; only its bindings do.
type Bound = triple::Owned<Text, box_::Owned<Data>, EnumList<Mode>>;

fn build(msg: &mut Message<SingleSegmentArena>) -> capnarena::Result<()> {
    let mut t = msg.init_root::<triple::Builder<_, Text, box_::Owned<Data>, EnumList<Mode>>>()?;
    t.set_a("three")?;
    t.init_b()?.set_value(b"\x01\x02")?;
    let mut c = t.initn_c(2)?;
    c.set(0, Mode::On);
    c.set(1, Mode::Off);
    Ok(())
}

/// `of` follows the bindings: the schema holds `Box` and `Mode`, which
/// `Triple`'s own node does not name.
#[test]
fn of_loads_the_types_bound_to_parameters() {
    let loaded = LoadedSchema::of::<Bound>().unwrap();
    let schema = loaded.schema();
    let ids: Vec<u64> = schema.node_ids().collect();
    for id in [
        triple::TYPE_ID,
        box_::TYPE_ID,
        <Mode as HasSchema>::schema_node().id(),
    ] {
        assert!(ids.contains(&id), "{id:#x} missing from {ids:x?}");
    }
    // Unbound, nothing beyond the struct itself is loaded.
    let plain = LoadedSchema::of::<triple::Owned>().unwrap();
    assert_eq!(plain.schema().node_ids().count(), 1);
}

/// `struct_for` gives the struct with the generated type's bindings: each
/// field of a parameter's type has the bound type.
#[test]
fn struct_for_carries_the_bindings() {
    let loaded = LoadedSchema::of::<Bound>().unwrap();
    let schema = loaded.schema();
    let s = schema.struct_for::<Bound>().unwrap();
    let ty = |name: &str| s.field_by_name(name).unwrap().ty().unwrap();
    assert_eq!(ty("a"), Type::Text);
    assert_eq!(ty("b"), schema.type_for::<box_::Owned<Data>>().unwrap());
    let Type::Struct(b) = ty("b") else {
        panic!("b: {:?}", ty("b"))
    };
    let inner = schema.struct_of(&b).unwrap();
    assert_eq!(
        inner.field_by_name("value").unwrap().ty().unwrap(),
        Type::Data
    );
    assert_eq!(ty("c"), schema.type_for::<EnumList<Mode>>().unwrap());
    assert!(
        matches!(ty("c"), Type::List(e) if *e == Type::Enum(<Mode as HasSchema>::schema_node().id()))
    );
    // The unbound struct reads every parameter as AnyPointer.
    let unbound = schema.struct_schema(triple::TYPE_ID).unwrap();
    assert_eq!(
        unbound.field_by_name("a").unwrap().ty().unwrap(),
        Type::AnyPointer
    );
    assert_ne!(unbound, s);
    assert_eq!(s, schema.struct_for::<Bound>().unwrap());
}

/// A generated reader turned dynamic reads its parameters' fields as the
/// bound types, with the values the generated builders wrote.
#[test]
fn from_typed_reads_fields_of_parameter_types_as_bound() {
    let loaded = LoadedSchema::of::<Bound>().unwrap();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    build(&mut msg).unwrap();
    let reader = msg.reader();
    let typed = reader
        .get_root::<triple::Reader<'_, Text, box_::Owned<Data>, EnumList<Mode>>>()
        .unwrap();
    let d = DynamicStructReader::from_typed::<Bound>(&schema, typed).unwrap();
    assert!(matches!(
        d.get_by_name("a").unwrap(),
        DynamicValue::Text("three")
    ));
    let b = d.get_by_name("b").unwrap().into_struct().unwrap();
    assert!(matches!(
        b.get_by_name("value").unwrap(),
        DynamicValue::Data(&[1, 2])
    ));
    let c = d.get_by_name("c").unwrap().into_list().unwrap();
    let names: Vec<_> = c
        .iter()
        .map(|e| e.unwrap().into_enum().unwrap().name())
        .collect();
    assert_eq!(names, [Some("on"), Some("off")]);
    // And back, with the same bindings.
    let back = d.downcast::<Bound>().unwrap();
    assert_eq!(back.get_a().unwrap(), "three");
}

/// `downcast` checks the bindings: a value read as `Triple(Text, Box(Data),
/// ..)` is not a `Triple(Text, Box(Text), ..)`, and an unbound value is
/// not a bound type; an unbound value is the type named without
/// arguments (parameters of `AnyPointer`).
#[test]
fn downcast_refuses_other_bindings() {
    let loaded = LoadedSchema::of::<Bound>().unwrap();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    build(&mut msg).unwrap();
    let reader = msg.reader();
    let typed = reader
        .get_root::<triple::Reader<'_, Text, box_::Owned<Data>, EnumList<Mode>>>()
        .unwrap();
    let d = DynamicStructReader::from_typed::<Bound>(&schema, typed).unwrap();
    type Other = triple::Owned<Text, box_::Owned<Text>, EnumList<Mode>>;
    match d.downcast::<Other>() {
        Err(Error::WrongBrand { id, .. }) => assert_eq!(id, triple::TYPE_ID),
        other => panic!("{other:?}"),
    }
    let unbound =
        DynamicStructReader::root(&reader, schema.struct_schema(triple::TYPE_ID).unwrap()).unwrap();
    assert!(matches!(
        unbound.downcast::<Bound>(),
        Err(Error::WrongBrand { .. })
    ));
    assert!(unbound.downcast::<triple::Owned>().is_ok());
    assert!(
        unbound
            .downcast::<triple::Owned<AnyPointer, AnyPointer, AnyPointer>>()
            .is_ok()
    );
}

/// The builder side: `from_typed` builds the bound types, `downcast` gives
/// the generated builder back and refuses other bindings.
#[test]
fn builder_from_typed_and_downcast_carry_the_bindings() {
    let loaded = LoadedSchema::of::<Bound>().unwrap();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let typed = msg
        .init_root::<triple::Builder<_, Text, box_::Owned<Data>, EnumList<Mode>>>()
        .unwrap();
    let mut d = DynamicStructBuilder::from_typed::<Bound>(&schema, typed).unwrap();
    // A Text field: refused as a Data value by the bound type.
    d.set_by_name("a", "built".into()).unwrap();
    assert!(d.set_by_name("a", DynamicValue::Data(b"x")).is_err());
    assert!(matches!(
        d.reborrow()
            .downcast::<triple::Owned<Data, box_::Owned<Data>, EnumList<Mode>>>(),
        Err(Error::WrongBrand { .. })
    ));
    let back = d.downcast::<Bound>().unwrap();
    assert_eq!(back.into_reader().get().get_a().unwrap(), "built");
}

/// `==` on types takes the bindings into account, `same_as` does not; a
/// struct named without arguments equals it bound to `AnyPointer`.
#[test]
fn type_equality_takes_bindings_into_account() {
    let loaded = LoadedSchema::of::<uses::Owned>().unwrap();
    let schema = loaded.schema();
    let text = schema.type_for::<box_::Owned<Text>>().unwrap();
    let data = schema.type_for::<box_::Owned<Data>>().unwrap();
    assert_ne!(text, data);
    assert!(text.same_as(&data));
    assert_eq!(text, schema.type_for::<box_::Owned<Text>>().unwrap());
    let nested = schema.type_for::<box_::Owned<box_::Owned<Text>>>().unwrap();
    assert_ne!(
        nested,
        schema.type_for::<box_::Owned<box_::Owned<Data>>>().unwrap()
    );
    // The schema's own types, resolved from the request, equal the
    // generated types' (`bytes @0 :Box(List(UInt8))`, `unbound @9 :Box`).
    let u = schema.struct_for::<uses::Owned>().unwrap();
    let field = |name: &str| u.field_by_name(name).unwrap().ty().unwrap();
    assert_eq!(
        field("bytes"),
        schema
            .type_for::<box_::Owned<capnarena::typed::PrimitiveList<u8>>>()
            .unwrap()
    );
    assert_eq!(field("nested"), nested);
    assert_eq!(field("unbound"), schema.type_for::<box_::Owned>().unwrap());
    assert_ne!(field("unbound"), text);
}

/// A hand-written `Introspect` that names itself is an error at the
/// bound, not a stack overflow.
#[test]
fn a_self_naming_introspect_is_a_limit_error() {
    struct Endless;
    impl Introspect for Endless {
        fn introspect() -> SchemaType {
            SchemaType::List(Endless::introspect)
        }
    }
    let loaded = LoadedSchema::of::<uses::Owned>().unwrap();
    match loaded.schema().type_for::<Endless>() {
        Err(Error::Limit { limit, .. }) => {
            assert_eq!(limit, u64::from(capnarena_dynamic::MAX_RESOLVED_TYPE_DEPTH))
        }
        other => panic!("{other:?}"),
    }
}

/// Annotations of a schema loaded from generated code come with their
/// declarations, as through a schema compiled from the `.capnp`: their
/// values read typed (a `Text`, an enumerant of `Mode`) on a struct, a
/// field, an enum and an enumerant, and the declarations are found by
/// name (before, `value()` was `Err(MissingNode)`).
#[test]
fn annotations_of_generated_types_read_with_their_declarations() {
    let loaded = LoadedSchema::of::<box_::Owned>().unwrap();
    let schema = loaded.schema();
    let label = schema.find_annotation("generics.capnp:label").unwrap();
    let weight = schema.find_annotation("generics.capnp:weight").unwrap();
    let b = schema.struct_for::<box_::Owned>().unwrap();
    let on_struct = b.annotations().get_by_schema(&label).unwrap();
    assert!(matches!(
        on_struct.value().unwrap(),
        DynamicValue::Text("a box")
    ));
    assert_eq!(on_struct.declaration().unwrap(), label);
    let on_field = b
        .field_by_name("value")
        .unwrap()
        .annotations()
        .get_by_schema(&weight)
        .unwrap();
    assert_eq!(
        on_field.value().unwrap().into_enum().unwrap().name(),
        Some("on")
    );

    let loaded = LoadedSchema::of::<Mode>().unwrap();
    let schema = loaded.schema();
    let mode = schema.enum_for::<Mode>().unwrap();
    let label = schema.find_annotation("generics.capnp:label").unwrap();
    let on_enum = mode.annotations().get_by_schema(&label).unwrap();
    assert!(matches!(
        on_enum.value().unwrap(),
        DynamicValue::Text("a mode")
    ));
    let off = mode.enumerants().next().unwrap();
    let on_enumerant = off.annotations().get_by_schema(&label).unwrap();
    assert!(matches!(
        on_enumerant.value().unwrap(),
        DynamicValue::Text("nothing")
    ));
}

/// The dynamic builder answers `has` by name as the reader does: a null
/// pointer field is unset until set; a name the struct lacks is
/// `NoSuchField`.
#[test]
fn builder_has_by_name() {
    let loaded = LoadedSchema::of::<Bound>().unwrap();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    let typed = msg
        .init_root::<triple::Builder<_, Text, box_::Owned<Data>, EnumList<Mode>>>()
        .unwrap();
    let mut d = DynamicStructBuilder::from_typed::<Bound>(&schema, typed).unwrap();
    assert!(!d.has_by_name("a").unwrap());
    d.set_by_name("a", "set".into()).unwrap();
    assert!(d.has_by_name("a").unwrap());
    assert!(!d.has_by_name("b").unwrap());
    assert!(matches!(
        d.has_by_name("nope"),
        Err(Error::NoSuchField { .. })
    ));
}

/// Generated code names each annotation's id (`LABEL_ANNOTATION_ID` for
/// `annotation label`): an annotation of a reflected type is found and
/// compared by that name, with no number written by hand, and the
/// constant is the id of the declaration the schema holds.
#[test]
fn annotations_are_found_by_their_generated_id_constants() {
    let loaded = LoadedSchema::of::<box_::Owned>().unwrap();
    let schema = loaded.schema();
    let b = schema.struct_for::<box_::Owned>().unwrap();
    let label = b
        .annotations()
        .get(generics_capnp::LABEL_ANNOTATION_ID)
        .unwrap();
    assert_eq!(
        label.declaration().unwrap(),
        schema.find_annotation("generics.capnp:label").unwrap()
    );
    assert!(matches!(
        label.value().unwrap(),
        DynamicValue::Text("a box")
    ));
    let value = b.field_by_name("value").unwrap();
    let ids: Vec<u64> = value.annotations().iter().map(|a| a.id()).collect();
    assert_eq!(ids, [generics_capnp::WEIGHT_ANNOTATION_ID]);
    assert_ne!(
        generics_capnp::LABEL_ANNOTATION_ID,
        generics_capnp::WEIGHT_ANNOTATION_ID
    );
}
