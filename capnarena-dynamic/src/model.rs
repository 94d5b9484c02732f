//! The schema as loaded: plain Rust values copied once out of a
//! CodeGeneratorRequest, so that nothing later reads the request again.
//! Types are kept as the request spells them (generic parameters and
//! brands unresolved); `schema.rs` resolves them where they are used.

use std::collections::HashMap;

use capnarena::Word;

/// Every node of a request, by id, and the values they hold.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Store {
    pub nodes: HashMap<u64, Node>,
    /// Display name to id.
    pub names: HashMap<String, u64>,
    /// The requested files: id and name.
    pub files: Vec<(u64, String)>,
    /// A framed one-segment message whose root is a list of pointers: the
    /// pointer values (defaults, constants, annotation values) of the
    /// schema, each at the index a [`RawValue::Pointer`] names.
    pub values: Vec<Word>,
}

/// A node: what every kind shares, and its kind.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub id: u64,
    pub display_name: String,
    pub prefix_len: u32,
    pub scope_id: u64,
    pub parameters: Vec<String>,
    pub is_generic: bool,
    pub nested: Vec<(String, u64)>,
    pub annotations: Vec<AnnotationUse>,
    pub kind: NodeKind,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeKind {
    File,
    Struct(StructNode),
    Enum(EnumNode),
    Interface(InterfaceNode),
    Const(ConstNode),
    Annotation(AnnotationNode),
}

impl NodeKind {
    pub fn name(&self) -> &'static str {
        match self {
            NodeKind::File => "file",
            NodeKind::Struct(_) => "struct",
            NodeKind::Enum(_) => "enum",
            NodeKind::Interface(_) => "interface",
            NodeKind::Const(_) => "const",
            NodeKind::Annotation(_) => "annotation",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StructNode {
    pub data_words: u16,
    pub pointers: u16,
    pub is_group: bool,
    pub discriminant_count: u16,
    /// In units of 16 bits.
    pub discriminant_offset: u32,
    /// In the request's order (by ordinal).
    pub fields: Vec<FieldNode>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FieldNode {
    pub name: String,
    pub code_order: u16,
    /// `None` when the field is not a union member.
    pub discriminant: Option<u16>,
    pub ordinal: Option<u16>,
    pub annotations: Vec<AnnotationUse>,
    pub kind: FieldKind,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FieldKind {
    Slot {
        /// In units of the type's size (bits for `Bool`), or a pointer index.
        offset: u32,
        ty: RawType,
        default: RawValue,
        had_explicit_default: bool,
    },
    Group(u64),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EnumNode {
    pub enumerants: Vec<EnumerantNode>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EnumerantNode {
    pub name: String,
    pub code_order: u16,
    pub annotations: Vec<AnnotationUse>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct InterfaceNode {
    pub methods: Vec<MethodNode>,
    pub superclasses: Vec<(u64, RawBrand)>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MethodNode {
    pub name: String,
    pub code_order: u16,
    pub implicit_parameters: Vec<String>,
    pub param_struct: u64,
    pub param_brand: RawBrand,
    pub result_struct: u64,
    pub result_brand: RawBrand,
    pub annotations: Vec<AnnotationUse>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ConstNode {
    pub ty: RawType,
    pub value: RawValue,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AnnotationNode {
    pub ty: RawType,
    /// The `targets*` flags, in schema.capnp's order (file first).
    pub targets: [bool; 12],
}

/// An annotation applied to a node, field, enumerant or method.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AnnotationUse {
    pub id: u64,
    pub value: RawValue,
    pub brand: RawBrand,
}

/// A type as the request spells it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RawType {
    Void,
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float32,
    Float64,
    Text,
    Data,
    List(Box<RawType>),
    Enum(u64),
    Struct(u64, RawBrand),
    Interface(u64, RawBrand),
    AnyPointer,
    /// Generic parameter `index` of the scope `scope`.
    Param {
        scope: u64,
        index: u16,
    },
    /// A method's implicit parameter: an any pointer to a reader.
    ImplicitMethodParam,
}

impl RawType {
    /// Bits of a value in the data section (`None`: a pointer).
    pub fn data_bits(&self) -> Option<u32> {
        Some(match self {
            RawType::Void => 0,
            RawType::Bool => 1,
            RawType::Int8 | RawType::UInt8 => 8,
            RawType::Int16 | RawType::UInt16 | RawType::Enum(_) => 16,
            RawType::Int32 | RawType::UInt32 | RawType::Float32 => 32,
            RawType::Int64 | RawType::UInt64 | RawType::Float64 => 64,
            _ => return None,
        })
    }
}

/// Per scope, the bound types (`None`: inherited from where it is used).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RawBrand(pub Vec<(u64, Option<Vec<Option<RawType>>>)>);

/// A value as the request holds it: a scalar, or the index of a pointer
/// value in [`Store::values`] (`None`: a null pointer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RawValue {
    Void,
    Bool(bool),
    Int8(i8),
    Int16(i16),
    Int32(i32),
    Int64(i64),
    UInt8(u8),
    UInt16(u16),
    UInt32(u32),
    UInt64(u64),
    /// Its bits (so that a NaN default equals itself).
    Float32(u32),
    /// Its bits.
    Float64(u64),
    Enum(u16),
    /// The value's kind in the request (`"text"`, `"struct"`...) and its
    /// place among the stored values.
    Pointer(&'static str, Option<u32>),
    Interface,
}

impl RawValue {
    pub fn kind(&self) -> &'static str {
        match self {
            RawValue::Void => "void",
            RawValue::Bool(_) => "bool",
            RawValue::Int8(_) => "int8",
            RawValue::Int16(_) => "int16",
            RawValue::Int32(_) => "int32",
            RawValue::Int64(_) => "int64",
            RawValue::UInt8(_) => "uint8",
            RawValue::UInt16(_) => "uint16",
            RawValue::UInt32(_) => "uint32",
            RawValue::UInt64(_) => "uint64",
            RawValue::Float32(_) => "float32",
            RawValue::Float64(_) => "float64",
            RawValue::Enum(_) => "enum",
            RawValue::Pointer(kind, _) => kind,
            RawValue::Interface => "interface",
        }
    }

    /// The value's bits as stored in a data section (its XOR mask as a
    /// default), when it is a scalar.
    pub fn bits(&self) -> Option<u64> {
        Some(match *self {
            RawValue::Void => 0,
            RawValue::Bool(b) => u64::from(b),
            RawValue::Int8(v) => u64::from(v as u8),
            RawValue::Int16(v) => u64::from(v as u16),
            RawValue::Int32(v) => u64::from(v as u32),
            RawValue::Int64(v) => v as u64,
            RawValue::UInt8(v) => u64::from(v),
            RawValue::UInt16(v) => u64::from(v),
            RawValue::UInt32(v) => u64::from(v),
            RawValue::UInt64(v) => v,
            RawValue::Float32(v) => u64::from(v),
            RawValue::Float64(v) => v,
            RawValue::Enum(v) => u64::from(v),
            RawValue::Pointer(..) | RawValue::Interface => return None,
        })
    }
}
