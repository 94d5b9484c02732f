//! Cap'n Proto schemas at run time, and values read and built by them:
//! the dynamic layer over the [capnarena] runtime.
//!
//! ```
//! use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
//! use capnarena_dynamic::{
//!     DynamicStructBuilder, DynamicStructReader, DynamicValue, DynamicValueBuilder, LoadedSchema,
//! };
//!
//! // A schema compiled in process (no `capnp` tool needed).
//! let loaded = LoadedSchema::compile(
//!     &capnarena_compiler::Compiler::new().source(
//!         "/demo.capnp",
//!         "@0xd3bd7ff1e1ed8b6a;
//!          enum Kind { small @0; large @1; }
//!          struct Item { name @0 :Text; count @1 :UInt32 = 7; kind @2 :Kind;
//!                        tags @3 :List(Text); }",
//!     ).file("/demo.capnp"),
//! )?;
//! let schema = loaded.schema();
//! let item = schema.find_struct("demo.capnp:Item")?;
//!
//! // Build by field name ...
//! let mut msg = Message::new(SingleSegmentArena::new());
//! let mut b = DynamicStructBuilder::init_root(&mut msg, item.clone())?;
//! b.set_by_name("name", "bolt".into())?;
//! b.set_by_name("kind", DynamicValue::Text("large"))?; // an enumerant by name
//! let DynamicValueBuilder::List(mut tags) = b.init_list_by_name("tags", 2)? else { unreachable!() };
//! tags.set(0, "steel".into())?;
//! tags.set(1, "m8".into())?;
//!
//! // ... and read back, defaults included.
//! let bytes = msg.framed_bytes()?.to_vec();
//! let reader = MessageReader::from_bytes(&bytes, ReaderOptions::default())?;
//! let r = DynamicStructReader::root(&reader, item)?;
//! assert!(matches!(r.get_by_name("name")?, DynamicValue::Text("bolt")));
//! assert!(matches!(r.get_by_name("count")?, DynamicValue::UInt32(7)));
//! assert_eq!(r.get_by_name("kind")?.into_enum()?.name(), Some("large"));
//! assert_eq!(r.get_by_name("tags")?.into_list()?.len(), 2);
//! # Ok::<(), capnarena_dynamic::Error>(())
//! ```
//!
//! # The schema graph
//! A [`LoadedSchema`] holds every node of a CodeGeneratorRequest: from
//! the request's bytes ([`LoadedSchema::from_request_bytes`], what `capnp
//! compile -o-` writes), from its reader ([`LoadedSchema::from_request`]),
//! or from `.capnp` files through the pure-Rust compiler
//! ([`LoadedSchema::compile`], feature `compiler`, on by default); or
//! from generated code, when it was generated with schema nodes
//! (`capnarena-codegen`'s `Options::schema_nodes`):
//! [`LoadedSchema::of::<foo::Owned>()`](LoadedSchema::of) loads the
//! struct and every type it names, [`LoadedSchema::from_generated`] the
//! types of a file (`foo_capnp::SCHEMA_NODES`). Its
//! [`Schema`] view finds nodes by id and by display name and hands out
//! [`StructSchema`] (fields in ordinal and declaration order, union and
//! groups, sizes), [`EnumSchema`], [`InterfaceSchema`] (methods and their
//! parameter and result structs, superclasses), [`ConstSchema`] and
//! [`AnnotationSchema`]; annotations are read by id or by declaration, as
//! typed values. Types are resolved with their generic bindings: a field
//! of type `T` of a struct reached as `Foo(Text)` has type
//! [`Type::Text`].
//!
//! The request is untrusted input. Loading it is bounded (see
//! [`LoadedSchema::from_request_bytes`]) and checks what reading and
//! building rely on, so that no schema can make a dynamic reader or
//! builder index outside a struct, loop or recurse without bound: a bad
//! schema is an [`Error`] naming the node and the numbers at fault.
//!
//! # Dynamic values
//! [`DynamicStructReader`] and [`DynamicListReader`] read any struct or
//! list by its schema; [`DynamicStructBuilder`] and [`DynamicListBuilder`]
//! build them, over any arena. They call the runtime exactly as the
//! generated code does, so a message reads the same through either, with
//! the same limits and errors, and builds to the same bytes (the tests
//! compare both on every test vector). Values come as [`DynamicValue`]
//! (reading) and [`DynamicValueBuilder`] (building). A generated reader or
//! builder (generated with schema nodes) converts to its dynamic form
//! ([`DynamicStructReader::from_typed`],
//! [`DynamicStructBuilder::from_typed`]) and back
//! ([`DynamicStructReader::downcast`], [`DynamicStructBuilder::downcast`]),
//! checked by node id: a value of another struct is
//! [`Error::WrongType`], naming both. A generic type carries its
//! bindings both ways: `box_::Owned<Text>` reads its `value` as
//! [`Type::Text`], and a value of `Box(Data)` is [`Error::WrongBrand`]
//! to it.
//!
//! # Beside capnproto-rust's reflection
//! Each public operation of capnproto-rust's `dynamic_value`,
//! `dynamic_struct`, `dynamic_list`, `introspect` and `schema` modules,
//! and ours. Where theirs panics, ours returns an [`Error`]. The test of
//! each row is in `tests/reflection_parity.rs`, named after the row.
//!
//! | capnproto-rust | capnarena-dynamic | test |
//! |---|---|---|
//! | `dynamic_value::Reader` (`Void` .. `Capability`) | [`DynamicValue`] | `row_value_reader_variants` |
//! | `dynamic_value::Reader::new(value, type)` | [`Field::default_value`], [`ConstSchema::value`], [`Annotation::value`] | `row_value_reader_from_schema_values` |
//! | `Reader::downcast::<T>()` (panics) | a `match`, or [`DynamicValue::into_struct`], [`into_list`](DynamicValue::into_list), [`into_enum`](DynamicValue::into_enum) | `row_value_reader_downcast` |
//! | `Reader::downcast_struct::<T>()` | `into_struct()?.`[`downcast::<T>()`](DynamicStructReader::downcast) | `row_value_reader_downcast_struct` |
//! | `From<bool, i8, .., f64> for Reader` | the same `From`s, and `&str`, `&[u8]`, readers | `row_value_from_primitives` |
//! | `dynamic_value::Builder`, `reborrow`, `downcast`, `downcast_struct` | [`DynamicValueBuilder`]; `reborrow` and `downcast` on [`DynamicStructBuilder`] and [`DynamicListBuilder`]. Text and data are plain byte builders: there is nothing to reborrow on the enum | `row_value_builder_variants_and_downcast` |
//! | `Builder::into_reader` | [`DynamicStructBuilder::with_reader`], [`DynamicListBuilder::with_reader`]: the read view borrows the builder, so it is lent to a closure | `row_value_builder_into_reader` |
//! | `dynamic_value::Enum::new`, `get_value`, `get_enumerant` | [`DynamicEnum::new`], [`value`](DynamicEnum::value), [`enumerant`](DynamicEnum::enumerant); [`from_typed`](DynamicEnum::from_typed), [`downcast`](DynamicEnum::downcast) | `row_value_enum` |
//! | `dynamic_value::Capability` | `DynamicValue::Capability(index)`: the capability table index, `None` for null | `row_value_capability` |
//! | `dynamic_struct::Reader::new`, `get_schema` | [`DynamicStructReader::new`], [`schema`](DynamicStructReader::schema) | `row_struct_reader_new_and_schema` |
//! | `Reader::total_size` | [`DynamicStructReader::total_size`] | `row_struct_reader_total_size` |
//! | `Reader::get`, `get_named` | [`get`](DynamicStructReader::get), [`get_by_name`](DynamicStructReader::get_by_name) | `row_struct_reader_get` |
//! | `Reader::which` | [`which`](DynamicStructReader::which) | `row_struct_reader_which` |
//! | `Reader::has`, `has_named` | [`has`](DynamicStructReader::has), [`has_by_name`](DynamicStructReader::has_by_name) | `row_struct_reader_has` |
//! | `Reader::downcast::<T>()` (panics) | [`downcast::<T>()`](DynamicStructReader::downcast), checked by id and bindings | `row_struct_reader_downcast` |
//! | `Debug for Reader` (the value) | [`text::write_struct`]: the reference's text format; `Debug` names the struct | `row_struct_reader_debug_as_text` |
//! | `SetterInput<any_pointer::Owned>` for struct and list readers | [`set`](DynamicStructBuilder::set) of a [`DynamicValue::Struct`] or [`DynamicValue::List`] into an `AnyPointer` field | `row_struct_and_list_reader_into_any_pointer` |
//! | `dynamic_struct::Builder::new`, `get_schema` | [`DynamicStructBuilder::new`] (size-checked), [`schema`](DynamicStructBuilder::schema) | `row_struct_builder_new` |
//! | `Builder::reborrow`, `reborrow_as_reader`, `into_reader` | [`reborrow`](DynamicStructBuilder::reborrow), [`with_reader`](DynamicStructBuilder::with_reader) | `row_struct_builder_reborrow_and_reader` |
//! | `Builder::get`, `get_named`, `which`, `has`, `has_named` | [`get`](DynamicStructBuilder::get), [`get_by_name`](DynamicStructBuilder::get_by_name), [`which`](DynamicStructBuilder::which), [`has`](DynamicStructBuilder::has), [`has_by_name`](DynamicStructBuilder::has_by_name) | `row_struct_builder_get_which_has` |
//! | `Builder::set`, `set_named` | [`set`](DynamicStructBuilder::set), [`set_by_name`](DynamicStructBuilder::set_by_name) | `row_struct_builder_set` |
//! | `Builder::init`, `init_named`, `initn`, `initn_named` | [`init`](DynamicStructBuilder::init), [`init_by_name`](DynamicStructBuilder::init_by_name), [`init_list`](DynamicStructBuilder::init_list), [`init_list_by_name`](DynamicStructBuilder::init_list_by_name) | `row_struct_builder_init` |
//! | `Builder::clear`, `clear_named` | [`clear`](DynamicStructBuilder::clear), [`clear_by_name`](DynamicStructBuilder::clear_by_name) | `row_struct_builder_clear` |
//! | `Builder::downcast::<T>()` (panics) | [`downcast::<T>()`](DynamicStructBuilder::downcast), checked | `row_struct_builder_downcast` |
//! | `dynamic_list::Reader::new`, `len`, `is_empty`, `element_type` | [`DynamicListReader::new`], [`len`](DynamicListReader::len), [`is_empty`](DynamicListReader::is_empty), [`element_type`](DynamicListReader::element_type) | `row_list_reader_new_len_element_type` |
//! | `Reader::get` | [`get`](DynamicListReader::get): past the end is [`Error::IndexOutOfRange`] | `row_list_reader_get` |
//! | `Reader::iter`, `IntoIterator` | [`iter`](DynamicListReader::iter) | `row_list_reader_iter` |
//! | `dynamic_list::Builder::new`, `reborrow`, `len`, `is_empty`, `element_type`, `get`, `set`, `init` | the same names on [`DynamicListBuilder`] | `row_list_builder_operations` |
//! | list `downcast` through `DowncastReader`/`DowncastBuilder` (unchecked) | [`DynamicListReader::downcast`], [`DynamicListBuilder::downcast`], checked by element type and bindings | `row_list_downcast_checked` |
//! | `Builder::into_reader` of a list; a typed list as a dynamic one | [`DynamicListBuilder::with_reader`]; [`DynamicListReader::from_typed`], [`DynamicListBuilder::from_typed`] | `row_list_builder_from_typed_and_downcast` |
//! | `Introspect::introspect()` | `capnarena::typed::Introspect`, read as a [`Type`] by [`Schema::type_for`] | `row_introspect` |
//! | `Type::list_of`, `which` (`TypeVariant`), `is_pointer_type` | [`Type::list_of`]; [`Type`] is the enum to match; [`Type::is_pointer`] | `row_type_list_of_which_is_pointer` |
//! | `Type::loose_equals`; `PartialEq`, `Hash` for `Type` | [`Type::same_as`] (bindings aside); `==` and `Hash` with the bindings | `row_type_equality_and_hash` |
//! | `RawStructSchema`, `RawEnumSchema`, `StructSchema::new(raw)` | `capnarena::typed::HasSchema::schema_node`; [`LoadedSchema::of`], [`Schema::struct_for`], [`Schema::enum_for`] | `row_raw_schemas_from_generated_code` |
//! | `StructSchema::get_fields`, `get_union_fields`, `get_non_union_fields`, `find_field_by_name`, `get_field_by_name` | [`fields`](StructSchema::fields), [`union_fields`](StructSchema::union_fields), [`non_union_fields`](StructSchema::non_union_fields), [`field_by_name`](StructSchema::field_by_name) | `row_schema_fields` |
//! | `StructSchema::get_field_by_discriminant` | [`field_by_discriminant`](StructSchema::field_by_discriminant) | `row_schema_field_by_discriminant` |
//! | `get_annotations`; `Annotation::get_id`, `get_value`, `get_type`; `AnnotationList` | [`StructSchema::annotations`] and the others' ([`Annotations`]: `len`, `iter`, `get` by id); [`Annotation::id`], [`value`](Annotation::value), [`ty`](Annotation::ty), [`declaration`](Annotation::declaration) | `row_schema_annotations` |
//! | `PartialEq`, `Hash`, `Debug` for `StructSchema`, `Field`, `EnumSchema`, `Enumerant` | the same, and for [`InterfaceSchema`], [`ConstSchema`], [`AnnotationSchema`] | `row_schema_equality_hash_debug` |
//! | `Field::get_type`, `get_index`, `get_proto` | [`Field::ty`], [`index`](Field::index); the node's parts as accessors ([`ordinal`](Field::ordinal), [`offset`](Field::offset), [`discriminant`](Field::discriminant), ...). A schema is loaded into a checked model, so no raw node reader is kept; [`LoadedSchema::from_request`] takes the request's readers | `row_schema_field_accessors` |
//! | `EnumSchema::get_enumerants`; `Enumerant::get_containing_enum`, `get_ordinal`, `get_annotations` | [`EnumSchema::enumerants`]; [`Enumerant::enum_schema`], [`value`](Enumerant::value), [`annotations`](Enumerant::annotations) | `row_schema_enumerants` |
//!
//! [capnarena]: https://docs.rs/capnarena

#![forbid(unsafe_code)]

mod annotations;
mod builder;
pub mod compat;
mod error;
mod generated;
mod load;
mod model;
mod nodes;
mod schema;
mod stack;
mod store;
mod structs;
pub mod text;
mod types;
mod value;

pub use annotations::{Annotation, AnnotationSchema, Annotations};
pub use builder::{DynamicListBuilder, DynamicStructBuilder, DynamicValueBuilder};
pub use capnarena_codegen::schema_capnp;
pub use error::{Error, Result};
pub use nodes::{ConstSchema, EnumSchema, Enumerant, InterfaceSchema, Method};
pub use schema::{LoadedSchema, MAX_RESOLVED_TYPE_DEPTH, Schema};
pub use stack::STACK_BUDGET;
pub use structs::{Field, StructSchema};
pub use types::{Brand, StructType, Type};
pub use value::{DynamicEnum, DynamicListReader, DynamicStructReader, DynamicValue};

/// Limits on the schemas loaded.
pub mod limits {
    pub use crate::load::{MAX_GROUP_DEPTH, MAX_TYPE_DEPTH};
}

pub mod json;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
