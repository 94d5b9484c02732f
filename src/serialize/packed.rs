//! Packed encoding: the Cap'n Proto spec's compression of runs of zero
//! bytes, word by word.
//!
//! Each word becomes a *tag* byte, bit `i` set when byte `i` of the word is
//! not zero, followed by the word's nonzero bytes in order. Two tags are
//! special:
//! - `0x00` (a zero word) is followed by a count `N`: `N` more zero words.
//! - `0xff` (a word with no zero byte) is followed by its 8 bytes, then a
//!   count `N`, then `N` words copied as they are (a *literal run*; the
//!   packer puts in it the following words that have at most one zero
//!   byte, where packing would not pay).
//!
//! Here:
//! - [`pack`] and [`unpack`] convert between slices without allocating;
//!   [`max_packed_len`] bounds the output of `pack`, [`unpacked_len`]
//!   gives the exact output of `unpack`; [`pack_prefix`] packs what fits
//!   in a fixed buffer and can be called again for the rest.
//! - [`Unpacker`] unpacks incrementally: input and output may come in
//!   pieces of any size, and it resumes in the middle of a word or a run.
//! - [`PackedWriter`] and [`PackedReader`] (feature `std`) are `io`
//!   adapters.
//! - On [`Message`]: `write_packed_to`, `append_packed_to`,
//!   `read_packed_from` (any `BufRead`), `try_read_packed_from` (a stream
//!   of messages), `read_packed_from_bytes`.
//!
//! The packer ends runs only where its input ends, never because an output
//! buffer is full, so packing the segment table and then each segment
//! gives the same bytes as the reference implementation.
//!
//! On x86_64 with the `std` feature, the packer and the unpacker check once
//! per call whether the CPU has BMI2 (`pext`/`pdep`), and use it to gather
//! and spread a word's nonzero bytes; elsewhere they use shifts and tables.
//! Both give the same bytes.
//!
//! ```
//! use capnarena::Word;
//! use capnarena::serialize::packed::{max_packed_len, pack, unpack};
//!
//! let words = [Word::from_u64(0x0102), Word::ZERO, Word::ZERO, Word::from_u64(u64::MAX)];
//! let mut packed = [0u8; max_packed_len(4)];
//! let n = pack(&words, &mut packed)?;
//! assert_eq!(
//!     &packed[..n],
//!     &[0x03, 0x02, 0x01, /* zero word and 1 more */ 0x00, 0x01, /* dense */ 0xff,
//!       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* literal run */ 0x00]
//! );
//! let mut back = [Word::ZERO; 4];
//! assert_eq!(unpack(&packed[..n], &mut back)?, 4);
//! assert_eq!(back, words);
//! # Ok::<(), capnarena::Error>(())
//! ```

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::arena::Arena;
use crate::error::{Error, PackedFault, Result};
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};
use crate::serialize::{Source, read_message};
use crate::word::Word;

/// Longest run count a tag's count byte holds.
const MAX_RUN: usize = 255;

/// Bytes of the largest packed item: a `0xff` tag, its word, its count and
/// a literal run of 255 words. A buffer this long always takes the next
/// item, so [`pack_prefix`] into it always makes progress.
pub const MAX_ITEM_LEN: usize = 10 + 8 * MAX_RUN;

/// An upper bound on the packed length in bytes of `words` words: a buffer
/// this long always takes [`pack`]'s output.
///
/// Worst case, every other word is a dense word packed alone (tag, 8
/// bytes, a zero count: 10 bytes) followed by a word with two zero bytes
/// (at most 7 bytes): half a byte per word over the plain 8, plus 2 for a
/// dense word at the very end. Saturates at `usize::MAX`.
pub const fn max_packed_len(words: usize) -> usize {
    words
        .saturating_mul(8)
        .saturating_add(words / 2)
        .saturating_add(2)
}

/// Bit 7 of each byte of `x` set when the byte is not zero, every other
/// bit clear.
#[inline(always)]
fn nonzero_high_bits(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The byte's low 7 bits plus 0x7f carry into bit 7 unless all zero; or
    // bit 7 was set. No carry crosses a byte: each byte sum is at most 0xfe.
    (((x & LOW7) + LOW7) | x) & HIGH
}

/// The tag of a word: bit `i` set when byte `i` is not zero.
#[inline]
fn tag_of(x: u64) -> u8 {
    let nonzero = nonzero_high_bits(x);
    // Gather bit 8i+7 to bit 56+i: the multiplier adds copies shifted by
    // 7k for k in 0..8, byte i's bit lands on 56+i for k = 7-i, and no
    // two (i, k) pairs share a bit position (8i+7k is unique), so nothing
    // carries.
    (nonzero.wrapping_mul(0x0002_0408_1020_4081) >> 56) as u8
}

/// The zero words at the front of `rest`, at most [`MAX_RUN`]: the run
/// after a zero word.
#[inline]
fn zero_run(rest: &[[u8; 8]]) -> usize {
    rest.iter()
        .take(MAX_RUN)
        .take_while(|w| **w == [0; 8])
        .count()
}

/// The words with at most one zero byte at the front of `rest`, at most
/// [`MAX_RUN`]: the literal run after a word with no zero byte. A word
/// with at most one zero byte packs to at least 8 bytes: copying it is as
/// short and faster to unpack.
#[inline]
fn dense_run(rest: &[[u8; 8]]) -> usize {
    rest.iter()
        .take(MAX_RUN)
        .take_while(|w| tag_of(u64::from_le_bytes(**w)).count_ones() >= 7)
        .count()
}

/// One packed item, as the packer chooses it from the words at the front
/// of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    /// A zero word and `run` more.
    Zeros { run: usize },
    /// A word with no zero byte and a literal run of `run` more words.
    Dense { run: usize },
    /// A word packed alone under `tag` (neither `0x00` nor `0xff`).
    Sparse { tag: u8 },
}

impl Item {
    /// The item that starts with a word of tag `tag`, followed by `rest`.
    #[inline]
    fn at(tag: u8, rest: &[[u8; 8]]) -> Item {
        match tag {
            0x00 => Item::Zeros {
                run: zero_run(rest),
            },
            0xff => Item::Dense {
                run: dense_run(rest),
            },
            tag => Item::Sparse { tag },
        }
    }

    /// Words of input the item covers.
    #[inline]
    fn words(self) -> usize {
        match self {
            Item::Zeros { run } | Item::Dense { run } => 1 + run,
            Item::Sparse { .. } => 1,
        }
    }

    /// Bytes of packed output.
    #[inline]
    fn packed_len(self) -> usize {
        match self {
            Item::Zeros { .. } => 2,
            Item::Dense { run } => 10 + 8 * run,
            Item::Sparse { tag } => usize::from(PACKED_LEN[usize::from(tag)]),
        }
    }
}

/// Bytes of a word packed under each tag that is not `0x00` or `0xff`: the
/// tag and its nonzero bytes. One byte load, where the unpacker's loop
/// waits for it to find the next tag (shorter than computing the count).
const PACKED_LEN: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut tag = 0;
    while tag < 256 {
        table[tag] = 1 + (tag as u8).count_ones() as u8;
        tag += 1;
    }
    table
};

/// How to gather the nonzero bytes of a word under one tag (not `0x00` or
/// `0xff`) to its low bytes, as shifts of a `u64` instead of byte by byte:
/// the inverse of [`Expand`].
#[derive(Clone, Copy)]
struct Compress {
    /// `stage[k]`: the bytes, where they are before stage `k`, that move
    /// down by `1 << k` bytes in that stage.
    stage: [u64; 3],
}

/// [`Compress`] for every tag. The nonzero byte at `t_j` (the `j`-th set
/// bit) goes down to byte `j` by `d_j = t_j - j`; the `d_j` never decrease
/// with `j`, so moving by bit 0 of `d_j`, then bit 1, then bit 2 keeps the
/// bytes in order and never lands one on another (checked for every tag by
/// a test). Bytes under a clear tag bit are zero and stay zero.
const COMPRESS: [Compress; 256] = {
    let mut table = [Compress { stage: [0; 3] }; 256];
    let mut tag = 0;
    while tag < 256 {
        let mut pos = [0u32; 8];
        let mut count = 0usize;
        let mut i = 0;
        while i < 8 {
            if (tag >> i) & 1 == 1 {
                pos[count] = i as u32;
                count += 1;
            }
            i += 1;
        }
        let mut stage = [0u64; 3];
        let mut k = 0;
        while k < 3 {
            let step = 1 << k;
            let mut j = 0;
            while j < count {
                // What is left of d_j after the stages before: its bits
                // from `k` up.
                if (pos[j] - j as u32) & step != 0 {
                    stage[k] |= 0xff << (8 * pos[j]);
                    pos[j] -= step;
                }
                j += 1;
            }
            k += 1;
        }
        table[tag] = Compress { stage };
        tag += 1;
    }
    table
};

/// The nonzero bytes of `x` (whose tag `c` was made for) moved to its low
/// bytes, in order, with zero above them.
#[inline]
fn compress(c: &Compress, x: u64) -> u64 {
    // Each stage takes the moving bytes `t` out of `v` (`v ^ t`) and puts
    // them in lower: where they land is zero once they are out (a byte
    // that moves in this stage, or a zero byte), so `^` puts them in.
    let mut v = x;
    let t = v & c.stage[0];
    v ^= t ^ (t >> 8);
    let t = v & c.stage[1];
    v ^= t ^ (t >> 16);
    let t = v & c.stage[2];
    v ^= t ^ (t >> 32);
    v
}

