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

    /// The types bound to the generic parameters of the type, of its
    /// node's and of the scopes around it: `Owned<Text>` of `Box(T)`
    /// binds `T` to `Text`. Empty for a type that is not generic.
    fn brand() -> &'static [Binding] {
        &[]
    }
}

/// One generic parameter bound to a type: parameter `index` of the struct
/// or interface `scope`. What [`HasSchema::brand`] lists.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    scope: u64,
    index: u16,
    ty: fn() -> SchemaType,
}

impl Binding {
    /// Parameter `index` of scope `scope` bound to the type `ty` gives.
    pub const fn new(scope: u64, index: u16, ty: fn() -> SchemaType) -> Self {
        Binding { scope, index, ty }
    }

    /// The id of the struct or interface that declares the parameter.
    pub fn scope(&self) -> u64 {
        self.scope
    }

    /// The parameter's position in its scope's list.
    pub fn index(&self) -> u16 {
        self.index
    }

    /// The bound type.
    pub fn ty(&self) -> SchemaType {
        (self.ty)()
    }
}

/// A schema type as a program's types know it: what [`Introspect`] gives,
/// and what a generic parameter is bound to. The types it names are
/// reached through functions, so a type of any depth is a small value.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum SchemaType {
    /// `Void`.
    Void,
    /// `Bool`.
    Bool,
    /// `Int8`.
    Int8,
    /// `Int16`.
    Int16,
    /// `Int32`.
    Int32,
    /// `Int64`.
    Int64,
    /// `UInt8`.
    UInt8,
    /// `UInt16`.
    UInt16,
    /// `UInt32`.
    UInt32,
    /// `UInt64`.
    UInt64,
    /// `Float32`.
    Float32,
    /// `Float64`.
    Float64,
    /// `Text`.
    Text,
    /// `Data`.
    Data,
    /// `List(T)`: the function gives `T`.
    List(fn() -> SchemaType),
    /// A generated enum, by its schema node.
    Enum(fn() -> &'static SchemaNode),
    /// A generated struct: its schema node and its generic bindings.
    Struct {
        /// The struct's node.
        node: fn() -> &'static SchemaNode,
        /// Its bindings ([`HasSchema::brand`]).
        brand: fn() -> &'static [Binding],
    },
    /// A generated interface: its schema node and its generic bindings.
    Interface {
        /// The interface's node.
        node: fn() -> &'static SchemaNode,
        /// Its bindings ([`HasSchema::brand`]).
        brand: fn() -> &'static [Binding],
    },
    /// `AnyPointer`.
    AnyPointer,
}

/// A type that knows its schema type: the runtime's value and list types,
/// and the types generated with the `schema_nodes` option. How a generic
/// type's bindings are told at run time (capnp's `Introspect`).
pub trait Introspect {
    /// The schema type of `Self`.
    fn introspect() -> SchemaType;
}

macro_rules! introspect_scalar {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl Introspect for $t {
            fn introspect() -> SchemaType {
                SchemaType::$v
            }
        }
    )*};
}

introspect_scalar!(
    () => Void, bool => Bool, i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64,
    u8 => UInt8, u16 => UInt16, u32 => UInt32, u64 => UInt64, f32 => Float32, f64 => Float64,
    super::Text => Text, super::Data => Data, super::AnyPointer => AnyPointer,
);

macro_rules! introspect_list {
    ($($marker:ident<$($g:ident: $b:path),*> => $e:ty),* $(,)?) => {$(
        impl<$($g: $b + Introspect + 'static),*> Introspect for super::$marker<$($g),*> {
            fn introspect() -> SchemaType {
                SchemaType::List(<$e as Introspect>::introspect)
            }
        }
    )*};
}

introspect_list!(
    VoidList<> => (),
    BoolList<> => bool,
    TextList<> => super::Text,
    DataList<> => super::Data,
    AnyPointerList<> => super::AnyPointer,
    PrimitiveList<T: crate::layout::Primitive> => T,
    EnumList<E: super::Enum> => E,
    StructList<S: super::StructOwned> => S,
    ListList<L: super::Owned> => L,
);

/// A generated struct builder that hands out the untyped builder under it
/// (generated with the `schema_nodes` option): how generic code turns a
/// typed builder into a run-time (dynamic) one.
pub trait IntoStructBuilder<'a, A: Arena + ?Sized> {
    /// The untyped builder.
    fn into_struct_builder(self) -> StructBuilder<'a, A>;
}
