//! [`Word`]: the 8-byte, 8-aligned unit every Cap'n Proto segment is made of.

use bytemuck::{Pod, Zeroable};

/// One 64-bit word of a Cap'n Proto segment: 8 bytes, aligned to 8.
///
/// The bytes are stored in wire order (little-endian), so a `&[Word]` can be
/// viewed as the exact bytes of a segment with [`Word::slice_as_bytes`] and
/// written out with no conversion.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C, align(8))]
pub struct Word(pub [u8; 8]);

// SAFETY: `Word` is `repr(C)` around one `[u8; 8]`, so it has no padding
// (size 8 = the array's size, and `align(8)` adds none to an 8-byte type),
// the all-zero bit pattern is a valid value (eight zero bytes), and every
// bit pattern is valid (any eight bytes). It holds no pointers or interior
// mutability. These are the conditions `Zeroable` and `Pod` state; the
// assertions below re-check size and alignment at compile time.
unsafe impl Zeroable for Word {}
// SAFETY: as for `Zeroable` above: no padding, every bit pattern valid,
// `Copy` and `'static`.
unsafe impl Pod for Word {}

const _: () = assert!(core::mem::size_of::<Word>() == 8);
const _: () = assert!(core::mem::align_of::<Word>() == 8);

impl Word {
    /// The all-zero word (a null pointer, or eight zero data bytes).
    pub const ZERO: Word = Word([0; 8]);

    /// The word holding `value` in little-endian order.
    #[inline]
    pub const fn from_u64(value: u64) -> Word {
        Word(value.to_le_bytes())
    }

    /// The word's bytes read as a little-endian `u64`.
    #[inline]
    pub const fn to_u64(self) -> u64 {
        u64::from_le_bytes(self.0)
    }

    /// Views words as their bytes (`8 * words.len()` bytes). No copy.
    #[inline]
    pub fn slice_as_bytes(words: &[Word]) -> &[u8] {
        bytemuck::cast_slice(words)
    }

    /// Views words as their bytes, mutably. No copy.
    #[inline]
    pub fn slice_as_bytes_mut(words: &mut [Word]) -> &mut [u8] {
        bytemuck::cast_slice_mut(words)
    }

    /// Views bytes as words without copying, when `bytes` starts at an
    /// 8-aligned address and its length is a multiple of 8; `None` otherwise.
    #[inline]
    pub fn try_slice_from_bytes(bytes: &[u8]) -> Option<&[Word]> {
        bytemuck::try_cast_slice(bytes).ok()
    }
}

impl core::fmt::Debug for Word {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Word({:#018x})", self.to_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_is_eight_bytes_aligned_to_eight() {
        assert_eq!(core::mem::size_of::<Word>(), 8);
        assert_eq!(core::mem::align_of::<Word>(), 8);
    }

    #[test]
    fn u64_round_trips_little_endian() {
        let w = Word::from_u64(0x0102_0304_0506_0708);
        assert_eq!(w.0, [8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(w.to_u64(), 0x0102_0304_0506_0708);
    }

    #[test]
    fn unaligned_bytes_are_refused() {
        let words = [Word::ZERO; 3];
        let bytes = Word::slice_as_bytes(&words);
        assert!(Word::try_slice_from_bytes(&bytes[..16]).is_some());
        assert!(Word::try_slice_from_bytes(&bytes[1..17]).is_none());
        assert!(Word::try_slice_from_bytes(&bytes[..12]).is_none());
    }
}
