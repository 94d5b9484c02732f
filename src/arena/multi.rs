//! [`MultiSegmentArena`]: new segments instead of copying.

use alloc::vec::Vec;

use super::{AllocError, Arena, EAGER_RESET_WORDS, SegmentId, WordsOutside, zero_words};
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
///     .with_first_segment_words(3)
///     .with_policy(GrowthPolicy::FixedSize(4));
/// arena.allocate(3, SegmentId(0)).unwrap();
/// // Does not fit in segment 0: a new segment.
/// assert_eq!(arena.allocate(3, SegmentId(0)).unwrap(), (SegmentId(1), 0));
/// ```
#[derive(Debug)]
pub struct MultiSegmentArena {
    // Segment 0 is `first` (a field of its own, so the common case of a
    // message in one segment costs one indirection, as in a single-segment
    // arena). Of the later segments, the newest in use is `hot_seg`, also a
    // field of its own: every allocation that does not fit beside its
    // pointer goes there, found without indexing the list. Every other
    // segment `i >= 1` is `rest[i - 1]`; `rest[hot - 1]` holds an empty
    // placeholder while its segment is `hot_seg`.
    //
    // Invariants: `hot == active - 1` when `active >= 2`, else `hot == 0`
    // (no segment is hot, and `hot_seg` is the empty placeholder);
    // `hot <= rest.len()`; `active <= 1 + rest.len()`; every segment's
    // `words` never grows past its capacity (so it is never reallocated)
    // and is all zero from `used` on; segments at `active` and after have
    // `used == 0` (so their allocated part is empty without looking at
    // `active`), as does the placeholder.
    first: Segment,
    hot_seg: Segment,
    hot: usize,
    rest: Vec<Segment>,
    active: usize,
    /// Capacity of segment 0: the words a message can fill, plus the
    /// segment table word.
    first_segment_words: u32,
    policy: GrowthPolicy,
    max_segments: u32,
    /// Calls of the slow path (unit tests).
    #[cfg(test)]
    slow_calls: usize,
}

/// One segment: `words[..used]` is allocated; `words[used..zeroed]` is
/// zeroed spare room; `words[zeroed..]` holds what earlier messages wrote
/// (zeroed when it is handed out again, in chunks, where it is about to be
/// written, rather than all at once on reset). `words` is initialized
/// lazily up to `words.capacity()`, the segment's fixed capacity.
///
/// Invariant: `used <= zeroed <= words.len() <= words.capacity()`.
#[derive(Debug)]
struct Segment {
    words: Vec<Word>,
    used: usize,
    zeroed: usize,
}

/// Words zeroed at once, at least, when an allocation reaches words an
/// earlier message wrote (1 KiB: a vectorized `memset`, under glibc's `rep
/// stosb` threshold; as `SingleSegmentArena` does).
const ZERO_AHEAD_WORDS: usize = 128;

impl Segment {
    /// No memory at all.
    const EMPTY: Segment = Segment {
        words: Vec::new(),
        used: 0,
        zeroed: 0,
    };

    /// An empty segment with room for `words` words, or `None` when the
    /// memory cannot be had.
    fn with_capacity(words: usize) -> Option<Segment> {
        let mut v = Vec::new();
        v.try_reserve_exact(words).ok()?;
        Some(Segment {
            words: v,
            used: 0,
            zeroed: 0,
        })
    }

    /// Bumps `len` words when they fit in the capacity, zeroing spare room
    /// first as far as needed (never reallocating). Returns the offset.
    fn bump(&mut self, len: usize) -> Option<usize> {
        let start = self.used;
        let end = start.checked_add(len)?;
        let cap = self.words.capacity();
        if end > cap {
            return None;
        }
        if end > self.zeroed {
            // Zero ahead so later small allocations take the fast path: the
            // words an earlier message wrote a chunk at a time, then
            // memory not yet initialized (doubling, at least 64 words).
            let init = self.words.len();
            let want = end.max(start + ZERO_AHEAD_WORDS).min(cap);
            if let Some(dirty) = self.words.get_mut(self.zeroed..want.min(init)) {
                zero_words(dirty);
            }
            self.zeroed = want.min(init);
            if want > init {
                let grown = want.max(2 * init).max(64).min(cap);
                self.words.resize(grown, Word::ZERO);
                self.zeroed = grown;
            }
        }
        self.used = end;
        Some(start)
    }
}

