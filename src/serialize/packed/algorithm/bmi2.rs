//! The packer and unpacker with BMI2's `pext` gathering a word's tag bits
//! and its nonzero bytes in one instruction each, and `pdep` spreading them
//! out, in place of a multiply and three masked shift stages (chosen at run
//! time where the CPU has BMI2).

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
pub(in crate::serialize::packed) unsafe fn pack_words(
    words: &[[u8; 8]],
    out: &mut [u8],
) -> (usize, usize) {
    super::pack_words_with::<Bmi2>(words, out)
}

/// [`super::unpack_whole_items`] with BMI2.
///
/// # Safety
/// The CPU running it must have BMI2.
#[target_feature(enable = "bmi2")]
pub(in crate::serialize::packed) unsafe fn unpack_whole_items(
    input: &[u8],
    out: &mut [u8],
    i: usize,
    o: usize,
) -> (usize, usize, Option<usize>) {
    super::unpack_whole_items_with::<Bmi2>(input, out, i, o)
}
