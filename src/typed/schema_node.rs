//! Schema nodes compiled into a program: what `capnarena-codegen` writes,
//! with its `schema_nodes` option, for each struct, enum and interface, so
//! that a run-time schema (`capnarena-dynamic`) can be loaded from the
//! generated types themselves, with no `.capnp` file or
//! CodeGeneratorRequest at hand.

use crate::arena::Arena;
use crate::layout::StructBuilder;

/// The schema node of a generated type, as the CodeGeneratorRequest held
/// it, and the nodes of the types it names.
///
/// `nodes` are the node itself and then the nodes of the groups it holds
/// (groups have no generated type of their own), each the bytes of a
/// one-segment message whose root pointer (the first word) points to a
/// `schema.capnp` `Node` struct, a whole number of little-endian words.
/// Following [`dependencies`](Self::dependencies) from any node reaches
/// every struct, enum and interface its fields, methods and superclasses
/// name, so a loader can assemble a closed graph.
#[derive(Debug)]
pub struct SchemaNode {
    id: u64,
    nodes: &'static [&'static [u8]],
    dependencies: &'static [fn() -> &'static SchemaNode],
}

impl SchemaNode {
    /// The node `id`, encoded as `nodes` (see the type's docs), naming the
    /// types whose nodes `dependencies` give.
    pub const fn new(
        id: u64,
        nodes: &'static [&'static [u8]],
        dependencies: &'static [fn() -> &'static SchemaNode],
    ) -> Self {
        SchemaNode {
            id,
            nodes,
            dependencies,
        }
    }

    /// The node's id.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The node, then the groups it holds, each encoded as the type's docs
    /// say. Nothing checks the bytes: they are read as any message is.
    pub fn nodes(&self) -> &'static [&'static [u8]] {
        self.nodes
    }

    /// The schema nodes of the types this node names (each once, without
    /// itself), in the order generated.
    pub fn dependencies(&self) -> impl ExactSizeIterator<Item = &'static SchemaNode> + 'static {
        self.dependencies.iter().map(|f| f())
    }
}

/// A generated type that carries its schema node: a struct's `Owned`, an
/// enum, an interface's `Owned` (generated with `capnarena-codegen`'s
/// `schema_nodes` option).
pub trait HasSchema {
    /// The type's schema node.
    fn schema_node() -> &'static SchemaNode;
}

/// A generated struct builder that hands out the untyped builder under it
/// (generated with the `schema_nodes` option): how generic code turns a
/// typed builder into a run-time (dynamic) one.
pub trait IntoStructBuilder<'a, A: Arena + ?Sized> {
    /// The untyped builder.
    fn into_struct_builder(self) -> StructBuilder<'a, A>;
}
