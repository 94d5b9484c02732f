//! Schema compatibility: one test per rule, each with a pair of schemas
//! compiled in process, checked in both directions (old to new and new to
//! old), so that every rule is seen both firing and not firing.

use capnarena_dynamic::compat::{self, CompatSchema, Finding, Rule, Verdict};

const FILE_ID: &str = "@0xd3bd7ff1e1ed8b6a;\n";

fn side(body: &str) -> CompatSchema {
    let text = format!("{FILE_ID}{body}");
    CompatSchema::compile_sources(&[("/t.capnp", text)])
        .unwrap_or_else(|e| panic!("schema does not compile: {e}\n{body}"))
}

fn findings(old: &str, new: &str) -> Vec<Finding> {
    compat::check(&side(old), &side(new)).findings
}

fn rules(old: &str, new: &str) -> Vec<Rule> {
    let mut r: Vec<Rule> = findings(old, new).iter().map(|f| f.rule).collect();
    r.sort();
    r.dedup();
    r
}

/// The rules found old -> new and new -> old.
fn both(old: &str, new: &str) -> (Vec<Rule>, Vec<Rule>) {
    (rules(old, new), rules(new, old))
}

fn worst(old: &str, new: &str) -> Option<Verdict> {
    compat::check(&side(old), &side(new)).worst(&[])
}

use Rule::*;

#[test]
fn codes_are_unique_kebab_case_and_round_trip() {
    let mut seen = std::collections::HashSet::new();
    for r in Rule::ALL {
        let code = r.code();
        assert!(seen.insert(code), "{code} twice");
        assert!(
            code.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{code}"
        );
        assert_eq!(Rule::from_code(code), Some(*r));
        // Only incompatible rules break anyone.
        let b = r.breaks();
        assert_eq!(
            b.new_reading_old || b.old_reading_new,
            r.verdict() == Verdict::Incompatible,
            "{code}"
        );
    }
}