/// Writes a packed sparse word (`item`: the tag in the low byte, then the
/// nonzero bytes) into `out`, shorter than 8 bytes (out of the hot loop,
/// which writes 8 bytes at once); false when it does not fit.
#[cold]
#[inline(never)]
fn pack_sparse_near_end(item: u64, out: &mut [u8]) -> bool {
    let len = usize::from(PACKED_LEN[usize::from(item as u8)]);
    let Some(dst) = out.get_mut(..len) else {
        return false;
    };
    dst.copy_from_slice(&item.to_le_bytes()[..len]);
    true
}

/// How the packer finds a word's tag and gathers its nonzero bytes, and
/// how the unpacker spreads them out again.
trait ByteOps {
    /// What [`ByteOps::expand`] needs to know of a tag, looked up once for
    /// a run of words under one tag.
    type Spread: Copy;
    /// The tag of `x` (see [`tag_of`]).
    fn tag(x: u64) -> u8;
    /// The nonzero bytes of `x`, whose tag is `tag` (not `0x00` or
    /// `0xff`), moved to its low bytes in order, zero above them.
    fn compress(x: u64, tag: u8) -> u64;
    /// [`ByteOps::Spread`] of a tag that is not `0xff`.
    fn spread(tag: u8) -> Self::Spread;
    /// The word under the tag of `spread` whose nonzero bytes are the
    /// first of `bytes` (the rest ignored): see [`expand`].
    fn expand(spread: Self::Spread, bytes: &[u8; 8]) -> [u8; 8];
}

/// Shifts and table lookups only: every target.
struct Portable;

impl ByteOps for Portable {
    type Spread = &'static Expand;

    #[inline(always)]
    fn tag(x: u64) -> u8 {
        tag_of(x)
    }

    #[inline(always)]
    fn compress(x: u64, tag: u8) -> u64 {
        compress(&COMPRESS[usize::from(tag)], x)
    }

    #[inline(always)]
    fn spread(tag: u8) -> &'static Expand {
        &EXPAND[usize::from(tag)]
    }

    #[inline(always)]
    fn expand(spread: &'static Expand, bytes: &[u8; 8]) -> [u8; 8] {
        expand_with(spread, bytes)
    }
}

/// Packs whole items from the front of `words` into `out` while they fit.
/// Returns (words consumed, bytes written).
#[inline]
fn pack_words(words: &[[u8; 8]], out: &mut [u8]) -> (usize, usize) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: `bmi2::pack_words` requires the BMI2 instructions and
        // nothing else; the CPU running this has them (checked just above).
        return unsafe { bmi2::pack_words(words, out) };
    }
    pack_words_with::<Portable>(words, out)
}

/// The packer and unpacker with BMI2's `pext` gathering a word's tag bits
/// and its nonzero bytes in one instruction each, and `pdep` spreading them
/// out, in place of a multiply and three masked shift stages (chosen at run
/// time where the CPU has BMI2).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod bmi2 {
    use core::arch::x86_64::{_pdep_u64, _pext_u64};

    use super::nonzero_high_bits;

    /// Private to this module, so its methods (safe to call, and using
    /// BMI2) are reached only from [`pack_words`] and
    /// [`unpack_whole_items`] here, which require the CPU to have BMI2.
    struct Bmi2;

    impl super::ByteOps for Bmi2 {
        /// The bytes under the tag: `0xff` where its bit is set.
        type Spread = u64;
        #[inline(always)]
        fn tag(x: u64) -> u8 {
            // SAFETY: `Bmi2` is private to this module and used only by
            // `pack_words` and `unpack_whole_items` below, whose callers
            // guarantee BMI2.
            unsafe { _pext_u64(nonzero_high_bits(x), 0x8080_8080_8080_8080) as u8 }
        }

        #[inline(always)]
        fn compress(x: u64, _tag: u8) -> u64 {
            // Bit 7 of each nonzero byte spread to the whole byte (each
            // byte of `h << 1` minus `h >> 7` is 0x100 - 1 or 0): the bytes
            // `pext` keeps, packed down in order.
            let h = nonzero_high_bits(x);
            let keep = (h << 1).wrapping_sub(h >> 7);
            // SAFETY: as in `tag`.
            unsafe { _pext_u64(x, keep) }
        }

        #[inline(always)]
        fn spread(tag: u8) -> u64 {
            // Bit i of the tag to bit 8i, then each such bit times 0xff.
            // SAFETY: as in `tag`.
            let low = unsafe { _pdep_u64(u64::from(tag), 0x0101_0101_0101_0101) };
            (low << 8).wrapping_sub(low)
        }

        #[inline(always)]
        fn expand(spread: u64, bytes: &[u8; 8]) -> [u8; 8] {
            // `pdep` takes as many low bytes as `spread` has bytes set and
            // ignores the rest.
            // SAFETY: as in `tag`.
            unsafe { _pdep_u64(u64::from_le_bytes(*bytes), spread) }.to_le_bytes()
        }
    }

    /// [`super::pack_words`] with BMI2.
    ///
    /// # Safety
    /// The CPU running it must have BMI2.
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn pack_words(words: &[[u8; 8]], out: &mut [u8]) -> (usize, usize) {
        super::pack_words_with::<Bmi2>(words, out)
    }

    /// [`super::unpack_whole_items`] with BMI2.
    ///
    /// # Safety
    /// The CPU running it must have BMI2.
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn unpack_whole_items(
        input: &[u8],
        out: &mut [u8],
        i: usize,
        o: usize,
    ) -> (usize, usize, Option<usize>) {
        super::unpack_whole_items_with::<Bmi2>(input, out, i, o)
    }
}

/// [`pack_words`] with `G` finding tags and gathering bytes.
#[inline(always)]
fn pack_words_with<G: ByteOps>(words: &[[u8; 8]], out: &mut [u8]) -> (usize, usize) {
    let mut i = 0;
    let mut o = 0;
    while let Some(first) = words.get(i) {
        let x = u64::from_le_bytes(*first);
        let tag = G::tag(x);
        if tag != 0x00 && tag != 0xff {
            // A sparse word, the common case: the tag, then the nonzero
            // bytes gathered with shifts. They are at most 7 (the tag is
            // not 0xff), so tag and bytes make one `u64`, written whole
            // (the bytes after them are overwritten by the next item).
            let item = (G::compress(x, tag) << 8) | u64::from(tag);
            if let Some(dst) = out[o..].first_chunk_mut::<8>() {
                *dst = item.to_le_bytes();
            } else if !pack_sparse_near_end(item, &mut out[o..]) {
                break;
            }
            o += usize::from(PACKED_LEN[usize::from(tag)]);
            i += 1;
            continue;
        }
        let rest = &words[i + 1..];
        if tag == 0x00 {
            let run = zero_run(rest);
            let Some(dst) = out[o..].first_chunk_mut::<2>() else {
                break;
            };
            *dst = [0x00, run as u8];
            o += 2;
            i += 1 + run;
        } else {
            let run = dense_run(rest);
            let len = 10 + 8 * run;
            let Some(dst) = out[o..].get_mut(..len) else {
                break;
            };
            dst[0] = 0xff;
            dst[1..9].copy_from_slice(first);
            dst[9] = run as u8;
            dst[10..].copy_from_slice(bytemuck::cast_slice(&rest[..run]));
            o += len;
            i += 1 + run;
        }
    }
    (i, o)
}

/// How far [`pack_prefix`] got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackProgress {
    /// Words of input packed.
    pub words: usize,
    /// Bytes of output written.
    pub bytes: usize,
}

/// Packs words from the front of `words` into `out`, whole items only,
/// while they fit; call again with the rest of the words (and an emptied
/// buffer) to go on. The items are the ones [`pack`] would choose: where
/// the output ran out makes no difference to the bytes.
///
/// An `out` of at least [`MAX_ITEM_LEN`] bytes always takes at least one
/// item (when `words` is not empty).
pub fn pack_prefix(words: &[Word], out: &mut [u8]) -> PackProgress {
    let (words, bytes) = pack_words(bytemuck::cast_slice(words), out);
    PackProgress { words, bytes }
}

/// The exact packed length in bytes of `words`.
pub fn packed_len(words: &[Word]) -> usize {
    let words: &[[u8; 8]] = bytemuck::cast_slice(words);
    let mut i = 0;
    let mut len = 0;
    while let Some((first, rest)) = words.get(i..).and_then(|w| w.split_first()) {
        let item = Item::at(tag_of(u64::from_le_bytes(*first)), rest);
        len += item.packed_len();
        i += item.words();
    }
    len
}

/// Packs `words` into the front of `out`; returns the bytes written.
///
/// # Errors
/// [`Error::BufferTooSmall`] (with the exact length needed) when `out` is
/// shorter than the packed words; `out` then holds a packed prefix. An
/// `out` of [`max_packed_len`]`(words.len())` bytes is always enough.
pub fn pack(words: &[Word], out: &mut [u8]) -> Result<usize> {
    let PackProgress { words: done, bytes } = pack_prefix(words, out);
    if done < words.len() {
        return Err(Error::BufferTooSmall {
            needed: packed_len(words) as u64,
            available: out.len() as u64,
        });
    }
    Ok(bytes)
}

/// Appends `words`, packed, to `out`. Allocates nothing when `out` has
/// room for [`max_packed_len`]`(words.len())` more bytes.
#[cfg(feature = "alloc")]
pub fn pack_to_vec(words: &[Word], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + max_packed_len(words.len()), 0);
    let (_, n) = pack_words(bytemuck::cast_slice(words), &mut out[start..]);
    out.truncate(start + n);
}

/// How to expand the nonzero bytes under one tag (not `0xff`), as shifts
/// of a `u64` instead of byte by byte.
#[derive(Clone, Copy)]
struct Expand {
    /// Keeps the `count` nonzero bytes (the low bytes of the eight read).
    keep: u64,
    /// `stage[k]`: the bytes, where they are before stage `k`, that move
    /// up by `4 >> k` bytes in that stage.
    stage: [u64; 3],
}

