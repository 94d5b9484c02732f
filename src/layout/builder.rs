//! Builders: struct, list and pointer handles into a message under
//! construction. A handle names a place as (segment, word offset) and
//! resolves it through the arena at each access, so an arena may move a
//! segment when it grows. A struct builder keeps its data section between
//! calls into the arena; it reaches the arena only through a
//! [`KeptArena`](super::cache::KeptArena), which forgets the data section
//! first (the rule, and where it is enforced: `cache.rs`).
//!
//! Word 0 of the arena's segment 0 is reserved for the segment table of a
//! single-segment message; builders see segment 0 from word 1 on, so every
//! offset here is an offset in the message's own segment 0.
//!
//! One concept per file: [`allocation`] (allocation and near/far pointers),
//! [`slot`] (a pointer slot and the structs behind it), [`slot_list`]
//! (the lists behind it), [`blob`] (text and data), [`structs`] (a struct's
//! fields), [`list`] (a list's elements), [`bulk`] (whole lists at once),
//! [`view`] (reading a message while it is built), [`upgrade`] (moving
//! an object an older schema wrote into a larger one) and [`zero`]
//! (zeroing what an overwritten pointer reached).

use super::pointer::MAX_LIST_COUNT;
use super::segments::BuilderSegments;
use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::word::Word;

mod allocation;
mod blob;
mod bulk;
mod list;
mod slot;
mod slot_list;
mod structs;
#[cfg(test)]
mod tests;
mod upgrade;
mod view;
mod zero;

pub(crate) use allocation::{Fill, Keep, init_root_slot};
use allocation::{WriteObject, Zeroed, alloc_object};
pub(super) use blob::{copy_bytes, write_blob};
pub use list::ListBuilder;
pub use slot::PointerBuilder;
use slot::resolve_builder;
pub use structs::StructBuilder;
pub use view::BuiltView;
use zero::{set_over_old, set_pointer, zero_pointer_best_effort};

#[inline]
fn read_word<A: Arena + ?Sized>(arena: &A, segment: u32, pos: u32) -> u64 {
    BuilderSegments::get(arena, segment)
        .get(pos as usize)
        .map_or(0, |w| w.to_u64())
}

#[inline]
fn write_word<A: Arena + ?Sized>(arena: &mut A, segment: u32, pos: u32, w: u64) {
    if let Some(slot) = BuilderSegments::get_mut(arena, segment).get_mut(pos as usize) {
        *slot = Word::from_u64(w);
    }
}

fn check_in<A: Arena + ?Sized>(arena: &A, segment: u32, start: i64, len: u64) -> Result<u32> {
    super::reader::bounds(BuilderSegments::get(arena, segment), segment, start, len)
        .map(|s| s as u32)
}

fn too_large(count: u64, bits_per_element: u64) -> Error {
    let max_count = (MAX_LIST_COUNT * 64)
        .checked_div(bits_per_element)
        .map_or(MAX_LIST_COUNT, |n| n.min(MAX_LIST_COUNT));
    Error::TooLarge {
        count,
        bits_per_element,
        max_count,
    }
}
