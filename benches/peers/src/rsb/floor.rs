//! The format's floor for the read columns that follow a pointer an element
//! (log and mesh): the same loop over the same message with no reader at
//! all. Pointers are decoded by hand from the schema's layout, and nothing
//! is checked but slice bounds (an out-of-range word reads as zero): what a
//! read path that validated the message once beforehand would be left to
//! do, with no traversal charge, nesting count, kind test or error path.
//!
//! What it answers (issue 22's stretch): how much of a read column's time is
//! the reader's checks and how much is the memory the format's layout makes
//! any reader touch. On the mesh, every triangle's `normal` is a struct
//! pointer to its own 2-word struct, so a read touches the 4-word element
//! and a cache line elsewhere for the normal, where formats that inline
//! structs read one contiguous array.
//!
//! The minecraft and mk48 read columns read one data field an element; the
//! reader's loop there is already a load and an add (or a load, a range
//! test and an add for an enum), so they have no row here.
//!
//! Only one-segment frames are read (the read columns' input is built on
//! one segment); a frame of more segments reads no elements.

use std::hint::black_box;

use super::black_boxed;

/// The data sets with a floor row: those whose read column follows a
/// pointer an element.
pub const SETS: [&str; 2] = ["log", "mesh"];

/// Byte offsets of the log read column's fields in the data section, from
/// the schema's layout (`schema/rsb/log.capnp`): `Log.code` (UInt16, @5,
/// the first data field) at 0 and `Log.size` (UInt64) in the second word.
/// `tests/rsb.rs` checks what the loop reads against the generator's
/// values, which these offsets must reach.
const LOG_CODE: usize = 0;
const LOG_SIZE: usize = 8;
/// `Triangle.normal` is the triangle's fourth pointer; `Log.address` its
/// first.
const TRIANGLE_NORMAL: usize = 3;
const LOG_ADDRESS: usize = 0;

/// The frame's one segment as words; empty for a frame of more segments.
/// The floor reads a copy of the framed message's words (the same bytes
/// and layout, 8-byte aligned), made once before the loop.
pub fn segment_words(framed: &[u8]) -> Vec<[u8; 8]> {
    if framed.get(..4) != Some(&[0; 4]) {
        return Vec::new();
    }
    framed
        .get(8..)
        .unwrap_or(&[])
        .chunks_exact(8)
        .filter_map(|w| <[u8; 8]>::try_from(w).ok())
        .collect()
}

/// The word at index `i` of `seg`, zero past its end.
#[inline(always)]
fn word(seg: &[[u8; 8]], i: usize) -> u64 {
    seg.get(i).map_or(0, |w| u64::from_le_bytes(*w))
}

/// A struct pointer's target word: the pointer's word `pos`, plus one, plus
/// its signed 30-bit offset.
#[inline(always)]
fn target(pos: usize, w: u64) -> usize {
    let offset = i64::from((w as u32 as i32) >> 2);
    (pos as i64 + 1 + offset) as usize
}

/// The struct that pointer `w` at word `pos` points to: its words (data
/// section, then pointer section; empty past the segment's end) and its
/// data words. A null pointer gives an empty struct.
#[inline(always)]
fn struct_at(seg: &[[u8; 8]], pos: usize, w: u64) -> (&[[u8; 8]], usize) {
    let start = target(pos, w);
    let data = (w >> 32) as u16 as usize;
    let ptrs = (w >> 48) as usize;
    (seg.get(start..start + data + ptrs).unwrap_or(&[]), data)
}

/// The root struct's first pointer, an inline-composite list: the word
/// index of its first element, its element count and each element's data
/// and pointer words.
fn root_list(seg: &[[u8; 8]]) -> (usize, usize, usize, usize) {
    let root = word(seg, 0);
    let list_ptr = target(0, root) + (root >> 32) as u16 as usize;
    let tag_at = target(list_ptr, word(seg, list_ptr));
    let tag = word(seg, tag_at);
    let count = ((tag as u32) >> 2) as usize;
    (
        tag_at + 1,
        count,
        (tag >> 32) as u16 as usize,
        (tag >> 48) as usize,
    )
}

/// The word of pointer `index` of element `i` of a struct list whose first
/// element is at word `first`, each of `data` data words and `ptrs`
/// pointers.
#[inline(always)]
fn element_pointer(first: usize, i: usize, data: usize, ptrs: usize, index: usize) -> usize {
    first + i * (data + ptrs) + data + index
}

/// The `N` bytes at byte `at` of word `w` of element `e`, zeros past its
/// end.
#[inline(always)]
fn field<const N: usize>(e: &[[u8; 8]], w: usize, at: usize) -> [u8; N] {
    e.get(w)
        .and_then(|w| w.get(at..at + N))
        .and_then(|b| <[u8; N]>::try_from(b).ok())
        .unwrap_or([0; N])
}

/// The data section of the mesh's triangle `i`'s normal, as the mesh's read
/// loop decodes it (for the test that checks the decoding).
pub fn mesh_normal(seg: &[[u8; 8]], i: usize) -> Vec<u8> {
    let (first, _, data, ptrs) = root_list(seg);
    let pos = element_pointer(first, i, data, ptrs, TRIANGLE_NORMAL);
    let (words, data) = struct_at(seg, pos, word(seg, pos));
    words.iter().take(data).flatten().copied().collect()
}

/// The read column's loop of `set` over the segment's words
/// ([`segment_words`]), each field black-boxed: the element count.
pub fn read(set: &str, seg: &[[u8; 8]]) -> u64 {
    read_with(set, seg, black_boxed)
}

/// [`read`] with each field handed to `seen`.
pub fn read_with(set: &str, seg: &[[u8; 8]], mut seen: impl FnMut(u64)) -> u64 {
    let (first, count, data, ptrs) = root_list(seg);
    let step = data + ptrs;
    let Some(elems) = step
        .checked_mul(count)
        .and_then(|len| seg.get(first..first + len))
    else {
        return 0;
    };
    if step == 0 {
        return 0;
    }
    match set {
        "log" => {
            for (i, e) in elems.chunks_exact(step).enumerate() {
                let pos = element_pointer(first, i, data, ptrs, LOG_ADDRESS);
                black_box(struct_at(seg, pos, word(e, data + LOG_ADDRESS)));
                seen(u64::from(u16::from_le_bytes(field(
                    e,
                    LOG_CODE / 8,
                    LOG_CODE % 8,
                ))));
                seen(u64::from_le_bytes(field(e, LOG_SIZE / 8, LOG_SIZE % 8)));
            }
        }
        "mesh" => {
            for (i, e) in elems.chunks_exact(step).enumerate() {
                let pos = element_pointer(first, i, data, ptrs, TRIANGLE_NORMAL);
                black_box(struct_at(seg, pos, word(e, data + TRIANGLE_NORMAL)));
            }
        }
        _ => return 0,
    }
    count as u64
}
