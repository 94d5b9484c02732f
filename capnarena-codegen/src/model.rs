//! The schema as the generator sees it: plain Rust values loaded once from
//! the CodeGeneratorRequest, so that generation never deals with readers.

use std::collections::BTreeMap;

/// A primitive or pointer type of a field, list element or constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
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
    List(Box<Type>),
    Enum(u64),
    Struct(u64, Brand),
    /// An interface, with the generic arguments of its use.
    Interface(u64, Brand),
    /// An unconstrained any pointer, or an implicit method parameter.
    AnyPointer,
    /// Generic parameter `index` of the scope `scope`.
    Param {
        scope: u64,
        index: u16,
    },
}

/// The generic arguments a use of a type gives: per scope, the bound types
/// (`None`: the scope's parameters are inherited from where it is used).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Brand(pub Vec<(u64, Option<Vec<Option<Type>>>)>);

impl Type {
    /// Whether values of this type live in the pointer section.
    pub fn is_pointer(&self) -> bool {
        matches!(
            self,
            Type::Text
                | Type::Data
                | Type::List(_)
                | Type::Struct(..)
                | Type::Interface(..)
                | Type::AnyPointer
                | Type::Param { .. }
        )
    }
}

/// A value: a field default or a constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Void,
    Bool(bool),
    /// Any integer, as its two's complement bits (sign-extended for
    /// signed types); the field's type says how to read it.
    Int(u64),
    Float32(u32),
    Float64(u64),
    Enum(u16),
    /// A text's bytes (without the terminator), UTF-8 or not.
    Text(Vec<u8>),
    Data(Vec<u8>),
    /// A struct, list or any-pointer value: the words of a single-segment
    /// message whose root pointer (word 0) points to it; `None` when null.
    Pointer(Option<Vec<u64>>),
    Interface,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    /// `$Rust.name`: the spelling the Rust names are made from.
    pub rust_name: Option<String>,
    /// `$Rust.option`: the getters return `Option`.
    pub option: bool,
    pub code_order: u16,
    /// Its `/capnp/compat/json.capnp` annotations.
    pub json: JsonField,
    /// `None` when the field is not a member of its struct's union.
    pub discriminant: Option<u16>,
    pub kind: FieldKind,
    pub doc: Option<String>,
}

/// A field's (or group's, or named union's) annotations of
/// `/capnp/compat/json.capnp`, which the serde impls follow.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonField {
    /// `$Json.name`.
    pub name: Option<String>,
    /// `$Json.flatten`: its prefix.
    pub flatten: Option<String>,
    /// `$Json.discriminator` (on a union given as a group field).
    pub discriminator: Option<JsonDiscriminator>,
    /// `$Json.base64` or `$Json.hex`.
    pub data: JsonData,
}

/// `$Json.discriminator`'s options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonDiscriminator {
    /// `name`: the tag's member name.
    pub name: Option<String>,
    /// `valueName`: the member the value goes under.
    pub value_name: Option<String>,
}

/// How a `Data` field is written in JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JsonData {
    /// An array of byte values.
    #[default]
    Array,
    /// `$Json.base64`.
    Base64,
    /// `$Json.hex`.
    Hex,
}

#[derive(Clone, Debug)]
pub enum FieldKind {
    Slot {
        offset: u32,
        ty: Type,
        default: Value,
    },
    Group {
        type_id: u64,
    },
}

#[derive(Clone, Debug)]
pub struct StructNode {
    pub data_words: u16,
    pub pointers: u16,
    pub is_group: bool,
    pub discriminant_count: u16,
    pub discriminant_offset: u32,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug)]
pub struct Enumerant {
    pub name: String,
    /// `$Rust.name`.
    pub rust_name: Option<String>,
    /// `$Json.name`.
    pub json_name: Option<String>,
    pub doc: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Method {
    pub name: String,
    pub param_struct: u64,
    pub result_struct: u64,
}

#[derive(Clone, Debug)]
pub enum NodeKind {
    File,
    Struct(StructNode),
    Enum(Vec<Enumerant>),
    Interface(Vec<Method>),
    Const { ty: Type, value: Value },
    Annotation,
}

#[derive(Clone, Debug)]
pub struct Node {
    pub id: u64,
    /// `$Rust.name`.
    pub rust_name: Option<String>,
    /// `$Rust.parentModule` (files).
    pub parent_module: Option<String>,
    pub display_name: String,
    pub prefix_len: u32,
    pub scope_id: u64,
    pub nested: Vec<(String, u64)>,
    /// Generic parameter names this node declares itself.
    pub parameters: Vec<String>,
    /// An interface's direct superclasses (`extends`), by id.
    pub superclasses: Vec<u64>,
    /// A struct's `$Json.discriminator` (for its unnamed union).
    pub json_discriminator: Option<JsonDiscriminator>,
    pub kind: NodeKind,
    pub doc: Option<String>,
    /// With `Options::schema_nodes`: the node as a one-segment message
    /// whose root points to it, in bytes.
    pub encoded: Option<Vec<u8>>,
    /// With `Options::schema_nodes`: the struct, enum and interface nodes
    /// the node's own types name (fields, methods, superclasses, and the
    /// types their brands bind), each once.
    pub refs: Vec<u64>,
    /// With `Options::schema_nodes`: the annotation declarations applied
    /// to the node, its fields, enumerants and methods, each once.
    pub annotation_refs: Vec<u64>,
}

impl Field {
    /// The spelling Rust names are made from: `$Rust.name` if given, the
    /// schema name otherwise.
    pub fn spelling(&self) -> &str {
        self.rust_name.as_deref().unwrap_or(&self.name)
    }
}

impl Enumerant {
    /// As [`Field::spelling`].
    pub fn spelling(&self) -> &str {
        self.rust_name.as_deref().unwrap_or(&self.name)
    }
}

impl Node {
    /// The name without its scope ("Foo" for "file.capnp:Bar.Foo").
    pub fn short_name(&self) -> &str {
        self.display_name
            .get(self.prefix_len as usize..)
            .unwrap_or(&self.display_name)
    }
}

#[derive(Clone, Debug)]
pub struct RequestedFile {
    pub id: u64,
    pub filename: String,
}

/// The whole request.
#[derive(Clone, Debug, Default)]
pub struct Schema {
    pub nodes: BTreeMap<u64, Node>,
    pub requested: Vec<RequestedFile>,
}
