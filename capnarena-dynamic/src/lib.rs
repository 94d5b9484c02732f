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
//! [capnarena]: https://docs.rs/capnarena

#![forbid(unsafe_code)]

mod builder;
pub mod compat;
mod error;
mod generated;
mod list_builder;
mod load;
mod model;
mod nodes;
mod schema;
mod stack;
mod structs;
pub mod text;
mod types;
mod value;

pub use builder::{DynamicStructBuilder, DynamicValueBuilder};
pub use capnarena_codegen::schema_capnp;
pub use error::{Error, Result};
pub use list_builder::DynamicListBuilder;
pub use nodes::{
    Annotation, AnnotationSchema, Annotations, ConstSchema, EnumSchema, Enumerant, InterfaceSchema,
    Method,
};
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
