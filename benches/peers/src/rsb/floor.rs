//! The format's floor for the read columns (and the access columns): the
//! same loop over the same message with no reader at all. Pointers are decoded by hand from the schema's layout, and nothing
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
//! The minecraft and mk48 read columns read one data field an element (a
//! player's game type, an update's score): the floor loads it from each
//! element and hands it on, with the game type's range test (an enum of 4
//! values; a reader that skipped it would answer differently on a value
//! past the enum). There the floor answers whether the column's time is
//! the reader's at all, or the memory and the `black_box` every side pays.
//!
//! The access floor ([`access`]) opens a one-segment frame by hand: the
//! header test, the root pointer's decode and the cut of the root's words
//! out of the frame, nothing else.
//!
//! Only one-segment frames are read (the read columns' input is built on
//! one segment); a frame of more segments reads no elements.

use std::hint::black_box;

use super::black_boxed;

/// The data sets with a floor row in their read column: all four.
pub const SETS: [&str; 4] = ["log", "mesh", "minecraft_savedata", "mk48"];

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
/// `Player.gameType` (a `GameType` enum, UInt16, @0) and `Update.score`
/// (UInt32, @1, the struct's first data field): both at byte 0 of the
/// element's first word.
const PLAYER_GAME_TYPE: usize = 0;
const UPDATE_SCORE: usize = 0;
/// `GameType`'s enumerants: a game type at or past this is not one.
const GAME_TYPES: u16 = 4;

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
        // One data field an element, at the element's first word: a walk
        // over those words by the element's step (no per-element bounds
        // test; `i < elems.len()` is the loop's own).
        "minecraft_savedata" => {
            let mut i = 0;
            while i < elems.len() {
                let w = elems[i];
                let v = u16::from_le_bytes([w[PLAYER_GAME_TYPE], w[PLAYER_GAME_TYPE + 1]]);
                if v >= GAME_TYPES {
                    return 0;
                }
                seen(u64::from(v));
                i += step;
            }
        }
        "mk48" => {
            let mut i = 0;
            while i < elems.len() {
                let w = elems[i];
                let at = UPDATE_SCORE;
                seen(u64::from(u32::from_le_bytes([
                    w[at],
                    w[at + 1],
                    w[at + 2],
                    w[at + 3],
                ])));
                i += step;
            }
        }
        _ => return 0,
    }
    count as u64
}

/// The root struct of a one-segment frame read in place, opened by hand:
/// the bytes of its words (data section, then pointer section) and its
/// data words. `None` unless the frame is one segment whose size is the
/// rest of the frame, and the root pointer's target lies inside it.
#[inline(always)]
pub fn root(framed: &[u8]) -> Option<(&[u8], usize)> {
    let header = u64::from_le_bytes(framed.get(..8)?.try_into().ok()?);
    let words = (framed.len() / 8).checked_sub(1)?;
    if !framed.len().is_multiple_of(8) || header as u32 != 0 || (header >> 32) as usize != words {
        return None;
    }
    let w = u64::from_le_bytes(framed.get(8..16)?.try_into().ok()?);
    let start = target(0, w);
    let data = (w >> 32) as u16 as usize;
    let ptrs = (w >> 48) as usize;
    let from = 8 + start.checked_mul(8)?;
    let to = from + (data + ptrs) * 8;
    Some((framed.get(from..to)?, data))
}

/// The access column with no reader: [`root`] handed to `black_box`; 1 when
/// the frame opened, 0 when it did not.
pub fn access(framed: &[u8]) -> u64 {
    match root(framed) {
        Some(r) => {
            black_box(r);
            1
        }
        None => 0,
    }
}
