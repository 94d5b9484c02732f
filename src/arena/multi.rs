//! [`MultiSegmentArena`]: new segments instead of copying.

use alloc::vec::Vec;

use super::{AllocError, Arena, SegmentId};
use crate::word::Word;

/// Largest segment the arena creates on its own policy: a far pointer's
/// landing-pad offset has 29 bits.
const MAX_POLICY_SEGMENT_WORDS: u64 = (1 << 29) - 1;

/// How a [`MultiSegmentArena`] sizes each new segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GrowthPolicy {
    /// A new segment holds as many words as all segments so far together
    /// (so capacity doubles, as in the reference implementation), or twice
    /// the request if that is larger: an object too big for the doubling
    /// gets room after it for what it points to, so its children land in
    /// its own segment instead of behind far pointers.
    GrowHeuristically,
    /// Every new segment holds this many words, or the request if it is
    /// larger.
    FixedSize(u32),
}

/// Several segments, each a fixed-capacity `Vec<Word>`: growth adds a
/// segment and never copies.
///
/// Segments and their memory are kept across [`Arena::reset`] and reused
/// in order, so a warmed arena allocates nothing.
///
/// ```
/// use capnarena::{Arena, GrowthPolicy, MultiSegmentArena, SegmentId};
/// let mut arena = MultiSegmentArena::new()
///     .with_first_segment_words(4)
///     .with_policy(GrowthPolicy::FixedSize(4));
/// arena.allocate(3, SegmentId(0)).unwrap();
/// // Does not fit in segment 0: a new segment.
/// assert_eq!(arena.allocate(3, SegmentId(0)).unwrap(), (SegmentId(1), 0));
/// ```
#[derive(Debug)]
pub struct MultiSegmentArena {
    // Invariants: `active <= segments.len()`; for `i < active`, `segments[i]`
    // holds exactly its allocated words and never grows past its capacity
    // (so it is never reallocated while active).
    segments: Vec<Vec<Word>>,
    active: usize,
    total_capacity: u64,
    first_segment_words: u32,
    policy: GrowthPolicy,
    max_segments: u32,
}

impl Default for MultiSegmentArena {
    fn default() -> Self {
        Self::new()
    }
}

impl MultiSegmentArena {
    /// First segment of 1,024 words (8 KiB), then [`GrowthPolicy::GrowHeuristically`].
    pub fn new() -> Self {
        MultiSegmentArena {
            segments: Vec::new(),
            active: 0,
            total_capacity: 0,
            first_segment_words: 1024,
            policy: GrowthPolicy::GrowHeuristically,
            max_segments: u32::MAX,
        }
    }

    /// Sets the size of the first segment (at least 1 word).
    pub fn with_first_segment_words(mut self, words: u32) -> Self {
        self.first_segment_words = words.max(1);
        self
    }

    /// Sets how later segments are sized.
    pub fn with_policy(mut self, policy: GrowthPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Caps the number of segments: allocations that need more fail.
    pub fn with_max_segments(mut self, max: u32) -> Self {
        self.max_segments = max;
        self
    }

    /// Words of capacity over the segments in use.
    pub fn capacity(&self) -> u64 {
        self.total_capacity
    }

    fn fits(seg: &[Word], capacity: usize, len: usize) -> bool {
        capacity - seg.len() >= len
    }

    fn new_segment_words(&self, len: u32) -> u64 {
        let len = u64::from(len);
        let words = if self.active == 0 {
            u64::from(self.first_segment_words)
        } else {
            match self.policy {
                GrowthPolicy::GrowHeuristically => self.total_capacity.max(2 * len),
                GrowthPolicy::FixedSize(n) => u64::from(n.max(1)),
            }
        };
        words.min(MAX_POLICY_SEGMENT_WORDS).max(len)
    }

    fn bump(&mut self, index: usize, len: u32) -> (SegmentId, u32) {
        let seg = &mut self.segments[index];
        let start = seg.len();
        seg.resize(start + len as usize, Word::ZERO);
        (SegmentId(index as u32), start as u32)
    }
}

impl Arena for MultiSegmentArena {
    #[inline]
    fn segment_count(&self) -> u32 {
        self.active as u32
    }

    #[inline]
    fn segment(&self, id: SegmentId) -> &[Word] {
        match self.segments.get(id.0 as usize) {
            Some(s) if (id.0 as usize) < self.active => s,
            _ => &[],
        }
    }

    #[inline]
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        let active = self.active;
        match self.segments.get_mut(id.0 as usize) {
            Some(s) if (id.0 as usize) < active => s,
            _ => &mut [],
        }
    }

