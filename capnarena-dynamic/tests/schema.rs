//! The schema graph: lookups, field order, unions and groups, generic
//! bindings resolved, interfaces, constants and annotations as typed
//! values. The expected values are the literals written in the schema
//! text below (compiled in process), and, for defaults and constants of
//! `tests/schemas/codegen.capnp`, what the generated code
//! (`tests/generated/codegen_capnp.rs`) returns.

mod common;

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/codegen_capnp.rs"]
mod codegen_capnp;
#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/imported_capnp.rs"]
mod imported_capnp;

use capnarena::{Message, SingleSegmentArena};
use capnarena_compiler::Compiler;
use capnarena_dynamic::{
    DynamicStructBuilder, DynamicStructReader, DynamicValue, DynamicValueBuilder, LoadedSchema,
    Schema, Type,
};
use common::workspace;

const FEATURES: &str = r#"
@0xb6d8e3f2a1c40957;

annotation note(struct, field, enum, enumerant, interface, method, const) :Text;
annotation weight(field, const) :Float64;
annotation tagged(struct) :Tag;
annotation levels(field) :List(Level);

struct Tag {
  name @0 :Text;
  level @1 :Level = high;
}

enum Level $note("levels") {
  low @0 $note("the low one");
  high @1;
}

struct Holder(T) $note("holder") $tagged((name = "t1")) {
  value @0 :T $note("a T") $weight(2.5) $levels([high, low]);
  list @1 :List(Tag);  # List(T) is not allowed by capnp 0.9
  inner @2 :Inner;
  struct Inner {
    item @0 :T;
  }
  union {
    a @3 :Void;
    b @4 :T;
  }
  extra :group {
    tag @5 :T;
    count @6 :UInt32;
  }
}

struct Use {
  raw @2 :Holder;
  h @0 :Holder(Text);
  hs @1 :Holder(List(Tag));
}

interface Base $note("base") {
  ping @0 () -> ();
}

interface Derived(K) extends(Base) {
  get @0 (key :K) -> (value :Text) $note("get");
}

const limit :UInt16 = 7 $weight(1.5);
const tag :Tag = (name = "c", level = low);
const levelList :List(Level) = [low, high];
"#;

fn features() -> LoadedSchema {
    LoadedSchema::compile(
        &Compiler::new()
            .no_standard_import()
            .source("/features.capnp", FEATURES)
            .file("/features.capnp"),
    )
    .expect("the schema compiles")
}

fn text(v: DynamicValue<'_>) -> String {
    match v {
        DynamicValue::Text(t) => t.to_string(),
        other => panic!("expected Text, got {other:?}"),
    }
}

/// Nodes are found by display name and id; fields come in ordinal order
/// and in declaration order; unions and groups are described.
#[test]
fn lookups_fields_unions_groups() {
    let loaded = features();
    let schema = loaded.schema();
    let files: Vec<_> = schema.files().collect();
    assert_eq!(files, [(0xb6d8e3f2a1c40957, "features.capnp")]);
    let holder = schema.find_struct("features.capnp:Holder").unwrap();
    assert_eq!(
        schema.struct_schema(holder.id()).unwrap().display_name(),
        "features.capnp:Holder"
    );
    assert_eq!(holder.name(), "Holder");
    assert_eq!(holder.parameters().collect::<Vec<_>>(), ["T"]);
    let names: Vec<_> = holder.fields().map(|f| f.name()).collect();
    assert_eq!(names, ["value", "list", "inner", "a", "b", "extra"]);
    let union: Vec<_> = holder
        .union_fields()
        .map(|f| (f.name(), f.discriminant()))
        .collect();
    assert_eq!(union, [("a", Some(0)), ("b", Some(1))]);
    assert_eq!(holder.discriminant_count(), 2);
    let extra = holder.field_by_name("extra").unwrap();
    assert!(extra.is_group() && extra.ordinal().is_none());
    let group = extra.group().unwrap();
    assert!(group.is_group());
    assert_eq!(group.size(), holder.size());
    assert_eq!(
        group.fields().map(|f| f.name()).collect::<Vec<_>>(),
        ["tag", "count"]
    );
    // Use declares `raw` first with ordinal 2.
    let uses = schema.find_struct("features.capnp:Use").unwrap();
    assert_eq!(
        uses.fields().map(|f| f.name()).collect::<Vec<_>>(),
        ["h", "hs", "raw"]
    );
    let code: Vec<_> = uses
        .fields_in_code_order()
        .iter()
        .map(|f| f.name())
        .collect();
    assert_eq!(code, ["raw", "h", "hs"]);
    let nested: Vec<_> = schema
        .nested(holder.id())
        .unwrap()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(nested, ["Inner"]);
    assert_eq!(
        schema
            .node_kind(schema.find("features.capnp:limit").unwrap())
            .unwrap(),
        "const"
    );
}

