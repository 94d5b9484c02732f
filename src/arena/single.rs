//! [`SingleSegmentArena`]: one growable segment.

use alloc::vec::Vec;

use super::{AllocError, Arena, EAGER_RESET_WORDS, SegmentId, zero_words};
use crate::word::Word;

/// One growable segment in a `Vec<Word>`.
///
/// When the segment is full it is reallocated and copied (amortized
/// doubling, as `Vec` does); handles stay valid because they are offsets.
/// Every message it holds is single-segment, so it can be framed as one
/// contiguous byte slice with no copy. [`Arena::reset`] keeps the capacity.
/// It zeroes what a small message wrote (up to 4,096 words, in cache); what
/// a larger one wrote is zeroed when it is handed out again, where it is
/// about to be written, and not at all when [`Arena::allocate_overwritten`]
/// hands it out.
#[derive(Debug, Default)]
pub struct SingleSegmentArena {
    // Invariants: `used, dirty <= words.len()`; `words[..used]` is the
    // allocated part; `words[max(used, dirty)..]` is all zero (initialized
    // spare room); `words[used..dirty]` holds what earlier messages wrote,
    // zeroed when it is allocated again (so `reset` after a large message
    // only forgets, and words a caller overwrites anyway are never zeroed
    // first). `dirty` is the high-water mark as of the last reset.
    words: Vec<Word>,
    used: usize,
    dirty: usize,
    limit: Option<usize>,
}

impl SingleSegmentArena {
    /// An empty arena; the first allocation reserves memory.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty arena with room for `words` words before it must grow.
    pub fn with_capacity(words: usize) -> Self {
        SingleSegmentArena {
            words: Vec::with_capacity(words),
            used: 0,
            dirty: 0,
            limit: None,
        }
    }

    /// Caps the segment at `max_words` words: allocations past it fail with
    /// [`AllocError`] instead of growing.
    pub fn with_limit(mut self, max_words: usize) -> Self {
        self.limit = Some(max_words);
        self
    }

    /// Words the segment can hold before it must grow.
    pub fn capacity(&self) -> usize {
        self.words.capacity()
    }

    /// Makes `words` at least `end` long (zeroed), doubling, within the
    /// limit.
    #[cold]
    fn grow(&mut self, end: usize, len: u32) -> Result<(), AllocError> {
        let max = self
            .limit
            .unwrap_or(u32::MAX as usize)
            .min(u32::MAX as usize);
        if end > max {
            return Err(AllocError {
                requested: u64::from(len),
                available: max.saturating_sub(self.used) as u64,
            });
        }
        let want = end
            .max(2 * self.words.len())
            .max(self.words.capacity())
            .max(64)
            .min(max);
        let err = AllocError {
            requested: u64::from(len),
            available: 0,
        };
        self.words
            .try_reserve_exact(want - self.words.len())
            .map_err(|_| err)?;
        self.words.resize(want, Word::ZERO);
        Ok(())
    }
}

impl Arena for SingleSegmentArena {
    #[inline]
    fn segment_count(&self) -> u32 {
        u32::from(self.used > 0)
    }

    #[inline]
    fn segment(&self, id: SegmentId) -> &[Word] {
        if id.0 == 0 {
            &self.words[..self.used]
        } else {
            &[]
        }
    }

    #[inline]
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        if id.0 == 0 {
            &mut self.words[..self.used]
        } else {
            &mut []
        }
    }

    #[inline]
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        let start = self.used;
        let dirty = self.dirty;
        let (s, o) = self.allocate_overwritten(len, hint)?;
        if start < dirty {
            // Words an earlier message wrote: zeroed here, where they are
            // about to be written again, rather than all at once on reset.
            let end = self.used.min(dirty);
            zero_words(&mut self.words[start..end]);
        }
        Ok((s, o))
    }

    #[inline]
    fn allocate_overwritten(
        &mut self,
        len: u32,
        _hint: SegmentId,
    ) -> Result<(SegmentId, u32), AllocError> {
        let start = self.used;
        let len_usize = len as usize;
        let end = start + len_usize;
        if end > self.words.len() {
            self.grow(end, len)?;
        }
        self.used = end;
        Ok((SegmentId(0), start as u32))
    }

    #[inline]
    fn reset(&mut self) {
        let dirty = self.dirty.max(self.used);
        if dirty <= EAGER_RESET_WORDS {
            self.words[..dirty].fill(Word::ZERO);
            self.dirty = 0;
        } else {
            self.dirty = dirty;
        }
        self.used = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_in_one_segment_and_keeps_content() {
        let mut a = SingleSegmentArena::with_capacity(2);
        let (s, o) = a.allocate(2, SegmentId(0)).unwrap();
        a.segment_mut(s)[o as usize + 1] = Word::from_u64(5);
        assert_eq!(a.allocate(100, SegmentId(3)), Ok((SegmentId(0), 2)));
        assert_eq!(a.segment_count(), 1);
        assert_eq!(a.segment(SegmentId(0))[1], Word::from_u64(5));
        assert!(
            a.segment(SegmentId(0))[2..]
                .iter()
                .all(|w| *w == Word::ZERO)
        );
    }

    #[test]
    fn reset_keeps_capacity_and_rezeroes() {
        let mut a = SingleSegmentArena::new();
        a.allocate(64, SegmentId(0)).unwrap();
        a.segment_mut(SegmentId(0))[3] = Word::from_u64(1);
        let cap = a.capacity();
        a.reset();
        assert_eq!(a.segment_count(), 0);
        assert_eq!(a.capacity(), cap);
        a.allocate(64, SegmentId(0)).unwrap();
        assert_eq!(a.segment(SegmentId(0))[3], Word::ZERO);
    }

    #[test]
    fn limit_is_an_error_not_a_panic() {
        let mut a = SingleSegmentArena::new().with_limit(4);
        a.allocate(3, SegmentId(0)).unwrap();
        assert_eq!(
            a.allocate(2, SegmentId(0)),
            Err(AllocError {
                requested: 2,
                available: 1
            })
        );
    }
}