/// [`Expand`] for every tag. Nonzero byte `j` goes to byte `t_j` (the
/// `j`-th set bit) by `d_j = t_j - j`; the `d_j` never decrease with `j`,
/// so moving by bit 2 of `d_j`, then bit 1, then bit 0 keeps the bytes in
/// order and never lands one on another.
const EXPAND: [Expand; 256] = {
    let mut table = [Expand {
        keep: 0,
        stage: [0; 3],
    }; 256];
    let mut tag = 0;
    while tag < 256 {
        // Targets of the nonzero bytes.
        let mut target = [0u32; 8];
        let mut count = 0usize;
        let mut i = 0;
        while i < 8 {
            if (tag >> i) & 1 == 1 {
                target[count] = i as u32;
                count += 1;
            }
            i += 1;
        }
        let mut stage = [0u64; 3];
        let mut pos = [0u32; 8];
        let mut j = 0;
        while j < count {
            pos[j] = j as u32;
            j += 1;
        }
        let mut k = 0;
        while k < 3 {
            let step = 4 >> k;
            let mut j = 0;
            while j < count {
                if (target[j] - j as u32) & step != 0 {
                    stage[k] |= 0xff << (8 * pos[j]);
                    pos[j] += step;
                }
                j += 1;
            }
            k += 1;
        }
        table[tag] = Expand {
            keep: if count == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * count)) - 1
            },
            stage,
        };
        tag += 1;
    }
    table
};

/// Expands the nonzero bytes `bytes` (in order, from `bytes[0]`; bytes past
/// the tag's count are ignored) of a word under a tag that is not `0xff`.
#[inline]
fn expand(tag: u8, bytes: &[u8; 8]) -> [u8; 8] {
    expand_with(&EXPAND[usize::from(tag)], bytes)
}

/// [`expand`] with the tag's table entry already looked up.
#[inline(always)]
fn expand_with(e: &Expand, bytes: &[u8; 8]) -> [u8; 8] {
    // As in `compress`: the moving bytes `t` land where bytes are zero
    // once `t` is out, so `^` takes them out and puts them in.
    let mut v = u64::from_le_bytes(*bytes) & e.keep;
    let t = v & e.stage[0];
    v ^= t ^ (t << 32);
    let t = v & e.stage[1];
    v ^= t ^ (t << 16);
    let t = v & e.stage[2];
    v ^= t ^ (t << 8);
    v.to_le_bytes()
}

/// Unpacks whole items from `input[i..]` into `out[o..]` for as long as
/// the next item (its header, any literal run, and all its output) fits in
/// both: the tight loop under [`Unpacker::unpack`], with no state kept
/// between items. Returns the new `i` and `o`, and the input offset of the
/// last item's tag (`None` when no item fit).
#[inline]
fn unpack_whole_items(
    input: &[u8],
    out: &mut [u8],
    i: usize,
    o: usize,
) -> (usize, usize, Option<usize>) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: `bmi2::unpack_whole_items` requires the BMI2 instructions
        // and nothing else; the CPU running this has them (checked just
        // above).
        return unsafe { bmi2::unpack_whole_items(input, out, i, o) };
    }
    unpack_whole_items_with::<Portable>(input, out, i, o)
}

/// [`unpack_whole_items`] with `B` spreading the bytes.
#[inline(always)]
fn unpack_whole_items_with<B: ByteOps>(
    input: &[u8],
    out: &mut [u8],
    mut i: usize,
    mut o: usize,
) -> (usize, usize, Option<usize>) {
    let mut last = None;
    while let Some(src) = input.get(i..).and_then(<[u8]>::first_chunk::<10>) {
        let room = out.len() - o;
        let tag = src[0];
        match tag {
            0x00 => {
                let len = 8 * (1 + usize::from(src[1]));
                if room < len {
                    break;
                }
                out[o..o + len].fill(0);
                last = Some(i);
                i += 2;
                o += len;
            }
            0xff => {
                let run = 8 * usize::from(src[9]);
                if room < 8 + run || input.len() - (i + 10) < run {
                    break;
                }
                out[o..o + 8].copy_from_slice(&src[1..9]);
                out[o + 8..o + 8 + run].copy_from_slice(&input[i + 10..i + 10 + run]);
                last = Some(i);
                i += 10 + run;
                o += 8 + run;
            }
            _ => {
                let len = usize::from(PACKED_LEN[usize::from(tag)]);
                let e = B::spread(tag);
                let Some(dst) = out[o..].first_chunk_mut::<8>() else {
                    break;
                };
                let [_, bytes @ .., _] = src;
                *dst = B::expand(e, bytes);
                last = Some(i);
                i += len;
                o += 8;
                // The words after it under the same tag (a list of
                // pointers of one shape, of texts of one length): the step
                // to the next tag is then a constant in a register, and
                // loading the next tag only feeds a compare the branch
                // predictor gets right, so the next words are unpacked
                // without waiting for it. Stepping by a length looked up
                // through the tag puts two dependent loads between one
                // tag and the next.
                while let Some(src) = input.get(i..).and_then(<[u8]>::first_chunk::<9>) {
                    if src[0] != tag {
                        break;
                    }
                    let Some(dst) = out.get_mut(o..).and_then(<[u8]>::first_chunk_mut::<8>) else {
                        break;
                    };
                    let [_, bytes @ ..] = src;
                    *dst = B::expand(e, bytes);
                    last = Some(i);
                    i += len;
                    o += 8;
                }
            }
        }
    }
    (i, o, last)
}

/// Bytes a tag needs after it before its word (and run) can be written.
#[inline]
fn header_len(tag: u8) -> u8 {
    match tag {
        0x00 => 1,                           // the zero-run count
        0xff => 9,                           // the word, then the literal-run count
        t => PACKED_LEN[usize::from(t)] - 1, // the nonzero bytes
    }
}

/// Where an [`Unpacker`] is between calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The next input byte is a tag.
    Tag,
    /// Collecting the `need` bytes after `tag` (see [`header_len`]); `got`
    /// are in `buf`.
    Header {
        tag: u8,
        buf: [u8; 9],
        got: u8,
        need: u8,
    },
    /// Writing `word` from byte `done`; then a literal run of `run` words.
    Word { word: [u8; 8], done: u8, run: u8 },
    /// Writing zero bytes: `left` more.
    Zeros { left: u16 },
    /// Copying a literal run of `words` words from input to output: `left`
    /// bytes more.
    Literal { left: u16, words: u8 },
}

/// How far one [`Unpacker::unpack`] call got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of input consumed.
    pub consumed: usize,
    /// Bytes of output written.
    pub written: usize,
}

/// An incremental unpacker: give it input and output in pieces of any size
/// and it resumes where it stopped, in the middle of a tag's bytes, a word
/// or a run. It allocates nothing.
///
/// It consumes a tag only when the output has room for at least one byte,
/// so once the output a caller wants is complete, the input not yet
/// consumed starts at the next item (unless the output ended inside a
/// run: see [`pending_output`](Self::pending_output)).
///
/// ```
/// use capnarena::serialize::packed::Unpacker;
///
/// // One zero word and two more, fed one byte at a time.
/// let packed = [0x00, 0x02];
/// let mut out = [0xaau8; 24];
/// let mut u = Unpacker::new();
/// let mut written = 0;
/// for b in packed.chunks(1) {
///     written += u.unpack(b, &mut out[written..]).written;
/// }
/// u.finish()?;
/// assert_eq!((written, out), (24, [0u8; 24]));
/// # Ok::<(), capnarena::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Unpacker {
    step: Step,
    /// Input bytes consumed, in all.
    consumed: u64,
    /// Output bytes written, in all.
    written: u64,
    /// Input offset of the tag of the item in progress.
    item_at: u64,
}

impl Default for Unpacker {
    fn default() -> Self {
        Self::new()
    }
}

impl Unpacker {
    /// An unpacker at the start of packed input.
    pub const fn new() -> Self {
        Unpacker {
            step: Step::Tag,
            consumed: 0,
            written: 0,
            item_at: 0,
        }
    }