/// Generic parameters resolve by the bindings of the path a struct was
/// reached by: `Holder(Text).value` is Text, an inner struct and a group
/// inherit the binding, a struct named without bindings has AnyPointer.
#[test]
fn generics_resolve_by_brand() {
    let loaded = features();
    let schema = loaded.schema();
    let uses = schema.find_struct("features.capnp:Use").unwrap();
    let field_type = |s: &capnarena_dynamic::StructSchema<'_>, name: &str| {
        s.field_by_name(name).unwrap().ty().unwrap()
    };
    let Type::Struct(h) = field_type(&uses, "h") else {
        panic!()
    };
    let h = schema.struct_of(&h).unwrap();
    assert!(matches!(field_type(&h, "value"), Type::Text));
    assert!(matches!(field_type(&h, "b"), Type::Text));
    let Type::List(l) = field_type(&h, "list") else {
        panic!()
    };
    assert!(matches!(&*l, Type::Struct(t) if t.id() == schema.find("features.capnp:Tag").unwrap()));
    let Type::Struct(inner) = field_type(&h, "inner") else {
        panic!()
    };
    let inner = schema.struct_of(&inner).unwrap();
    assert!(matches!(field_type(&inner, "item"), Type::Text));
    let group = h.field_by_name("extra").unwrap().group().unwrap();
    assert!(matches!(field_type(&group, "tag"), Type::Text));

    let Type::Struct(hs) = field_type(&uses, "hs") else {
        panic!()
    };
    let hs = schema.struct_of(&hs).unwrap();
    let Type::List(tags) = field_type(&hs, "value") else {
        panic!()
    };
    let Type::Struct(tag) = &*tags else { panic!() };
    assert_eq!(tag.id(), schema.find("features.capnp:Tag").unwrap());

    let Type::Struct(raw) = field_type(&uses, "raw") else {
        panic!()
    };
    let raw = schema.struct_of(&raw).unwrap();
    assert!(matches!(field_type(&raw, "value"), Type::AnyPointer));
    // Binding by hand.
    let bound = raw.bind(vec![Type::Data]).unwrap();
    assert!(matches!(field_type(&bound, "value"), Type::Data));
}

