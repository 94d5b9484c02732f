//! Schemas loaded from the generated code of every corpus file (generated
//! with schema nodes) are the schemas the compiler's request holds.
//!
//! For each file, its module's `SCHEMA_NODES` load (with every type they
//! name, through imports too) a schema that holds every struct (groups
//! and method parameter structs included), enum and interface the
//! request declares in the file, and equals the same nodes loaded
//! directly from the compiler's requests (names, fields, offsets, types,
//! defaults, annotations, methods, brands). And the vectors' generated
//! `AllTypes` converts to a dynamic reader and back, and refuses another
//! struct's type.

#[path = "../src/corpus.rs"]
mod corpus;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use capnarena::typed::SchemaNode;
use capnarena::{MessageReader, ReaderOptions};
use capnarena_conformance::SCHEMA_NODES;
use capnarena_dynamic::schema_capnp::{code_generator_request, node};
use capnarena_dynamic::{DynamicStructReader, Error, LoadedSchema};

/// The request the pure-Rust compiler writes for corpus file `key`
/// (`project/path`), with its project's arguments, as the build script
/// compiles it.
fn request(key: &str) -> Vec<u8> {
    let corpus = corpus::corpus_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let project = corpus::PROJECTS
        .iter()
        .find(|p| key.starts_with(&format!("{}/", p.dir)))
        .unwrap_or_else(|| panic!("{key}: no project"));
    let path = &key[project.dir.len() + 1..];
    // The build script's order: the project's import paths, then the
    // standard schemas (a file reachable through both is named by the
    // first).
    let mut c = capnarena_compiler::Compiler::new()
        .working_dir(project.root(&corpus))
        .src_prefix(project.root(&corpus))
        .no_standard_import();
    for p in project.import_paths {
        c = c.import_path(project.root(&corpus).join(p));
    }
    c.import_path(corpus.join(corpus::STANDARD))
        .file(project.root(&corpus).join(path))
        .compile()
        .unwrap_or_else(|d| panic!("{key}: {d}"))
}