    /// Unpacks from `input` into `out` until the input is consumed or the
    /// output is full. Never fails: any bytes are a valid start of packed
    /// input; whether the input ended well is for [`finish`](Self::finish).
    pub fn unpack(&mut self, input: &[u8], out: &mut [u8]) -> Progress {
        let mut i = 0;
        let mut o = 0;
        loop {
            match self.step {
                Step::Tag => {
                    let (ni, no, last) = unpack_whole_items(input, out, i, o);
                    if let Some(at) = last {
                        self.item_at = self.consumed + at as u64;
                        i = ni;
                        o = no;
                    }
                    if o == out.len() || i == input.len() {
                        break;
                    }
                    self.item_at = self.consumed + i as u64;
                    let tag = input[i];
                    // Fast path: the whole header is here and a word fits.
                    if let (Some(src), Some(dst)) = (
                        input[i..].first_chunk::<10>(),
                        out[o..].first_chunk_mut::<8>(),
                    ) {
                        match tag {
                            0x00 => {
                                let len = 8 * (1 + usize::from(src[1]));
                                i += 2;
                                let k = len.min(out.len() - o);
                                out[o..o + k].fill(0);
                                o += k;
                                if k < len {
                                    self.step = Step::Zeros {
                                        left: (len - k) as u16,
                                    };
                                }
                            }
                            0xff => {
                                dst.copy_from_slice(&src[1..9]);
                                i += 10;
                                o += 8;
                                if src[9] != 0 {
                                    self.step = Step::Literal {
                                        left: 8 * u16::from(src[9]),
                                        words: src[9],
                                    };
                                }
                            }
                            _ => {
                                let [_, bytes @ .., _] = src;
                                *dst = expand(tag, bytes);
                                i += usize::from(PACKED_LEN[usize::from(tag)]);
                                o += 8;
                            }
                        }
                        continue;
                    }
                    i += 1;
                    self.step = Step::Header {
                        tag,
                        buf: [0; 9],
                        got: 0,
                        need: header_len(tag),
                    };
                }
                Step::Header {
                    tag,
                    mut buf,
                    mut got,
                    need,
                } => {
                    let k = usize::from(need - got).min(input.len() - i);
                    buf[usize::from(got)..usize::from(got) + k].copy_from_slice(&input[i..i + k]);
                    i += k;
                    got += k as u8;
                    if got < need {
                        self.step = Step::Header {
                            tag,
                            buf,
                            got,
                            need,
                        };
                        break;
                    }
                    let [word @ .., last] = buf;
                    self.step = match tag {
                        0x00 => Step::Zeros {
                            left: 8 * (1 + u16::from(buf[0])),
                        },
                        0xff => Step::Word {
                            word,
                            done: 0,
                            run: last,
                        },
                        _ => Step::Word {
                            word: expand(tag, &word),
                            done: 0,
                            run: 0,
                        },
                    };
                }
                Step::Word { word, done, run } => {
                    if o == out.len() {
                        break;
                    }
                    let k = usize::from(8 - done).min(out.len() - o);
                    out[o..o + k].copy_from_slice(&word[usize::from(done)..usize::from(done) + k]);
                    o += k;
                    let done = done + k as u8;
                    self.step = if done < 8 {
                        Step::Word { word, done, run }
                    } else if run > 0 {
                        Step::Literal {
                            left: 8 * u16::from(run),
                            words: run,
                        }
                    } else {
                        Step::Tag
                    };
                }
                Step::Zeros { left } => {
                    if o == out.len() {
                        break;
                    }
                    let k = usize::from(left).min(out.len() - o);
                    out[o..o + k].fill(0);
                    o += k;
                    let left = left - k as u16;
                    self.step = if left > 0 {
                        Step::Zeros { left }
                    } else {
                        Step::Tag
                    };
                }
                Step::Literal { left, words } => {
                    if o == out.len() || i == input.len() {
                        break;
                    }
                    let k = usize::from(left).min(out.len() - o).min(input.len() - i);
                    out[o..o + k].copy_from_slice(&input[i..i + k]);
                    o += k;
                    i += k;
                    let left = left - k as u16;
                    self.step = if left > 0 {
                        Step::Literal { left, words }
                    } else {
                        Step::Tag
                    };
                }
            }
        }
        self.consumed += i as u64;
        self.written += o as u64;
        Progress {
            consumed: i,
            written: o,
        }
    }

    /// Input bytes consumed so far, in all.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Output bytes written so far, in all.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Bytes of output owed that need no more input: the rest of a word, or
    /// of a zero run, that did not fit in the output. (A literal run still
    /// to copy is not counted: it needs input.)
    pub fn pending_output(&self) -> usize {
        match self.step {
            Step::Word { done, .. } => usize::from(8 - done),
            Step::Zeros { left } => usize::from(left),
            _ => 0,
        }
    }

    /// True between items: the input consumed so far is whole items and
    /// all of their output has been written.
    pub fn is_at_item_boundary(&self) -> bool {
        self.step == Step::Tag
    }

    /// The input offset an error is about: the tag of the item in
    /// progress, or the next tag between items.
    fn fault_offset(&self) -> u64 {
        if self.step == Step::Tag {
            self.consumed
        } else {
            self.item_at
        }
    }

    fn error(&self, fault: PackedFault) -> Error {
        Error::Packed {
            offset: self.fault_offset(),
            fault,
        }
    }

    /// Declares that the input has ended, and that the output so far is all
    /// the output wanted: checks that both ended at an item boundary.
    ///
    /// # Errors
    /// [`Error::Packed`], at the offset of the item's tag, with
    /// [`PackedFault::TagPastEnd`] when the input ends among the bytes a
    /// tag announces, [`PackedFault::LiteralRunPastEnd`] when it ends
    /// inside a literal run, [`PackedFault::OutputFull`] when the last item
    /// unpacks past the output written.
    pub fn finish(&self) -> Result<()> {
        match self.step {
            Step::Tag => Ok(()),
            Step::Header { tag, got, need, .. } => Err(self.error(PackedFault::TagPastEnd {
                tag,
                needed: need,
                available: got,
            })),
            Step::Literal { left, words } => Err(self.error(PackedFault::LiteralRunPastEnd {
                words,
                available: 8 * u64::from(words) - u64::from(left),
            })),
            Step::Word { .. } | Step::Zeros { .. } => Err(self.output_full(self.written)),
        }
    }

    /// The error for input that unpacks past an output of `capacity_bytes`.
    fn output_full(&self, capacity_bytes: u64) -> Error {
        self.error(PackedFault::OutputFull { capacity_bytes })
    }
}

/// Unpacks all of `packed` into the front of `out`; returns the words
/// written.
///
/// # Errors
/// [`Error::Packed`] with the byte offset of the item at fault:
/// [`PackedFault::OutputFull`] when the input unpacks to more than
/// `out.len()` words (see [`unpacked_len`]), or the input ends inside an
/// item ([`PackedFault::TagPastEnd`], [`PackedFault::LiteralRunPastEnd`]).
pub fn unpack(packed: &[u8], out: &mut [Word]) -> Result<usize> {
    let mut u = Unpacker::new();
    let out = Word::slice_as_bytes_mut(out);
    let p = u.unpack(packed, out);
    if p.consumed < packed.len() || u.pending_output() > 0 {
        return Err(u.output_full(out.len() as u64));
    }
    u.finish()?;
    Ok(p.written / 8)
}

/// The number of words `packed` unpacks to, found without unpacking.
///
/// # Errors
/// As [`unpack`] when the input ends inside an item.
pub fn unpacked_len(packed: &[u8]) -> Result<u64> {
    let mut i = 0usize;
    let mut words = 0u64;
    while let Some(&tag) = packed.get(i) {
        let need = usize::from(header_len(tag));
        let available = packed.len() - i - 1;
        if available < need {
            return Err(Error::Packed {
                offset: i as u64,
                fault: PackedFault::TagPastEnd {
                    tag,
                    needed: need as u8,
                    available: available as u8,
                },
            });
        }
        let at = i;
        i += 1 + need;
        words += 1;
        match tag {
            0x00 => words += u64::from(packed[i - 1]),
            0xff => {
                let run = packed[i - 1];
                let len = 8 * usize::from(run);
                if packed.len() - i < len {
                    return Err(Error::Packed {
                        offset: at as u64,
                        fault: PackedFault::LiteralRunPastEnd {
                            words: run,
                            available: (packed.len() - i) as u64,
                        },
                    });
                }
                i += len;
                words += u64::from(run);
            }
            _ => {}
        }
    }
    Ok(words)
}

/// Appends the words `packed` unpacks to onto `out`, when there are at
/// most `limit_words` of them; returns how many. The length is found
/// first ([`unpacked_len`]), so `out` grows once, and not at all when it
/// has the room.
///
/// # Errors
/// [`PackedFault::OutputLimit`] (offset 0) when the input unpacks to more
/// than `limit_words` words; the errors of [`unpacked_len`]; an
/// [`Error::Alloc`] when the memory cannot be reserved.
#[cfg(feature = "alloc")]
pub fn unpack_to_vec(packed: &[u8], out: &mut Vec<Word>, limit_words: u64) -> Result<usize> {
    let words = unpacked_len(packed)?;
    if words > limit_words {
        return Err(Error::Packed {
            offset: 0,
            fault: PackedFault::OutputLimit { words, limit_words },
        });
    }
    let alloc_error = || {
        Error::Alloc(crate::arena::AllocError {
            requested: words,
            available: 0,
        })
    };
    let n = usize::try_from(words).map_err(|_| alloc_error())?;
    out.try_reserve(n).map_err(|_| alloc_error())?;
    let start = out.len();
    out.resize(start + n, Word::ZERO);
    unpack(packed, &mut out[start..])
}

/// A [`Source`] that unpacks from a byte slice.
struct SliceSource<'b> {
    input: &'b [u8],
    unpacker: Unpacker,
}

impl Source for SliceSource<'_> {
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize> {
        let p = self.unpacker.unpack(self.input, dst);
        self.input = &self.input[p.consumed..];
        Ok(p.written)
    }

    fn consumed_any(&self) -> bool {
        self.unpacker.consumed() > 0
    }

    fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
        end_of_message(&self.unpacker, message_bytes)
    }
}

/// At the end of a message: no run may go on into the next one (the
/// reference rejects that too).
fn end_of_message(u: &Unpacker, message_bytes: u64) -> Result<()> {
    if u.is_at_item_boundary() {
        Ok(())
    } else {
        Err(u.output_full(message_bytes))
    }
}

/// A [`Source`] that unpacks from a `BufRead`, consuming exactly the
/// packed bytes of the message.
#[cfg(feature = "std")]
struct BufReadSource<R> {
    inner: R,
    unpacker: Unpacker,
}

#[cfg(feature = "std")]
impl<R: std::io::BufRead> Source for BufReadSource<R> {
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize> {
        let mut done = 0;
        while done < dst.len() {
            // Output owed by an item already read (a zero run, or a word cut
            // by the last `dst`) needs no input: write it before asking the
            // reader for more, which could block or find the end.
            if self.unpacker.pending_output() > 0 {
                done += self.unpacker.unpack(&[], &mut dst[done..]).written;
                continue;
            }
            let input = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::Io(e)),
            };
            if input.is_empty() {
                break;
            }
            let p = self.unpacker.unpack(input, &mut dst[done..]);
            self.inner.consume(p.consumed);
            done += p.written;
        }
        Ok(done)
    }

    fn consumed_any(&self) -> bool {
        self.unpacker.consumed() > 0
    }

    fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
        end_of_message(&self.unpacker, message_bytes)
    }
}

