#![no_std]
#![doc = include_str!("lib_docs.md")]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod arena;
mod canonical;
mod error;
pub mod layout;
mod message;
mod read;
mod segment;
pub mod serialize;
#[cfg(feature = "alloc")]
pub mod text;
mod word;

pub use arena::{AllocError, Arena, FixedArena, SegmentId};
#[cfg(feature = "alloc")]
pub use arena::{GrowthPolicy, MultiSegmentArena, SingleSegmentArena};
pub use error::{Error, PackedFault, PointerKind, Result};
pub use layout::{
    ElementSize, ListBuilder, ListReader, PointerBuilder, PointerReader, Primitive, SegmentSource,
    StructBuilder, StructReader, StructSize,
};
pub use message::Message;
#[cfg(feature = "alloc")]
pub use read::words_from_bytes;
pub use read::{MessageReader, ReaderOptions};
pub use segment::Segment;
pub use word::{Word, WordCount};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
