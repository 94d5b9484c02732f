//! How the compile names a declaration: its place in the node table, an
//! alias's place, and the built-in types found when no scope declares a
//! name. Every other module of the compile reads these; they read none.

/// The built-in declarations of the global scope, found when no scope
/// declares the name. The order matters: a built-in's place stands for
/// its id in brand scopes (see `interpret_resolution`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// The primitive types, `Void` to `Data`.
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
    /// `List(T)`, the one built-in with a generic parameter.
    List,
    /// The name `AnyPointer` had before Cap'n Proto 0.4: refused with a
    /// message saying so.
    Object,
    /// `AnyPointer`: any pointer.
    AnyPointer,
    /// `AnyStruct`: any struct pointer.
    AnyStruct,
    /// `AnyList`: any list pointer.
    AnyList,
    /// `Capability`: any interface.
    Capability,
}

/// A node's place in the node table (`Compilation::nodes`): how the
/// compile names a named node, and what its memo tables are keyed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct NodeIndex(pub(super) usize);

/// An alias (`using` declaration): the node it is declared in (an index
/// in `Compilation::nodes`) and its place among that node's aliases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct AliasId {
    /// The node the alias is declared in.
    pub(super) node: NodeIndex,
    /// Its index in that node's [`NodeEntry::aliases`].
    pub(super) index: usize,
}

/// What a name refers to: a node of the table (by index) or a built-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DeclTarget {
    /// The node at this index in `Compilation::nodes`.
    Node(NodeIndex),
    /// A built-in type.
    Builtin(Builtin),
}