/// Room for this many table words on the stack when writing; a larger
/// table (more than 31 segments) is put on the heap.
#[cfg(feature = "alloc")]
const STACK_TABLE_WORDS: usize = 16;

/// Packs the framed message whose segment table is `table` and whose
/// segments are `segments` into `w`, through a stack buffer: the table and
/// each segment are packed on their own, as the reference does.
#[cfg(feature = "std")]
fn write_packed_parts<'s, W: std::io::Write>(
    mut w: W,
    table: &[u8],
    segments: impl Iterator<Item = &'s [Word]>,
) -> Result<()> {
    let mut out = ChunkedOut {
        buf: [0u8; 2 * MAX_ITEM_LEN],
        filled: 0,
    };
    out.pack(&mut w, bytemuck::cast_slice(table))?;
    for seg in segments {
        out.pack(&mut w, bytemuck::cast_slice(seg))?;
    }
    w.write_all(&out.buf[..out.filled])?;
    Ok(())
}

/// A stack buffer of packed bytes on their way to a writer.
#[cfg(feature = "std")]
struct ChunkedOut {
    buf: [u8; 2 * MAX_ITEM_LEN],
    filled: usize,
}

#[cfg(feature = "std")]
impl ChunkedOut {
    /// Packs `part` on its own (its runs end with it), writing the buffer
    /// out whenever the next item does not fit.
    fn pack<W: std::io::Write>(&mut self, w: &mut W, mut part: &[[u8; 8]]) -> Result<()> {
        while !part.is_empty() {
            let (words, bytes) = pack_words(part, &mut self.buf[self.filled..]);
            part = &part[words..];
            self.filled += bytes;
            if !part.is_empty() {
                w.write_all(&self.buf[..self.filled])?;
                self.filled = 0;
            }
        }
        Ok(())
    }
}

/// Calls `f` with the segment table for segments of `sizes` words (at
/// least one, at most `u32::MAX`), on the stack for up to 31 segments.
#[cfg(feature = "alloc")]
fn with_table<T>(sizes: impl ExactSizeIterator<Item = u32>, f: impl FnOnce(&[u8]) -> T) -> T {
    let count = sizes.len() as u32;
    let len = crate::read::header_bytes(count);
    let mut small = [0u8; 8 * STACK_TABLE_WORDS];
    let mut large = Vec::new();
    let table: &mut [u8] = if len <= small.len() {
        &mut small[..len]
    } else {
        large.resize(len, 0);
        &mut large
    };
    table[..4].copy_from_slice(&count.wrapping_sub(1).to_le_bytes());
    for (i, size) in sizes.enumerate() {
        table[4 + 4 * i..8 + 4 * i].copy_from_slice(&size.to_le_bytes());
    }
    f(table)
}

/// Packs the framed message made of `segments` (segment table, then each
/// segment) into `w`: for a message read with [`MessageReader`] (its
/// `segment(i)` for each `i`), or segments from anywhere else.
///
/// Allocates nothing for up to 31 segments.
///
/// # Errors
/// [`Error::TooLarge`] when there are no segments, more than `u32::MAX`,
/// or a segment of more than `u32::MAX` words; any error of `w`.
#[cfg(feature = "std")]
pub fn write_packed_segments<W: std::io::Write>(w: W, segments: &[&[Word]]) -> Result<()> {
    let too_large = |count: u64| Error::TooLarge {
        count,
        bits_per_element: 64,
        max_count: u64::from(u32::MAX),
    };
    if segments.is_empty() || segments.len() > u32::MAX as usize {
        return Err(too_large(segments.len() as u64));
    }
    if let Some(s) = segments.iter().find(|s| s.len() > u32::MAX as usize) {
        return Err(too_large(s.len() as u64));
    }
    let sizes = segments.iter().map(|s| s.len() as u32);
    with_table(sizes, |table| {
        write_packed_parts(w, table, segments.iter().copied())
    })
}

impl<A: Arena> Message<A> {
    /// Writes the message packed (segment table and segments, the standard
    /// framing, then packed) to `w`. Allocates nothing for up to 31
    /// segments; writes in pieces of at most about 4 KiB.
    ///
    /// The bytes are the reference implementation's for the same segments:
    /// the table and each segment are packed on their own.
    ///
    /// # Errors
    /// Any error of `w`.
    #[cfg(feature = "std")]
    pub fn write_packed_to<W: std::io::Write>(&self, w: W) -> Result<()> {
        self.with_table(|table| write_packed_parts(w, table, self.segments().map(|s| s.words())))
    }

    /// Appends the message, packed, to `out`; the same bytes as
    /// [`write_packed_to`](Self::write_packed_to). Allocates nothing when
    /// `out` has room for [`max_packed_len`] of the framed size in words
    /// (and the message has at most 31 segments).
    #[cfg(feature = "alloc")]
    pub fn append_packed_to(&self, out: &mut Vec<u8>) {
        out.reserve(max_packed_len(self.serialized_size() / 8));
        self.with_table(|table| pack_to_vec(bytemuck::cast_slice(table), out));
        for seg in self.segments() {
            pack_to_vec(seg.words(), out);
        }
    }

    /// Calls `f` with the message's segment table, on the stack for up to
    /// 31 segments.
    #[cfg(feature = "alloc")]
    fn with_table<T>(&self, f: impl FnOnce(&[u8]) -> T) -> T {
        let sizes = self.segments().map(|s| s.len_words());
        with_table(sizes, f)
    }

    /// Reads one packed message from `r` into this message's arena
    /// and returns a reader over it (the only view of what was read; see
    /// [Reading into a message](Message#reading-into-a-message)). With a warmed
    /// arena and at most 8 segments, nothing is allocated.
    ///
    /// Takes a `BufRead` so that exactly the message's packed bytes are
    /// consumed and the next message stays in `r`: the packed length of a
    /// message is only known once it is unpacked. The segment table is
    /// checked against `options` before the body is read or anything is
    /// allocated. No zero or literal run may go on past the message's end.
    ///
    /// # Errors
    /// [`Error::EndOfStream`] when `r` ends before the first byte;
    /// [`Error::Truncated`] when it ends inside the message (the numbers
    /// count unpacked bytes); [`Error::Packed`] when a run goes on past the
    /// message's end; a limit exceeded; an I/O error; or the arena has no
    /// room.
    #[cfg(feature = "std")]
    pub fn read_packed_from<R: std::io::BufRead>(
        &mut self,
        r: R,
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        self.try_read_packed_from(r, options)?
            .ok_or(Error::EndOfStream)
    }

    /// As [`read_packed_from`](Self::read_packed_from), for a stream of
    /// messages: `Ok(None)` when `r` ends cleanly before the next message.
    ///
    /// # Errors
    /// As [`read_packed_from`](Self::read_packed_from), less
    /// [`Error::EndOfStream`].
    #[cfg(feature = "std")]
    pub fn try_read_packed_from<R: std::io::BufRead>(
        &mut self,
        r: R,
        options: ReaderOptions,
    ) -> Result<Option<MessageReader<'_>>> {
        let mut src = BufReadSource {
            inner: r,
            unpacker: Unpacker::new(),
        };
        read_message(self, &mut src, &options)
    }

    /// Reads the packed message that is all of `bytes` into this message's
    /// arena and returns a reader over it (the only view of what was read; see
    /// [Reading into a message](Message#reading-into-a-message)). With a
    /// warmed arena and at most 8 segments, nothing is allocated.
    ///
    /// # Errors
    /// As [`read_packed_from`](Self::read_packed_from) (empty input is
    /// [`Error::Truncated`]), and [`Error::TrailingData`] when bytes are
    /// left after the message.
    pub fn read_packed_from_bytes(
        &mut self,
        bytes: &[u8],
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        let (reader, used) = self.read_packed_from_bytes_prefix(bytes, options)?;
        if used != bytes.len() {
            return Err(Error::TrailingData {
                extra: (bytes.len() - used) as u64,
            });
        }
        Ok(reader)
    }

    /// As [`read_packed_from_bytes`](Self::read_packed_from_bytes) for the
    /// packed message at the start of `bytes`; also returns the packed
    /// bytes it took, where the next message starts.
    ///
    /// # Errors
    /// As [`read_packed_from_bytes`](Self::read_packed_from_bytes), less
    /// trailing bytes.
    #[inline]
    pub fn read_packed_from_bytes_prefix(
        &mut self,
        bytes: &[u8],
        options: ReaderOptions,
    ) -> Result<(MessageReader<'_>, usize)> {
        let mut src = SliceSource {
            input: bytes,
            unpacker: Unpacker::new(),
        };
        let reader = read_message(self, &mut src, &options)?.ok_or(Error::Truncated {
            needed: 8,
            available: 0,
        })?;
        Ok((reader, bytes.len() - src.input.len()))
    }
}

/// Capacity of the buffers of [`PackedWriter::new`] and
/// [`PackedReader::new`].
#[cfg(feature = "std")]
const DEFAULT_BUF_LEN: usize = 8 * 1024;

