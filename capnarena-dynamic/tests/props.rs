//! Properties against the generated code of `all_types.capnp`:
//! - any values set through a dynamic builder (scalars, an enum, text,
//!   lists, a union member, a group) give the bytes the generated setters
//!   give;
//! - a message with words overwritten at random reads the same through
//!   the dynamic and the generated readers: each field and list element
//!   is a value in both or the same error in both (the same runtime
//!   calls, so the same limits and errors).

mod common;

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/all_types_capnp.rs"]
mod all_types_capnp;

use all_types_capnp::{Color, all_types};
use capnarena::{Message, MessageReader, SingleSegmentArena, Word};
use capnarena_dynamic::{DynamicStructBuilder, DynamicStructReader, DynamicValue};
use common::*;
use proptest::prelude::*;

#[derive(Debug, Clone, Default)]
struct Values {
    b: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    f32: f32,
    f64: f64,
    color: u16,
    text: String,
    ints: Vec<i32>,
    bools: Vec<bool>,
    count: Option<u32>,
    a: u16,
}

fn values() -> impl Strategy<Value = Values> {
    (
        (
            any::<bool>(),
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
            any::<i64>(),
            any::<u8>(),
        ),
        (
            any::<u16>(),
            any::<u32>(),
            any::<u64>(),
            any::<f32>(),
            any::<f64>(),
            0u16..3,
        ),
        (
            "[a-z✓]{0,12}",
            proptest::collection::vec(any::<i32>(), 0..9),
        ),
        (
            proptest::collection::vec(any::<bool>(), 0..70),
            any::<Option<u32>>(),
            any::<u16>(),
        ),
    )
        .prop_map(
            |(
                (b, i8, i16, i32, i64, u8),
                (u16, u32, u64, f32, f64, color),
                (text, ints),
                (bools, count, a),
            )| {
                Values {
                    b,
                    i8,
                    i16,
                    i32,
                    i64,
                    u8,
                    u16,
                    u32,
                    u64,
                    f32,
                    f64,
                    color,
                    text,
                    ints,
                    bools,
                    count,
                    a,
                }
            },
        )
}

fn build_dynamic(v: &Values) -> Vec<u8> {
    let loaded = all_types();
    let schema = loaded.schema();
    let s = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let color = schema.find_enum("all_types.capnp:Color").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut b = DynamicStructBuilder::init_root(&mut msg, s).unwrap();
        b.set_by_name("boolField", v.b.into()).unwrap();
        b.set_by_name("int8Field", v.i8.into()).unwrap();
        b.set_by_name("int16Field", v.i16.into()).unwrap();
        b.set_by_name("int32Field", v.i32.into()).unwrap();
        b.set_by_name("int64Field", v.i64.into()).unwrap();
        b.set_by_name("uint8Field", v.u8.into()).unwrap();
        b.set_by_name("uint16Field", v.u16.into()).unwrap();
        b.set_by_name("uint32Field", v.u32.into()).unwrap();
        b.set_by_name("uint64Field", v.u64.into()).unwrap();
        b.set_by_name("float32Field", v.f32.into()).unwrap();
        b.set_by_name("float64Field", v.f64.into()).unwrap();
        let name = color.enumerant(v.color).unwrap().name();
        b.set_by_name("enumField", DynamicValue::Text(name))
            .unwrap();
        b.set_by_name("textField", v.text.as_str().into()).unwrap();
        let mut ints = b
            .init_list_by_name("int32List", v.ints.len() as u32)
            .unwrap()
            .into_list()
            .unwrap();
        for (i, x) in v.ints.iter().enumerate() {
            ints.set(i as u32, (*x).into()).unwrap();
        }
        let mut bools = b
            .init_list_by_name("boolList", v.bools.len() as u32)
            .unwrap()
            .into_list()
            .unwrap();
        for (i, x) in v.bools.iter().enumerate() {
            bools.set(i as u32, (*x).into()).unwrap();
        }
        let mut choice = b.get_by_name("choice").unwrap().into_struct().unwrap();
        match v.count {
            Some(n) => choice.set_by_name("count", n.into()).unwrap(),
            None => choice.set_by_name("none", DynamicValue::Void).unwrap(),
        }
        let mut group = b.get_by_name("group").unwrap().into_struct().unwrap();
        group.set_by_name("a", v.a.into()).unwrap();
    }
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

