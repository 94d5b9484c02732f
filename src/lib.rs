#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("lib_docs.md")]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// Layers, each using only those under it: `word`; `arena` (imports
// nothing above `word`); `layout`, the only code that turns (segment,
// offset) places into bytes; `read` and `message`, on `layout`;
// `serialize`, on `message` and `read` and of `layout` only its public
// types (`SegmentSource`); `text`; `typed`, what generated code stands on
// (it re-exports the `text` support generated code calls).
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
pub mod arena;
mod canonical;
mod error;
pub mod layout;
mod message;
mod read;
mod segment;
pub mod serialize;
pub mod text;
pub mod typed;
mod utf8;
mod word;

pub use arena::{AllocError, Arena, FixedArena, SegmentId, WordsOutside};
#[cfg(feature = "alloc")]
pub use arena::{GrowthPolicy, MultiSegmentArena, SingleSegmentArena};
pub use error::{Error, PackedFault, PointerKind, Result};
pub use layout::MessageSize;
pub use layout::{
    BuiltView, ElementSize, ListBuilder, ListReader, PointerBuilder, PointerReader, Primitive,
    SegmentSource, StructBuilder, StructElements, StructReader, StructSize,
};
pub use message::Message;
#[cfg(feature = "alloc")]
pub use read::words_from_bytes;
pub use read::{MessageReader, ReaderOptions};
pub use segment::Segment;
pub use word::Word;

/// The `serde` crate, for the impls generated with capnarena-codegen's
/// `serde` option (so a user crate need not depend on it).
#[cfg(feature = "serde")]
pub use serde;

/// Includes the Rust that `capnarena-build` (or `capnpc-capnarena`) wrote
/// for a schema file into `OUT_DIR`, as a module at this place of the
/// module tree.
///
/// `capnarena::include_generated!(pub mod foo_capnp);` includes
/// `$OUT_DIR/foo_capnp.rs`; `include_generated!(pub mod foo_capnp, "dir/foo_capnp.rs")`
/// names the file under `OUT_DIR` explicitly. Generated code refers to its
/// own items with relative paths, so the module may sit at any depth.
///
/// The module is marked `#[allow(dead_code)]`: a schema's module holds an
/// accessor for every field, and a crate that includes it privately uses
/// only some of them, which is no fault of the crate's (an attribute
/// given here, such as `#[warn(dead_code)]`, comes after and wins).
#[macro_export]
macro_rules! include_generated {
    ($(#[$attr:meta])* $vis:vis mod $name:ident) => {
        #[doc = concat!("Code generated from a Cap'n Proto schema (`", stringify!($name), ".rs`).")]
        #[allow(dead_code)]
        $(#[$attr])*
        $vis mod $name {
            include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
        }
    };
    ($(#[$attr:meta])* $vis:vis mod $name:ident, $file:literal) => {
        #[doc = concat!("Code generated from a Cap'n Proto schema (`", $file, "`).")]
        #[allow(dead_code)]
        $(#[$attr])*
        $vis mod $name {
            include!(concat!(env!("OUT_DIR"), "/", $file));
        }
    };
}

// README.md's examples include generated code from `OUT_DIR`, so they
// run as doctests of examples/addressbook, the crate with the build
// script they describe.

#[cfg(doctest)]
#[doc = include_str!("../MIGRATING.md")]
struct MigratingDoctests;
