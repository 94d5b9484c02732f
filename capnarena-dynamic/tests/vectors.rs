//! Dynamic readers and builders against the generated ones, on every
//! message of `tests/vectors` (written by the reference `capnp` tool) in
//! every framing: standard, and on segments of 1, 3 and 16 words (far and
//! double-far pointers everywhere).
//!
//! - Reading: a dynamic reader visits every field of the schema,
//!   recursively (every element of every list, every struct, the active
//!   union member, groups), and each value equals what the generated
//!   reader (`tests/generated/all_types_capnp.rs`) returns; a field the
//!   comparison does not know fails the test, so a field cannot go
//!   unvisited.
//! - Building: a dynamic builder copying the vector element by element
//!   (`init`, `init_list`, `get`, `set`) writes the same bytes as the
//!   generated builders making the same calls, and a dynamic builder
//!   copying it field by field (`copy_fields`, deep `set`s) the same bytes
//!   as the generated `set_*`s; both messages, canonicalized, equal the
//!   reference's canonical form of the vector (`NAME.canonical`).

mod common;

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/all_types_capnp.rs"]
mod all_types_capnp;

use all_types_capnp::{all_types, entry, labeled, log, point};
use capnarena::{Arena, Message, MessageReader, SingleSegmentArena, StructReader};
use capnarena_dynamic::{
    DynamicListReader, DynamicStructBuilder, DynamicStructReader, DynamicValue, LoadedSchema,
};
use common::*;

// ---------------------------------------------------------------------------
// Reading: value by value against the generated reader.
// ---------------------------------------------------------------------------

/// What a comparison visited.
#[derive(Default, Debug)]
struct Visited {
    fields: u64,
    elements: u64,
}

macro_rules! val {
    ($v:expr, Void) => {
        match $v {
            DynamicValue::Void => (),
            other => panic!("expected Void, got {:?}", other),
        }
    };
    ($v:expr, $variant:ident) => {
        match $v {
            DynamicValue::$variant(x) => x,
            other => panic!(
                concat!("expected ", stringify!($variant), ", got {:?}"),
                other
            ),
        }
    };
}

