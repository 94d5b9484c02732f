#![no_std]
#![doc = "Zero-copy Cap'n Proto messages on pluggable arenas."]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod arena;
mod error;
mod word;

pub use arena::{AllocError, Arena, FixedArena, SegmentId};
#[cfg(feature = "alloc")]
pub use arena::{GrowthPolicy, MultiSegmentArena, SingleSegmentArena};
pub use error::{Error, PointerKind, Result};
pub use word::{Word, WordCount};
