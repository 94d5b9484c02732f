//! The compiled schema, shaped like schema.capnp's `Node` and friends.
//! `Option<Vec<_>>` marks lists the reference leaves null (`None`) apart
//! from lists it sets empty (`Some(vec![])`); the text rendering of a
//! request shows the difference.

/// A type, as schema.capnp's `Type`.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `Void`
    Void,
    /// `Bool`
    Bool,
    /// `Int8`
    Int8,
    /// `Int16`
    Int16,
    /// `Int32`
    Int32,
    /// `Int64`
    Int64,
    /// `UInt8`
    UInt8,
    /// `UInt16`
    UInt16,
    /// `UInt32`
    UInt32,
    /// `UInt64`
    UInt64,
    /// `Float32`
    Float32,
    /// `Float64`
    Float64,
    /// `Text`
    Text,
    /// `Data`
    Data,
    /// `List(T)`
    List(Box<Type>),
    /// An enum.
    Enum(u64, Option<Brand>),
    /// A struct.
    Struct(u64, Option<Brand>),
    /// An interface.
    Interface(u64, Option<Brand>),
    /// `AnyPointer`, a constrained form of it, or a generic parameter.
    AnyPointer(AnyPointer),
}

/// The forms of `AnyPointer`.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyPointer {
    /// 0 anyKind, 1 struct, 2 list, 3 capability.
    Unconstrained(u16),
    /// Generic parameter `index` of node `scope`.
    Parameter {
        /// The node declaring the parameter.
        scope: u64,
        /// Its position.
        index: u16,
    },
    /// A method's implicit parameter `index`.
    ImplicitMethodParameter(u16),
}

/// How a generic's parameters are bound, as schema.capnp's `Brand`.
#[derive(Clone, Debug, PartialEq)]
pub struct Brand {
    /// One entry per generic scope that is bound or inherited.
    pub scopes: Vec<BrandScope>,
}

/// One scope of a [`Brand`].
#[derive(Clone, Debug, PartialEq)]
pub struct BrandScope {
    /// The generic node.
    pub scope_id: u64,
    /// `None`: inherit; `Some`: these bindings.
    pub bind: Option<Vec<Option<Type>>>,
}

/// A pointer value (struct, list, text or data) for a default or constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Ptr {
    /// A struct: data bytes (a whole number of words) and pointers.
    Struct(StructVal),
    /// A list.
    List(ListVal),
    /// Text.
    Text(Vec<u8>),
    /// Data.
    Data(Vec<u8>),
    /// The root struct of a framed message (an embedded file).
    Message(Vec<u8>),
}

/// A struct value.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StructVal {
    /// The data section (8 × data words).
    pub data: Vec<u8>,
    /// The pointer section.
    pub ptrs: Vec<Option<Ptr>>,
}

/// A list value.
#[derive(Clone, Debug, PartialEq)]
pub enum ListVal {
    /// `n` voids.
    Void(u32),
    /// Bits.
    Bits(Vec<bool>),
    /// Elements of 1, 2, 4 or 8 bytes, little-endian.
    Bytes {
        /// Bytes per element.
        width: u8,
        /// The elements' bytes.
        data: Vec<u8>,
    },
    /// Pointers.
    Pointers(Vec<Option<Ptr>>),
    /// Structs, all of one size.
    Structs {
        /// Data words per element.
        data_words: u16,
        /// Pointers per element.
        pointers: u16,
        /// The elements.
        elems: Vec<StructVal>,
    },
}

/// A value, as schema.capnp's `Value`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `void`
    Void,
    /// A Bool.
    Bool(bool),
    /// An Int8.
    Int8(i8),
    /// An Int16.
    Int16(i16),
    /// An Int32.
    Int32(i32),
    /// An Int64.
    Int64(i64),
    /// A UInt8.
    UInt8(u8),
    /// A UInt16.
    UInt16(u16),
    /// A UInt32.
    UInt32(u32),
    /// A UInt64.
    UInt64(u64),
    /// A Float32.
    Float32(f32),
    /// A Float64.
    Float64(f64),
    /// Text (`None`: null).
    Text(Option<Vec<u8>>),
    /// Data (`None`: null).
    Data(Option<Vec<u8>>),
    /// A list (`None`: null).
    List(Option<Ptr>),
    /// An enumerant's ordinal.
    Enum(u16),
    /// A struct (`None`: null).
    Struct(Option<Ptr>),
    /// An interface (always null).
    Interface,
    /// Any pointer (`None`: null).
    AnyPointer(Option<Ptr>),
    /// A pointer value not evaluated yet (an index into the compiler's
    /// pending values); never present in a finished request.
    #[doc(hidden)]
    Pending(usize),
}

