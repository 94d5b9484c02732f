//! Schemas loaded from generated code (`tests/generated/all_types_capnp.rs`,
//! generated with schema nodes): they hold the nodes the compiler's
//! request holds, field for field and annotation for annotation; `of`
//! follows a type's dependencies and no further; schema nodes that are not
//! what their ids say are errors naming the id.

mod common;

#[allow(dead_code, unused_imports)]
#[rustfmt::skip]
#[path = "../../tests/generated/all_types_capnp.rs"]
mod all_types_capnp;

use std::collections::BTreeSet;

use all_types_capnp::{Color, all_types, entry, labeled, log, point};
use capnarena::typed::SchemaNode;
use capnarena::{MessageReader, ReaderOptions};
use capnarena_dynamic::schema_capnp::{code_generator_request, node};
use capnarena_dynamic::{Error, LoadedSchema};
use common::vectors_dir;

/// The request the pure-Rust compiler writes for all_types.capnp.
fn request() -> Vec<u8> {
    capnarena_compiler::Compiler::new()
        .no_standard_import()
        .src_prefix(vectors_dir())
        .file(vectors_dir().join("all_types.capnp"))
        .compile()
        .expect("all_types.capnp compiles")
}

/// The nodes of `request` whose ids are `ids`, loaded in the order of
/// their ids (as `from_generated` loads them).
fn subset(request: &[u8], ids: &BTreeSet<u64>) -> LoadedSchema {
    let words = capnarena::words_from_bytes(request).unwrap();
    let reader = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
    let root: code_generator_request::Reader<'_> = reader.get_root().unwrap();
    let mut nodes: Vec<node::Reader<'_>> = root
        .get_nodes()
        .unwrap()
        .iter()
        .filter(|n| ids.contains(&n.get_id()))
        .collect();
    assert_eq!(nodes.len(), ids.len(), "the request lacks nodes");
    nodes.sort_by_key(|n| n.get_id());
    LoadedSchema::from_nodes(nodes).unwrap()
}

/// The ids of the struct, enum and interface nodes of `request`.
fn type_ids(request: &[u8]) -> BTreeSet<u64> {
    let words = capnarena::words_from_bytes(request).unwrap();
    let reader = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
    let root: code_generator_request::Reader<'_> = reader.get_root().unwrap();
    root.get_nodes()
        .unwrap()
        .iter()
        .filter(|n| {
            matches!(
                n.which(),
                Ok(node::Which::Struct(_) | node::Which::Enum(_) | node::Which::Interface(_))
            )
        })
        .map(|n| n.get_id())
        .collect()
}

/// The file's `SCHEMA_NODES` load every struct (groups included), enum and
/// interface of the compiler's request, and the loaded schema equals the
/// request's same nodes loaded directly: same names, fields, offsets,
/// types, defaults and annotations.
#[test]
fn schema_from_generated_types_equals_compiled_nodes() {
    let generated =
        LoadedSchema::from_generated(all_types_capnp::SCHEMA_NODES.iter().map(|n| n())).unwrap();
    let ids: BTreeSet<u64> = generated.schema().node_ids().collect();
    let request = request();
    assert_eq!(ids, type_ids(&request));
    assert!(ids.len() >= 8, "{ids:?}");
    assert_eq!(generated, subset(&request, &ids));
    let schema = generated.schema();
    assert_eq!(
        schema.display_name(all_types::TYPE_ID).unwrap(),
        "all_types.capnp:AllTypes"
    );
    assert_eq!(
        schema.enum_for::<Color>().unwrap().id(),
        schema.find("all_types.capnp:Color").unwrap()
    );
}

/// `of::<T>()` loads `T`'s struct, its groups and what its fields name,
/// transitively, and nothing else: AllTypes brings Point, Labeled and
/// Color, not Log or Entry; Log brings Entry.
#[test]
fn of_follows_dependencies() {
    let all = LoadedSchema::of::<all_types::Owned>().unwrap();
    let schema = all.schema();
    let ids: BTreeSet<u64> = schema.node_ids().collect();
    for id in [
        all_types::TYPE_ID,
        point::TYPE_ID,
        labeled::TYPE_ID,
        Color::TYPE_ID,
    ] {
        assert!(ids.contains(&id), "{id:#x}");
    }
    for id in [log::TYPE_ID, entry::TYPE_ID] {
        assert!(!ids.contains(&id), "{id:#x}");
    }
    // Every node but the named structs and the enum is a group of AllTypes.
    assert!(ids.len() > 4);
    for id in &ids {
        let s = match schema.struct_schema(*id) {
            Ok(s) => s,
            Err(_) => continue,
        };
        if ![all_types::TYPE_ID, point::TYPE_ID, labeled::TYPE_ID].contains(id) {
            assert!(s.is_group(), "{id:#x}");
        }
    }
    assert_eq!(all, subset(&request(), &ids));
    let log = LoadedSchema::of::<log::Owned>().unwrap();
    let ids: BTreeSet<u64> = log.schema().node_ids().collect();
    assert_eq!(ids, BTreeSet::from([log::TYPE_ID, entry::TYPE_ID]));
}

