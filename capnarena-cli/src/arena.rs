//! [`ReferenceArena`]: segments sized as the reference's
//! `MallocMessageBuilder` sizes them (message.c++ 0.9.2,
//! `allocateSegment`), so that a message copied into it is laid out in the
//! same segments as `capnp convert` writes it.
//!
//! The runtime's `MultiSegmentArena` grows the same way, except that it
//! gives a request larger than the doubling twice its size (room for what
//! the object points to, in its own segment); the reference gives it
//! exactly its size, so the object's children go to the next segment.
//! Large messages then differ in their segment boundaries, which this
//! arena reproduces.

use capnarena::{AllocError, Arena, SegmentId, Word};

/// Largest segment: a far pointer's offset has 29 bits.
const MAX_SEGMENT_WORDS: u64 = (1 << 29) - 1;

/// One segment: its zeroed words (its capacity) and how many are used.
struct Segment {
    words: Vec<Word>,
    used: usize,
}

/// An arena whose segments are those of the reference's
/// `MallocMessageBuilder(first, strategy)`.
pub struct ReferenceArena {
    segments: Vec<Segment>,
    /// The first segment's size (the reference's `firstSegmentWords`).
    first: u32,
    /// `Some(n)`: every later segment holds `n` words (the reference's
    /// `FIXED_SIZE`); `None`: each holds as many as all before it
    /// (`GROW_HEURISTICALLY`).
    fixed: Option<u32>,
    /// The size of the next segment, as the reference's `nextSize`.
    next: u64,
}

impl ReferenceArena {
    /// `MallocMessageBuilder(first, GROW_HEURISTICALLY)`.
    pub fn growing(first: u32) -> Self {
        ReferenceArena {
            segments: Vec::new(),
            first,
            fixed: None,
            next: u64::from(first),
        }
    }

    /// `MallocMessageBuilder(n, FIXED_SIZE)`.
    pub fn fixed(n: u32) -> Self {
        ReferenceArena {
            segments: Vec::new(),
            first: n,
            fixed: Some(n),
            next: u64::from(n),
        }
    }

    fn bump(&mut self, index: usize, len: usize) -> Option<u32> {
        let s = self.segments.get_mut(index)?;
        if s.words.len() - s.used < len {
            return None;
        }
        let start = s.used;
        s.used += len;
        Some(start as u32)
    }

    fn new_segment(&mut self, len: u32) -> Result<(SegmentId, u32), AllocError> {
        let err = AllocError {
            requested: u64::from(len),
            available: 0,
        };
        let size = if self.segments.is_empty() {
            // The message keeps the segment table's word in front of
            // segment 0: one word more than the reference's first segment.
            u64::from(self.first).max(1) + 1
        } else {
            self.next
        }
        .max(u64::from(len));
        if size > MAX_SEGMENT_WORDS + 1 || self.segments.len() >= u32::MAX as usize {
            return Err(err);
        }
        let mut words = Vec::new();
        words.try_reserve_exact(size as usize).map_err(|_| err)?;
        words.resize(size as usize, Word::ZERO);
        if self.segments.is_empty() {
            self.next = u64::from(self.first).max(1);
        } else if self.fixed.is_none() {
            self.next = (self.next + size).min(MAX_SEGMENT_WORDS);
        }
        if let Some(n) = self.fixed {
            self.next = u64::from(n.max(1));
        }
        self.segments.push(Segment { words, used: 0 });
        let index = self.segments.len() - 1;
        let start = self.bump(index, len as usize).ok_or(err)?;
        Ok((SegmentId(index as u32), start))
    }
}

impl Arena for ReferenceArena {
    fn segment_count(&self) -> u32 {
        self.segments.len() as u32
    }

    fn segment(&self, id: SegmentId) -> &[Word] {
        match self.segments.get(id.0 as usize) {
            Some(s) => &s.words[..s.used],
            None => &[],
        }
    }

    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        match self.segments.get_mut(id.0 as usize) {
            Some(s) => &mut s.words[..s.used],
            None => &mut [],
        }
    }

    /// In segment `hint` when it has room, else in the newest segment
    /// (the reference's `segmentWithSpace`), else in a new one.
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        if let Some(start) = self.bump(hint.0 as usize, len as usize) {
            return Ok((hint, start));
        }
        if let Some(newest) = self.segments.len().checked_sub(1) {
            if let Some(start) = self.bump(newest, len as usize) {
                return Ok((SegmentId(newest as u32), start));
            }
        }
        self.new_segment(len)
    }

    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        self.bump(id.0 as usize, len as usize)
    }

    fn room(&self, id: SegmentId) -> Option<u32> {
        Some(
            self.segments
                .get(id.0 as usize)
                .map_or(0, |s| (s.words.len() - s.used) as u32),
        )
    }

    fn reset(&mut self) {
        self.segments.clear();
        self.next = u64::from(self.first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Segments grow as the reference's: the first of its own size (plus
    /// the table word), then exactly the request when it is larger than
    /// the running total, and the total so far otherwise.
    #[test]
    fn grows_as_the_reference() {
        let mut a = ReferenceArena::growing(8);
        assert_eq!(a.allocate(2, SegmentId(0)).unwrap(), (SegmentId(0), 0));
        assert_eq!(a.room(SegmentId(0)), Some(7));
        // 100 words do not fit: a segment of exactly 100 (more than 8).
        assert_eq!(a.allocate(100, SegmentId(0)).unwrap(), (SegmentId(1), 0));
        assert_eq!(a.room(SegmentId(1)), Some(0));
        // Next: 8 + 100 words.
        assert_eq!(a.allocate(1, SegmentId(1)).unwrap(), (SegmentId(2), 0));
        assert_eq!(a.room(SegmentId(2)), Some(107));
        let mut f = ReferenceArena::fixed(3);
        f.allocate(4, SegmentId(0)).unwrap();
        assert_eq!(f.allocate(1, SegmentId(0)).unwrap(), (SegmentId(1), 0));
        assert_eq!(f.room(SegmentId(1)), Some(2));
    }
}