fn build_generated(v: &Values) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut b: all_types::Builder<'_, _> = msg.init_root().unwrap();
        b.set_bool_field(v.b);
        b.set_int8_field(v.i8);
        b.set_int16_field(v.i16);
        b.set_int32_field(v.i32);
        b.set_int64_field(v.i64);
        b.set_uint8_field(v.u8);
        b.set_uint16_field(v.u16);
        b.set_uint32_field(v.u32);
        b.set_uint64_field(v.u64);
        b.set_float32_field(v.f32);
        b.set_float64_field(v.f64);
        b.set_enum_field(Color::try_from(v.color).unwrap());
        b.set_text_field(&v.text).unwrap();
        let mut ints = b.init_int32_list(v.ints.len() as u32).unwrap();
        for (i, x) in v.ints.iter().enumerate() {
            ints.set(i as u32, *x);
        }
        let mut bools = b.init_bool_list(v.bools.len() as u32).unwrap();
        for (i, x) in v.bools.iter().enumerate() {
            bools.set(i as u32, *x);
        }
        let mut choice = b.get_choice();
        match v.count {
            Some(n) => choice.set_count(n),
            None => choice.set_none(),
        }
        b.get_group().set_a(v.a);
    }
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// `Ok(())` or the error's text.
fn outcome<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<(), String> {
    r.map(|_| ()).map_err(|e| e.to_string())
}

/// Every pointer field (and its elements) reads as a value or the same
/// error through both readers; how many outcomes were compared.
fn agree(reader: &MessageReader<'_>) -> usize {
    let loaded = all_types();
    let schema = loaded.schema();
    let s = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let g: Result<all_types::Reader<'_>, _> = reader.get_root();
    let d = reader
        .root()
        .map(|r| DynamicStructReader::new(s.clone(), r));
    assert_eq!(outcome(g.as_ref()), outcome(d.as_ref()), "root");
    let (Ok(g), Ok(d)) = (g, d) else { return 1 };
    let mut n = 1;
    let mut same = |name: &str, want: Result<(), String>| {
        let got = outcome(d.get_by_name(name));
        assert_eq!(got, want, "field {name}");
        n += 1;
    };
    same("textField", outcome(g.get_text_field()));
    same("dataField", outcome(g.get_data_field()));
    same("structField", outcome(g.get_struct_field()));
    same("boolList", outcome(g.get_bool_list()));
    same("int8List", outcome(g.get_int8_list()));
    same("int64List", outcome(g.get_int64_list()));
    same("float32List", outcome(g.get_float32_list()));
    same("voidList", outcome(g.get_void_list()));
    same("enumList", outcome(g.get_enum_list()));
    same("pointList", outcome(g.get_point_list()));
    same("textList", outcome(g.get_text_list()));
    same("dataList", outcome(g.get_data_list()));
    same("structList", outcome(g.get_struct_list()));
    same("listOfLists", outcome(g.get_list_of_lists()));
    // Elements of pointer lists.
    if let (Ok(gl), Ok(DynamicValue::List(dl))) = (g.get_text_list(), d.get_by_name("textList")) {
        for (i, e) in gl.iter().enumerate() {
            assert_eq!(outcome(dl.get(i as u32)), outcome(e), "textList[{i}]");
            n += 1;
        }
    }
    if let (Ok(gl), Ok(DynamicValue::List(dl))) =
        (g.get_list_of_lists(), d.get_by_name("listOfLists"))
    {
        for (i, e) in gl.iter().enumerate() {
            assert_eq!(outcome(dl.get(i as u32)), outcome(e), "listOfLists[{i}]");
            n += 1;
        }
    }
    if let (Ok(gl), Ok(DynamicValue::List(dl))) = (g.get_struct_list(), d.get_by_name("structList"))
    {
        for (i, e) in gl.iter().enumerate() {
            let de = dl.get(i as u32).unwrap().into_struct().unwrap();
            assert_eq!(
                outcome(de.get_by_name("label")),
                outcome(e.get_label()),
                "structList[{i}].label"
            );
            assert_eq!(
                outcome(de.get_by_name("point")),
                outcome(e.get_point()),
                "structList[{i}].point"
            );
            n += 2;
        }
    }
    // The union: a member or the same unknown discriminant.
    let gw = g.get_choice().which().map(|_| ()).map_err(|e| e.0);
    let dc = d.get_by_name("choice").unwrap().into_struct().unwrap();
    let dw = dc.which().map(|_| ()).map_err(|e| match e {
        capnarena_dynamic::Error::NotInSchema { value, .. } => value,
        other => panic!("{other}"),
    });
    assert_eq!(gw, dw, "choice");
    n
}