impl Segment {
    /// Empties the segment for the next message: its words are zeroed now
    /// when few (in cache; the room after them is zero), else as they are
    /// handed out again.
    #[inline(always)]
    fn reset(&mut self) {
        if self.used <= EAGER_RESET_WORDS {
            self.words[..self.used].fill(Word::ZERO);
        } else {
            self.zeroed = 0;
        }
        self.used = 0;
    }

    /// [`bump`](Self::bump) out of line, for an allocation past the zeroed
    /// room (within the capacity).
    #[cold]
    #[inline(never)]
    fn bump_cold(&mut self, len: usize) -> Option<usize> {
        self.bump(len)
    }
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
            first: Segment::EMPTY,
            hot_seg: Segment::EMPTY,
            hot: 0,
            rest: Vec::new(),
            active: 0,
            first_segment_words: 1024,
            policy: GrowthPolicy::GrowHeuristically,
            max_segments: u32::MAX,
            #[cfg(test)]
            slow_calls: 0,
        }
    }

    /// Sets the words of the first segment that a message can fill: a
    /// message of `words` words fits in one segment, as with capnp's
    /// `first_segment_words`. The segment holds one word more,
    /// the segment table a [`Message`](crate::Message) keeps in front of
    /// its first segment so that framing needs no copy.
    ///
    /// ```
    /// use capnarena::{Message, MultiSegmentArena, StructSize};
    /// // Root pointer and a struct of one data word and one pointer, and
    /// // the text's word: four words.
    /// let mut msg = Message::new(MultiSegmentArena::new().with_first_segment_words(4));
    /// let mut root = msg.init_root_struct(StructSize::new(1, 1))?;
    /// root.set_text(0, "four")?;
    /// assert_eq!(msg.segment_count(), 1);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn with_first_segment_words(mut self, words: u32) -> Self {
        self.first_segment_words = words.min(u32::MAX - 1) + 1;
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
        (0..self.active)
            .filter_map(|i| self.seg(i))
            .map(|s| s.words.capacity() as u64)
            .sum()
    }

    /// Segment `index`, if the arena has one there (in use or kept).
    #[inline(always)]
    fn seg(&self, index: usize) -> Option<&Segment> {
        match index {
            0 => Some(&self.first),
            i if i == self.hot => Some(&self.hot_seg),
            i => self.rest.get(i - 1),
        }
    }

    /// Segment `index`, if the arena has one there, mutably.
    #[inline(always)]
    fn seg_mut(&mut self, index: usize) -> Option<&mut Segment> {
        match index {
            0 => Some(&mut self.first),
            i if i == self.hot => Some(&mut self.hot_seg),
            i => self.rest.get_mut(i - 1),
        }
    }

    /// Makes segment `index` (at least 1, kept in the list) the hot one,
    /// or none for 0, putting the hot one back in its place first.
    fn make_hot(&mut self, index: usize) {
        if index == self.hot {
            return;
        }
        if let Some(slot) = self.hot.checked_sub(1).and_then(|i| self.rest.get_mut(i)) {
            core::mem::swap(slot, &mut self.hot_seg);
        }
        self.hot = 0;
        if let Some(slot) = index.checked_sub(1).and_then(|i| self.rest.get_mut(i)) {
            core::mem::swap(slot, &mut self.hot_seg);
            self.hot = index;
        }
    }

    /// [`Arena::reset`] of the later segments, after a message of more than
    /// one segment (out of line: a message in one segment resets segment 0
    /// alone); none is hot again.
    #[inline(never)]
    fn reset_rest(&mut self) {
        self.hot_seg.reset();
        // The placeholder among them is empty: its reset does nothing.
        for s in self.rest.iter_mut().take(self.active - 1) {
            s.reset();
        }
        self.make_hot(0);
    }

    fn new_segment_words(&self, len: u32) -> u64 {
        let len = u64::from(len);
        let words = if self.active == 0 {
            u64::from(self.first_segment_words)
        } else {
            match self.policy {
                GrowthPolicy::GrowHeuristically => self.capacity().max(2 * len),
                GrowthPolicy::FixedSize(n) => u64::from(n.max(1)),
            }
        };
        words.min(MAX_POLICY_SEGMENT_WORDS).max(len)
    }

    /// Everything but the fast path of `allocate`: the hinted segment
    /// needs its spare room zeroed, or another or a new segment is needed.
    #[cold]
    #[inline(never)]
    fn allocate_slow(&mut self, len: u32, hint: usize) -> Result<(SegmentId, u32), AllocError> {
        #[cfg(test)]
        {
            self.slow_calls += 1;
        }
        let n = len as usize;
        let err = AllocError {
            requested: u64::from(len),
            available: 0,
        };
        if hint < self.active {
            if let Some(start) = self.seg_mut(hint).and_then(|s| s.bump(n)) {
                return Ok((SegmentId(hint as u32), start as u32));
            }
        }
        if self.active > 0 {
            let last = self.active - 1;
            if last != hint {
                if let Some(start) = self.seg_mut(last).and_then(|s| s.bump(n)) {
                    return Ok((SegmentId(last as u32), start as u32));
                }
            }
        }
        if self.active as u64 >= u64::from(self.max_segments) || self.active >= u32::MAX as usize {
            return Err(err);
        }
        let want = self.new_segment_words(len) as usize;
        let index = self.active;
        if index == 0 {
            if self.first.words.capacity() < n {
                // Segment 0 before its first use, or kept too small for
                // this request: replace its memory.
                self.first = Segment::with_capacity(want).ok_or(err)?;
            }
            self.active = 1;
            let start = self.first.bump(n).ok_or(err)?;
            return Ok((SegmentId(0), start as u32));
        }
        // A later segment, taken from the list (kept from an earlier
        // message, or made now) and made the hot one.
        if index > self.rest.len() {
            let seg = Segment::with_capacity(want).ok_or(err)?;
            if self.rest.try_reserve(1).is_err() {
                return Err(err);
            }
            self.rest.push(seg);
        } else if self.rest[index - 1].words.capacity() < n {
            // A kept segment too small for this request: replace its
            // memory.
            self.rest[index - 1] = Segment::with_capacity(want).ok_or(err)?;
        }
        self.make_hot(index);
        self.active += 1;
        let start = self.hot_seg.bump(n).ok_or(err)?;
        Ok((SegmentId(index as u32), start as u32))
    }
}