/// An `io::Write` adapter that packs the bytes written to it.
///
/// The bytes of each `write` call are packed on their own, as the
/// reference implementation does: runs never span two calls (a word split
/// between two calls is packed alone). So `Message::write_to` through a
/// `PackedWriter` gives the same bytes as
/// [`Message::write_packed_to`]. Packed bytes are buffered; the buffer is
/// allocated once, at construction.
///
/// Call [`finish`](Self::finish) at the end: it writes out the buffer and
/// reports bytes that do not make a whole word. Dropping the writer writes
/// the buffer out too, ignoring errors (as `BufWriter` does), and cannot
/// report an unfinished word.
///
/// ```
/// use capnarena::serialize::packed::PackedWriter;
/// use capnarena::{Message, SingleSegmentArena, StructSize};
///
/// let mut msg = Message::new(SingleSegmentArena::new());
/// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 7);
/// let mut w = PackedWriter::new(Vec::new());
/// msg.write_to(&mut w)?;
/// let packed = w.finish()?;
/// let mut direct = Vec::new();
/// msg.write_packed_to(&mut direct)?;
/// assert_eq!(packed, direct);
/// # Ok::<(), capnarena::Error>(())
/// ```
#[cfg(feature = "std")]
pub struct PackedWriter<W: std::io::Write> {
    /// `Some` until `finish` takes it (an `Option` because `Drop` forbids
    /// moving out of the writer otherwise).
    inner: Option<W>,
    /// Packed bytes not yet written; `buf.len() >= MAX_ITEM_LEN`.
    buf: Vec<u8>,
    filled: usize,
    /// The start of a word whose other bytes have not been written yet.
    partial: [u8; 8],
    partial_len: usize,
}

#[cfg(feature = "std")]
impl<W: std::io::Write> PackedWriter<W> {
    /// A writer with an 8 KiB buffer.
    pub fn new(inner: W) -> Self {
        Self::with_capacity(DEFAULT_BUF_LEN, inner)
    }

    /// A writer with a buffer of `capacity` bytes (at least
    /// [`MAX_ITEM_LEN`]).
    pub fn with_capacity(capacity: usize, inner: W) -> Self {
        PackedWriter {
            inner: Some(inner),
            buf: alloc::vec![0; capacity.max(MAX_ITEM_LEN)],
            filled: 0,
            partial: [0; 8],
            partial_len: 0,
        }
    }

    /// Writes out the buffer and returns the underlying writer.
    ///
    /// # Errors
    /// [`Error::PartialWord`] when the bytes written do not end on a word
    /// boundary (the buffer is written out first); any error of the
    /// underlying writer.
    pub fn finish(mut self) -> Result<W> {
        self.write_buffer()?;
        if self.partial_len > 0 {
            return Err(Error::PartialWord {
                bytes: self.partial_len as u8,
            });
        }
        self.inner
            .take()
            .ok_or_else(|| Error::Io(std::io::ErrorKind::NotConnected.into()))
    }

    fn inner(&mut self) -> std::io::Result<&mut W> {
        self.inner
            .as_mut()
            .ok_or_else(|| std::io::ErrorKind::NotConnected.into())
    }

    fn write_buffer(&mut self) -> std::io::Result<()> {
        if self.filled > 0 {
            let filled = self.filled;
            self.filled = 0;
            let inner = self
                .inner
                .as_mut()
                .ok_or(std::io::ErrorKind::NotConnected)?;
            inner.write_all(&self.buf[..filled])?;
        }
        Ok(())
    }

    /// Packs `part` on its own into the buffer, writing the buffer out
    /// whenever the next item does not fit.
    fn pack(&mut self, mut part: &[[u8; 8]]) -> std::io::Result<()> {
        while !part.is_empty() {
            let (words, bytes) = pack_words(part, &mut self.buf[self.filled..]);
            part = &part[words..];
            self.filled += bytes;
            if !part.is_empty() {
                self.write_buffer()?;
            }
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> std::io::Write for PackedWriter<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let n = data.len();
        let mut data = data;
        if self.partial_len > 0 {
            let k = (8 - self.partial_len).min(data.len());
            self.partial[self.partial_len..self.partial_len + k].copy_from_slice(&data[..k]);
            self.partial_len += k;
            data = &data[k..];
            if self.partial_len < 8 {
                return Ok(n);
            }
            self.partial_len = 0;
            let word = [self.partial];
            self.pack(&word)?;
        }
        let (whole, rest) = data.split_at(data.len() / 8 * 8);
        let words: &[[u8; 8]] = bytemuck::try_cast_slice(whole)
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
        self.pack(words)?;
        self.partial[..rest.len()].copy_from_slice(rest);
        self.partial_len = rest.len();
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write_buffer()?;
        self.inner()?.flush()
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> Drop for PackedWriter<W> {
    fn drop(&mut self) {
        // As `BufWriter`: errors cannot be reported here; `finish` reports them.
        let _ = self.write_buffer();
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> core::fmt::Debug for PackedWriter<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackedWriter")
            .field("buffered", &self.filled)
            .field("partial_word_bytes", &self.partial_len)
            .finish_non_exhaustive()
    }
}

/// An `io::Read` adapter that unpacks the packed bytes read from the
/// underlying reader.
///
/// It reads ahead into its buffer (allocated once, at construction), so the
/// underlying reader is left past the point the unpacked bytes reached. To
/// read a stream of packed messages, either keep one `PackedReader` for the
/// whole stream and read framed messages from it
/// ([`Message::try_read_from`]), or hand a `BufRead` to
/// [`Message::try_read_packed_from`] (which also rejects runs that go on
/// past a message's end).
///
/// When the underlying reader ends inside a packed item, `read` returns an
/// `io::Error` of kind `UnexpectedEof` that wraps the [`Error::Packed`].
///
/// ```
/// use std::io::Read;
/// use capnarena::serialize::packed::PackedReader;
///
/// let mut r = PackedReader::new(&[0x00u8, 0x01, 0x01, 0x07][..]);
/// let mut out = Vec::new();
/// r.read_to_end(&mut out)?;
/// assert_eq!(out, [[0u8; 16].as_slice(), &[7, 0, 0, 0, 0, 0, 0, 0]].concat());
/// # Ok::<(), std::io::Error>(())
/// ```
#[cfg(feature = "std")]
pub struct PackedReader<R: std::io::Read> {
    inner: R,
    /// Packed bytes read ahead; `buf[start..end]` are not consumed yet.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    unpacker: Unpacker,
    eof: bool,
}

#[cfg(feature = "std")]
impl<R: std::io::Read> PackedReader<R> {
    /// A reader with an 8 KiB buffer.
    pub fn new(inner: R) -> Self {
        Self::with_capacity(DEFAULT_BUF_LEN, inner)
    }

    /// A reader with a buffer of `capacity` bytes (at least 16).
    pub fn with_capacity(capacity: usize, inner: R) -> Self {
        PackedReader {
            inner,
            buf: alloc::vec![0; capacity.max(16)],
            start: 0,
            end: 0,
            unpacker: Unpacker::new(),
            eof: false,
        }
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// Gives back the underlying reader; packed bytes read ahead are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

#[cfg(feature = "std")]
impl<R: std::io::Read> std::io::Read for PackedReader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            let p = self.unpacker.unpack(&self.buf[self.start..self.end], out);
            self.start += p.consumed;
            if p.written > 0 {
                return Ok(p.written);
            }
            if self.eof {
                return match self.unpacker.finish() {
                    Ok(()) => Ok(0),
                    Err(e) => Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, e)),
                };
            }
            // Nothing written with room in `out`: all input was consumed.
            debug_assert_eq!(self.start, self.end);
            self.start = 0;
            self.end = loop {
                match self.inner.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            self.eof = self.end == 0;
        }
    }
}

#[cfg(feature = "std")]
impl<R: std::io::Read> core::fmt::Debug for PackedReader<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackedReader")
            .field("buffered", &(self.end - self.start))
            .field("unpacker", &self.unpacker)
            .field("eof", &self.eof)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn words(bytes: &[u8]) -> Vec<Word> {
        assert_eq!(bytes.len() % 8, 0);
        bytes
            .chunks_exact(8)
            .map(|c| Word(c.try_into().unwrap()))
            .collect()
    }

    /// The shift-based `expand` puts byte `j` of the input at the `j`-th set
    /// bit of the tag and zero elsewhere, ignoring bytes past the tag's
    /// count, for every tag but `0xff` (checked against a byte-by-byte
    /// expansion, with distinct nonzero input bytes so any misplaced byte
    /// shows).
    #[test]
    fn expand_matches_bytewise_expansion_for_every_tag() {
        let bytes = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
        for tag in 0..=0xfeu8 {
            let mut want = [0u8; 8];
            let mut j = 0;
            for (i, b) in want.iter_mut().enumerate() {
                if tag & (1 << i) != 0 {
                    *b = bytes[j];
                    j += 1;
                }
            }
            assert_eq!(expand(tag, &bytes), want, "tag {tag:#04x}");
        }
    }

    /// Every input or output cut in the BMI2 tests; under Miri every 37th.
    const CUT_STEP: usize = if cfg!(miri) { 37 } else { 1 };

    /// Words of every shape the packer tells apart: each tag with several
    /// byte values, zero and dense runs past [`MAX_RUN`], dense words with
    /// one zero byte, and pseudo-random words biased towards zero bytes.
    fn every_shape() -> Vec<[u8; 8]> {
        let mut words = Vec::new();
        for tag in 0..=0xffu8 {
            for v in [1u8, 0x80, 0xff] {
                let mut w = [0u8; 8];
                for (i, b) in w.iter_mut().enumerate() {
                    if tag & (1 << i) != 0 {
                        *b = v.wrapping_add(i as u8) | 1;
                    }
                }
                words.push(w);
            }
        }
        words.extend(core::iter::repeat_n([0u8; 8], 300));
        words.extend(core::iter::repeat_n([0xa5u8; 8], 300));
        words.push([0xff; 8]);
        words.extend(core::iter::repeat_n([1, 2, 3, 0, 5, 6, 7, 8], 10));
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        // Fewer under Miri, which runs the BMI2 tests in CI (built with
        // `-C target-feature=+bmi2`) about 10,000 times slower.
        let random = if cfg!(miri) { 64 } else { 4096 };
        for _ in 0..random {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let r = seed.to_le_bytes();
            let keep = (seed >> 32) as u8 & (seed >> 40) as u8;
            words.push(core::array::from_fn(|i| {
                if keep & (1 << i) != 0 { r[i] | 1 } else { 0 }
            }));
        }
        words
    }

