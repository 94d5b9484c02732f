//! Generics by brand against the generated code of
//! `tests/schemas/generics.capnp`: a message built with the generated
//! builders (every kind of binding: lists, generics of generics, lists of
//! generics, three parameters, inherited parameters, a union member of a
//! parameter's type, unbound parameters) reads dynamically, through the
//! bindings of the path each value is reached by, as the generated readers
//! read it; a dynamic copy of it, element by element through the bound
//! types, is the same message (equal canonical forms).

mod common;

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/generics_capnp.rs"]
mod generics_capnp;

use capnarena::typed::{Data, Text};
use capnarena::{Message, Result, SingleSegmentArena, StructReader};
use capnarena_compiler::Compiler;
use capnarena_dynamic::{
    DynamicStructBuilder, DynamicStructReader, DynamicValue, LoadedSchema, Type,
};
use common::{dyn_deep_copy, workspace};
use generics_capnp::{Mode, uses};

/// The message of the workspace's `tests/generics.rs`, built with the
/// generated builders.
fn build(msg: &mut Message<SingleSegmentArena>) -> Result<()> {
    let mut u = msg.init_root::<uses::Builder<_>>()?;
    let mut bytes_box = u.init_bytes()?;
    let mut bytes = bytes_box.initn_value(3)?;
    for (i, b) in [1u8, 2, 255].into_iter().enumerate() {
        bytes.set(i as u32, b);
    }
    u.init_nested()?.init_value()?.set_value("inner")?;
    let mut boxes = u.init_boxes(2)?;
    boxes.get(1).set_value(b"\x00\x01")?;
    let mut list_box = u.init_list_of_boxes()?;
    let mut list = list_box.initn_value(2)?;
    list.get(0).set_value("a")?;
    list.get(1).set_value("b")?;
    let mut deep_box = u.init_deep()?;
    let mut deep = deep_box.initn_value(2)?;
    deep.init(1, 1)?.get(0).set_value("deep")?;
    let mut t = u.init_triple()?;
    t.set_a("three")?;
    t.init_b()?.set_value(b"\xff")?;
    let mut c = t.initn_c(2)?;
    c.set(0, -7);
    c.set(1, 300);
    let mut o = u.init_outer()?;
    o.init_inner()?.init_item()?.set_value("item")?;
    o.init_inner_unbound()?
        .get_item()?
        .set_as::<Text>("unbound")?;
    o.init_some()?.set_value("some")?;
    let mut floats_box = u.init_floats()?;
    let mut floats = floats_box.initn_value(2)?;
    floats.set(0, 1.5);
    floats.set(1, -0.25);
    let mut enums_box = u.init_enums()?;
    let mut enums = enums_box.initn_value(2)?;
    enums.set(0, Mode::On);
    enums.set(1, Mode::Off);
    u.init_unbound()?.get_value()?.set_as::<Data>(b"opaque")?;
    Ok(())
}

fn generics() -> LoadedSchema {
    let dir = workspace().join("tests/schemas");
    LoadedSchema::compile(
        &Compiler::new()
            .no_standard_import()
            .src_prefix(&dir)
            .file(dir.join("generics.capnp")),
    )
    .unwrap()
}

fn get<'a>(s: &DynamicStructReader<'a>, name: &str) -> DynamicValue<'a> {
    s.get_by_name(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn st<'a>(s: &DynamicStructReader<'a>, name: &str) -> DynamicStructReader<'a> {
    get(s, name).into_struct().unwrap()
}

fn text(v: DynamicValue<'_>) -> &str {
    match v {
        DynamicValue::Text(t) => t,
        other => panic!("expected Text, got {other:?}"),
    }
}

