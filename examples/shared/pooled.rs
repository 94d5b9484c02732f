//! A third-party arena over a pool of reusable buffers, written against
//! the public `Arena` trait only: `examples/pooled_arena.rs` shows it in
//! use, and the runtime's benchmarks (`benches/build.rs`) measure it.
//! Included by both with `#[path]`.

use std::cell::{Cell, RefCell};

use capnarena::{AllocError, Arena, SegmentId, Word};

/// A pool of word buffers shared by many arenas (one thread here; a
/// `Mutex` instead of the `RefCell` makes it shareable across threads).
pub struct BufferPool {
    free: RefCell<Vec<Vec<Word>>>,
    /// Words per buffer unless a single allocation needs more.
    buffer_words: usize,
    /// Buffers ever created on the heap, and buffers handed out from the pool.
    created: Cell<usize>,
    reused: Cell<usize>,
}

impl BufferPool {
    /// A pool whose buffers hold `buffer_words` words unless one
    /// allocation needs more.
    pub fn new(buffer_words: usize) -> Self {
        BufferPool {
            free: RefCell::new(Vec::new()),
            buffer_words,
            created: Cell::new(0),
            reused: Cell::new(0),
        }
    }

    /// An empty buffer (length 0) with room for at least `min_words`.
    fn take(&self, min_words: usize) -> Vec<Word> {
        let mut free = self.free.borrow_mut();
        if let Some(i) = free.iter().position(|b| b.capacity() >= min_words) {
            self.reused.set(self.reused.get() + 1);
            return free.swap_remove(i);
        }
        self.created.set(self.created.get() + 1);
        Vec::with_capacity(min_words.max(self.buffer_words))
    }

    fn give(&self, mut buffer: Vec<Word>) {
        buffer.clear();
        self.free.borrow_mut().push(buffer);
    }

    /// Buffers ever created on the heap.
    pub fn created(&self) -> usize {
        self.created.get()
    }

    /// Buffers handed out again from the pool.
    pub fn reused(&self) -> usize {
        self.reused.get()
    }
}

/// An arena whose segments are pool buffers. A segment never grows past
/// the capacity it was taken with, so words never move.
pub struct PooledArena<'p> {
    pool: &'p BufferPool,
    /// Each segment's length is its used part; capacity is fixed.
    segments: Vec<Vec<Word>>,
    /// Segments in use since the last reset (the rest are kept for reuse).
    active: usize,
}

impl<'p> PooledArena<'p> {
    /// An empty arena drawing on `pool`.
    pub fn new(pool: &'p BufferPool) -> Self {
        PooledArena {
            pool,
            segments: Vec::new(),
            active: 0,
        }
    }

    /// Hands out `len` zeroed words at the end of segment `i` if they fit.
    fn bump(&mut self, i: usize, len: usize) -> Option<(SegmentId, u32)> {
        let seg = &mut self.segments[i];
        let offset = seg.len();
        if seg.capacity() - offset < len {
            return None;
        }
        // Within capacity: `resize` writes zeros and never reallocates.
        seg.resize(offset + len, Word::ZERO);
        Some((
            SegmentId(u32::try_from(i).ok()?),
            u32::try_from(offset).ok()?,
        ))
    }
}

impl Arena for PooledArena<'_> {
    fn segment_count(&self) -> u32 {
        u32::try_from(self.active).unwrap_or(u32::MAX)
    }

    fn segment(&self, id: SegmentId) -> &[Word] {
        match self.segments.get(id.0 as usize) {
            Some(seg) if (id.0 as usize) < self.active => seg,
            _ => &[],
        }
    }

    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        match self.segments.get_mut(id.0 as usize) {
            Some(seg) if (id.0 as usize) < self.active => seg,
            _ => &mut [],
        }
    }

    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        let words = len as usize;
        // The hinted segment, then the newest one.
        for i in [hint.0 as usize, self.active.wrapping_sub(1)] {
            if i < self.active {
                if let Some(place) = self.bump(i, words) {
                    return Ok(place);
                }
            }
        }
        // A new segment: a kept one if it is big enough, else one from the pool.
        let too_many = AllocError {
            requested: u64::from(len),
            available: 0,
        };
        if self.active == self.segments.len() {
            self.segments.push(self.pool.take(words));
        } else if self.segments[self.active].capacity() < words {
            let small = std::mem::replace(&mut self.segments[self.active], self.pool.take(words));
            self.pool.give(small);
        }
        self.active += 1;
        if u32::try_from(self.active).is_err() {
            return Err(too_many);
        }
        self.bump(self.active - 1, words).ok_or(too_many)
    }

    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        // Only in that segment: the message asks this first, and for an
        // object that does not fit, `room`, then `allocate` for the object
        // and its landing pad together.
        let i = id.0 as usize;
        if i >= self.active {
            return None;
        }
        self.bump(i, len as usize).map(|(_, offset)| offset)
    }

    fn room(&self, id: SegmentId) -> Option<u32> {
        // What `bump` would still take in the segment.
        let room = match self.segments.get(id.0 as usize) {
            Some(seg) if (id.0 as usize) < self.active => seg.capacity() - seg.len(),
            _ => 0,
        };
        Some(u32::try_from(room).unwrap_or(u32::MAX))
    }

    fn reset(&mut self) {
        // Forget the used words; zeroing happens on the next allocation,
        // and only for the words handed out.
        for seg in &mut self.segments[..self.active] {
            seg.clear();
        }
        self.active = 0;
    }
}

impl Drop for PooledArena<'_> {
    fn drop(&mut self) {
        for seg in self.segments.drain(..) {
            self.pool.give(seg);
        }
    }
}