/// A value built through a binding reads back through it: a Text in
/// `Holder(Text).value`, and a list of structs in
/// `Holder(List(Tag)).value`.
#[test]
fn generic_values_round_trip() {
    let loaded = features();
    let schema = loaded.schema();
    let uses = schema.find_struct("features.capnp:Use").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut b = DynamicStructBuilder::init_root(&mut msg, uses.clone()).unwrap();
        let mut h = b.init_by_name("h").unwrap().into_struct().unwrap();
        h.set_by_name("value", "text in T".into()).unwrap();
        h.set_by_name("b", "member b".into()).unwrap();
        let mut hs = b.init_by_name("hs").unwrap().into_struct().unwrap();
        let mut tags = hs
            .init_list_by_name("value", 2)
            .unwrap()
            .into_list()
            .unwrap();
        let mut t0 = tags.get(1).unwrap().into_struct().unwrap();
        t0.set_by_name("name", "second".into()).unwrap();
        t0.set_by_name("level", "low".into()).unwrap();
        // A Text where the binding says List(Tag) is refused.
        let err = hs.set_by_name("value", "not a list".into()).unwrap_err();
        assert!(
            matches!(err, capnarena_dynamic::Error::TypeMismatch { .. }),
            "{err}"
        );
    }
    let reader = msg.reader();
    let r = DynamicStructReader::root(&reader, uses).unwrap();
    let h = r.get_by_name("h").unwrap().into_struct().unwrap();
    assert_eq!(text(h.get_by_name("value").unwrap()), "text in T");
    assert_eq!(h.which().unwrap().unwrap().name(), "b");
    assert_eq!(text(h.get_by_name("b").unwrap()), "member b");
    let hs = r.get_by_name("hs").unwrap().into_struct().unwrap();
    let tags = hs.get_by_name("value").unwrap().into_list().unwrap();
    assert_eq!(tags.len(), 2);
    let t0 = tags.get(0).unwrap().into_struct().unwrap();
    // An unset enum field reads as its schema default.
    assert_eq!(
        t0.get_by_name("level").unwrap().into_enum().unwrap().name(),
        Some("high")
    );
    let t1 = tags.get(1).unwrap().into_struct().unwrap();
    assert_eq!(text(t1.get_by_name("name").unwrap()), "second");
    assert_eq!(
        t1.get_by_name("level").unwrap().into_enum().unwrap().name(),
        Some("low")
    );
}

/// An `AnyPointer` (here an unbound generic parameter) is built and read
/// as a chosen struct type.
#[test]
fn any_pointer_as_a_chosen_type() {
    let loaded = features();
    let schema = loaded.schema();
    let uses = schema.find_struct("features.capnp:Use").unwrap();
    let tag = schema.find_struct("features.capnp:Tag").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut b = DynamicStructBuilder::init_root(&mut msg, uses.clone()).unwrap();
        let mut raw = b.init_by_name("raw").unwrap().into_struct().unwrap();
        let DynamicValueBuilder::AnyPointer(p) = raw.get_by_name("value").unwrap() else {
            panic!()
        };
        let mut t = DynamicValueBuilder::init_pointer(&schema, &tag.ty(), p, 0)
            .unwrap()
            .into_struct()
            .unwrap();
        t.set_by_name("name", "in any".into()).unwrap();
    }
    let reader = msg.reader();
    let r = DynamicStructReader::root(&reader, uses).unwrap();
    let raw = r.get_by_name("raw").unwrap().into_struct().unwrap();
    let DynamicValue::AnyPointer(p) = raw.get_by_name("value").unwrap() else {
        panic!()
    };
    let t = DynamicValue::read_pointer(&schema, &tag.ty(), p)
        .unwrap()
        .into_struct()
        .unwrap();
    assert_eq!(text(t.get_by_name("name").unwrap()), "in any");
    // Read as text instead, it is the runtime's error.
    let err = DynamicValue::read_pointer(&schema, &Type::Text, p).unwrap_err();
    assert!(matches!(err, capnarena_dynamic::Error::Wire(_)), "{err}");
}

/// Interfaces: methods with their parameter and result structs (bound
/// by the interface's brand), superclasses.
#[test]
fn interfaces() {
    let loaded = features();
    let schema = loaded.schema();
    let derived = schema.find_interface("features.capnp:Derived").unwrap();
    let methods: Vec<_> = derived.methods().map(|m| m.name()).collect();
    assert_eq!(methods, ["get"]);
    let get = derived.method_by_name("get").unwrap();
    let params = get.params().unwrap();
    assert_eq!(params.id(), get.param_struct_id());
    assert_eq!(
        params.fields().map(|f| f.name()).collect::<Vec<_>>(),
        ["key"]
    );
    // Unbound here: K is AnyPointer.
    assert!(matches!(
        params.field_by_name("key").unwrap().ty().unwrap(),
        Type::AnyPointer
    ));
    let results = get.results().unwrap();
    assert!(matches!(
        results.field_by_name("value").unwrap().ty().unwrap(),
        Type::Text
    ));
    let supers = derived.superclasses().unwrap();
    assert_eq!(supers.len(), 1);
    assert_eq!(supers[0].display_name(), "features.capnp:Base");
    assert_eq!(
        supers[0].methods().map(|m| m.name()).collect::<Vec<_>>(),
        ["ping"]
    );
    let ann = get.annotations();
    let note = schema.find_annotation("features.capnp:note").unwrap();
    assert_eq!(
        text(ann.get_by_schema(&note).unwrap().value().unwrap()),
        "get"
    );
}