    /// Whether the BMI2 codec can run here; prints a skip line when not.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    fn bmi2_detected(what: &str) -> bool {
        let yes = std::arch::is_x86_feature_detected!("bmi2");
        if !yes {
            std::eprintln!(
                "skipped: BMI2 not detected (not on this CPU, or under Miri without +bmi2): the BMI2 {what} never runs here"
            );
        }
        yes
    }

    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[test]
    fn bmi2_packer_writes_what_the_portable_packer_writes() {
        if !bmi2_detected("packer") {
            return;
        }
        let words = every_shape();
        let full = max_packed_len(words.len());
        // Every output size up to the first 2,048 bytes (items cut at the
        // end, the short tail path), then a few large ones.
        let sizes = (0..2048)
            .step_by(CUT_STEP)
            .chain([full / 2, full - 1, full]);
        for len in sizes {
            let mut a = alloc::vec![0u8; len];
            let mut b = alloc::vec![0u8; len];
            let pa = pack_words_with::<Portable>(&words, &mut a);
            // SAFETY: the CPU has BMI2, checked above.
            let pb = unsafe { bmi2::pack_words(&words, &mut b) };
            assert_eq!(pa, pb, "output of {len} bytes");
            assert_eq!(a[..pa.1], b[..pb.1], "output of {len} bytes");
        }
    }

    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    #[test]
    fn bmi2_unpacker_reads_what_the_portable_unpacker_reads() {
        if !bmi2_detected("unpacker") {
            return;
        }
        let words = every_shape();
        let mut packed = alloc::vec![0u8; max_packed_len(words.len())];
        let (_, n) = pack_words_with::<Portable>(&words, &mut packed);
        let packed = &packed[..n];
        let full = 8 * words.len();
        // Input cut at every byte of the first 2,048, with room for all the
        // output; then all the input, with the output cut at every byte of
        // the first 2,048. Either way items stop at the cut.
        let cases = (0..2048)
            .step_by(CUT_STEP)
            .map(|cut| (cut, full))
            .chain((0..2048).step_by(CUT_STEP).map(|room| (n, room)))
            .chain([(n, full)]);
        for (cut, room) in cases {
            let mut a = alloc::vec![0u8; room];
            let mut b = alloc::vec![0u8; room];
            let ra = unpack_whole_items_with::<Portable>(&packed[..cut], &mut a, 0, 0);
            // SAFETY: the CPU has BMI2, checked above.
            let rb = unsafe { bmi2::unpack_whole_items(&packed[..cut], &mut b, 0, 0) };
            assert_eq!(ra, rb, "input {cut} bytes, output {room} bytes");
            assert_eq!(
                a[..ra.1],
                b[..rb.1],
                "input {cut} bytes, output {room} bytes"
            );
        }
        // The whole unpacker (the BMI2 loop, then the byte-at-a-time tail)
        // gives back the words.
        let mut back = alloc::vec![Word::default(); words.len()];
        assert_eq!(unpack(packed, &mut back).unwrap(), words.len());
        assert_eq!(bytemuck::cast_slice::<Word, [u8; 8]>(&back), &words[..]);
    }

    #[test]
    fn portable_packer_round_trips_every_shape() {
        let words = every_shape();
        let mut out = alloc::vec![0u8; max_packed_len(words.len())];
        let (done, n) = pack_words_with::<Portable>(&words, &mut out);
        assert_eq!(done, words.len());
        let mut back = alloc::vec![Word::default(); words.len()];
        assert_eq!(unpack(&out[..n], &mut back).unwrap(), words.len());
        assert_eq!(bytemuck::cast_slice::<Word, [u8; 8]>(&back), &words[..]);
        assert_eq!(n, packed_len(&back));
    }

    /// The shift-based `compress` moves the nonzero bytes of a word (at the
    /// set bits of its tag, zero elsewhere) to its low bytes in order, with
    /// zero above them, for every tag (distinct nonzero bytes, so any
    /// misplaced or lost byte shows); and it undoes `expand`.
    #[test]
    fn compress_matches_bytewise_gathering_for_every_tag() {
        let bytes = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
        for tag in 0..=0xffu8 {
            let mut word = [0u8; 8];
            let mut want = [0u8; 8];
            let mut j = 0;
            for (i, b) in word.iter_mut().enumerate() {
                if tag & (1 << i) != 0 {
                    *b = bytes[i];
                    want[j] = bytes[i];
                    j += 1;
                }
            }
            let c = &COMPRESS[usize::from(tag)];
            let got = compress(c, u64::from_le_bytes(word)).to_le_bytes();
            assert_eq!(got, want, "tag {tag:#04x}");
            assert_eq!(
                u32::from(PACKED_LEN[usize::from(tag)]),
                1 + tag.count_ones()
            );
            if tag != 0xff {
                assert_eq!(expand(tag, &got), word, "tag {tag:#04x}");
            }
        }
    }

    fn packed(ws: &[Word]) -> Vec<u8> {
        let mut out = alloc::vec![0u8; max_packed_len(ws.len())];
        let n = pack(ws, &mut out).unwrap();
        out.truncate(n);
        assert_eq!(n, packed_len(ws), "packed_len");
        out
    }

    fn unpacked(bytes: &[u8]) -> Result<Vec<Word>> {
        let n = unpacked_len(bytes)?;
        let mut out = alloc::vec![Word(*b"garbage!"); n as usize];
        assert_eq!(unpack(bytes, &mut out)?, n as usize);
        Ok(out)
    }

    /// Both directions of one spelled-out encoding.
    fn both_ways(plain: &[u8], packed_bytes: &[u8]) {
        let ws = words(plain);
        assert_eq!(packed(&ws), packed_bytes, "pack");
        assert_eq!(unpacked(packed_bytes).unwrap(), ws, "unpack");
    }

    /// The bit trick of `tag_of` gives bit `i` exactly when byte `i` is not
    /// zero: all 256 zero/nonzero patterns, with nonzero bytes of 0x01,
    /// 0x7f, 0x80 and 0xff (the carry edge cases) mixed by position.
    #[test]
    fn tag_of_matches_its_definition() {
        for mask in 0..=255u8 {
            for values in [
                [0x01u8, 0x7f, 0x80, 0xff],
                [0xff, 0x80, 0x7f, 0x01],
                [0x80; 4],
            ] {
                let mut w = [0u8; 8];
                for (i, b) in w.iter_mut().enumerate() {
                    if mask & (1 << i) != 0 {
                        *b = values[i % 4];
                    }
                }
                assert_eq!(tag_of(u64::from_le_bytes(w)), mask, "{w:02x?}");
            }
        }
    }

    /// The spec's examples: a sparse word packs to its tag and nonzero
    /// bytes, in order.
    #[test]
    fn sparse_words() {
        both_ways(
            &[
                0x08, 0, 0, 0, 0x03, 0, 0x02, 0, // tag 0b0101_0001
                0x19, 0, 0, 0, 0xaa, 0x01, 0, 0, // tag 0b0011_0001
            ],
            &[0x51, 0x08, 0x03, 0x02, 0x31, 0x19, 0xaa, 0x01],
        );
        // One nonzero byte at each end.
        both_ways(&[0, 0, 0, 0, 0, 0, 0, 0x80], &[0x80, 0x80]);
        both_ways(&[0x01, 0, 0, 0, 0, 0, 0, 0], &[0x01, 0x01]);
        // Seven nonzero bytes: still a sparse word, no run.
        both_ways(&[1, 2, 3, 4, 0, 6, 7, 8], &[0xef, 1, 2, 3, 4, 6, 7, 8]);
    }

    /// Zero words: tag 0x00 and a count of further zero words, at most 255
    /// per tag, so 256 zero words are `00 ff` and 257 are `00 ff 00 00`.
    #[test]
    fn zero_runs() {
        both_ways(&[0; 8], &[0x00, 0x00]);
        both_ways(&[0; 16], &[0x00, 0x01]);
        both_ways(&[0; 8 * 255], &[0x00, 0xfe]);
        both_ways(&[0; 8 * 256], &[0x00, 0xff]);
        both_ways(&[0; 8 * 257], &[0x00, 0xff, 0x00, 0x00]);
        both_ways(&[0; 8 * 512], &[0x00, 0xff, 0x00, 0xff]);
        // A run ends at a nonzero word and starts again after it.
        let mut plain = alloc::vec![0u8; 8 * 3];
        plain[8] = 5;
        both_ways(&plain, &[0x00, 0x00, 0x01, 0x05, 0x00, 0x00]);
    }

    /// A word with no zero byte is followed by a literal run of the next
    /// words with at most one zero byte (up to 255), copied as they are.
    #[test]
    fn dense_runs() {
        let dense = [0xffu8; 8];
        both_ways(&dense, &[&[0xff][..], &dense, &[0x00]].concat());
        // Next word has one zero byte: it joins the run.
        let one_zero = [1u8, 2, 3, 0, 5, 6, 7, 8];
        both_ways(
            &[dense, one_zero].concat(),
            &[&[0xff][..], &dense, &[0x01], &one_zero].concat(),
        );
        // Next word has two zero bytes: the run ends, it packs alone.
        let two_zeros = [1u8, 0, 3, 0, 5, 6, 7, 8];
        both_ways(
            &[dense, two_zeros].concat(),
            &[&[0xff][..], &dense, &[0x00, 0xf5, 1, 3, 5, 6, 7, 8]].concat(),
        );
        // 257 dense words: one word and 255 more, then a new run of one.
        let plain: Vec<u8> = dense.repeat(257);
        let mut want = Vec::new();
        want.push(0xff);
        want.extend_from_slice(&dense);
        want.push(0xff);
        want.extend_from_slice(&dense.repeat(255));
        want.push(0xff);
        want.extend_from_slice(&dense);
        want.push(0x00);
        both_ways(&plain, &want);
    }

    /// `max_packed_len` holds for the worst pattern (a dense word alone,
    /// then a word with two zero bytes, over and over, then a dense word)
    /// and for runs of dense words, and that pattern comes within a few
    /// bytes of it.
    #[test]
    fn max_packed_len_bounds_the_worst_case() {
        for n in [1usize, 2, 3, 10, 255, 256, 257, 1000] {
            let mut alternating = Vec::new();
            for i in 0..n {
                let w = if i % 2 == 0 || i + 1 == n {
                    [0xffu8; 8]
                } else {
                    [1, 0, 1, 0, 1, 1, 1, 1]
                };
                alternating.extend_from_slice(&w);
            }
            let dense = [0x7fu8; 8].repeat(n);
            for plain in [alternating, dense] {
                let ws = words(&plain);
                let len = packed_len(&ws);
                assert!(
                    len <= max_packed_len(n),
                    "n={n}: {len} > {}",
                    max_packed_len(n)
                );
            }
        }
        let worst = packed_len(&words(
            &[[0xffu8; 8], [1, 0, 1, 0, 1, 1, 1, 1]].concat().repeat(50),
        ));
        assert!(
            max_packed_len(100) - worst <= 2,
            "bound {} vs {worst}",
            max_packed_len(100)
        );
        assert_eq!(max_packed_len(1), 10);
    }

    /// A sample with every kind of item, run lengths around the count
    /// limit, and words split at every byte.
    fn sample() -> Vec<Word> {
        let mut plain = Vec::new();
        plain.extend_from_slice(&[0u8; 8 * 300]);
        plain.extend_from_slice(&[0x11u8; 8 * 300]);
        plain.extend_from_slice(&[1, 0, 3, 0, 5, 0, 7, 0]);
        plain.extend_from_slice(&[0xffu8; 8]);
        for i in 0..64u8 {
            plain.extend_from_slice(&[i, 0, i ^ 0x5a, 0, 0, i, 0, 1]);
        }
        plain.extend_from_slice(&[0u8; 8]);
        words(&plain)
    }

    /// The unpacker resumes anywhere: input and output given in pieces of
    /// every size from 1 to 11 bytes give the words of a one-shot unpack.
    #[test]
    fn unpacker_resumes_across_pieces() {
        let ws = sample();
        let p = packed(&ws);
        let want = Word::slice_as_bytes(&ws);
        // Under Miri (slow) a representative subset of the piece sizes.
        let in_pieces: &[usize] = if cfg!(miri) {
            &[1, 3, 8, 11]
        } else {
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        };
        let out_pieces: &[usize] = if cfg!(miri) {
            &[1, 7, 4096]
        } else {
            &[1, 2, 3, 5, 7, 8, 9, 11, 4096]
        };
        for &in_piece in in_pieces {
            for &out_piece in out_pieces {
                let mut u = Unpacker::new();
                let mut out = alloc::vec![0xaau8; want.len()];
                let (mut i, mut o) = (0, 0);
                while i < p.len() || u.pending_output() > 0 {
                    let in_end = (i + in_piece).min(p.len());
                    let out_end = (o + out_piece).min(out.len());
                    let step = u.unpack(&p[i..in_end], &mut out[o..out_end]);
                    assert!(step.consumed + step.written > 0, "no progress");
                    i += step.consumed;
                    o += step.written;
                }
                u.finish().unwrap();
                assert_eq!(
                    (o, u.consumed(), u.written()),
                    (want.len(), p.len() as u64, o as u64)
                );
                assert!(out == want, "in {in_piece}, out {out_piece}");
            }
        }
    }

    /// Packing into a short buffer, item by item, gives the same bytes as
    /// packing at once: runs do not end where the buffer does.
    #[test]
    fn pack_prefix_chooses_the_same_items() {
        let ws = sample();
        let whole = packed(&ws);
        for cap in [MAX_ITEM_LEN, MAX_ITEM_LEN + 1, 3000] {
            let mut buf = alloc::vec![0u8; cap];
            let mut got = Vec::new();
            let mut rest = &ws[..];
            while !rest.is_empty() {
                let p = pack_prefix(rest, &mut buf);
                assert!(p.words > 0);
                got.extend_from_slice(&buf[..p.bytes]);
                rest = &rest[p.words..];
            }
            assert_eq!(got, whole, "capacity {cap}");
        }
        // Too small for the next item: nothing is written.
        let mut tiny = [0u8; 9];
        assert_eq!(
            pack_prefix(&words(&[0xffu8; 8]), &mut tiny),
            PackProgress { words: 0, bytes: 0 }
        );
    }

    /// `pack` into a short buffer fails with the exact length needed.
    #[test]
    fn pack_reports_the_length_needed() {
        let ws = words(&[[0xffu8; 8], [1, 0, 1, 0, 1, 1, 1, 1]].concat());
        let mut out = [0u8; 16];
        match pack(&ws, &mut out) {
            Err(Error::BufferTooSmall { needed, available }) => {
                assert_eq!((needed, available), (10 + 7, 16));
            }
            other => panic!("expected BufferTooSmall, got {other:?}"),
        }
    }

    fn fault(bytes: &[u8], out_words: usize) -> (u64, PackedFault) {
        let mut out = alloc::vec![Word::ZERO; out_words];
        match unpack(bytes, &mut out) {
            Err(Error::Packed { offset, fault }) => (offset, fault),
            other => panic!("{bytes:02x?}: expected a packed error, got {other:?}"),
        }
    }

    /// Each kind of malformed input gives its own error, at the offset of
    /// the item's tag, with the numbers; `unpacked_len` agrees.
    #[test]
    fn malformed_input() {
        let cases: [(&[u8], u64, PackedFault); 7] = [
            // Tag 0x03 needs 2 bytes, has 1.
            (
                &[0x03, 0x01],
                0,
                PackedFault::TagPastEnd {
                    tag: 3,
                    needed: 2,
                    available: 1,
                },
            ),
            // A whole word, then tag 0xf0 with 4 bytes needed, 0 there.
            (
                &[0x01, 0x07, 0xf0],
                2,
                PackedFault::TagPastEnd {
                    tag: 0xf0,
                    needed: 4,
                    available: 0,
                },
            ),
            // Zero tag without its count.
            (
                &[0x00],
                0,
                PackedFault::TagPastEnd {
                    tag: 0,
                    needed: 1,
                    available: 0,
                },
            ),
            (
                &[0x00, 0x00, 0x00],
                2,
                PackedFault::TagPastEnd {
                    tag: 0,
                    needed: 1,
                    available: 0,
                },
            ),
            // Dense tag: its 8 bytes but no count.
            (
                &[0xff, 1, 2, 3, 4, 5, 6, 7, 8],
                0,
                PackedFault::TagPastEnd {
                    tag: 0xff,
                    needed: 9,
                    available: 8,
                },
            ),
            // Dense tag, count 2, one word of the two.
            (
                &[0xff, 1, 2, 3, 4, 5, 6, 7, 8, 2, 1, 1, 1, 1, 1, 1, 1, 1],
                0,
                PackedFault::LiteralRunPastEnd {
                    words: 2,
                    available: 8,
                },
            ),
            (
                &[0xff, 1, 2, 3, 4, 5, 6, 7, 8, 1],
                0,
                PackedFault::LiteralRunPastEnd {
                    words: 1,
                    available: 0,
                },
            ),
        ];
        for (bytes, offset, want) in cases {
            assert_eq!(fault(bytes, 64), (offset, want), "{bytes:02x?}");
            match unpacked_len(bytes) {
                Err(Error::Packed { offset: o, fault }) => assert_eq!((o, fault), (offset, want)),
                other => panic!("unpacked_len({bytes:02x?}): {other:?}"),
            }
        }
    }

    /// Input that unpacks to more words than the output holds is an error,
    /// at the item that does not fit, never a silent truncation.
    #[test]
    fn output_full() {
        let full = |capacity_bytes| PackedFault::OutputFull { capacity_bytes };
        // Six zero words into three.
        assert_eq!(fault(&[0x00, 0x05], 3), (0, full(24)));
        // Two sparse words into one: the second tag is at offset 2.
        assert_eq!(fault(&[0x01, 0x07, 0x01, 0x07], 1), (2, full(8)));
        // A dense word and a literal run of one, into one word.
        assert_eq!(
            fault(&[&[0xff][..], &[9; 8], &[1], &[9; 8]].concat(), 1),
            (0, full(8))
        );
        // Into nothing.
        assert_eq!(fault(&[0x01, 0x07], 0), (0, full(0)));
        // Exactly enough is fine.
        assert_eq!(unpack(&[0x00, 0x05], &mut [Word::ZERO; 6]).unwrap(), 6);
        assert_eq!(unpack(&[], &mut []).unwrap(), 0);
    }

    /// `unpack_to_vec` checks the limit before it allocates.
    #[test]
    fn unpack_to_vec_limit() {
        let mut out = Vec::new();
        let zeros = [0x00, 0xff, 0x00, 0xff]; // 512 words
        match unpack_to_vec(&zeros, &mut out, 511) {
            Err(Error::Packed { offset: 0, fault }) => assert_eq!(
                fault,
                PackedFault::OutputLimit {
                    words: 512,
                    limit_words: 511
                }
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(out.capacity(), 0);
        assert_eq!(unpack_to_vec(&zeros, &mut out, 512).unwrap(), 512);
        assert_eq!(out, alloc::vec![Word::ZERO; 512]);
    }
}