fn list(v: DynamicValue<'_>) -> DynamicListReader<'_> {
    val!(v, List)
}

fn strukt(v: DynamicValue<'_>) -> DynamicStructReader<'_> {
    val!(v, Struct)
}

/// Compares a primitive list element by element.
fn cmp_elements<T: PartialEq + std::fmt::Debug>(
    g: impl ExactSizeIterator<Item = T>,
    d: DynamicListReader<'_>,
    get: impl Fn(DynamicValue<'_>) -> T,
    n: &mut Visited,
) {
    assert_eq!(g.len(), d.len() as usize);
    for (i, want) in g.enumerate() {
        assert_eq!(get(d.get(i as u32).unwrap()), want, "element {i}");
        n.elements += 1;
    }
}

fn cmp_point(g: point::Reader<'_>, d: &DynamicStructReader<'_>, n: &mut Visited) {
    for f in visit(d) {
        let v = d.get(&f).unwrap();
        match f.name() {
            "x" => assert_eq!(val!(v, Int32), g.get_x()),
            "y" => assert_eq!(val!(v, Int32), g.get_y()),
            other => panic!("Point.{other} not compared"),
        }
        n.fields += 1;
    }
}

fn cmp_labeled(g: labeled::Reader<'_>, d: &DynamicStructReader<'_>, n: &mut Visited) {
    for f in visit(d) {
        let v = d.get(&f).unwrap();
        match f.name() {
            "label" => assert_eq!(val!(v, Text), g.get_label().unwrap()),
            "point" => cmp_point(g.get_point().unwrap(), &strukt(v), n),
            "weight" => assert_eq!(val!(v, Float64).to_bits(), g.get_weight().to_bits()),
            other => panic!("Labeled.{other} not compared"),
        }
        n.fields += 1;
    }
}

fn cmp_all_types(g: all_types::Reader<'_>, d: &DynamicStructReader<'_>, n: &mut Visited) {
    for f in visit(d) {
        let v = d.get(&f).unwrap();
        assert_eq!(
            d.has(&f).unwrap(),
            has_all_types(g, f.name()),
            "has({})",
            f.name()
        );
        match f.name() {
            "voidField" => val!(v, Void),
            "boolField" => assert_eq!(val!(v, Bool), g.get_bool_field()),
            "int8Field" => assert_eq!(val!(v, Int8), g.get_int8_field()),
            "int16Field" => assert_eq!(val!(v, Int16), g.get_int16_field()),
            "int32Field" => assert_eq!(val!(v, Int32), g.get_int32_field()),
            "int64Field" => assert_eq!(val!(v, Int64), g.get_int64_field()),
            "uint8Field" => assert_eq!(val!(v, UInt8), g.get_uint8_field()),
            "uint16Field" => assert_eq!(val!(v, UInt16), g.get_uint16_field()),
            "uint32Field" => assert_eq!(val!(v, UInt32), g.get_uint32_field()),
            "uint64Field" => assert_eq!(val!(v, UInt64), g.get_uint64_field()),
            "float32Field" => {
                assert_eq!(val!(v, Float32).to_bits(), g.get_float32_field().to_bits())
            }
            "float64Field" => {
                assert_eq!(val!(v, Float64).to_bits(), g.get_float64_field().to_bits())
            }
            "textField" => assert_eq!(val!(v, Text), g.get_text_field().unwrap()),
            "dataField" => assert_eq!(val!(v, Data), g.get_data_field().unwrap()),
            // A null struct reads as the empty default, which holds a null
            // struct again: go down only where the message has one.
            "structField" if g.has_struct_field() => {
                cmp_all_types(g.get_struct_field().unwrap(), &strukt(v), n)
            }
            "structField" => {
                let d = strukt(v);
                assert_eq!(
                    d.as_struct_reader().size(),
                    g.get_struct_field().unwrap().as_struct_reader().size()
                );
            }
            "enumField" => {
                let e = val!(v, Enum);
                let want = g.get_enum_field().map(u16::from).unwrap_or_else(|e| e.0);
                assert_eq!(e.value(), want);
                assert_eq!(e.name(), g.get_enum_field().ok().map(|c| c.name()));
            }
            "voidList" => {
                let l = list(v);
                assert_eq!(l.len(), g.get_void_list().unwrap().len());
                for e in l.iter() {
                    val!(e.unwrap(), Void);
                    n.elements += 1;
                }
            }
            "boolList" => cmp_elements(
                g.get_bool_list().unwrap().iter(),
                list(v),
                |e| val!(e, Bool),
                n,
            ),
            "int8List" => cmp_elements(
                g.get_int8_list().unwrap().iter(),
                list(v),
                |e| val!(e, Int8),
                n,
            ),
            "int16List" => cmp_elements(
                g.get_int16_list().unwrap().iter(),
                list(v),
                |e| val!(e, Int16),
                n,
            ),
            "int32List" => cmp_elements(
                g.get_int32_list().unwrap().iter(),
                list(v),
                |e| val!(e, Int32),
                n,
            ),
            "int64List" => cmp_elements(
                g.get_int64_list().unwrap().iter(),
                list(v),
                |e| val!(e, Int64),
                n,
            ),
            "uint8List" => cmp_elements(
                g.get_uint8_list().unwrap().iter(),
                list(v),
                |e| val!(e, UInt8),
                n,
            ),
            "uint16List" => cmp_elements(
                g.get_uint16_list().unwrap().iter(),
                list(v),
                |e| val!(e, UInt16),
                n,
            ),
            "uint32List" => cmp_elements(
                g.get_uint32_list().unwrap().iter(),
                list(v),
                |e| val!(e, UInt32),
                n,
            ),
            "uint64List" => cmp_elements(
                g.get_uint64_list().unwrap().iter(),
                list(v),
                |e| val!(e, UInt64),
                n,
            ),
            "float32List" => cmp_elements(
                g.get_float32_list().unwrap().iter().map(f32::to_bits),
                list(v),
                |e| val!(e, Float32).to_bits(),
                n,
            ),
            "float64List" => cmp_elements(
                g.get_float64_list().unwrap().iter().map(f64::to_bits),
                list(v),
                |e| val!(e, Float64).to_bits(),
                n,
            ),
            "textList" => cmp_elements(
                g.get_text_list()
                    .unwrap()
                    .iter()
                    .map(|t| t.unwrap().to_string()),
                list(v),
                |e| val!(e, Text).to_string(),
                n,
            ),
            "dataList" => cmp_elements(
                g.get_data_list()
                    .unwrap()
                    .iter()
                    .map(|t| t.unwrap().to_vec()),
                list(v),
                |e| val!(e, Data).to_vec(),
                n,
            ),
            "structList" => {
                let (gl, dl) = (g.get_struct_list().unwrap(), list(v));
                assert_eq!(gl.len(), dl.len());
                for (i, ge) in gl.iter().enumerate() {
                    cmp_labeled(ge, &strukt(dl.get(i as u32).unwrap()), n);
                    n.elements += 1;
                }
            }
            "enumList" => cmp_elements(
                g.get_enum_list()
                    .unwrap()
                    .iter()
                    .map(|e| e.map(u16::from).unwrap_or_else(|e| e.0)),
                list(v),
                |e| val!(e, Enum).value(),
                n,
            ),
            "listOfLists" => {
                let (gl, dl) = (g.get_list_of_lists().unwrap(), list(v));
                assert_eq!(gl.len(), dl.len());
                for (i, ge) in gl.iter().enumerate() {
                    let inner = list(dl.get(i as u32).unwrap());
                    cmp_elements(ge.unwrap().iter(), inner, |e| val!(e, Int32), n);
                    n.elements += 1;
                }
            }
            "pointList" => {
                let (gl, dl) = (g.get_point_list().unwrap(), list(v));
                assert_eq!(gl.len(), dl.len());
                for (i, ge) in gl.iter().enumerate() {
                    cmp_point(ge, &strukt(dl.get(i as u32).unwrap()), n);
                    n.elements += 1;
                }
            }
            "choice" => {
                let (gc, dc) = (g.get_choice(), strukt(v));
                use all_types::choice::Which;
                let member = dc.which().unwrap().expect("a union");
                let value = dc.get(&member).unwrap();
                match (gc.which().unwrap(), member.name()) {
                    (Which::None, "none") => val!(value, Void),
                    (Which::Count(c), "count") => assert_eq!(val!(value, UInt32), c),
                    (Which::Name(t), "name") => assert_eq!(val!(value, Text), t.unwrap()),
                    (Which::Point(p), "point") => cmp_point(p.unwrap(), &strukt(value), n),
                    (_, other) => panic!("choice: generated and dynamic disagree ({other})"),
                }
                // Every other member is inactive, and reads as an error.
                for other in dc
                    .schema()
                    .union_fields()
                    .filter(|f| f.name() != member.name())
                {
                    assert!(!dc.has(&other).unwrap());
                    assert!(matches!(
                        dc.get(&other),
                        Err(capnarena_dynamic::Error::InactiveUnionMember { .. })
                    ));
                }
                n.fields += 1;
            }
            "group" => {
                let (gg, dg) = (g.get_group(), strukt(v));
                for f in visit(&dg) {
                    let v = dg.get(&f).unwrap();
                    match f.name() {
                        "a" => assert_eq!(val!(v, UInt16), gg.get_a()),
                        "b" => assert_eq!(val!(v, Text), gg.get_b().unwrap()),
                        other => panic!("group.{other} not compared"),
                    }
                    n.fields += 1;
                }
            }
            "anyField" => {
                let p = val!(v, AnyPointer);
                assert_eq!(p.raw(), g.get_any_field().raw());
                assert_eq!(p.is_null(), g.get_any_field().is_null());
            }
            other => panic!("AllTypes.{other} not compared"),
        }
        n.fields += 1;
    }
}

/// The generated `has_*` of AllTypes field `name` (`true` for fields
/// without a pointer, as the dynamic `has` answers).
fn has_all_types(g: all_types::Reader<'_>, name: &str) -> bool {
    match name {
        "textField" => g.has_text_field(),
        "dataField" => g.has_data_field(),
        "structField" => g.has_struct_field(),
        "voidList" => g.has_void_list(),
        "boolList" => g.has_bool_list(),
        "int8List" => g.has_int8_list(),
        "int16List" => g.has_int16_list(),
        "int32List" => g.has_int32_list(),
        "int64List" => g.has_int64_list(),
        "uint8List" => g.has_uint8_list(),
        "uint16List" => g.has_uint16_list(),
        "uint32List" => g.has_uint32_list(),
        "uint64List" => g.has_uint64_list(),
        "float32List" => g.has_float32_list(),
        "float64List" => g.has_float64_list(),
        "textList" => g.has_text_list(),
        "dataList" => g.has_data_list(),
        "structList" => g.has_struct_list(),
        "enumList" => g.has_enum_list(),
        "listOfLists" => g.has_list_of_lists(),
        "pointList" => g.has_point_list(),
        "anyField" => g.has_any_field(),
        _ => true,
    }
}

fn cmp_entry(g: entry::Reader<'_>, d: &DynamicStructReader<'_>, n: &mut Visited) {
    for f in visit(d) {
        let v = d.get(&f).unwrap();
        match f.name() {
            "timestamp" => assert_eq!(val!(v, UInt64), g.get_timestamp()),
            "level" => assert_eq!(val!(v, UInt8), g.get_level()),
            "message" => assert_eq!(val!(v, Text), g.get_message().unwrap()),
            "tags" => cmp_elements(
                g.get_tags().unwrap().iter().map(|t| t.unwrap().to_string()),
                list(v),
                |e| val!(e, Text).to_string(),
                n,
            ),
            other => panic!("Entry.{other} not compared"),
        }
        n.fields += 1;
    }
}

fn cmp_log(g: log::Reader<'_>, d: &DynamicStructReader<'_>, n: &mut Visited) {
    for f in visit(d) {
        match f.name() {
            "entries" => {
                let (gl, dl) = (g.get_entries().unwrap(), list(d.get(&f).unwrap()));
                assert_eq!(gl.len(), dl.len());
                for (i, ge) in gl.iter().enumerate() {
                    cmp_entry(ge, &strukt(dl.get(i as u32).unwrap()), n);
                    n.elements += 1;
                }
            }
            other => panic!("Log.{other} not compared"),
        }
        n.fields += 1;
    }
}

/// Compares the root of `reader` dynamically and generated; what was
/// visited. With `via_typed`, the dynamic reader is made from the
/// generated one ([`DynamicStructReader::from_typed`]) and `schema` is the
/// one loaded from the generated types; otherwise it reads the root by the
/// compiled schema's struct of that name.
fn compare(
    schema: &capnarena_dynamic::Schema<'_>,
    name: &str,
    reader: &MessageReader<'_>,
    via_typed: bool,
) -> Visited {
    let mut n = Visited::default();
    if name == "log" {
        let g: log::Reader<'_> = reader.get_root().unwrap();
        let d = if via_typed {
            DynamicStructReader::from_typed::<log::Owned>(schema, g).unwrap()
        } else {
            let root = schema.find_struct("all_types.capnp:Log").unwrap();
            DynamicStructReader::root(reader, root).unwrap()
        };
        cmp_log(g, &d, &mut n);
    } else {
        let g: all_types::Reader<'_> = reader.get_root().unwrap();
        let d = if via_typed {
            DynamicStructReader::from_typed::<all_types::Owned>(schema, g).unwrap()
        } else {
            let root = schema.find_struct("all_types.capnp:AllTypes").unwrap();
            DynamicStructReader::root(reader, root).unwrap()
        };
        cmp_all_types(g, &d, &mut n);
    }
    n
}

/// Every vector, in every framing, reads the same dynamically as through
/// the generated readers, every field and element visited: by the schema
/// compiled from all_types.capnp, and by the schema loaded from the
/// generated types, the dynamic reader made from the generated one
/// (`from_typed`); both visit the same fields and elements.
#[test]
fn dynamic_reader_agrees_with_generated_on_every_vector() {
    let compiled = all_types();
    let generated =
        LoadedSchema::from_generated(all_types_capnp::SCHEMA_NODES.iter().map(|node| node()))
            .unwrap();
    let mut totals = Vec::new();
    for (loaded, via_typed) in [(&compiled, false), (&generated, true)] {
        let schema = loaded.schema();
        let mut total = Visited::default();
        for name in VECTORS {
            let mut counts = Vec::new();
            for framing in FRAMED {
                let words = words(&vector(&format!("{name}.{framing}")));
                let n = compare(&schema, name, &framed(&words), via_typed);
                counts.push((n.fields, n.elements));
                total.fields += n.fields;
                total.elements += n.elements;
            }
            // One segment, no table: the flat and canonical files.
            for framing in ["flat", "canonical"] {
                let words = words(&vector(&format!("{name}.{framing}")));
                let segments = [&words[..]];
                let reader = MessageReader::from_segments(&segments, options()).unwrap();
                let n = compare(&schema, name, &reader, via_typed);
                counts.push((n.fields, n.elements));
            }
            // The same message visits the same fields in every framing.
            assert!(
                counts.windows(2).all(|w| w[0] == w[1]),
                "{name}: {counts:?}"
            );
            assert!(counts[0].0 > 0, "{name}: no field visited");
        }
        // Every vector message has fields; the full and lists ones elements.
        println!("visited in the framed files (from_typed: {via_typed}): {total:?}");
        assert!(total.elements > 1000, "{total:?}");
        totals.push((total.fields, total.elements));
    }
    assert_eq!(totals[0], totals[1]);
}

// ---------------------------------------------------------------------------
// Building: bytes against the generated builders.
// ---------------------------------------------------------------------------

/// The generated builders making the calls [`dyn_deep_copy`] makes, in
/// the same order.
fn gen_copy_point<A: Arena + ?Sized>(mut b: point::Builder<'_, A>, r: point::Reader<'_>) {
    b.set_x(r.get_x());
    b.set_y(r.get_y());
}

fn gen_copy_labeled<A: Arena + ?Sized>(mut b: labeled::Builder<'_, A>, r: labeled::Reader<'_>) {
    // Schema order: label @0, point @1, weight @2.
    if r.has_label() {
        let t = r.get_label().unwrap();
        b.init_label(t.len() as u32).unwrap().push_str(t).unwrap();
    }
    if r.has_point() {
        gen_copy_point(b.init_point().unwrap(), r.get_point().unwrap());
    }
    b.set_weight(r.get_weight());
}

fn gen_copy_texts<A: Arena + ?Sized>(
    mut b: capnarena::typed::TextListBuilder<'_, A>,
    r: capnarena::typed::TextListReader<'_>,
) {
    for i in 0..r.len() {
        if r.as_list_reader().get_pointer(i).is_null() {
            continue;
        }
        let t = r.get(i).unwrap();
        b.init(i, t.len() as u32).unwrap().push_str(t).unwrap();
    }
}

macro_rules! gen_list {
    ($b:ident, $r:ident, $has:ident, $get:ident, $init:ident) => {
        if $r.$has() {
            let src = $r.$get().unwrap();
            let mut dst = $b.$init(src.len()).unwrap();
            for i in 0..src.len() {
                dst.set(i, src.get(i));
            }
        }
    };
}

fn gen_copy_all_types<A: Arena + ?Sized>(
    mut b: all_types::Builder<'_, A>,
    r: all_types::Reader<'_>,
) {
    b.set_void_field();
    b.set_bool_field(r.get_bool_field());
    b.set_int8_field(r.get_int8_field());
    b.set_int16_field(r.get_int16_field());
    b.set_int32_field(r.get_int32_field());
    b.set_int64_field(r.get_int64_field());
    b.set_uint8_field(r.get_uint8_field());
    b.set_uint16_field(r.get_uint16_field());
    b.set_uint32_field(r.get_uint32_field());
    b.set_uint64_field(r.get_uint64_field());
    b.set_float32_field(r.get_float32_field());
    b.set_float64_field(r.get_float64_field());
    if r.has_text_field() {
        let t = r.get_text_field().unwrap();
        b.init_text_field(t.len() as u32)
            .unwrap()
            .push_str(t)
            .unwrap();
    }
    if r.has_data_field() {
        let d = r.get_data_field().unwrap();
        b.init_data_field(d.len() as u32)
            .unwrap()
            .copy_from_slice(d);
    }
    if r.has_struct_field() {
        gen_copy_all_types(
            b.init_struct_field().unwrap(),
            r.get_struct_field().unwrap(),
        );
    }
    b.set_enum_field(r.get_enum_field().unwrap());
    if r.has_void_list() {
        b.init_void_list(r.get_void_list().unwrap().len()).unwrap();
    }
    gen_list!(b, r, has_bool_list, get_bool_list, init_bool_list);
    gen_list!(b, r, has_int8_list, get_int8_list, init_int8_list);
    gen_list!(b, r, has_int16_list, get_int16_list, init_int16_list);
    gen_list!(b, r, has_int32_list, get_int32_list, init_int32_list);
    gen_list!(b, r, has_int64_list, get_int64_list, init_int64_list);
    gen_list!(b, r, has_uint8_list, get_uint8_list, init_uint8_list);
    gen_list!(b, r, has_uint16_list, get_uint16_list, init_uint16_list);
    gen_list!(b, r, has_uint32_list, get_uint32_list, init_uint32_list);
    gen_list!(b, r, has_uint64_list, get_uint64_list, init_uint64_list);
    gen_list!(b, r, has_float32_list, get_float32_list, init_float32_list);
    gen_list!(b, r, has_float64_list, get_float64_list, init_float64_list);
    if r.has_text_list() {
        let src = r.get_text_list().unwrap();
        gen_copy_texts(b.init_text_list(src.len()).unwrap(), src);
    }
    if r.has_data_list() {
        let src = r.get_data_list().unwrap();
        let mut dst = b.init_data_list(src.len()).unwrap();
        for i in 0..src.len() {
            if src.as_list_reader().get_pointer(i).is_null() {
                continue;
            }
            let d = src.get(i).unwrap();
            dst.init(i, d.len() as u32).unwrap().copy_from_slice(d);
        }
    }
    if r.has_struct_list() {
        let src = r.get_struct_list().unwrap();
        let mut dst = b.init_struct_list(src.len()).unwrap();
        for i in 0..src.len() {
            gen_copy_labeled(dst.get(i), src.get(i));
        }
    }
    if r.has_enum_list() {
        let src = r.get_enum_list().unwrap();
        let mut dst = b.init_enum_list(src.len()).unwrap();
        for i in 0..src.len() {
            dst.set(i, src.get(i).unwrap());
        }
    }
    if r.has_list_of_lists() {
        let src = r.get_list_of_lists().unwrap();
        let mut dst = b.init_list_of_lists(src.len()).unwrap();
        for i in 0..src.len() {
            if src.as_list_reader().get_pointer(i).is_null() {
                continue;
            }
            let inner = src.get(i).unwrap();
            let mut d = dst.init(i, inner.len()).unwrap();
            for j in 0..inner.len() {
                d.set(j, inner.get(j));
            }
        }
    }
    if r.has_point_list() {
        let src = r.get_point_list().unwrap();
        let mut dst = b.init_point_list(src.len()).unwrap();
        for i in 0..src.len() {
            gen_copy_point(dst.get(i), src.get(i));
        }
    }
    {
        use all_types::choice::Which;
        let mut c = b.init_choice();
        match r.get_choice().which().unwrap() {
            Which::None => c.set_none(),
            Which::Count(n) => c.set_count(n),
            Which::Name(t) => {
                let t = t.unwrap();
                c.init_name(t.len() as u32).unwrap().push_str(t).unwrap();
            }
            Which::Point(p) => gen_copy_point(c.init_point().unwrap(), p.unwrap()),
        }
    }
    {
        let (mut g, rg) = (b.init_group(), r.get_group());
        g.set_a(rg.get_a());
        if rg.has_b() {
            let t = rg.get_b().unwrap();
            g.init_b(t.len() as u32).unwrap().push_str(t).unwrap();
        }
    }
    if r.has_any_field() {
        b.get_any_field().set_from(&r.get_any_field()).unwrap();
    }
}

fn gen_copy_log<A: Arena + ?Sized>(mut b: log::Builder<'_, A>, r: log::Reader<'_>) {
    if r.has_entries() {
        let src = r.get_entries().unwrap();
        let mut dst = b.init_entries(src.len()).unwrap();
        for i in 0..src.len() {
            let (mut e, s) = (dst.get(i), src.get(i));
            e.set_timestamp(s.get_timestamp());
            e.set_level(s.get_level());
            if s.has_message() {
                let t = s.get_message().unwrap();
                e.init_message(t.len() as u32).unwrap().push_str(t).unwrap();
            }
            if s.has_tags() {
                let tags = s.get_tags().unwrap();
                gen_copy_texts(e.init_tags(tags.len()).unwrap(), tags);
            }
        }
    }
}

/// The generated `set_*` deep copies, field by field, in the schema's order.
fn gen_set_all_types<A: Arena + ?Sized>(
    mut b: all_types::Builder<'_, A>,
    r: all_types::Reader<'_>,
) {
    b.set_bool_field(r.get_bool_field());
    b.set_int8_field(r.get_int8_field());
    b.set_int16_field(r.get_int16_field());
    b.set_int32_field(r.get_int32_field());
    b.set_int64_field(r.get_int64_field());
    b.set_uint8_field(r.get_uint8_field());
    b.set_uint16_field(r.get_uint16_field());
    b.set_uint32_field(r.get_uint32_field());
    b.set_uint64_field(r.get_uint64_field());
    b.set_float32_field(r.get_float32_field());
    b.set_float64_field(r.get_float64_field());
    macro_rules! set {
        ($($has:ident, $get:ident, $set:ident;)*) => {$(
            if r.$has() {
                b.$set(r.$get().unwrap()).unwrap();
            }
        )*};
    }
    set!(
        has_text_field, get_text_field, set_text_field;
        has_data_field, get_data_field, set_data_field;
        has_struct_field, get_struct_field, set_struct_field;
    );
    b.set_enum_field(r.get_enum_field().unwrap());
    set!(
        has_void_list, get_void_list, set_void_list;
        has_bool_list, get_bool_list, set_bool_list;
        has_int8_list, get_int8_list, set_int8_list;
        has_int16_list, get_int16_list, set_int16_list;
        has_int32_list, get_int32_list, set_int32_list;
        has_int64_list, get_int64_list, set_int64_list;
        has_uint8_list, get_uint8_list, set_uint8_list;
        has_uint16_list, get_uint16_list, set_uint16_list;
        has_uint32_list, get_uint32_list, set_uint32_list;
        has_uint64_list, get_uint64_list, set_uint64_list;
        has_float32_list, get_float32_list, set_float32_list;
        has_float64_list, get_float64_list, set_float64_list;
        has_text_list, get_text_list, set_text_list;
        has_data_list, get_data_list, set_data_list;
        has_struct_list, get_struct_list, set_struct_list;
        has_enum_list, get_enum_list, set_enum_list;
        has_list_of_lists, get_list_of_lists, set_list_of_lists;
        has_point_list, get_point_list, set_point_list;
    );
    {
        use all_types::choice::Which;
        let mut c = b.get_choice();
        match r.get_choice().which().unwrap() {
            Which::None => c.set_none(),
            Which::Count(n) => c.set_count(n),
            Which::Name(t) => c.set_name(t.unwrap()).unwrap(),
            Which::Point(p) => c.set_point(p.unwrap()).unwrap(),
        }
    }
    {
        let (mut g, rg) = (b.get_group(), r.get_group());
        g.set_a(rg.get_a());
        if rg.has_b() {
            g.set_b(rg.get_b().unwrap()).unwrap();
        }
    }
    if r.has_any_field() {
        b.get_any_field().set_from(&r.get_any_field()).unwrap();
    }
}

fn gen_set_log<A: Arena + ?Sized>(mut b: log::Builder<'_, A>, r: log::Reader<'_>) {
    if r.has_entries() {
        b.set_entries(r.get_entries().unwrap()).unwrap();
    }
}

fn bytes_of(msg: &Message<SingleSegmentArena>) -> Vec<u8> {
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

/// The canonical form of a built message's root.
fn canonical(msg: &Message<SingleSegmentArena>) -> Vec<u8> {
    let reader = msg.reader();
    let root: StructReader<'_> = reader.root().unwrap();
    let mut out = Message::new(SingleSegmentArena::new());
    let words = out.set_root_canonical(&root).unwrap();
    capnarena::Word::slice_as_bytes(words).to_vec()
}

/// A dynamic builder copying each vector element by element writes the
/// generated builders' bytes; copying it field by field with deep `set`s
/// (`copy_fields`) writes the generated `set_*`s' bytes; both are the
/// reference's canonical form once canonicalized.
#[test]
fn dynamic_builder_writes_generated_bytes_on_every_vector() {
    let loaded = all_types();
    let schema = loaded.schema();
    for name in VECTORS {
        let canonical_ref = vector(&format!("{name}.canonical"));
        for framing in FRAMED {
            let words = words(&vector(&format!("{name}.{framing}")));
            let reader = framed(&words);
            let root = schema
                .find_struct(&format!("all_types.capnp:{}", root_type(name)))
                .unwrap();
            let src = DynamicStructReader::root(&reader, root.clone()).unwrap();

            let mut dynamic = Message::new(SingleSegmentArena::new());
            let mut b = DynamicStructBuilder::init_root(&mut dynamic, root.clone()).unwrap();
            dyn_deep_copy(&mut b, &src).unwrap();
            let mut generated = Message::new(SingleSegmentArena::new());
            if name == "log" {
                gen_copy_log(generated.init_root().unwrap(), reader.get_root().unwrap());
            } else {
                gen_copy_all_types(generated.init_root().unwrap(), reader.get_root().unwrap());
            }
            assert_eq!(
                bytes_of(&dynamic),
                bytes_of(&generated),
                "{name}.{framing}: element by element"
            );
            assert_eq!(
                canonical(&dynamic),
                canonical_ref,
                "{name}.{framing}: canonical form"
            );

            let mut dynamic = Message::new(SingleSegmentArena::new());
            let mut b = DynamicStructBuilder::init_root(&mut dynamic, root).unwrap();
            b.copy_fields(&src).unwrap();
            let mut generated = Message::new(SingleSegmentArena::new());
            if name == "log" {
                gen_set_log(generated.init_root().unwrap(), reader.get_root().unwrap());
            } else {
                gen_set_all_types(generated.init_root().unwrap(), reader.get_root().unwrap());
            }
            assert_eq!(
                bytes_of(&dynamic),
                bytes_of(&generated),
                "{name}.{framing}: field by field"
            );
            assert_eq!(
                canonical(&dynamic),
                canonical_ref,
                "{name}.{framing}: canonical form"
            );
        }
    }
}

/// A dynamic builder's `with_reader` and `downcast` see what it built; a
/// generated reader and builder convert to dynamic ones (`from_typed`)
/// and back (`downcast`), by the schema compiled from the file or loaded
/// from the generated types alike; a downcast to another struct's type is
/// an error naming both ids, and `from_typed` by a schema without the
/// type's struct an error naming it.
#[test]
fn conversion_with_generated_types() {
    let compiled = all_types();
    let generated = LoadedSchema::of::<all_types::Owned>().unwrap();
    for loaded in [&compiled, &generated] {
        let schema = loaded.schema();
        let all = schema.struct_for::<all_types::Owned>().unwrap();
        assert_eq!(all.id(), all_types::TYPE_ID);
        let mut msg = Message::new(SingleSegmentArena::new());
        {
            let mut b = DynamicStructBuilder::init_root(&mut msg, all.clone()).unwrap();
            b.set_by_name("int32Field", DynamicValue::Int32(-5))
                .unwrap();
            b.with_reader(|r| {
                assert!(matches!(
                    r.get_by_name("int32Field"),
                    Ok(DynamicValue::Int32(-5))
                ))
            });
            let mut g = b.downcast::<all_types::Owned>().unwrap();
            g.set_uint8_field(9);
            // Back to a dynamic builder, which sees both values.
            let mut d = DynamicStructBuilder::from_typed::<all_types::Owned>(&schema, g).unwrap();
            d.set_by_name("uint16Field", DynamicValue::UInt16(700))
                .unwrap();
            d.with_reader(|r| {
                assert!(matches!(
                    r.get_by_name("uint8Field"),
                    Ok(DynamicValue::UInt8(9))
                ))
            });
            // A builder downcast to another struct's type.
            let Err(err) = d.downcast::<point::Owned>() else {
                panic!("a downcast to another struct's type succeeded")
            };
            assert!(
                matches!(
                    err,
                    capnarena_dynamic::Error::WrongType { schema, generated }
                        if schema == all_types::TYPE_ID && generated == point::TYPE_ID
                ),
                "{err}"
            );
        }
        let reader = msg.reader();
        let g: all_types::Reader<'_> = reader.get_root().unwrap();
        assert_eq!(g.get_uint16_field(), 700);
        let d = DynamicStructReader::from_typed::<all_types::Owned>(&schema, g).unwrap();
        assert!(matches!(
            d.get_by_name("uint8Field"),
            Ok(DynamicValue::UInt8(9))
        ));
        assert_eq!(
            d.downcast::<all_types::Owned>().unwrap().get_int32_field(),
            -5
        );
        // A generated type of another struct is refused, naming both ids.
        let err = d.downcast::<labeled::Owned>().unwrap_err();
        assert!(
            matches!(
                err,
                capnarena_dynamic::Error::WrongType { schema, generated }
                    if schema == all_types::TYPE_ID && generated == labeled::TYPE_ID
            ),
            "{err}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!("{:#018x}", all_types::TYPE_ID))
                && text.contains(&format!("{:#018x}", labeled::TYPE_ID)),
            "{text}"
        );
    }
    // The schema of Point alone does not hold AllTypes.
    let points = LoadedSchema::of::<point::Owned>().unwrap();
    let schema = points.schema();
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root::<all_types::Builder<'_, _>>().unwrap();
    let r = msg.reader();
    let g: all_types::Reader<'_> = r.get_root().unwrap();
    let err = DynamicStructReader::from_typed::<all_types::Owned>(&schema, g).unwrap_err();
    assert!(
        matches!(err, capnarena_dynamic::Error::MissingNode { id } if id == all_types::TYPE_ID),
        "{err}"
    );
}