/// A schema node whose bytes hold another node than its id says, or two
/// schema nodes of one id holding different nodes, are errors naming the
/// id; so are bytes that are not a message, and a schema node without
/// its node.
#[test]
fn bad_schema_nodes_are_errors() {
    use capnarena::typed::HasSchema;
    let point_nodes = <point::Owned as HasSchema>::schema_node().nodes();
    static WRONG_ID: std::sync::OnceLock<SchemaNode> = std::sync::OnceLock::new();
    let wrong = WRONG_ID.get_or_init(|| SchemaNode::new(0x1234, point_nodes, &[]));
    let err = LoadedSchema::from_generated([wrong]).unwrap_err();
    assert!(
        matches!(&err, Error::BadSchemaNode { id: 0x1234, problem } if problem.contains(&format!("{:#018x}", point::TYPE_ID))),
        "{err}"
    );
    // Point's id, Labeled's bytes, reached beside the real Point.
    let labeled_nodes = <labeled::Owned as HasSchema>::schema_node().nodes();
    static TWIN: std::sync::OnceLock<SchemaNode> = std::sync::OnceLock::new();
    let twin = TWIN.get_or_init(|| SchemaNode::new(point::TYPE_ID, labeled_nodes, &[]));
    let err = LoadedSchema::from_generated([<point::Owned as HasSchema>::schema_node(), twin])
        .unwrap_err();
    assert!(
        matches!(&err, Error::BadSchemaNode { id, .. } if *id == point::TYPE_ID),
        "{err}"
    );
    // Bytes that are not a whole number of words.
    static ODD: SchemaNode = SchemaNode::new(0x99, &[b"\0\0\0"], &[]);
    let err = LoadedSchema::from_generated([&ODD]).unwrap_err();
    assert!(
        matches!(&err, Error::BadSchemaNode { id: 0x99, .. }),
        "{err}"
    );
    // A schema node with no node.
    static EMPTY: SchemaNode = SchemaNode::new(0x77, &[], &[]);
    let err = LoadedSchema::from_generated([&EMPTY]).unwrap_err();
    assert!(
        matches!(&err, Error::BadSchemaNode { id: 0x77, .. }),
        "{err}"
    );
}

/// A generated enum converts to a dynamic enum (`from_typed`) and back
/// (`downcast`), checked by node id: a value of another enum is an error
/// naming both ids, one the generated enum does not list a `NotInSchema`.
#[test]
fn enums_convert_by_node_id() {
    use capnarena_dynamic::DynamicEnum;
    let loaded = LoadedSchema::of::<Color>().unwrap();
    let schema = loaded.schema();
    let d = DynamicEnum::from_typed(&schema, Color::Blue).unwrap();
    assert_eq!((d.value(), d.name()), (2, Some("blue")));
    assert_eq!(d.downcast::<Color>().unwrap(), Color::Blue);
    let unknown = DynamicEnum::new(7, schema.enum_for::<Color>().unwrap());
    assert!(
        matches!(
            unknown.downcast::<Color>(),
            Err(Error::Wire(capnarena::Error::NotInSchema { value: 7 }))
        ),
        "{:?}",
        unknown.downcast::<Color>().err()
    );
    // Another enum, of another schema.
    let other = LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .source(
                "/other.capnp",
                "@0xd3bd7ff1e1ed8b6a; enum Shade { light @0; dark @1; }",
            )
            .file("/other.capnp"),
    )
    .unwrap();
    let other_schema = other.schema();
    let shade = other_schema.find_enum("other.capnp:Shade").unwrap();
    let err = DynamicEnum::new(1, shade).downcast::<Color>().unwrap_err();
    assert!(
        matches!(err, Error::WrongType { schema, generated }
            if schema == shade.id() && generated == Color::TYPE_ID),
        "{err}"
    );
    // A schema without the enum.
    let points = LoadedSchema::of::<point::Owned>().unwrap();
    let err = DynamicEnum::from_typed(&points.schema(), Color::Red).unwrap_err();
    assert!(
        matches!(err, Error::MissingNode { id } if id == Color::TYPE_ID),
        "{err}"
    );
}
