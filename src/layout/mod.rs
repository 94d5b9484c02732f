//! The wire layout: pointers, structs, lists, text, data, far pointers and
//! deep copy. This is the only module that turns (segment, offset) places
//! into bytes; everything it does is bounds-checked slice access with
//! checked arithmetic. Its one `unsafe` piece is `cache`: a struct
//! builder keeps its struct's bytes between calls into the arena.

mod budget;
mod builder;
mod cache;
mod copy;
mod pointer;
mod primitive;
mod reader;
mod segments;
mod size;

pub use builder::{BuiltView, ListBuilder, PointerBuilder, StructBuilder};
pub use pointer::{ElementSize, StructSize};
pub use primitive::Primitive;
pub use reader::{
    ListReader, PointerReader, ReadContext, SegmentSource, StaticContext, StructElements,
    StructReader,
};
pub use size::MessageSize;

pub(crate) use builder::init_root_slot;
pub(crate) use copy::Mode as CopyMode;
pub(crate) use reader::{ReaderOptionsCore, source_words};
pub(crate) use segments::BuilderSegments;

pub(crate) mod reader_store {
    pub(crate) use super::reader::{INLINE_SEGMENTS, SegStore};
}