/// Annotations read by id and by declaration, as typed values: text,
/// float, struct, list of enums; on structs, fields, enums, enumerants,
/// interfaces and constants.
#[test]
fn annotations_are_typed_values() {
    let loaded = features();
    let schema = loaded.schema();
    let note = schema.find_annotation("features.capnp:note").unwrap();
    assert!(matches!(note.ty().unwrap(), Type::Text));
    let holder = schema.find_struct("features.capnp:Holder").unwrap();
    let ann = holder.annotations();
    assert_eq!(ann.len(), 2);
    assert_eq!(text(ann.get(note.id()).unwrap().value().unwrap()), "holder");
    let tagged = schema.find("features.capnp:tagged").unwrap();
    let tag = ann
        .get(tagged)
        .unwrap()
        .value()
        .unwrap()
        .into_struct()
        .unwrap();
    assert_eq!(text(tag.get_by_name("name").unwrap()), "t1");
    assert_eq!(
        tag.get_by_name("level")
            .unwrap()
            .into_enum()
            .unwrap()
            .name(),
        Some("high")
    );

    let value = holder.field_by_name("value").unwrap();
    let fa = value.annotations();
    assert_eq!(
        text(fa.get_by_schema(&note).unwrap().value().unwrap()),
        "a T"
    );
    let weight = schema.find("features.capnp:weight").unwrap();
    assert!(
        matches!(fa.get(weight).unwrap().value().unwrap(), DynamicValue::Float64(w) if w == 2.5)
    );
    let levels = schema.find("features.capnp:levels").unwrap();
    let list = fa
        .get(levels)
        .unwrap()
        .value()
        .unwrap()
        .into_list()
        .unwrap();
    let names: Vec<_> = list
        .iter()
        .map(|e| e.unwrap().into_enum().unwrap().name().unwrap())
        .collect();
    assert_eq!(names, ["high", "low"]);
    assert!(fa.get(0x1234).is_none());

    let level = schema.find_enum("features.capnp:Level").unwrap();
    assert_eq!(
        text(level.annotations().get(note.id()).unwrap().value().unwrap()),
        "levels"
    );
    let low = level.enumerant(0).unwrap();
    assert_eq!(
        text(low.annotations().get(note.id()).unwrap().value().unwrap()),
        "the low one"
    );
    assert!(level.enumerant(1).unwrap().annotations().is_empty());
    let base = schema.find("features.capnp:Base").unwrap();
    assert_eq!(
        text(
            schema
                .annotations(base)
                .unwrap()
                .get(note.id())
                .unwrap()
                .value()
                .unwrap()
        ),
        "base"
    );
    let limit = schema.find("features.capnp:limit").unwrap();
    let w = schema
        .annotations(limit)
        .unwrap()
        .get(weight)
        .unwrap()
        .value()
        .unwrap();
    assert!(matches!(w, DynamicValue::Float64(w) if w == 1.5));
}

/// Constants of every kind read as typed values.
#[test]
fn constants() {
    let loaded = features();
    let schema = loaded.schema();
    let limit = schema.find_const("features.capnp:limit").unwrap();
    assert!(matches!(limit.value().unwrap(), DynamicValue::UInt16(7)));
    let tag = schema
        .find_const("features.capnp:tag")
        .unwrap()
        .value()
        .unwrap()
        .into_struct()
        .unwrap();
    assert_eq!(text(tag.get_by_name("name").unwrap()), "c");
    assert_eq!(
        tag.get_by_name("level")
            .unwrap()
            .into_enum()
            .unwrap()
            .name(),
        Some("low")
    );
    let levels = schema
        .find_const("features.capnp:levelList")
        .unwrap()
        .value()
        .unwrap()
        .into_list()
        .unwrap();
    let values: Vec<u16> = levels
        .iter()
        .map(|e| e.unwrap().into_enum().unwrap().value())
        .collect();
    assert_eq!(values, [0, 1]);
}

