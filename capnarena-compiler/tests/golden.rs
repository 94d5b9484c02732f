//! Layout and id facts checked without the reference tool: every expected
//! number here was printed by the reference (`capnp compile -ocapnp
//! tests/schemas/layout.capnp`, `capnp compile -o-` on schema files), so
//! these tests pin the compiler to the reference on a machine without it.

use std::path::{Path, PathBuf};

use capnarena_compiler::__private::ids;
use capnarena_compiler::__private::schema::{FieldKind, Node, NodeKind, Request};
use capnarena_compiler::Compiler;

fn schemas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas")
}

fn compile(file: &str) -> Request {
    Compiler::new()
        .no_standard_import()
        .import_path(schemas().join("include"))
        .working_dir(schemas())
        .file(file)
        .compile_request()
        .unwrap_or_else(|d| panic!("{file} failed to compile:\n{d}"))
}

fn node<'r>(req: &'r Request, name: &str) -> &'r Node {
    req.nodes
        .iter()
        .find(|n| n.display_name == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

/// (name, offset, discriminant value) of each slot field of a struct node,
/// and of its group fields (offset u32::MAX).
fn fields(n: &Node) -> Vec<(String, u32, u16)> {
    let NodeKind::Struct(s) = &n.kind else {
        panic!("{} is not a struct", n.display_name)
    };
    s.fields
        .iter()
        .flatten()
        .map(|f| match &f.kind {
            FieldKind::Slot { offset, .. } => (f.name.clone(), *offset, f.discriminant_value),
            FieldKind::Group(_) => (f.name.clone(), u32::MAX, f.discriminant_value),
        })
        .collect()
}

fn sizes(n: &Node) -> (u16, u16, u32) {
    let NodeKind::Struct(s) = &n.kind else {
        panic!("not a struct")
    };
    (s.data_words, s.pointers, s.discriminant_offset)
}

/// `Mixed` (bools, words and bytes around a named union holding a group
/// and a nested union, then an unnamed union): sizes, offsets (in units of
/// each field's size), tag positions and discriminants as the reference
/// lists them ("40 bytes, 2 ptrs"; a bits[0,1), b bits[64,128), c
/// bits[8,16), u tag bits[32,48), x bits[16,32), y1 bits[128,160), y2
/// bits[16,17), y3 ptr[0], z tag bits[128,144), z1 bits[16,24), z2
/// bits[192,256), d bits[48,64), unnamed tag bits[160,176), e bits[1,2),
/// f and h ptr[1], i bits[256,288)).
#[test]
fn mixed_union_and_group_layout_matches_the_reference() {
    let req = compile("layout.capnp");
    let mixed = node(&req, "layout.capnp:Mixed");
    assert_eq!(mixed.id, 0xd87303bd01a04d43);
    assert_eq!(sizes(mixed), (5, 2, 10));
    let f = fields(mixed);
    let get = |name: &str| f.iter().find(|x| x.0 == name).cloned().unwrap();
    assert_eq!(get("a"), ("a".into(), 0, 0xffff));
    assert_eq!(get("b").1, 1);
    assert_eq!(get("c").1, 1);
    assert_eq!(get("d").1, 3);
    assert_eq!(get("e"), ("e".into(), 1, 0));
    assert_eq!(get("f"), ("f".into(), 1, 1));
    assert_eq!(get("h"), ("h".into(), 1, 2));
    assert_eq!(get("i").1, 8);
    let u = node(&req, "layout.capnp:Mixed.u");
    assert_eq!(sizes(u), (5, 2, 2));
    let uf = fields(u);
    assert_eq!(uf[0], ("x".into(), 1, 0));
    assert_eq!((uf[1].0.as_str(), uf[1].2), ("y", 1));
    assert_eq!((uf[2].0.as_str(), uf[2].2), ("z", 2));
    let y = fields(node(&req, "layout.capnp:Mixed.u.y"));
    assert_eq!(
        y,
        vec![
            ("y1".into(), 4, 0xffff),
            ("y2".into(), 16, 0xffff),
            ("y3".into(), 0, 0xffff)
        ]
    );
    let z = node(&req, "layout.capnp:Mixed.u.z");
    assert_eq!(sizes(z).2, 8);
    assert_eq!(
        fields(z),
        vec![
            ("z1".into(), 2, 0),
            ("z2".into(), 3, 1),
            ("z3".into(), 0, 2)
        ]
    );
}

/// A union given an ordinal after its first member (retroactive
/// unionization): the reference places `old` at bits[0,32), the tag at
/// bits[48,64), `first` at bits[32,40) and `second` at bits[64,128).
#[test]
fn retroactive_union_layout_matches_the_reference() {
    let req = compile("layout.capnp");
    let retro = node(&req, "layout.capnp:Retro");
    assert_eq!(retro.id, 0x88bfce39601a6da8);
    assert_eq!(sizes(retro).0, 2);
    let u = node(&req, "layout.capnp:Retro.u");
    assert_eq!(sizes(u).2, 3);
    assert_eq!(
        fields(u),
        vec![("first".into(), 4, 0), ("second".into(), 1, 1)]
    );
}

/// Ids derived from names (no `@0x` written): the reference gives
/// layout.capnp's nested structs these ids.
#[test]
fn derived_ids_match_the_reference() {
    let req = compile("layout.capnp");
    assert_eq!(node(&req, "layout.capnp:Nest").id, 0xaa64bf11bb217b9c);
    assert_eq!(
        node(&req, "layout.capnp:Nest.Deeper").id,
        0x843edb269c0384fe
    );
    assert_eq!(
        node(&req, "layout.capnp:Nest.Deeper.Deepest").id,
        0xa85c0e7b35fe6ca3
    );
    assert_eq!(node(&req, "layout.capnp:Empty").id, 0x80c351b433995914);
    assert_eq!(node(&req, "layout.capnp:Big").id, 0xa0ac70d94f2170b7);
}

/// The three id derivations on numbers the reference printed: schema.capnp's
/// `Node.struct` group (the 8th member of Node @0xe682ab4cf923a417) is
/// 11430331134483579957; annotation `foo` in a file @0xa0b1c2d3e4f50617 is
/// 11726210982795341202; interfaces.capnp's `Shape.area$Params` is
/// 13274807537749004330.
#[test]
fn id_derivations_match_the_reference() {
    assert_eq!(ids::group_id(0xe682ab4cf923a417, 7), 11430331134483579957);
    assert_eq!(
        ids::child_id(0xa0b1c2d3e4f50617, "foo"),
        11726210982795341202
    );
    let req = compile("interfaces.capnp");
    let shape = node(&req, "interfaces.capnp:Shape");
    assert_eq!(
        ids::method_params_id(shape.id, 0, false),
        13274807537749004330
    );
    assert_eq!(
        node(&req, "interfaces.capnp:Shape.area$Params").id,
        13274807537749004330
    );
}

/// The framed request decodes with the capnarena reader: the root has the
/// four CodeGeneratorRequest pointers and as many nodes as the request.
#[test]
fn framed_request_reads_back() {
    let req = compile("layout.capnp");
    let bytes = Compiler::new()
        .no_standard_import()
        .working_dir(schemas())
        .file("layout.capnp")
        .compile()
        .expect("compiles");
    let words = capnarena::words_from_bytes(&bytes).expect("whole words");
    let reader = capnarena::MessageReader::from_words(&words, capnarena::ReaderOptions::default())
        .expect("framed");
    let root = reader.root().expect("root");
    let nodes = root
        .get_list(0, capnarena::ElementSize::InlineComposite)
        .expect("nodes");
    assert_eq!(nodes.len() as usize, req.nodes.len());
    let first = nodes.get_struct(0);
    assert_eq!(first.get::<u64>(0), req.nodes[0].id);
    assert_eq!(first.get_text(0).expect("name"), req.nodes[0].display_name);
}

/// Imports are resolved where they are used: a missing import in a
/// declaration nothing reaches (in an imported file) is no error, while
/// compiling that file itself reports it at the file name.
#[test]
fn unused_broken_import_is_no_error() {
    let req = compile("lazy/top.capnp");
    assert!(
        req.nodes
            .iter()
            .any(|n| n.display_name == "lazy/lib.capnp:Used")
    );
    assert!(
        !req.nodes
            .iter()
            .any(|n| n.display_name == "lazy/lib.capnp:Unused")
    );
    let err = Compiler::new()
        .no_standard_import()
        .working_dir(schemas())
        .file("lazy/lib.capnp")
        .compile()
        .expect_err("the import is used when lib.capnp is compiled");
    assert_eq!(
        err.to_string(),
        "lazy/lib.capnp:7:30: error: Import failed: missing.capnp\n"
    );
}
