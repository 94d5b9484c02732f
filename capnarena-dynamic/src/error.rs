//! The crate's one error type.

/// What went wrong loading a schema or reading and building a value by it.
///
/// Every variant carries the numbers (node ids, indexes, sizes, limits)
/// that explain it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The message (or the CodeGeneratorRequest) is malformed, over a
    /// limit, or the arena has no room: the runtime's own error, as the
    /// generated code would report it.
    #[error(transparent)]
    Wire(#[from] capnarena::Error),
    /// The `.capnp` files did not compile.
    #[cfg(feature = "compiler")]
    #[error("{0}")]
    Compile(#[from] capnarena_compiler::Diagnostics),
    /// A node the schema refers to (or one asked for) is not in it.
    #[error("node {id:#018x} is not in the schema")]
    MissingNode {
        /// The id looked for.
        id: u64,
    },
    /// A node is of another kind than the one its use needs.
    #[error("node {id:#018x} is a {found}, not a {expected}")]
    WrongNodeKind {
        /// The node.
        id: u64,
        /// The kind its use needs.
        expected: &'static str,
        /// Its kind.
        found: &'static str,
    },
    /// Two nodes of the request have the same id.
    #[error("node {id:#018x} appears twice in the request")]
    DuplicateNode {
        /// The id.
        id: u64,
    },
    /// No node has this name.
    #[error("no node is named {name:?}")]
    NoSuchName {
        /// The name looked for.
        name: String,
    },
    /// The struct has no field of this name.
    #[error("struct {struct_id:#018x} has no field named {name:?}")]
    NoSuchField {
        /// The struct (or group).
        struct_id: u64,
        /// The name looked for.
        name: String,
    },
    /// A field handle of one struct was used on another struct's value.
    #[error(
        "field {field} of struct {field_struct:#018x} used on a value of struct {value_struct:#018x}"
    )]
    FieldOfOtherStruct {
        /// The field's index in its struct.
        field: u32,
        /// The struct the field belongs to.
        field_struct: u64,
        /// The struct of the value.
        value_struct: u64,
    },
    /// The enum has no enumerant of this name.
    #[error("enum {enum_id:#018x} has no enumerant named {name:?}")]
    NoSuchEnumerant {
        /// The enum.
        enum_id: u64,
        /// The name looked for.
        name: String,
    },
    /// A value of one type was given where the schema has another.
    #[error("{context} has type {expected}; a value of type {found} was given")]
    TypeMismatch {
        /// The field, list or value the value was meant for.
        context: String,
        /// The schema's type.
        expected: String,
        /// The value's type.
        found: String,
    },
    /// A number does not fit the schema's type.
    #[error("{value} does not fit the type {expected} of {context}")]
    ValueOutOfRange {
        /// The field or list the value was meant for.
        context: String,
        /// The schema's type.
        expected: &'static str,
        /// The value, printed.
        value: String,
    },
    /// A printer of this crate (the text format's) reached a value
    /// nested so deeply that the levels printed so far use more stack
    /// than [`STACK_BUDGET`](crate::STACK_BUDGET) allows: nesting the
    /// reader's nesting limit let through that a default thread's stack
    /// could not print.
    #[error(
        "the value nests too deeply for the stack: {depth} levels use {used} bytes, over the budget of {budget}"
    )]
    StackBudget {
        /// The level (of structs and lists) that passed the budget.
        depth: usize,
        /// The bytes of stack used from the outermost level to it.
        used: usize,
        /// The budget.
        budget: usize,
    },
    /// A list index past the end of the list.
    #[error("index {index} is out of range of a list of {len} elements")]
    IndexOutOfRange {
        /// The index asked for.
        index: u32,
        /// The list's length.
        len: u32,
    },
    /// A member of a union was read while another member is the active one.
    #[error(
        "union member {field} of struct {struct_id:#018x} (discriminant {expected}) is not the active one (discriminant {found})"
    )]
    InactiveUnionMember {
        /// The struct (or group) holding the union.
        struct_id: u64,
        /// The member's index among the struct's fields.
        field: u32,
        /// The member's discriminant value.
        expected: u16,
        /// The discriminant found in the message.
        found: u16,
    },
    /// A union's discriminant names no member of the union (a newer
    /// schema's member, or a corrupt message).
    #[error("discriminant {value} of struct {struct_id:#018x} names no member of its union")]
    NotInSchema {
        /// The struct (or group) holding the union.
        struct_id: u64,
        /// The discriminant found.
        value: u16,
    },
    /// A field's value lies outside its struct's data or pointer section.
    #[error(
        "field {field} of struct {struct_id:#018x}: {what} {offset} of a {bits}-bit value lies outside a section of {section} bits"
    )]
    FieldOutOfBounds {
        /// The struct (or group).
        struct_id: u64,
        /// The field's index.
        field: u32,
        /// `"data offset"`, `"pointer"` or `"discriminant offset"`.
        what: &'static str,
        /// The offset, in units of the value's size.
        offset: u32,
        /// Bits of the value (64 for a pointer).
        bits: u32,
        /// Bits of the section.
        section: u64,
    },
    /// A group's node is not laid out as a group of its parent: another
    /// scope, another size, or used by two fields.
    #[error("group {group:#018x} used by field {field} of struct {parent:#018x}: {problem}")]
    BadGroup {
        /// The group's node.
        group: u64,
        /// The struct with the group field.
        parent: u64,
        /// The field's index.
        field: u32,
        /// What is wrong, with its numbers.
        problem: String,
    },
    /// A default value, constant or annotation value of another kind than
    /// its type.
    #[error("node {node:#018x}: a value of kind {found} where the type is {expected}")]
    BadValue {
        /// The node holding the value.
        node: u64,
        /// The type.
        expected: String,
        /// The value's kind.
        found: &'static str,
    },
    /// A schema is nested too deeply, or is too large, for the bounds this
    /// crate keeps to.
    #[error("{what} of node {node:#018x}: {found} is over the limit of {limit}")]
    Limit {
        /// What is counted.
        what: &'static str,
        /// The node.
        node: u64,
        /// The count found.
        found: u64,
        /// The bound.
        limit: u64,
    },
    /// A struct's builder or reader has another size than the one the
    /// schema (or a generated type) gives it.
    #[error(
        "struct {struct_id:#018x} is {expected_data} data words and {expected_pointers} pointers; the value is {data} data words and {pointers} pointers"
    )]
    StructSize {
        /// The struct.
        struct_id: u64,
        /// Data words the schema gives the struct.
        expected_data: u16,
        /// Pointers the schema gives the struct.
        expected_pointers: u16,
        /// Data words of the value (or of the generated type).
        data: u16,
        /// Pointers of the value (or of the generated type).
        pointers: u16,
    },
    /// A generated type was asked for a value of another struct or enum
    /// (a `downcast` to the wrong type).
    #[error("the value is of node {schema:#018x}; the generated type is of node {generated:#018x}")]
    WrongType {
        /// The struct or enum the value is read or built by.
        schema: u64,
        /// The struct or enum the generated type was generated from.
        generated: u64,
    },
    /// A generated type was asked for a value of its struct bound to
    /// other generic arguments (a `downcast` of a `Box(Data)` to
    /// `box_::Owned<Text>`).
    #[error(
        "the value of node {id:#018x} has the bindings {schema}; the generated type has {generated}"
    )]
    WrongBrand {
        /// The struct.
        id: u64,
        /// The value's bindings, printed.
        schema: String,
        /// The generated type's bindings, printed.
        generated: String,
    },
    /// A schema node compiled into the program (`typed::SchemaNode`) is
    /// not what its id says.
    #[error("generated schema node {id:#018x}: {problem}")]
    BadSchemaNode {
        /// The node's id.
        id: u64,
        /// What is wrong.
        problem: String,
    },
    /// The list holds elements of another size than its type needs.
    #[error("a list of {expected:?} elements was needed; the list holds {found:?} elements")]
    ListElementSize {
        /// The element size the type needs.
        expected: capnarena::ElementSize,
        /// The list's.
        found: capnarena::ElementSize,
    },
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

impl From<capnarena::typed::NotInSchema> for Error {
    /// A union tag or enum value of the request that its schema does not
    /// list: the runtime's error.
    fn from(e: capnarena::typed::NotInSchema) -> Self {
        Error::Wire(e.into())
    }
}