fn codegen() -> LoadedSchema {
    let dir = workspace().join("tests/schemas");
    LoadedSchema::compile(
        &Compiler::new()
            .no_standard_import()
            .src_prefix(&dir)
            .file(dir.join("codegen.capnp")),
    )
    .unwrap()
}

/// Every default of `Defaults` (scalars, NaN and infinities, enums, text,
/// data, a struct, lists of every kind) reads from an empty struct as the
/// generated getters read it.
#[test]
fn defaults_agree_with_generated() {
    use codegen_capnp::defaults;
    let loaded = codegen();
    let schema: Schema<'_> = loaded.schema();
    let s = schema.find_struct("codegen.capnp:Defaults").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root_struct(s.size()).unwrap();
    let reader = msg.reader();
    let g: defaults::Reader<'_> = reader.get_root().unwrap();
    let d = DynamicStructReader::root(&reader, s.clone()).unwrap();
    let mut compared = 0;
    for f in s.fields() {
        let v = d.get(&f).unwrap();
        match (f.name(), v) {
            ("b", DynamicValue::Bool(v)) => assert_eq!(v, g.get_b()),
            ("i8", DynamicValue::Int8(v)) => assert_eq!(v, g.get_i8()),
            ("i16", DynamicValue::Int16(v)) => assert_eq!(v, g.get_i16()),
            ("i32", DynamicValue::Int32(v)) => assert_eq!(v, g.get_i32()),
            ("i64", DynamicValue::Int64(v)) => assert_eq!(v, g.get_i64()),
            ("u8", DynamicValue::UInt8(v)) => assert_eq!(v, g.get_u8()),
            ("u16", DynamicValue::UInt16(v)) => assert_eq!(v, g.get_u16()),
            ("u32", DynamicValue::UInt32(v)) => assert_eq!(v, g.get_u32()),
            ("u64", DynamicValue::UInt64(v)) => assert_eq!(v, g.get_u64()),
            ("f32", DynamicValue::Float32(v)) => assert_eq!(v.to_bits(), g.get_f32().to_bits()),
            ("f64", DynamicValue::Float64(v)) => assert_eq!(v.to_bits(), g.get_f64().to_bits()),
            ("nan", DynamicValue::Float64(v)) => assert_eq!(v.to_bits(), g.get_nan().to_bits()),
            ("inf", DynamicValue::Float32(v)) => assert_eq!(v.to_bits(), g.get_inf().to_bits()),
            ("kind", DynamicValue::Enum(e)) => {
                assert_eq!(e.value(), u16::from(g.get_kind().unwrap()))
            }
            ("text", DynamicValue::Text(t)) => assert_eq!(t, g.get_text().unwrap()),
            ("data", DynamicValue::Data(t)) => assert_eq!(t, g.get_data().unwrap()),
            ("point", DynamicValue::Struct(p)) => {
                let gp = g.get_point().unwrap();
                assert!(
                    matches!(p.get_by_name("x").unwrap(), DynamicValue::Int32(x) if x == gp.get_x())
                );
                assert!(
                    matches!(p.get_by_name("y").unwrap(), DynamicValue::Int32(y) if y == gp.get_y())
                );
                assert_eq!(
                    text(p.get_by_name("label").unwrap()),
                    gp.get_label().unwrap()
                );
            }
            ("ints", DynamicValue::List(l)) => {
                let want: Vec<i32> = g.get_ints().unwrap().iter().collect();
                let got: Vec<i32> = l
                    .iter()
                    .map(|e| match e.unwrap() {
                        DynamicValue::Int32(v) => v,
                        o => panic!("{o:?}"),
                    })
                    .collect();
                assert_eq!(got, want);
            }
            ("texts", DynamicValue::List(l)) => {
                let want: Vec<String> = g
                    .get_texts()
                    .unwrap()
                    .iter()
                    .map(|t| t.unwrap().to_string())
                    .collect();
                let got: Vec<String> = l.iter().map(|e| text(e.unwrap())).collect();
                assert_eq!(got, want);
            }
            ("points", DynamicValue::List(l)) => {
                let want = g.get_points().unwrap();
                assert_eq!(l.len(), want.len());
                for (i, gp) in want.iter().enumerate() {
                    let p = l.get(i as u32).unwrap().into_struct().unwrap();
                    assert!(
                        matches!(p.get_by_name("y").unwrap(), DynamicValue::Int32(y) if y == gp.get_y())
                    );
                    assert_eq!(
                        text(p.get_by_name("label").unwrap()),
                        gp.get_label().unwrap()
                    );
                }
            }
            ("bools", DynamicValue::List(l)) => {
                let want: Vec<bool> = g.get_bools().unwrap().iter().collect();
                let got: Vec<bool> = l
                    .iter()
                    .map(|e| matches!(e.unwrap(), DynamicValue::Bool(true)))
                    .collect();
                assert_eq!(got, want);
            }
            ("kinds", DynamicValue::List(l)) => {
                let want: Vec<u16> = g
                    .get_kinds()
                    .unwrap()
                    .iter()
                    .map(|k| u16::from(k.unwrap()))
                    .collect();
                let got: Vec<u16> = l
                    .iter()
                    .map(|e| e.unwrap().into_enum().unwrap().value())
                    .collect();
                assert_eq!(got, want);
            }
            ("nested", DynamicValue::List(l)) => {
                let want: Vec<Vec<u8>> = g
                    .get_nested()
                    .unwrap()
                    .iter()
                    .map(|x| x.unwrap().iter().collect())
                    .collect();
                let got: Vec<Vec<u8>> = l
                    .iter()
                    .map(|x| {
                        x.unwrap()
                            .into_list()
                            .unwrap()
                            .iter()
                            .map(|e| match e.unwrap() {
                                DynamicValue::UInt8(v) => v,
                                o => panic!("{o:?}"),
                            })
                            .collect()
                    })
                    .collect();
                assert_eq!(got, want);
            }
            ("shade", DynamicValue::Enum(e)) => {
                assert_eq!(e.value(), u16::from(g.get_shade().unwrap()))
            }
            ("noDefault", DynamicValue::UInt32(v)) => assert_eq!(v, g.get_no_default()),
            ("zeroDefault", DynamicValue::Int64(v)) => assert_eq!(v, g.get_zero_default()),
            (name, v) => panic!("Defaults.{name} not compared ({v:?})"),
        }
        compared += 1;
    }
    assert_eq!(compared, s.fields().len());
    assert_eq!(compared, 26);
}