#[test]
fn a_schema_compared_with_itself_has_no_findings() {
    let s = "
        struct A { a @0 :Int32 = 5; t @1 :Text = \"x\"; l @2 :List(B);
                   union { u @3 :Void; v @4 :Data; g :group { w @5 :Float64; } }
                   d @6 :B = (x = 1); i @7 :I; e @8 :E; m @9 :Box(Text); }
        struct B { x @0 :UInt8; self @1 :A; }
        struct Box(T) { v @0 :T; }
        enum E { x @0; y @1; }
        interface I extends(J) { m @0 (a :Int32) -> (b :Text); }
        interface J { n @0 [U] (u :U) -> (); }
        const c :Int32 = 3;
    ";
    let f = findings(s, s);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn type_added_and_type_removed() {
    let (fwd, back) = both("struct A {}", "struct A {} struct B {}");
    assert_eq!(fwd, [TypeAdded]);
    assert_eq!(back, [TypeRemoved]);
    assert_eq!(
        worst("struct A {}", "struct A {} struct B {}"),
        Some(Verdict::Compatible)
    );
}

#[test]
fn field_added_and_field_removed() {
    let old = "struct A { a @0 :Int32; }";
    let new = "struct A { a @0 :Int32; b @1 :Text; c @2 :Int64; }";
    let (fwd, back) = both(old, new);
    assert_eq!(fwd, [FieldAdded, SectionGrown]);
    assert_eq!(back, [FieldRemoved, SectionShrunk]);
    assert!(FieldRemoved.breaks().old_reading_new);
    assert!(!FieldRemoved.breaks().new_reading_old);
}

#[test]
fn enumerant_added_and_removed() {
    let (fwd, back) = both("enum E { a @0; }", "enum E { a @0; b @1; }");
    assert_eq!(fwd, [EnumerantAdded]);
    assert_eq!(back, [EnumerantRemoved]);
}

#[test]
fn method_added_and_removed() {
    let old = "interface I { a @0 () -> (); }";
    let new = "interface I { a @0 () -> (); b @1 (x :Int32) -> (); }";
    let (fwd, back) = both(old, new);
    assert_eq!(fwd, [MethodAdded]);
    assert_eq!(back, [MethodRemoved]);
}

#[test]
fn list_of_primitives_text_or_lists_upgrades_to_structs() {
    for (t, u) in [
        ("Int32", "v @0 :Int32; extra @1 :Text;"),
        ("Text", "t @0 :Text; n @1 :UInt8;"),
        ("List(UInt16)", "l @0 :List(UInt16);"),
        ("Float64", "f @0 :Float64;"),
    ] {
        let old = format!("struct A {{ l @0 :List({t}); }} struct S {{ {u} }}");
        let new = format!("struct A {{ l @0 :List(S); }} struct S {{ {u} }}");
        let (fwd, back) = both(&old, &new);
        assert_eq!(fwd, [ListUpgradedToStruct], "{t}");
        assert_eq!(back, [ListElementChanged], "{t}");
    }
}

#[test]
fn bool_lists_and_mismatched_first_fields_do_not_upgrade() {
    for (t, u) in [
        ("Bool", "b @0 :Bool;"),
        ("Int32", "v @0 :Int64;"),
        ("Text", "d @0 :Data;"),
        ("Int32", "x @0 :Text; v @1 :Int32;"),
    ] {
        let old = format!("struct A {{ l @0 :List({t}); }} struct S {{ {u} }}");
        let new = format!("struct A {{ l @0 :List(S); }} struct S {{ {u} }}");
        assert_eq!(rules(&old, &new), [ListElementChanged], "{t} -> {u}");
    }
}

/// The page's own example of making a type generic.
const MAP_OLD: &str = "
    struct Map { entries @0 :List(Entry);
      struct Entry { key @0 :Text; value @1 :Text; } }
    struct User { m @0 :Map; e @1 :Map.Entry; }";

#[test]
fn made_generic_as_the_page_shows() {
    let new = "
        struct Map(Key, Value) { entries @0 :List(Entry);
          struct Entry { key @0 :Key; value @1 :Value; } }
        struct User { m @0 :Map(Text, Text); e @1 :Map(Text, Text).Entry; }";
    let r = compat::check(&side(MAP_OLD), &side(new));
    assert!(r.is_wire_compatible(&[]), "{:#?}", r.findings);
    assert!(r.findings.iter().any(|f| f.rule == MadeGeneric));
    // Back: the parameters are gone and the fields were Key and Value.
    let back = rules(new, MAP_OLD);
    assert!(back.contains(&GenericBindingChanged), "{back:?}");
    assert!(back.contains(&FieldTypeChanged), "{back:?}");
}

#[test]
fn made_generic_bound_to_another_type_is_a_binding_change() {
    let new = "
        struct Map(Key, Value) { entries @0 :List(Entry);
          struct Entry { key @0 :Key; value @1 :Value; } }
        struct User { m @0 :Map(Text, Data); e @1 :Map(Text, Text).Entry; }";
    let f = findings(MAP_OLD, new);
    let bad: Vec<_> = f
        .iter()
        .filter(|f| f.rule == GenericBindingChanged)
        .collect();
    assert_eq!(bad.len(), 1, "{f:#?}");
    assert!(bad[0].message.contains("User.m"), "{}", bad[0].message);
}

#[test]
fn generic_binding_changed() {
    let old = "struct Box(T) { v @0 :T; } struct U { b @0 :Box(Text); }";
    let new = "struct Box(T) { v @0 :T; } struct U { b @0 :Box(Data); }";
    let (fwd, back) = both(old, new);
    assert_eq!(fwd, [GenericBindingChanged]);
    assert_eq!(back, [GenericBindingChanged]);
}

#[test]
fn field_moved_into_a_new_union() {
    let old = "struct S { a @0 :Int32; }";
    let unnamed = "struct S { union { a @0 :Int32; b @1 :Text; } }";
    let (fwd, back) = both(old, unnamed);
    assert_eq!(fwd, [FieldAdded, SectionGrown, FieldMovedIntoNewUnion]);
    assert!(back.contains(&UnionMembershipChanged), "{back:?}");
    // A named union renames the field's path: binary-only on top.
    let named = "struct S { u :union { a @0 :Int32; b @1 :Text; } }";
    assert_eq!(
        rules(old, named),
        [
            FieldAdded,
            SectionGrown,
            FieldMovedIntoNewUnion,
            FieldRenamed
        ]
    );
    assert_eq!(worst(old, named), Some(Verdict::BinaryOnly));
}

#[test]
fn new_union_of_two_existing_fields_and_moves_into_existing_unions() {
    let old = "struct S { a @0 :Int32; b @1 :Int32; }";
    let new = "struct S { union { a @0 :Int32; b @1 :Int32; } }";
    assert!(rules(old, new).contains(&UnionMembershipChanged));
    let old = "struct S { union { a @0 :Void; b @1 :Void; } c @2 :Int32; }";
    let new = "struct S { union { a @0 :Void; b @1 :Void; c @2 :Int32; } }";
    let f = findings(old, new);
    assert!(
        f.iter()
            .any(|f| f.rule == UnionMembershipChanged && f.message.contains("field c")),
        "{f:#?}"
    );
}

#[test]
fn union_discriminant_moved() {
    let old = "struct S { x @0 :UInt16; union { a @1 :Void; b @2 :Void; } }";
    let new = "struct S { x @0 :UInt32; union { a @1 :Void; b @2 :Void; } }";
    let fwd = rules(old, new);
    assert!(fwd.contains(&UnionDiscriminantChanged), "{fwd:?}");
    assert!(fwd.contains(&FieldTypeChanged), "{fwd:?}");
}

#[test]
fn renames_are_binary_only() {
    let (fwd, back) = both("struct S { a @0 :Int32; }", "struct S { b @0 :Int32; }");
    assert_eq!(fwd, [FieldRenamed]);
    assert_eq!(back, [FieldRenamed]);
    assert_eq!(
        rules("enum E { a @0; }", "enum E { b @0; }"),
        [EnumerantRenamed]
    );
    assert_eq!(
        rules("interface I { a @0 (); }", "interface I { b @0 (); }"),
        [MethodRenamed]
    );
    assert_eq!(
        rules(
            "struct A @0xa1a2a3a4a5a6a7a8 {}",
            "struct B @0xa1a2a3a4a5a6a7a8 {}"
        ),
        [TypeRenamed]
    );
    // A group renamed renames its fields' paths.
    assert_eq!(
        rules(
            "struct S { g :group { x @0 :Int32; } }",
            "struct S { h :group { x @0 :Int32; } }"
        ),
        [FieldRenamed]
    );
    assert_eq!(
        worst("struct S { a @0 :Int32; }", "struct S { b @0 :Int32; }"),
        Some(Verdict::BinaryOnly)
    );
}

#[test]
fn the_same_schema_in_another_file_is_no_change() {
    let text = format!("{FILE_ID}struct S {{ a @0 :Int32; }} interface I {{ m @0 (); }}");
    let a = CompatSchema::compile_sources(&[("/old.capnp", &text)]).unwrap();
    let b = CompatSchema::compile_sources(&[("/new.capnp", &text)]).unwrap();
    let f = compat::check(&a, &b).findings;
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn a_type_renamed_without_an_explicit_id_is_removed() {
    let (fwd, _) = both("struct A { x @0 :Int32; }", "struct B { x @0 :Int32; }");
    assert_eq!(fwd, [TypeAdded, TypeRemoved]);
}

#[test]
fn type_id_and_kind_changes() {
    assert_eq!(
        rules(
            "struct A @0xa1a2a3a4a5a6a7a8 {}",
            "struct A @0xb1a2a3a4a5a6a7a8 {}"
        ),
        [TypeIdChanged]
    );
    assert_eq!(
        rules(
            "struct A @0xa1a2a3a4a5a6a7a8 {}",
            "enum A @0xa1a2a3a4a5a6a7a8 { x @0; }"
        ),
        [NodeKindChanged]
    );
}

#[test]
fn declarations_removed_are_binary_only() {
    let (fwd, back) = both("const c :Int32 = 1;", "");
    assert_eq!(fwd, [DeclarationRemoved]);
    assert!(back.is_empty(), "{back:?}");
}

#[test]
fn names_that_move_to_another_number() {
    let old = "struct S { a @0 :Int32; b @1 :Int32; }";
    let new = "struct S { b @0 :Int32; a @1 :Int32; }";
    let (fwd, back) = both(old, new);
    assert_eq!(fwd, [NameMoved]);
    assert_eq!(back, [NameMoved]);
    assert_eq!(
        rules("enum E { a @0; b @1; }", "enum E { b @0; a @1; }"),
        [NameMoved]
    );
    assert_eq!(
        rules(
            "interface I { a @0 (); b @1 (); }",
            "interface I { b @0 (); a @1 (); }"
        ),
        [NameMoved]
    );
}

#[test]
fn field_types_changed() {
    for (a, b) in [
        ("Int32", "Int64"),
        ("Int32", "UInt32"),
        ("Text", "Data"),
        ("Bool", "Void"),
        ("A", "B"),
        ("I", "J"),
        ("E", "F"),
        ("AnyPointer", "Text"),
    ] {
        let decls = "struct A {} struct B {} interface I {} interface J {} enum E { x @0; } enum F { x @0; }";
        let old = format!("struct S {{ f @0 :{a}; }} {decls}");
        let new = format!("struct S {{ f @0 :{b}; }} {decls}");
        let (fwd, back) = both(&old, &new);
        assert!(fwd.contains(&FieldTypeChanged), "{a} -> {b}: {fwd:?}");
        assert!(back.contains(&FieldTypeChanged), "{b} -> {a}: {back:?}");
    }
}

#[test]
fn list_element_size_changed() {
    let (fwd, back) = both(
        "struct S { l @0 :List(Int32); }",
        "struct S { l @0 :List(Int64); }",
    );
    assert_eq!(fwd, [ListElementChanged]);
    assert_eq!(back, [ListElementChanged]);
}

#[test]
fn field_offset_changed() {
    // b's byte moves when a widens into its room.
    let old = "struct S { a @0 :UInt8; b @1 :UInt8; }";
    let new = "struct S { a @0 :UInt16; b @1 :UInt8; }";
    let fwd = rules(old, new);
    assert!(fwd.contains(&FieldOffsetChanged), "{fwd:?}");
}

#[test]
fn defaults_changed() {
    for (t, a, b) in [
        ("Int32", "5", "6"),
        ("Float64", "1.5", "2.5"),
        ("Bool", "true", "false"),
        ("Text", "\"a\"", "\"b\""),
        ("Data", "0x\"01\"", "0x\"02\""),
        ("List(Int32)", "[1, 2]", "[1, 3]"),
        ("P", "(x = 1)", "(x = 2)"),
        ("E", "x", "y"),
    ] {
        let decls = "struct P { x @0 :Int32; } enum E { x @0; y @1; }";
        let old = format!("struct S {{ f @0 :{t} = {a}; }} {decls}");
        let new = format!("struct S {{ f @0 :{t} = {b}; }} {decls}");
        let (fwd, back) = both(&old, &new);
        assert_eq!(fwd, [DefaultChanged], "{t}");
        assert_eq!(back, [DefaultChanged], "{t}");
        // The same default written again is no change.
        assert!(rules(&old, &old).is_empty(), "{t}");
    }
    // An explicit default equal to the implicit one is no change.
    assert!(rules("struct S { f @0 :Int32; }", "struct S { f @0 :Int32 = 0; }").is_empty());
}

#[test]
fn superclass_removed() {
    let old = "interface A { a @0 (); } interface B extends(A) {}";
    let new = "interface A { a @0 (); } interface B {}";
    let (fwd, back) = both(old, new);
    assert_eq!(fwd, [SuperclassRemoved]);
    assert!(back.is_empty(), "{back:?}");
}

#[test]
fn method_parameters_and_results() {
    let old = "interface I { m @0 (a :Int32) -> (r :Text); }";
    let changed = "interface I { m @0 (a :Int64) -> (r :Text); }";
    let f = findings(old, changed);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].rule, FieldTypeChanged);
    assert!(
        f[0].message.contains("parameters of method m"),
        "{}",
        f[0].message
    );
    let added = "interface I { m @0 (a :Int32, b :Text = \"x\") -> (r :Text); }";
    let (fwd, back) = both(old, added);
    assert!(fwd.contains(&FieldAdded), "{fwd:?}");
    assert!(back.contains(&FieldRemoved), "{back:?}");
    // A named struct in place of the same parameters is compared by
    // structure: the same layout is no change on the wire.
    let named = "interface I { m @0 P -> (r :Text); } struct P { a @0 :Int32; }";
    assert!(compat::check(&side(old), &side(named)).is_wire_compatible(&[]));
    let results = "interface I { m @0 (a :Int32) -> (r :Data); }";
    let f = findings(old, results);
    assert!(
        f.iter().any(|f| f.message.contains("results of method m")),
        "{f:#?}"
    );
}