/// An applied annotation.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// The annotation's id.
    pub id: u64,
    /// Its brand (the reference always sets one, empty unless generic).
    pub brand: Brand,
    /// Its value.
    pub value: Value,
}

/// A field of a struct or group.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Its name.
    pub name: String,
    /// Position in the source.
    pub code_order: u16,
    /// Annotations (`None`: none written).
    pub annotations: Option<Vec<Annotation>>,
    /// 0xffff unless a union member.
    pub discriminant_value: u16,
    /// Slot or group.
    pub kind: FieldKind,
    /// The explicit ordinal, when written.
    pub ordinal: Option<u16>,
}

/// A field's body.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    /// A value stored in the struct.
    Slot {
        /// Offset in units of the type's size (or pointer index).
        offset: u32,
        /// The type.
        ty: Type,
        /// The default.
        default: Value,
        /// Whether the default was written.
        explicit_default: bool,
    },
    /// A group: the group node's id.
    Group(u64),
}

/// A struct's body.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StructNode {
    /// Data words.
    pub data_words: u16,
    /// Pointers.
    pub pointers: u16,
    /// Whether this is a group.
    pub is_group: bool,
    /// Members of the unnamed union.
    pub discriminant_count: u16,
    /// The union tag's offset in 16-bit units.
    pub discriminant_offset: u32,
    /// Fields in ordinal order (`None` when there are none).
    pub fields: Option<Vec<Field>>,
}

/// An enumerant.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerant {
    /// Name.
    pub name: String,
    /// Source position.
    pub code_order: u16,
    /// Annotations.
    pub annotations: Option<Vec<Annotation>>,
}

/// A method.
#[derive(Clone, Debug, PartialEq)]
pub struct Method {
    /// Name.
    pub name: String,
    /// Source position.
    pub code_order: u16,
    /// Implicit generic parameter names.
    pub implicit_parameters: Vec<String>,
    /// The parameter struct's id.
    pub param_struct_type: u64,
    /// Its brand.
    pub param_brand: Option<Brand>,
    /// The result struct's id.
    pub result_struct_type: u64,
    /// Its brand.
    pub result_brand: Option<Brand>,
    /// Annotations.
    pub annotations: Option<Vec<Annotation>>,
}

/// A node's body.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A file.
    File,
    /// A struct or group.
    Struct(StructNode),
    /// An enum.
    Enum(Vec<Enumerant>),
    /// An interface.
    Interface {
        /// Methods in ordinal order.
        methods: Vec<Method>,
        /// Superclasses: (id, brand).
        superclasses: Vec<(u64, Option<Brand>)>,
    },
    /// A constant.
    Const {
        /// Its type.
        ty: Type,
        /// Its value.
        value: Value,
    },
    /// An annotation declaration.
    Annotation {
        /// Value type.
        ty: Type,
        /// Allowed targets (file, const, enum, enumerant, struct, field,
        /// union, group, interface, method, param, annotation).
        targets: [bool; 12],
    },
}

/// A schema node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Its id.
    pub id: u64,
    /// `file:Path.To.Name`.
    pub display_name: String,
    /// Where the last name component starts.
    pub display_name_prefix_length: u32,
    /// Lexical parent (0 for files and method param structs).
    pub scope_id: u64,
    /// Generic parameter names (`None` when not generic).
    pub parameters: Option<Vec<String>>,
    /// Whether it or a parent is generic.
    pub is_generic: bool,
    /// Nested nodes: (name, id); `None` for groups and param structs.
    pub nested_nodes: Option<Vec<(String, u64)>>,
    /// Annotations (`None`: none written).
    pub annotations: Option<Vec<Annotation>>,
    /// The body.
    pub kind: NodeKind,
}

/// Doc comments of a node and its members.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceInfo {
    /// The node.
    pub id: u64,
    /// Its doc comment.
    pub doc: Option<Vec<u8>>,
    /// Per member (field, enumerant, method) doc comments; `None` when the
    /// node has no member list.
    pub members: Option<Vec<Option<Vec<u8>>>>,
}

/// A requested file and what it imports.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestedFile {
    /// The file's id.
    pub id: u64,
    /// Its name as the request names it.
    pub filename: String,
    /// Imports: (id, name as written), sorted by name.
    pub imports: Vec<(u64, String)>,
}

/// A whole CodeGeneratorRequest.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Every node, in the reference's order.
    pub nodes: Vec<Node>,
    /// Requested files.
    pub requested_files: Vec<RequestedFile>,
    /// Source info, in the reference's order.
    pub source_info: Vec<SourceInfo>,
}