/// A builder's `get` of a pointer field with a default copies the default
/// in first, as the generated `get_*` does: the same bytes.
#[test]
fn builder_defaults_agree_with_generated() {
    use codegen_capnp::defaults;
    let loaded = codegen();
    let schema = loaded.schema();
    let s = schema.find_struct("codegen.capnp:Defaults").unwrap();
    let mut dynamic = Message::new(SingleSegmentArena::new());
    {
        let mut b = DynamicStructBuilder::init_root(&mut dynamic, s.clone()).unwrap();
        for name in [
            "text", "data", "point", "ints", "texts", "points", "bools", "kinds", "nested",
        ] {
            let v = b.get_by_name(name).unwrap();
            if name == "text" {
                let DynamicValueBuilder::Text(t) = v else {
                    panic!()
                };
                assert_eq!(t.as_str().unwrap(), "hello \"world\"\n");
            }
        }
        // Scalars read their defaults from a builder too.
        assert!(matches!(
            b.get_by_name("u16").unwrap(),
            DynamicValueBuilder::UInt16(60000)
        ));
    }
    let mut generated = Message::new(SingleSegmentArena::new());
    {
        let mut g: defaults::Builder<'_, _> = generated.init_root().unwrap();
        g.get_text().unwrap();
        g.get_data().unwrap();
        g.get_point().unwrap();
        g.get_ints().unwrap();
        g.get_texts().unwrap();
        g.get_points().unwrap();
        g.get_bools().unwrap();
        g.get_kinds().unwrap();
        g.get_nested().unwrap();
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    dynamic.append_to(&mut a);
    generated.append_to(&mut b);
    assert_eq!(a, b);
}

/// Constants of codegen.capnp read as the generated constants.
#[test]
fn constants_agree_with_generated() {
    let loaded = codegen();
    let schema = loaded.schema();
    let c = |name: &str| {
        schema
            .find_const(&format!("codegen.capnp:{name}"))
            .unwrap()
            .value()
            .unwrap()
    };
    assert!(matches!(c("answer"), DynamicValue::UInt32(v) if v == codegen_capnp::ANSWER));
    assert_eq!(text(c("greeting")), codegen_capnp::GREETING);
    assert!(matches!(c("blob"), DynamicValue::Data(d) if d == codegen_capnp::BLOB));
    assert!(matches!(c("pi"), DynamicValue::Float64(v) if v == codegen_capnp::PI));
    assert_eq!(
        c("favourite").into_enum().unwrap().value(),
        u16::from(codegen_capnp::FAVOURITE)
    );
    let origin = c("origin").into_struct().unwrap();
    assert_eq!(
        text(origin.get_by_name("label").unwrap()),
        codegen_capnp::ORIGIN.get().unwrap().get_label().unwrap()
    );
    let primes: Vec<u16> = c("primes")
        .into_list()
        .unwrap()
        .iter()
        .map(|e| match e.unwrap() {
            DynamicValue::UInt16(v) => v,
            o => panic!("{o:?}"),
        })
        .collect();
    let want: Vec<u16> = codegen_capnp::PRIMES.get().unwrap().iter().collect();
    assert_eq!(primes, want);
}

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/nonutf8_capnp.rs"]
mod nonutf8_capnp;

/// Text that is not UTF-8 (a default, a union member's default, a
/// constant): `get` is the runtime's UTF-8 error as the generated `get_*`,
/// `get_text_bytes` the bytes as the generated `get_*_bytes`.
#[test]
fn text_that_is_not_utf8() {
    let dir = workspace().join("tests/schemas");
    let loaded = LoadedSchema::compile(
        &Compiler::new()
            .no_standard_import()
            .src_prefix(&dir)
            .file(dir.join("nonutf8.capnp")),
    )
    .unwrap();
    let schema = loaded.schema();
    let s = schema.find_struct("nonutf8.capnp:Holder").unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root_struct(s.size()).unwrap();
    let reader = msg.reader();
    let g: nonutf8_capnp::holder::Reader<'_> = reader.get_root().unwrap();
    let d = DynamicStructReader::root(&reader, s.clone()).unwrap();
    let text = s.field_by_name("text").unwrap();
    assert_eq!(
        d.get(&text).unwrap_err().to_string(),
        g.get_text().unwrap_err().to_string()
    );
    assert_eq!(
        d.get_text_bytes(&text).unwrap(),
        g.get_text_bytes().unwrap()
    );
    assert_eq!(d.get_text_bytes(&text).unwrap(), b"a\xffb");
    let choice = d.get_by_name("choice").unwrap().into_struct().unwrap();
    let none = choice.schema().field_by_name("none").unwrap();
    assert_eq!(choice.which().unwrap().unwrap().name(), none.name());
    let member = choice.schema().field_by_name("member").unwrap();
    assert!(matches!(
        choice.get_text_bytes(&member),
        Err(capnarena_dynamic::Error::InactiveUnionMember { .. })
    ));
    let c = schema.find_const("nonutf8.capnp:bytes").unwrap();
    assert!(c.value().is_err());
    assert_eq!(c.text_bytes().unwrap(), nonutf8_capnp::BYTES);
    let plain = schema.find_const("nonutf8.capnp:plain").unwrap();
    assert_eq!(plain.text_bytes().unwrap(), nonutf8_capnp::PLAIN.as_bytes());
    let note = schema.find("nonutf8.capnp:note").unwrap();
    assert!(text.annotations().get(note).unwrap().value().is_err());
    // A field of another type.
    assert!(matches!(
        d.get_text_bytes(&choice.schema().field_by_name("none").unwrap()),
        Err(capnarena_dynamic::Error::FieldOfOtherStruct { .. })
    ));
}