#[test]
fn findings_point_at_both_declarations() {
    let old = side("struct S {\n  a @0 :Int32;\n}\n");
    let new = side("struct S {\n  b @1 :Text;\n\n  a @0 :Int64;\n}\n");
    let r = compat::check(&old, &new);
    let f = r
        .findings
        .iter()
        .find(|f| f.rule == FieldTypeChanged)
        .unwrap();
    let (o, n) = (f.old.as_ref().unwrap(), f.new.as_ref().unwrap());
    let (o, n) = (o.position.as_ref().unwrap(), n.position.as_ref().unwrap());
    assert_eq!((o.file.as_str(), o.line, o.column), ("/t.capnp", 3, 3));
    assert_eq!((n.line, n.column), (5, 3));
    let text = f.to_string();
    assert!(
        text.starts_with("/t.capnp:5:3: error[field-type-changed]: "),
        "{text}"
    );
    assert!(text.contains("/t.capnp:3:3: note"), "{text}");
}

#[test]
fn saved_requests_compare_as_compiled_text_and_allow_lists() {
    let compile = |body: &str| {
        capnarena_compiler::Compiler::new()
            .source("/t.capnp", format!("{FILE_ID}{body}"))
            .file("/t.capnp")
            .compile()
            .unwrap()
    };
    let old = CompatSchema::from_request_bytes(&compile("struct S { a @0 :Int32; b @1 :Int32; }"))
        .unwrap();
    let new = CompatSchema::from_request_bytes(&compile("struct S { a @0 :Int32; }")).unwrap();
    let r = compat::check(&old, &new);
    let got: Vec<Rule> = r.findings.iter().map(|f| f.rule).collect();
    assert_eq!(got, [FieldRemoved]);
    // No text: the declaration is named, not placed.
    assert_eq!(r.findings[0].old.as_ref().unwrap().name, "t.capnp:S.b");
    assert!(r.findings[0].old.as_ref().unwrap().position.is_none());
    assert!(!r.is_wire_compatible(&[]));
    assert!(r.is_wire_compatible(&[FieldRemoved]));
}

