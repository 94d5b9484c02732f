//! [`SingleSegmentArena`]: one growable segment.

use alloc::vec::Vec;

use super::{AllocError, Arena, EAGER_RESET_WORDS, SegmentId, WordsOutside, zero_words};
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
    // `words[used..clean]` (when `clean > used`) is zero too: zeroed ahead
    // of allocations in chunks, so that most allocations over dirty words
    // only compare.
    words: Vec<Word>,
    used: usize,
    dirty: usize,
    clean: usize,
    limit: Option<usize>,
}

/// Words zeroed at once, at least, when an allocation reaches dirty words:
/// the next allocations in them need no zeroing (1 KiB: a vectorized
/// `memset`, under glibc's `rep stosb` threshold).
const ZERO_AHEAD_WORDS: usize = 128;

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
            clean: 0,
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

    /// Zeroes the dirty words of `start..self.used` and of at least
    /// [`ZERO_AHEAD_WORDS`] from `start` (up to the dirty mark), and marks
    /// those past `used` clean.
    #[inline(never)]
    fn zero_ahead(&mut self, start: usize) {
        let from = start.max(self.clean);
        let to = self
            .used
            .max(start + ZERO_AHEAD_WORDS)
            .min(self.dirty)
            .min(self.words.len());
        if let Some(w) = self.words.get_mut(from..to) {
            zero_words(w);
        }
        self.clean = to;
    }

    /// [`Arena::allocate_in_mut`] when the words must grow first: out of
    /// line, so that the callers' near path is the test alone.
    #[cold]
    #[inline(never)]
    fn allocate_in_grown(&mut self, len: u32, zeroed: bool) -> Option<(u32, &mut [Word])> {
        let start = self.used;
        let end = start + len as usize;
        self.grow(end, len).ok()?;
        self.hand_out(start, end, zeroed)
    }

    /// Marks `start..end` (inside the words) allocated, zeroing what an
    /// earlier message left there when `zeroed`, and returns `start` with
    /// the words up to `end` (`segment_mut(0)` after the allocation).
    #[inline(always)]
    fn hand_out(&mut self, start: usize, end: usize, zeroed: bool) -> Option<(u32, &mut [Word])> {
        self.used = end;
        if zeroed && end > self.clean && start < self.dirty {
            self.zero_ahead(start);
        }
        Some((start as u32, self.words.get_mut(..end)?))
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
    /// Its words are in its one `Vec`'s heap buffer, never in the value itself.
    #[inline(always)]
    fn words_outside(&self) -> Option<WordsOutside<'_>> {
        Some(WordsOutside::of(self))
    }

    #[inline(always)]
    fn segment_count(&self) -> u32 {
        u32::from(self.used > 0)
    }

    #[inline(always)]
    fn segment(&self, id: SegmentId) -> &[Word] {
        if id.0 == 0 {
            &self.words[..self.used]
        } else {
            &[]
        }
    }

    #[inline(always)]
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        if id.0 == 0 {
            &mut self.words[..self.used]
        } else {
            &mut []
        }
    }

    #[inline(always)]
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        let start = self.used;
        let (s, o) = self.allocate_overwritten(len, hint)?;
        if self.used > self.clean && start < self.dirty {
            // Words an earlier message wrote: zeroed here, where they are
            // about to be written again, rather than all at once on reset.
            self.zero_ahead(start);
        }
        Ok((s, o))
    }

    #[inline(always)]
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

    #[inline(always)]
    fn allocate_in_mut(
        &mut self,
        len: u32,
        id: SegmentId,
        zeroed: bool,
    ) -> Option<(u32, &mut [Word])> {
        // The one segment; an error (the limit, or no memory) is `None`,
        // and `allocate` reports it.
        if id.0 != 0 {
            return None;
        }
        let start = self.used;
        let end = start + len as usize;
        if end > self.words.len() {
            return self.allocate_in_grown(len, zeroed);
        }
        // `end` is inside the words (tested above: the test in `hand_out`
        // folds away).
        self.hand_out(start, end, zeroed)
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
        self.clean = 0;
    }

    /// Leaves what was used as it is: the words up to the high-water mark
    /// are zeroed when `allocate` hands them out again (the invariant needs
    /// only the words past `max(used, dirty)` zero), and a read overwrites
    /// them.
    #[inline]
    fn reset_for_overwrite(&mut self) {
        self.dirty = self.dirty.max(self.used);
        self.used = 0;
        self.clean = 0;
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

    /// `reset_for_overwrite` zeroes nothing (a read overwrites what it
    /// allocates), and what `allocate` hands out after it is still zero,
    /// as is everything after a `reset` that follows it.
    #[test]
    fn reset_for_overwrite_leaves_words_and_allocate_still_zeroes() {
        let dirt = Word::from_u64(0x5a5a_5a5a_5a5a_5a5a);
        let mut a = SingleSegmentArena::new();
        a.allocate(10, SegmentId(0)).unwrap();
        a.segment_mut(SegmentId(0)).fill(dirt);
        a.reset_for_overwrite();
        assert_eq!(
            a.allocate_overwritten(4, SegmentId(0)),
            Ok((SegmentId(0), 0))
        );
        assert!(
            a.segment(SegmentId(0)).iter().all(|w| *w == dirt),
            "the overwritten words were not zeroed first"
        );
        assert_eq!(a.allocate(8, SegmentId(0)), Ok((SegmentId(0), 4)));
        assert!(
            a.segment(SegmentId(0))[4..]
                .iter()
                .all(|w| *w == Word::ZERO)
        );
        a.reset_for_overwrite();
        a.reset();
        a.allocate_overwritten(12, SegmentId(0)).unwrap();
        assert!(a.segment(SegmentId(0)).iter().all(|w| *w == Word::ZERO));
    }

    /// After a message larger than the eager-reset size, every word
    /// `allocate` hands out is zero, whatever mix of sizes and overwritten
    /// allocations came before it in the message (words are zeroed ahead
    /// in chunks, so the chunk bookkeeping is what this guards).
    #[test]
    fn lazily_zeroed_words_are_zero_when_handed_out() {
        let mut a = SingleSegmentArena::new();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        for round in 0..6 {
            // Dirty every word handed out, the way a message would.
            let mut total = 0;
            while total < 3 * EAGER_RESET_WORDS {
                let len = 1 + next(300) as u32;
                let overwritten = next(3) == 0;
                let (s, o) = if overwritten {
                    a.allocate_overwritten(len, SegmentId(0)).unwrap()
                } else {
                    a.allocate(len, SegmentId(0)).unwrap()
                };
                let words = &mut a.segment_mut(s)[o as usize..(o + len) as usize];
                if !overwritten {
                    assert!(
                        words.iter().all(|w| *w == Word::ZERO),
                        "round {round}: {len} words at {o} not zero"
                    );
                }
                words.fill(Word::from_u64(u64::MAX));
                total += len as usize;
            }
            a.reset();
        }
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
