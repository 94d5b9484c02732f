//! The format's floor for the serialize column: the same message written
//! word by word into the output, with no builder. The framed size is
//! summed first; the output is cut to it, zeroed, and every word written
//! once at the offset the schema's layout and the builder's order give
//! it. Pointers are encoded by hand: no arena, no bounds test beyond the
//! slice's own, no segment lookup, no cache, no error path.
//!
//! What it answers (issue 46, item 3): how far a builder is from the
//! least work any writer of these bytes does. The builder's column also
//! copies the segment into the output (`append_to`); this one writes the
//! frame in place, as a builder that wrote into the output itself would.
//!
//! The words and their order are the builder's: one segment, the root
//! struct after the root pointer, then the root's list, then each
//! element's objects in the order the serialize column sets them.
//! `tests/rsb.rs` checks that each floor writes exactly the builder's
//! bytes.

use super::{Log, Triangle};

/// The data sets with a write floor.
pub const SETS: [&str; 2] = ["log", "mesh"];

/// Words of a `Log` element (`schema/rsb/log.capnp`): `code` (UInt16) at
/// byte 0 and `size` (UInt64) at byte 8 of its two data words, then five
/// pointers: `address`, `identity`, `userid`, `date`, `request`.
const LOG_DATA: u64 = 2;
const LOG_POINTERS: u64 = 5;
/// Words of a `Triangle` element: four pointers (`v0`, `v1`, `v2`,
/// `normal`), no data; each `Vector3` is two data words (three Float32).
const TRIANGLE_POINTERS: u64 = 4;
const VECTOR_DATA: u64 = 2;

/// A struct pointer at word `at` to a struct at word `to` of `data` data
/// words and `pointers` pointers.
#[inline(always)]
fn struct_pointer(at: u64, to: u64, data: u64, pointers: u64) -> u64 {
    let offset = to.wrapping_sub(at).wrapping_sub(1) as u32;
    u64::from(offset << 2) | data << 32 | pointers << 48
}

/// A list pointer at word `at` to a list at word `to` of element size
/// code `size` (2: bytes, 7: inline composite) and `count` (elements, or
/// words after the tag for a composite list).
#[inline(always)]
fn list_pointer(at: u64, to: u64, size: u64, count: u64) -> u64 {
    let offset = to.wrapping_sub(at).wrapping_sub(1) as u32;
    1 | u64::from(offset << 2) | size << 32 | count << 35
}

/// A composite list's tag: `count` elements of `data` and `pointers`
/// words.
#[inline(always)]
fn tag(count: u64, data: u64, pointers: u64) -> u64 {
    count << 2 | data << 32 | pointers << 48
}

/// Words of a text of `len` bytes and its NUL.
#[inline(always)]
fn text_words(len: usize) -> u64 {
    (len as u64 + 8) / 8
}

/// The framed message being written: the segment table's word, then the
/// segment's words, all zero to start with.
struct Frame<'o> {
    out: &'o mut [u8],
}

impl<'o> Frame<'o> {
    /// `out` cleared, cut to one segment of `words` words framed, zeroed,
    /// and its segment table written.
    fn new(out: &'o mut Vec<u8>, words: u64) -> Self {
        out.clear();
        out.resize(8 * (words as usize + 1), 0);
        out[4..8].copy_from_slice(&(words as u32).to_le_bytes());
        Frame { out }
    }

    /// Writes word `i` of the segment.
    #[inline(always)]
    fn put(&mut self, i: u64, w: u64) {
        let at = 8 + 8 * i as usize;
        if let Some(word) = self.out.get_mut(at..at + 8) {
            word.copy_from_slice(&w.to_le_bytes());
        }
    }

    /// Writes `bytes` from word `i` of the segment on (the rest of the
    /// last word, the NUL included, stays zero).
    #[inline(always)]
    fn put_bytes(&mut self, i: u64, bytes: &[u8]) {
        let at = 8 + 8 * i as usize;
        if let Some(to) = self.out.get_mut(at..at + bytes.len()) {
            to.copy_from_slice(bytes);
        }
    }

    /// A text at word `to`, pointed to from word `at`; returns the word
    /// after it.
    #[inline(always)]
    fn text(&mut self, at: u64, to: u64, text: &str) -> u64 {
        self.put(at, list_pointer(at, to, 2, text.len() as u64 + 1));
        self.put_bytes(to, text.as_bytes());
        to + text_words(text.len())
    }

    /// The root pointer (word 0) to a struct of one pointer at word 1, and
    /// that pointer to a composite list of `count` elements of `data` and
    /// `pointers` words with its tag at word 2. Returns the word of the
    /// first element.
    fn root_list(&mut self, count: u64, data: u64, pointers: u64) -> u64 {
        self.put(0, struct_pointer(0, 1, 0, 1));
        self.put(1, list_pointer(1, 2, 7, count * (data + pointers)));
        self.put(2, tag(count, data, pointers));
        3
    }
}

/// The log set framed into `out` (cleared first), as the serialize
/// column's builder writes it; returns its length.
pub fn log(logs: &[Log], out: &mut Vec<u8>) -> usize {
    let step = LOG_DATA + LOG_POINTERS;
    let n = logs.len() as u64;
    let mut words = 3 + n * step;
    for l in logs {
        words += 1
            + text_words(l.identity.len())
            + text_words(l.userid.len())
            + text_words(l.date.len())
            + text_words(l.request.len());
    }
    let mut f = Frame::new(out, words);
    let first = f.root_list(n, LOG_DATA, LOG_POINTERS);
    let mut next = first + n * step;
    for (i, l) in logs.iter().enumerate() {
        let e = first + i as u64 * step;
        f.put(e, u64::from(l.code));
        f.put(e + 1, l.size);
        let p = e + LOG_DATA;
        f.put(p, struct_pointer(p, next, 1, 0));
        f.put(next, u64::from(u32::from_le_bytes(l.address)));
        next += 1;
        next = f.text(p + 1, next, l.identity);
        next = f.text(p + 2, next, l.userid);
        next = f.text(p + 3, next, &l.date);
        next = f.text(p + 4, next, &l.request);
    }
    f.out.len()
}

/// The mesh set framed into `out` (cleared first), as the serialize
/// column's builder writes it; returns its length.
pub fn mesh(triangles: &[Triangle], out: &mut Vec<u8>) -> usize {
    let n = triangles.len() as u64;
    let words = 3 + n * TRIANGLE_POINTERS * (1 + VECTOR_DATA);
    let mut f = Frame::new(out, words);
    let first = f.root_list(n, 0, TRIANGLE_POINTERS);
    let mut next = first + n * TRIANGLE_POINTERS;
    for (i, t) in triangles.iter().enumerate() {
        let e = first + i as u64 * TRIANGLE_POINTERS;
        for (j, v) in t.v.iter().enumerate() {
            let p = e + j as u64;
            f.put(p, struct_pointer(p, next, VECTOR_DATA, 0));
            f.put(
                next,
                u64::from(v[0].to_bits()) | u64::from(v[1].to_bits()) << 32,
            );
            f.put(next + 1, u64::from(v[2].to_bits()));
            next += VECTOR_DATA;
        }
    }
    f.out.len()
}