#[test]
fn struct_cycles_and_deep_types_terminate() {
    let s = "struct A { b @0 :B; l @1 :List(List(List(List(A)))); } struct B { a @0 :A; b @1 :B; }";
    assert!(rules(s, s).is_empty());
    let deep = |inner: &str| {
        let mut t = inner.to_owned();
        for _ in 0..50 {
            t = format!("List({t})");
        }
        format!("struct S {{ f @0 :{t}; }}")
    };
    assert_eq!(rules(&deep("Int32"), &deep("Int64")), [ListElementChanged]);
}

#[test]
fn comparing_a_large_schema_with_itself_is_linear_and_quiet() {
    // 3000 fields and 3000 enumerants: a quadratic walk would still end,
    // so the guard here is that nothing is reported; the time is the
    // maps' (see compare.rs).
    let mut s = String::from("struct Big {");
    for i in 0..3000 {
        s.push_str(&format!(" f{i} @{i} :UInt32;"));
    }
    s.push_str(" }\nenum Many {");
    for i in 0..3000 {
        s.push_str(&format!(" e{i} @{i};"));
    }
    s.push_str(" }");
    let a = side(&s);
    assert!(compat::check(&a, &a).findings.is_empty());
}

/// A request in which two slots of one struct share an ordinal (no
/// compiler writes that; a hostile peer can): compared with itself it
/// still has no finding, since the n-th slot numbered @k meets the n-th
/// of the other side, and against the well-numbered original the
/// renumbered slot is reported.
#[test]
fn a_request_with_a_repeated_ordinal_matches_itself() {
    use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
    use capnarena_codegen::schema_capnp::{code_generator_request, node};

    let text = format!("{FILE_ID}struct S {{ a @0 :Text; g :group {{ b @1 :Bool; }} }}");
    let bytes = capnarena_compiler::Compiler::new()
        .no_standard_import()
        .source("/t.capnp", text.into_bytes())
        .file("/t.capnp")
        .compile()
        .unwrap();
    let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default()).unwrap();
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.set_root(&reader.root().unwrap()).unwrap();
    {
        let mut root = msg.get_root_as::<code_generator_request::Owned>().unwrap();
        let mut nodes = root.get_nodes().unwrap();
        let mut renumbered = 0;
        for i in 0..nodes.len() {
            let mut n = nodes.get(i);
            let group = n.get_display_name().unwrap() == "t.capnp:S.g";
            if let (true, Ok(node::WhichBuilder::Struct(mut s))) = (group, n.which()) {
                let mut fields = s.get_fields().unwrap();
                fields.get(0).get_ordinal().set_explicit(0);
                renumbered += 1;
            }
        }
        assert_eq!(renumbered, 1, "the group S.g is in the request");
    }
    let mut hostile = Vec::new();
    msg.append_to(&mut hostile);

    let twice = compat::CompatSchema::from_request_bytes(&hostile).unwrap();
    let f = compat::check(&twice, &twice).findings;
    assert!(f.is_empty(), "{f:#?}");
    let original = compat::CompatSchema::from_request_bytes(&bytes).unwrap();
    let f = compat::check(&original, &twice).findings;
    assert!(
        f.iter()
            .any(|f| f.rule == FieldRemoved && f.message.contains("@1")),
        "{f:#?}"
    );
}
