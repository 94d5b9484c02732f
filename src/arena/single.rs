//! [`SingleSegmentArena`]: one growable segment.

use alloc::vec::Vec;

use super::{AllocError, Arena, SegmentId};
use crate::word::Word;

/// One growable segment in a `Vec<Word>`.
///
/// When the segment is full it is reallocated and copied (amortized
/// doubling, as `Vec` does); handles stay valid because they are offsets.
/// Every message it holds is single-segment, so it can be framed as one
/// contiguous byte slice with no copy. [`Arena::reset`] keeps the capacity.
#[derive(Debug, Default)]
pub struct SingleSegmentArena {
    // Invariant: `words` is exactly the allocated part; its spare capacity
    // is kept across resets.
    words: Vec<Word>,
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
}

impl Arena for SingleSegmentArena {
    fn segment_count(&self) -> u32 {
        u32::from(!self.words.is_empty())
    }

    fn segment(&self, id: SegmentId) -> &[Word] {
        if id.0 == 0 { &self.words } else { &[] }
    }

    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        if id.0 == 0 { &mut self.words } else { &mut [] }
    }

    fn allocate(&mut self, len: u32, _hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        let start = self.words.len();
        let max = self
            .limit
            .unwrap_or(u32::MAX as usize)
            .min(u32::MAX as usize);
        let available = max.saturating_sub(start);
        let len_usize = len as usize;
        if len_usize > available {
            return Err(AllocError {
                requested: u64::from(len),
                available: available as u64,
            });
        }
        if self.words.try_reserve(len_usize).is_err() {
            return Err(AllocError {
                requested: u64::from(len),
                available: 0,
            });
        }
        self.words.resize(start + len_usize, Word::ZERO);
        Ok((SegmentId(0), start as u32))
    }

    fn reset(&mut self) {
        self.words.clear();
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