/// Each bound value reads dynamically as the type its binding gives, with
/// the value the generated builders wrote.
#[test]
fn bound_values_read_through_their_bindings() {
    let loaded = generics();
    let schema = loaded.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    build(&mut msg).unwrap();
    let reader = msg.reader();
    let g: uses::Reader<'_> = reader.get_root().unwrap();
    let u = DynamicStructReader::root(&reader, schema.find_struct("generics.capnp:Uses").unwrap())
        .unwrap();

    let bytes = st(&u, "bytes");
    let got: Vec<u8> = get(&bytes, "value")
        .into_list()
        .unwrap()
        .iter()
        .map(|e| match e.unwrap() {
            DynamicValue::UInt8(b) => b,
            o => panic!("{o:?}"),
        })
        .collect();
    let want: Vec<u8> = g.get_bytes().unwrap().get_value().unwrap().iter().collect();
    assert_eq!(got, want);

    let nested = st(&st(&u, "nested"), "value");
    assert_eq!(
        text(get(&nested, "value")),
        g.get_nested()
            .unwrap()
            .get_value()
            .unwrap()
            .get_value()
            .unwrap()
    );

    let boxes = get(&u, "boxes").into_list().unwrap();
    let b1 = boxes.get(1).unwrap().into_struct().unwrap();
    assert!(
        matches!(get(&b1, "value"), DynamicValue::Data(d) if d == g.get_boxes().unwrap().get(1).get_value().unwrap())
    );

    let list = get(&st(&u, "listOfBoxes"), "value").into_list().unwrap();
    let l1 = list.get(1).unwrap().into_struct().unwrap();
    assert_eq!(text(get(&l1, "value")), "b");

    let deep = get(&st(&u, "deep"), "value").into_list().unwrap();
    let inner = deep.get(1).unwrap().into_list().unwrap();
    assert_eq!(
        text(get(&inner.get(0).unwrap().into_struct().unwrap(), "value")),
        "deep"
    );

    let t = st(&u, "triple");
    assert_eq!(text(get(&t, "a")), "three");
    assert!(matches!(
        get(&st(&t, "b"), "value"),
        DynamicValue::Data(b"\xff")
    ));
    let c: Vec<i16> = get(&t, "c")
        .into_list()
        .unwrap()
        .iter()
        .map(|e| match e.unwrap() {
            DynamicValue::Int16(v) => v,
            o => panic!("{o:?}"),
        })
        .collect();
    assert_eq!(c, [-7, 300]);

    let o = st(&u, "outer");
    // Inner inherits Outer's T = Box(Text).
    let item = st(&st(&o, "inner"), "item");
    assert_eq!(text(get(&item, "value")), "item");
    // Outer.Inner named without parameters: T is AnyPointer.
    let unbound = st(&o, "innerUnbound");
    let DynamicValue::AnyPointer(p) = get(&unbound, "item") else {
        panic!()
    };
    assert_eq!(p.get_text().unwrap(), "unbound");
    // The union member of type T.
    let member = o.which().unwrap().unwrap();
    assert_eq!(member.name(), "some");
    assert!(matches!(member.ty().unwrap(), Type::Struct(_)));
    assert_eq!(text(get(&st(&o, "some"), "value")), "some");

    let floats: Vec<f32> = get(&st(&u, "floats"), "value")
        .into_list()
        .unwrap()
        .iter()
        .map(|e| match e.unwrap() {
            DynamicValue::Float32(v) => v,
            o => panic!("{o:?}"),
        })
        .collect();
    assert_eq!(floats, [1.5, -0.25]);
    let enums: Vec<Option<&str>> = get(&st(&u, "enums"), "value")
        .into_list()
        .unwrap()
        .iter()
        .map(|e| e.unwrap().into_enum().unwrap().name())
        .collect();
    assert_eq!(enums, [Some("on"), Some("off")]);
    let DynamicValue::AnyPointer(p) = get(&st(&u, "unbound"), "value") else {
        panic!()
    };
    assert_eq!(p.get_data().unwrap(), b"opaque");
}

fn canonical(root: &StructReader<'_>) -> Vec<u8> {
    let mut out = Message::new(SingleSegmentArena::new());
    let words = out.set_root_canonical(root).unwrap();
    capnarena::Word::slice_as_bytes(words).to_vec()
}

/// Copied element by element through the bound types by a dynamic
/// builder, the message is the same (equal canonical forms).
#[test]
fn dynamic_copy_through_bindings_is_the_same_message() {
    let loaded = generics();
    let schema = loaded.schema();
    let s = schema.find_struct("generics.capnp:Uses").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    build(&mut msg).unwrap();
    let reader = msg.reader();
    let src = DynamicStructReader::root(&reader, s.clone()).unwrap();
    let mut copy = Message::new(SingleSegmentArena::new());
    let mut b = DynamicStructBuilder::init_root(&mut copy, s).unwrap();
    dyn_deep_copy(&mut b, &src).unwrap();
    let copied = copy.reader();
    assert_eq!(
        canonical(&copied.root().unwrap()),
        canonical(&reader.root().unwrap())
    );
}