impl Arena for MultiSegmentArena {
    /// Its words are in each segment's `Vec` buffer, never in the value itself.
    #[inline(always)]
    fn words_outside(&self) -> Option<WordsOutside<'_>> {
        Some(WordsOutside::of(self))
    }

    #[inline]
    fn segment_count(&self) -> u32 {
        self.active as u32
    }

    #[inline]
    fn segment(&self, id: SegmentId) -> &[Word] {
        // Segments past `active` (and the placeholder) have `used == 0`:
        // no need to look at it.
        match self.seg(id.0 as usize) {
            Some(s) => &s.words[..s.used],
            None => &[],
        }
    }

    #[inline]
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        match self.seg_mut(id.0 as usize) {
            Some(s) => &mut s.words[..s.used],
            None => &mut [],
        }
    }

    #[inline]
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        // Fast paths: the hinted segment has zeroed room, else the newest
        // segment (the hot one) has (where the reference allocates
        // whatever does not fit beside its pointer: once a segment is
        // full, every object whose pointer lies in it comes here). Segment
        // 0 may still be inactive (right after a reset): taking room in
        // it makes it the first segment, as the first allocation must.
        let n = len as usize;
        let h = hint.0 as usize;
        if h == 0 {
            let s = &mut self.first;
            let start = s.used;
            if n <= s.zeroed - start {
                s.used = start + n;
                self.active = self.active.max(1);
                return Ok((hint, start as u32));
            }
        } else if h != self.hot && h < self.active {
            if let Some(s) = self.rest.get_mut(h - 1) {
                let start = s.used;
                if n <= s.zeroed - start {
                    s.used = start + n;
                    return Ok((hint, start as u32));
                }
            }
        }
        // The newest segment (the hot one), hinted or not.
        if self.hot != 0 {
            let s = &mut self.hot_seg;
            let start = s.used;
            if n <= s.zeroed - start {
                s.used = start + n;
                return Ok((SegmentId(self.hot as u32), start as u32));
            }
        }
        self.allocate_slow(len, h)
    }

    #[inline]
    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        self.allocate_in_mut(len, id, true).map(|(o, _)| o)
    }

    #[inline]
    fn allocate_in_mut(
        &mut self,
        len: u32,
        id: SegmentId,
        zeroed: bool,
    ) -> Option<(u32, &mut [Word])> {
        // As `allocate`'s fast paths, then its slow path for that segment
        // only, with the segment looked up once: the words are cut from
        // the segment the allocation bumped. Words are always zeroed here.
        let _ = zeroed;
        let n = len as usize;
        let i = id.0 as usize;
        // Segment 0 takes words before its first use (right after a
        // reset); a later one only while in use (the hot one always is).
        let active = &mut self.active;
        let s = match i {
            0 => &mut self.first,
            _ if i == self.hot => &mut self.hot_seg,
            _ if i < *active => self.rest.get_mut(i - 1)?,
            _ => return None,
        };
        let start = s.used;
        if n <= s.zeroed - start {
            s.used = start + n;
        } else if n > s.words.capacity() - start {
            // No room (the common case once a segment is full): the
            // message puts the object elsewhere.
            return None;
        } else {
            s.bump_cold(n)?;
        }
        if i == 0 {
            *active = (*active).max(1);
        }
        let used = s.used;
        s.words.get_mut(..used).map(|w| (start as u32, w))
    }

    /// In the newest segment (the hot one) when it has zeroed room and is
    /// not `from`, else as [`allocate`](Arena::allocate)'s slow path (a new
    /// segment, sized by the policy, made the hot one); `from`'s words come
    /// from the list, the new place's from the hot segment.
    #[inline]
    fn allocate_far_mut(
        &mut self,
        len: u32,
        from: SegmentId,
        zeroed: bool,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])> {
        // Words are always zeroed here, as in `allocate`.
        let _ = zeroed;
        let n = len as usize;
        let from = from.0 as usize;
        let newest = self.active.checked_sub(1)?;
        if from > newest {
            return None;
        }
        // The newest segment is the hot one when there are two or more.
        let start = if from < newest && n <= self.hot_seg.zeroed - self.hot_seg.used {
            // The common case once a segment is full: the newest segment
            // (not `from`) has zeroed room.
            let start = self.hot_seg.used;
            self.hot_seg.used = start + n;
            start as u32
        } else {
            let (SegmentId(s), o) = self.allocate_slow(len, newest).ok()?;
            // Hinted at the newest segment, `allocate_slow` places in it or
            // in a new one (the hot one either way: neither is segment 0,
            // being past `from`), and `from` (at most the newest) lacked
            // the room when it was the newest: `s > from`. Were it not, the
            // words would stay allocated and unused, and the message would
            // place the object the slower way.
            if s as usize <= from || s as usize != self.hot {
                return None;
            }
            o
        };
        let near = match from {
            0 => &mut self.first,
            i => self.rest.get_mut(i - 1)?,
        };
        let far = &mut self.hot_seg;
        Some((
            SegmentId(self.hot as u32),
            start,
            near.words.get_mut(..near.used)?,
            far.words.get_mut(..far.used)?,
        ))
    }

    /// The words left in segment `id`'s capacity (0 for a segment not in
    /// use): `allocate` places up to that many there, and more elsewhere.
    #[inline]
    fn room(&self, id: SegmentId) -> Option<u32> {
        // As `allocate`'s fast paths: segment 0 takes words even before
        // its first use (after a reset), a later one only while in use.
        let i = id.0 as usize;
        if i != 0 && i >= self.active {
            return Some(0);
        }
        let s = match self.seg(i) {
            Some(s) => s,
            None => return Some(0),
        };
        Some((s.words.capacity() - s.used).min(u32::MAX as usize) as u32)
    }

    #[inline]
    fn reset(&mut self) {
        self.first.reset();
        if self.active > 1 {
            self.reset_rest();
        }
        self.active = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristic_policy_doubles_total_capacity() {
        let mut a = MultiSegmentArena::new().with_first_segment_words(7);
        a.allocate(8, SegmentId(0)).unwrap();
        assert_eq!(a.allocate(1, SegmentId(0)).unwrap(), (SegmentId(1), 0));
        assert_eq!(a.capacity(), 16);
        a.allocate(7, SegmentId(0)).unwrap();
        assert_eq!(a.allocate(1, SegmentId(1)).unwrap(), (SegmentId(2), 0));
        assert_eq!(a.capacity(), 32);
    }

    #[test]
    fn a_request_past_the_doubling_gets_twice_its_size() {
        let mut a = MultiSegmentArena::new().with_first_segment_words(7);
        a.allocate(8, SegmentId(0)).unwrap();
        assert_eq!(a.allocate(100, SegmentId(0)).unwrap(), (SegmentId(1), 0));
        // Room for 100 more words after the object, in the same segment.
        assert_eq!(a.allocate(100, SegmentId(1)).unwrap(), (SegmentId(1), 100));
        assert_eq!(a.segment_count(), 2);
    }

    #[test]
    fn hint_is_used_when_it_has_room() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(3)
            .with_policy(GrowthPolicy::FixedSize(4));
        a.allocate(3, SegmentId(0)).unwrap();
        a.allocate(3, SegmentId(0)).unwrap(); // segment 1
        assert_eq!(a.allocate(1, SegmentId(0)).unwrap(), (SegmentId(0), 3));
    }

    #[test]
    fn large_request_gets_a_segment_of_its_size() {
        let mut a = MultiSegmentArena::new().with_first_segment_words(3);
        assert_eq!(a.allocate(100, SegmentId(0)).unwrap(), (SegmentId(0), 0));
        assert_eq!(a.segment(SegmentId(0)).len(), 100);
    }

    #[test]
    fn reset_reuses_segments_without_reallocating() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(3)
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

    /// The newest segment is held apart from the list (the hot one) and
    /// goes back to its place when a newer one opens or the arena resets:
    /// across messages of 1 to 5 segments, each segment keeps its id, its
    /// words (as a model of every allocation says) and its buffer, and
    /// hands out only zeroed words.
    #[test]
    fn segments_keep_their_ids_and_words_as_the_newest_changes() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(5)
            .with_policy(GrowthPolicy::FixedSize(6));
        let mut buffers: Vec<*const Word> = Vec::new();
        for (round, segments) in [3usize, 1, 5, 2, 4, 5].into_iter().enumerate() {
            // Model: the words each segment should hold, in order.
            let mut model: Vec<Vec<u64>> = Vec::new();
            for s in 0..segments {
                for k in 0..3u64 {
                    // Two words, hinted at segment 0 (full from the second
                    // segment on), so each lands in the newest segment.
                    let (SegmentId(id), o) = a.allocate(2, SegmentId(0)).unwrap();
                    assert_eq!(id as usize, s, "round {round}: segment {s}, piece {k}");
                    let words = &mut a.segment_mut(SegmentId(id))[o as usize..o as usize + 2];
                    assert!(words.iter().all(|w| *w == Word::ZERO));
                    let v = (round as u64) << 32 | (s as u64) << 8 | k;
                    words.copy_from_slice(&[Word::from_u64(v), Word::from_u64(!v)]);
                    if model.len() == s {
                        model.push(Vec::new());
                    }
                    model[s].extend([v, !v]);
                }
                // Every segment so far still holds what was written there.
                for (i, want) in model.iter().enumerate() {
                    let got: Vec<u64> = a
                        .segment(SegmentId(i as u32))
                        .iter()
                        .map(|w| w.to_u64())
                        .collect();
                    assert_eq!(&got, want, "round {round}: segment {i}");
                }
            }
            assert_eq!(a.segment_count() as usize, segments);
            for i in 0..segments {
                let p = a.segment(SegmentId(i as u32)).as_ptr();
                match buffers.get(i) {
                    // Kept segments are reused, not reallocated.
                    Some(&q) => assert_eq!(p, q, "round {round}: segment {i} moved"),
                    None => buffers.push(p),
                }
            }
            a.reset();
            assert_eq!(a.segment_count(), 0);
            assert!((0..6).all(|i| a.segment(SegmentId(i)).is_empty()));
        }
    }

    /// `room` is what `allocate` still places in a segment: the capacity
    /// left in one in use, nothing in one that is not; `allocate_in`
    /// takes up to that much there and nothing elsewhere.
    #[test]
    fn room_is_what_allocate_still_places_there() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(3)
            .with_policy(GrowthPolicy::FixedSize(6));
        a.allocate(3, SegmentId(0)).unwrap();
        assert_eq!(a.room(SegmentId(0)), Some(1));
        assert_eq!(a.room(SegmentId(1)), Some(0));
        // `allocate_in` takes no more than the room, in no other segment.
        assert_eq!(a.allocate_in(2, SegmentId(0)), None);
        assert_eq!(a.allocate_in(1, SegmentId(1)), None);
        assert_eq!(a.segment_count(), 1);
        // One word more than the room goes to a new segment.
        assert_eq!(a.allocate(2, SegmentId(0)).unwrap(), (SegmentId(1), 0));
        assert_eq!(a.room(SegmentId(1)), Some(4));
        assert_eq!(a.allocate_in(1, SegmentId(0)), Some(3));
        assert_eq!(a.room(SegmentId(0)), Some(0));
        // Past the zeroed part, within the capacity: zeroed first.
        a.segment_mut(SegmentId(1))[0] = Word::from_u64(1);
        assert_eq!(a.allocate_in(4, SegmentId(1)), Some(2));
        assert!(
            a.segment(SegmentId(1))[2..]
                .iter()
                .all(|w| *w == Word::ZERO)
        );
        a.reset();
        assert_eq!(a.room(SegmentId(1)), Some(0));
    }

    /// Once the hinted segment is full, allocations go to the newest
    /// segment on the fast path: the slow path runs only to open a segment
    /// or zero more of one (doubling), not once per allocation (it ran for
    /// each before: 1,000 calls here).
    #[test]
    fn a_full_hint_goes_to_the_newest_segment_without_the_slow_path() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(7)
            .with_policy(GrowthPolicy::FixedSize(4096));
        a.allocate(8, SegmentId(0)).unwrap();
        a.allocate(4096, SegmentId(0)).unwrap(); // segment 1, full
        let before = a.slow_calls;
        for i in 0..1000u32 {
            // Hinted at the full segments 1 and 0 in turn.
            let hint = SegmentId(i % 2);
            assert_eq!(a.allocate(3, hint).unwrap(), (SegmentId(2), 3 * i));
        }
        assert_eq!(a.segment_count(), 3);
        // Segment 2 opened, then zeroed ahead 64, 128, ... 4,096 words.
        let slow = a.slow_calls - before;
        assert!(slow <= 8, "{slow} slow-path calls");
        // Past segment 2's capacity (3,000 + 900 of 4,096 words used): a
        // new segment, and from then on that one, as in the reference.
        for _ in 0..300 {
            a.allocate(3, SegmentId(1)).unwrap();
        }
        assert_eq!(a.segment_count(), 3);
        assert_eq!(a.allocate(200, SegmentId(1)).unwrap(), (SegmentId(3), 0));
        assert_eq!(a.allocate(3, SegmentId(1)).unwrap(), (SegmentId(3), 200));
    }

    /// After messages larger than the eager-reset size, every word
    /// `allocate` or `allocate_in` hands out is zero, in every segment,
    /// whatever mix of sizes and hints came before (words are zeroed as
    /// they are handed out again, in chunks; the chunk bookkeeping is what
    /// this guards).
    #[test]
    fn lazily_zeroed_words_are_zero_when_handed_out() {
        let mut a = MultiSegmentArena::new().with_first_segment_words(511);
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        // Under Miri, two rounds of messages just past the eager-reset size
        // still reuse lazily zeroed chunks; natively, six of four times it.
        let (rounds, words_per_round) = if cfg!(miri) {
            (2, EAGER_RESET_WORDS + 600)
        } else {
            (6, 4 * EAGER_RESET_WORDS)
        };
        for round in 0..rounds {
            let mut total = 0;
            while total < words_per_round {
                let len = 1 + next(300) as u32;
                let hint = SegmentId(next(u64::from(a.segment_count().max(1))) as u32);
                let (s, o) = if next(4) == 0 {
                    match a.allocate_in(len, hint) {
                        Some(o) => (hint, o),
                        None => continue,
                    }
                } else {
                    a.allocate(len, hint).unwrap()
                };
                let words = &mut a.segment_mut(s)[o as usize..(o + len) as usize];
                assert!(
                    words.iter().all(|w| *w == Word::ZERO),
                    "round {round}: {len} words at {o} of {s} not zero"
                );
                words.fill(Word::from_u64(u64::MAX));
                total += len as usize;
            }
            a.reset();
        }
    }

    #[test]
    fn max_segments_is_an_error() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(0)
            .with_max_segments(1);
        a.allocate(1, SegmentId(0)).unwrap();
        assert!(a.allocate(1, SegmentId(0)).is_err());
    }

    /// `allocate_far_mut` places outside `from`: in the newest segment
    /// when it has room, else in a new one (sized by the policy), and
    /// returns both segments' words as `segment_mut` returns them, after
    /// the allocation; it refuses a segment not in use.
    #[test]
    fn allocate_far_mut_places_outside_from_with_both_segments() {
        let mut a = MultiSegmentArena::new()
            .with_first_segment_words(3)
            .with_policy(GrowthPolicy::FixedSize(6));
        assert!(a.allocate_far_mut(1, SegmentId(0), true).is_none());
        a.allocate(4, SegmentId(0)).unwrap();
        a.segment_mut(SegmentId(0))[3] = Word::from_u64(9);
        // Segment 0 is the newest and full: a new segment.
        let (s, o, near, far) = a.allocate_far_mut(3, SegmentId(0), true).unwrap();
        assert_eq!((s, o, near.len(), far.len()), (SegmentId(1), 0, 4, 3));
        assert_eq!(near[3], Word::from_u64(9));
        far[2] = Word::from_u64(5);
        // Segment 1, the newest, has room for 3 more.
        let (s, o, near, far) = a.allocate_far_mut(3, SegmentId(0), true).unwrap();
        assert_eq!((s, o, near.len(), far.len()), (SegmentId(1), 3, 4, 6));
        assert_eq!(far[2], Word::from_u64(5));
        assert!(far[3..].iter().all(|w| *w == Word::ZERO));
        // Full again: segment 2, and from segment 1 too.
        let (s, o, near, far) = a.allocate_far_mut(2, SegmentId(1), true).unwrap();
        assert_eq!((s, o, near.len(), far.len()), (SegmentId(2), 0, 6, 2));
        let (s, o, near, _) = a.allocate_far_mut(1, SegmentId(1), true).unwrap();
        assert_eq!((s, o, near.len()), (SegmentId(2), 2, 6));
        // From the newest segment itself: placed there while it has room
        // (the message asks only once `allocate_in` said it has none), so
        // refused; once it is full, a new segment.
        assert!(a.allocate_far_mut(1, SegmentId(2), true).is_none());
        a.allocate(2, SegmentId(2)).unwrap();
        let (s, o, near, _) = a.allocate_far_mut(1, SegmentId(2), true).unwrap();
        assert_eq!((s, o, near.len()), (SegmentId(3), 0, 6));
        assert!(a.allocate_far_mut(1, SegmentId(9), true).is_none());
        assert_eq!(a.segment_count(), 4);
        for i in 0..4 {
            assert_eq!(a.segment(SegmentId(i)).len(), [4, 6, 6, 1][i as usize]);
        }
    }
}