proptest! {
    /// Values set dynamically give the generated setters' bytes.
    #[test]
    fn dynamic_sets_write_generated_bytes(v in values()) {
        prop_assert_eq!(build_dynamic(&v), build_generated(&v));
    }

    /// Words of full.flat overwritten at random: both readers agree on
    /// every pointer field and element, value or error.
    #[test]
    fn corrupted_messages_read_alike(
        changes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u64>()), 1..6),
    ) {
        let mut words = words(&vector("full.flat"));
        for (at, w) in changes {
            let i = at.index(words.len());
            words[i] = Word::from_u64(w);
        }
        let segments = [&words[..]];
        let reader = MessageReader::from_segments(&segments, options()).unwrap();
        let n = agree(&reader);
        prop_assert!(n >= 1);
    }
}

/// A signalling NaN set through a dynamic builder keeps its bits, as
/// through the generated setter (converting through f64 would quiet it).
#[test]
fn nan_payloads_are_kept() {
    let v = Values {
        f32: f32::from_bits(0x7fa0_0001),
        f64: f64::from_bits(0x7ff4_0000_0000_0001),
        ..Values::default()
    };
    assert_eq!(build_dynamic(&v), build_generated(&v));
}

/// The uncorrupted message compares every field and element it has.
#[test]
fn full_reads_alike() {
    let words = words(&vector("full.flat"));
    let segments = [&words[..]];
    let reader = MessageReader::from_segments(&segments, options()).unwrap();
    assert!(agree(&reader) > 20);
}

/// `init` of a group (a union's group too) sets its fields back to their
/// defaults as the generated `init_*` does: the same bytes.
#[test]
fn group_init_clears_like_generated() {
    let loaded = all_types();
    let schema = loaded.schema();
    let s = schema.find_struct("all_types.capnp:AllTypes").unwrap();
    let mut dynamic = Message::new(SingleSegmentArena::new());
    {
        let mut b = DynamicStructBuilder::init_root(&mut dynamic, s).unwrap();
        let mut g = b.get_by_name("group").unwrap().into_struct().unwrap();
        g.set_by_name("a", DynamicValue::UInt16(5)).unwrap();
        g.set_by_name("b", "gone".into()).unwrap();
        let mut c = b.get_by_name("choice").unwrap().into_struct().unwrap();
        c.set_by_name("name", "gone too".into()).unwrap();
        b.init_by_name("group").unwrap();
        let c = b.init_by_name("choice").unwrap().into_struct().unwrap();
        assert_eq!(c.which().unwrap().unwrap().name(), "none");
    }
    let mut generated = Message::new(SingleSegmentArena::new());
    {
        let mut b: all_types::Builder<'_, _> = generated.init_root().unwrap();
        let mut g = b.get_group();
        g.set_a(5);
        g.set_b("gone").unwrap();
        b.get_choice().set_name("gone too").unwrap();
        b.init_group();
        b.init_choice();
    }
    let (mut x, mut y) = (Vec::new(), Vec::new());
    dynamic.append_to(&mut x);
    generated.append_to(&mut y);
    assert_eq!(x, y);
}
