//! Packing and unpacking whole items between slices: the tables and shifts
//! that run everywhere, and the choice of the BMI2 variant
//! ([`bmi2`]) where the CPU has it.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::word::Word;

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(super) mod bmi2;

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
pub(super) fn nonzero_high_bits(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The byte's low 7 bits plus 0x7f carry into bit 7 unless all zero; or
    // bit 7 was set. No carry crosses a byte: each byte sum is at most 0xfe.
    (((x & LOW7) + LOW7) | x) & HIGH
}

/// The tag of a word: bit `i` set when byte `i` is not zero.
#[inline]
pub(super) fn tag_of(x: u64) -> u8 {
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
pub(super) const PACKED_LEN: [u8; 256] = {
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
pub(super) struct Compress {
    /// `stage[k]`: the bytes, where they are before stage `k`, that move
    /// down by `1 << k` bytes in that stage.
    stage: [u64; 3],
}

/// [`Compress`] for every tag. The nonzero byte at `t_j` (the `j`-th set
/// bit) goes down to byte `j` by `d_j = t_j - j`; the `d_j` never decrease
/// with `j`, so moving by bit 0 of `d_j`, then bit 1, then bit 2 keeps the
/// bytes in order and never lands one on another (checked for every tag by
/// a test). Bytes under a clear tag bit are zero and stay zero.
pub(super) const COMPRESS: [Compress; 256] = {
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
pub(super) fn compress(c: &Compress, x: u64) -> u64 {
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
pub(super) trait ByteOps {
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
pub(super) struct Portable;

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
pub(super) fn pack_words(words: &[[u8; 8]], out: &mut [u8]) -> (usize, usize) {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: `bmi2::pack_words` requires the BMI2 instructions and
        // nothing else; the CPU running this has them (checked just above).
        return unsafe { bmi2::pack_words(words, out) };
    }
    pack_words_with::<Portable>(words, out)
}

/// [`pack_words`] with `G` finding tags and gathering bytes.
#[inline(always)]
pub(super) fn pack_words_with<G: ByteOps>(words: &[[u8; 8]], out: &mut [u8]) -> (usize, usize) {
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
///
/// The output is packed a few KiB at a time into a buffer on the stack
/// (whole items, so the bytes are those of one [`pack`]) and appended from
/// there: the `Vec`'s spare room is never zero-filled, where resizing it
/// first would write the worst case, a quarter more than the input.
#[cfg(feature = "alloc")]
pub fn pack_to_vec(words: &[Word], out: &mut Vec<u8>) {
    pack_chunks_to_vec(bytemuck::cast_slice(words), out);
}

/// [`pack_to_vec`] of words given as bytes (with no alignment).
#[cfg(feature = "alloc")]
pub(super) fn pack_chunks_to_vec(words: &[[u8; 8]], out: &mut Vec<u8>) {
    // The smallest size that holds every item, rounded up: the buffer is
    // zeroed on every call (8 KiB was as much again as packing a 4 KiB
    // message: callgrind, realistic/tree_pack 34,304 -> 28,4xx
    // instructions), and a smaller one only adds a copy call per chunk.
    const CHUNK: usize = MAX_ITEM_LEN.next_multiple_of(256);
    const _: () = assert!(CHUNK >= MAX_ITEM_LEN);
    out.reserve(max_packed_len(words.len()));
    let mut buf = [0u8; CHUNK];
    let mut rest = words;
    while !rest.is_empty() {
        let (done, n) = pack_words(rest, &mut buf);
        out.extend_from_slice(&buf[..n]);
        rest = &rest[done..];
    }
}

/// How to expand the nonzero bytes under one tag (not `0xff`), as shifts
/// of a `u64` instead of byte by byte.
#[derive(Clone, Copy)]
pub(super) struct Expand {
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
pub(super) fn expand(tag: u8, bytes: &[u8; 8]) -> [u8; 8] {
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
pub(super) fn unpack_whole_items(
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
pub(super) fn unpack_whole_items_with<B: ByteOps>(
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
pub(super) fn header_len(tag: u8) -> u8 {
    match tag {
        0x00 => 1,                           // the zero-run count
        0xff => 9,                           // the word, then the literal-run count
        t => PACKED_LEN[usize::from(t)] - 1, // the nonzero bytes
    }
}