    #[inline]
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        let n = len as usize;
        let hint = hint.0 as usize;
        if hint < self.active {
            let s = &self.segments[hint];
            if Self::fits(s, s.capacity(), n) {
                return Ok(self.bump(hint, len));
            }
        }
        if self.active > 0 {
            let last = self.active - 1;
            let s = &self.segments[last];
            if last != hint && Self::fits(s, s.capacity(), n) {
                return Ok(self.bump(last, len));
            }
        }
        if self.active as u64 >= u64::from(self.max_segments) || self.active >= u32::MAX as usize {
            return Err(AllocError {
                requested: u64::from(len),
                available: 0,
            });
        }
        let want = self.new_segment_words(len) as usize;
        let index = self.active;
        if index == self.segments.len() {
            let mut seg = Vec::new();
            if seg.try_reserve_exact(want).is_err() {
                return Err(AllocError {
                    requested: u64::from(len),
                    available: 0,
                });
            }
            if self.segments.try_reserve(1).is_err() {
                return Err(AllocError {
                    requested: u64::from(len),
                    available: 0,
                });
            }
            self.segments.push(seg);
        } else if self.segments[index].capacity() < n {
            // A kept segment too small for this request: replace its memory.
            let mut seg = Vec::new();
            if seg.try_reserve_exact(want).is_err() {
                return Err(AllocError {
                    requested: u64::from(len),
                    available: 0,
                });
            }
            self.segments[index] = seg;
        }
        self.active += 1;
        self.total_capacity += self.segments[index].capacity() as u64;
        Ok(self.bump(index, len))
    }

    #[inline]
    fn reset(&mut self) {
        for seg in &mut self.segments[..self.active] {
            seg.clear();
        }
        self.active = 0;
        self.total_capacity = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristic_policy_doubles_total_capacity() {
        let mut a = MultiSegmentArena::new().with_first_segment_words(8);
        a.allocate(8, SegmentId(0)).unwrap();
        assert_eq!(a.allocate(1, SegmentId(0)).unwrap(), (SegmentId(1), 0));
        assert_eq!(a.capacity(), 16);
        a.allocate(7, SegmentId(0)).unwrap();
        assert_eq!(a.allocate(1, SegmentId(1)).unwrap(), (SegmentId(2), 0));
        assert_eq!(a.capacity(), 32);
    }

    #[test]
    fn a_request_past_the_doubling_gets_twice_its_size() {
        let mut a = MultiSegmentArena::new().with_first_segment_words(8);
        a.allocate(8, SegmentId(0)).unwrap();
        assert_eq!(a.allocate(100, SegmentId(0)).unwrap(), (SegmentId(1), 0));
        // Room for 100 more words after the object, in the same segment.
        assert_eq!(a.allocate(100, SegmentId(1)).unwrap(), (SegmentId(1), 100));
        assert_eq!(a.segment_count(), 2);
    }

    #[test]
    fn hint_is_used_when_it_has_room() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(4)
            .with_policy(GrowthPolicy::FixedSize(4));
        a.allocate(3, SegmentId(0)).unwrap();
        a.allocate(3, SegmentId(0)).unwrap(); // segment 1
        assert_eq!(a.allocate(1, SegmentId(0)).unwrap(), (SegmentId(0), 3));
    }

    #[test]
    fn large_request_gets_a_segment_of_its_size() {
        let mut a = MultiSegmentArena::new().with_first_segment_words(4);
        assert_eq!(a.allocate(100, SegmentId(0)).unwrap(), (SegmentId(0), 0));
        assert_eq!(a.segment(SegmentId(0)).len(), 100);
    }

    #[test]
    fn reset_reuses_segments_without_reallocating() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(4)
            .with_policy(GrowthPolicy::FixedSize(4));
        for _ in 0..3 {
            a.allocate(4, SegmentId(0)).unwrap();
        }
        let ptrs: Vec<*const Word> = (0..3).map(|i| a.segment(SegmentId(i)).as_ptr()).collect();
        a.segment_mut(SegmentId(1))[2] = Word::from_u64(7);
        a.reset();
        assert_eq!(a.segment_count(), 0);
        for _ in 0..3 {
            a.allocate(4, SegmentId(0)).unwrap();
        }
        let again: Vec<*const Word> = (0..3).map(|i| a.segment(SegmentId(i)).as_ptr()).collect();
        assert_eq!(ptrs, again);
        assert_eq!(a.segment(SegmentId(1))[2], Word::ZERO);
    }

    #[test]
    fn max_segments_is_an_error() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(1)
            .with_max_segments(1);
        a.allocate(1, SegmentId(0)).unwrap();
        assert!(a.allocate(1, SegmentId(0)).is_err());
    }
}