/// The ids of the struct, enum and interface nodes `request` declares in
/// its requested file (groups and method parameter structs included).
fn declared(root: code_generator_request::Reader<'_>) -> BTreeSet<u64> {
    let file = root.get_requested_files().unwrap().get(0).get_id();
    let all: Vec<node::Reader<'_>> = root.get_nodes().unwrap().iter().collect();
    let scope_of = |id: u64| {
        all.iter()
            .find(|n| n.get_id() == id)
            .map(|n| n.get_scope_id())
    };
    let mut declared = BTreeSet::new();
    for n in &all {
        // The file whose scope chain holds the node (0 for a method
        // parameter struct, which is its interface's file's).
        let mut scope = n.get_scope_id();
        let mut steps = 0;
        while scope != 0 && scope != file && steps < 64 {
            scope = scope_of(scope).unwrap_or(0);
            steps += 1;
        }
        if scope != file {
            continue;
        }
        match n.which() {
            Ok(node::Which::Struct(_) | node::Which::Enum(_)) => {
                declared.insert(n.get_id());
            }
            Ok(node::Which::Interface(i)) => {
                declared.insert(n.get_id());
                for m in i.get_methods().unwrap() {
                    for id in [m.get_param_struct_type(), m.get_result_struct_type()] {
                        if scope_of(id) == Some(0) {
                            declared.insert(id);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    declared
}

/// The id of the node whose bytes (as `SchemaNode::nodes` holds them)
/// are `bytes`.
fn node_id(bytes: &[u8]) -> u64 {
    let words = capnarena::words_from_bytes(bytes).unwrap();
    let segments = [&words[..]];
    let reader = MessageReader::from_segments(&segments, ReaderOptions::new()).unwrap();
    let n: node::Reader<'_> = reader.get_root().unwrap();
    n.get_id()
}

/// Every corpus file: the schema from its generated code holds its
/// types, and equals the compiler's nodes: each node as the request of
/// the file whose generated module holds it has it (a file compiled on its
/// own and imported by another is named differently in each request,
/// `c++/src/capnp/x.capnp` requested and `capnp/x.capnp` imported; its
/// module has the first).
#[test]
fn schema_from_generated_code_is_the_compilers_on_every_corpus_file() {
    assert!(SCHEMA_NODES.len() > 50, "{} files", SCHEMA_NODES.len());
    let requests: Vec<Vec<capnarena::Word>> = SCHEMA_NODES
        .iter()
        .map(|(key, _)| capnarena::words_from_bytes(&request(key)).unwrap())
        .collect();
    let readers: Vec<MessageReader<'_>> = requests
        .iter()
        .map(|words| {
            MessageReader::from_words(words, ReaderOptions::new().traversal_limit_words(u64::MAX))
                .unwrap()
        })
        .collect();
    // Every node of every request, by file and id; the types each file
    // declares.
    let mut nodes: HashMap<(usize, u64), node::Reader<'_>> = HashMap::new();
    let mut declared_by = Vec::new();
    for (f, reader) in readers.iter().enumerate() {
        let root: code_generator_request::Reader<'_> = reader.get_root().unwrap();
        for n in root.get_nodes().unwrap() {
            nodes.insert((f, n.get_id()), n);
        }
        declared_by.push(declared(root));
    }
    // The file whose module holds each schema node.
    let mut owner: HashMap<*const SchemaNode, usize> = HashMap::new();
    for (f, (_, list)) in SCHEMA_NODES.iter().enumerate() {
        for node in list.iter() {
            owner.insert(node() as *const SchemaNode, f);
        }
    }
    let (mut files, mut loaded, mut types) = (0, 0, 0);
    for ((key, list), declared) in SCHEMA_NODES.iter().zip(&declared_by) {
        let generated = LoadedSchema::from_generated(list.iter().map(|n| n()))
            .unwrap_or_else(|e| panic!("{key}: {e}"));
        let ids: BTreeSet<u64> = generated.schema().node_ids().collect();
        let missing: Vec<String> = declared
            .difference(&ids)
            .map(|id| format!("{id:#x}"))
            .collect();
        assert!(missing.is_empty(), "{key}: types not loaded: {missing:?}");
        // The schema nodes reached, as `from_generated` follows them, and
        // each of their nodes from its owner's request.
        let mut expected: Vec<node::Reader<'_>> = Vec::new();
        let mut seen: BTreeSet<*const SchemaNode> = BTreeSet::new();
        // Each with the file whose request holds its nodes: its owner's, or,
        // for a node in no `SCHEMA_NODES` (an annotation's declaration,
        // written inline where the annotation is applied), the request of
        // the file that names it.
        let mut queue: Vec<(&'static SchemaNode, Option<usize>)> =
            list.iter().map(|n| (n(), None)).collect();
        // An inline declaration is written once per type it is applied
        // to: its id is expected once.
        let mut inline_ids: BTreeSet<u64> = BTreeSet::new();
        while let Some((sn, named_by)) = queue.pop() {
            if !seen.insert(sn as *const SchemaNode) {
                continue;
            }
            if !owner.contains_key(&(sn as *const SchemaNode)) && !inline_ids.insert(sn.id()) {
                continue;
            }
            let g = *owner
                .get(&(sn as *const SchemaNode))
                .or(named_by.as_ref())
                .unwrap_or_else(|| panic!("{key}: node {:#x} is in no SCHEMA_NODES", sn.id()));
            for bytes in sn.nodes() {
                let id = node_id(bytes);
                let n = nodes.get(&(g, id)).unwrap_or_else(|| {
                    panic!(
                        "{key}: node {id:#x} is not in {}'s request",
                        SCHEMA_NODES[g].0
                    )
                });
                expected.push(*n);
            }
            queue.extend(sn.dependencies().map(|d| (d, Some(g))));
        }
        expected.sort_by_key(|n| n.get_id());
        let compiled = LoadedSchema::from_nodes(expected).unwrap_or_else(|e| panic!("{key}: {e}"));
        assert!(generated == compiled, "{key}: the schemas differ");
        files += 1;
        loaded += ids.len();
        types += declared.len();
    }
    println!("{files} files declaring {types} nodes; {loaded} nodes loaded in all");
}

/// The vectors' generated types convert to dynamic readers and back, by
/// node id: `from_typed` then `downcast` gives the same struct; another
/// struct's type is an error naming both ids.
#[test]
fn vectors_types_convert_by_node_id() {
    use capnarena_conformance::all_types_capnp::{all_types, point};
    let loaded = LoadedSchema::of::<all_types::Owned>().unwrap();
    let schema = loaded.schema();
    let mut msg = capnarena::Message::new(capnarena::SingleSegmentArena::new());
    let mut b = msg.init_root::<all_types::Builder<'_, _>>().unwrap();
    b.set_int64_field(-7);
    let reader = msg.reader();
    let g: all_types::Reader<'_> = reader.get_root().unwrap();
    let d = DynamicStructReader::from_typed::<all_types::Owned>(&schema, g).unwrap();
    assert_eq!(d.schema().id(), all_types::TYPE_ID);
    assert_eq!(
        d.downcast::<all_types::Owned>().unwrap().get_int64_field(),
        -7
    );
    let err = d.downcast::<point::Owned>().unwrap_err();
    assert!(
        matches!(err, Error::WrongType { schema, generated }
            if schema == all_types::TYPE_ID && generated == point::TYPE_ID),
        "{err}"
    );
}

/// A `-> stream` method's result struct, StreamResult of
/// `/capnp/stream.capnp`, is loaded with the interface although the
/// schema does not import its file (the compiler adds it) and no module
/// of it is generated: the interface's schema node carries its node. The
/// schema equals the compiler's nodes.
#[test]
fn stream_result_comes_with_its_interface() {
    use capnarena_conformance::streaming_capnp;
    let generated =
        LoadedSchema::from_generated(streaming_capnp::SCHEMA_NODES.iter().map(|n| n())).unwrap();
    let schema = generated.schema();
    assert_eq!(
        schema
            .struct_schema(0x995f9a3377c0b16e)
            .unwrap()
            .display_name(),
        "capnp/stream.capnp:StreamResult"
    );
    let ids: BTreeSet<u64> = schema.node_ids().collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../capnarena-rpc/tests/interop");
    let request = capnarena_compiler::Compiler::new()
        .src_prefix(&dir)
        .file(dir.join("test.capnp"))
        .compile()
        .unwrap();
    let words = capnarena::words_from_bytes(&request).unwrap();
    let reader = MessageReader::from_words(&words, ReaderOptions::new()).unwrap();
    let root: code_generator_request::Reader<'_> = reader.get_root().unwrap();
    assert!(declared(root).is_subset(&ids));
    let mut nodes: Vec<node::Reader<'_>> = root
        .get_nodes()
        .unwrap()
        .iter()
        .filter(|n| ids.contains(&n.get_id()))
        .collect();
    nodes.sort_by_key(|n| n.get_id());
    assert_eq!(nodes.len(), ids.len());
    assert!(generated == LoadedSchema::from_nodes(nodes).unwrap());
}
