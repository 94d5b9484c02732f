//! A third-party arena, written outside the crate: segments are buffers
//! borrowed from a shared pool, handed back when the arena is dropped, so
//! message after message runs on the same few buffers.
//!
//! Nothing here needs `unsafe` or crate internals: `Arena` is a safe trait
//! and a message checks every place it resolves through it.
//!
//! Run with `cargo run --example pooled_arena`.

use std::cell::{Cell, RefCell};

use capnarena::{
    AllocError, Arena, ElementSize, Error, Message, MessageReader, ReaderOptions, SegmentId,
    StructSize, Word,
};

/// A pool of word buffers shared by many arenas (one thread here; a
/// `Mutex` instead of the `RefCell` makes it shareable across threads).
struct BufferPool {
    free: RefCell<Vec<Vec<Word>>>,
    /// Words per buffer unless a single allocation needs more.
    buffer_words: usize,
    /// Buffers ever created on the heap, and buffers handed out from the pool.
    created: Cell<usize>,
    reused: Cell<usize>,
}

impl BufferPool {
    fn new(buffer_words: usize) -> Self {
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
}

/// An arena whose segments are pool buffers. A segment never grows past
/// the capacity it was taken with, so words never move.
struct PooledArena<'p> {
    pool: &'p BufferPool,
    /// Each segment's length is its used part; capacity is fixed.
    segments: Vec<Vec<Word>>,
    /// Segments in use since the last reset (the rest are kept for reuse).
    active: usize,
}

impl<'p> PooledArena<'p> {
    fn new(pool: &'p BufferPool) -> Self {
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

// struct Order { id @0 :UInt64; customer @1 :Text; items @2 :List(Item); }
// struct Item { sku @0 :Text; quantity @1 :UInt32; }
const ORDER: StructSize = StructSize::new(1, 2);
const ITEM: StructSize = StructSize::new(1, 1);

/// Builds order `id` with `items` items on `arena`, frames it into `wire`
/// and returns the arena's segment count.
fn build_order<A: Arena>(arena: A, id: u64, items: u32, wire: &mut Vec<u8>) -> Result<u32, Error> {
    let mut msg = Message::new(arena);
    let mut order = msg.init_root_struct(ORDER)?;
    order.set::<u64>(0, id);
    order.set_text(0, &format!("customer #{id}"))?;
    let mut list = order.init_struct_list(1, items, ITEM)?;
    for i in 0..items {
        let mut item = list.get_struct(i);
        item.set::<u32>(0, i + 1);
        item.set_text(0, &format!("SKU-{id}-{i:04}"))?;
    }
    wire.clear();
    msg.append_to(wire);
    Ok(msg.segment_count())
}

/// Reads an order back and checks every field against how it was built.
fn check_order(wire: &[u8], id: u64, items: u32) -> Result<(), Error> {
    let words = capnarena::words_from_bytes(wire)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let order = reader.root()?;
    assert_eq!(order.get::<u64>(0), id);
    assert_eq!(order.get_text(0)?, format!("customer #{id}"));
    let list = order.get_list(1, ElementSize::InlineComposite)?;
    assert_eq!(list.len(), items);
    for i in 0..items {
        let item = list.get_struct(i);
        assert_eq!(item.get::<u32>(0), i + 1);
        assert_eq!(item.get_text(0)?, format!("SKU-{id}-{i:04}"));
    }
    Ok(())
}

fn main() -> Result<(), Error> {
    // Small buffers, so bigger orders span several segments (far pointers).
    let pool = BufferPool::new(128);
    let mut wire = Vec::new();

    // Several messages in turn, each on its own arena; every arena hands
    // its buffers back to the pool when it is dropped.
    for (id, items) in [(1u64, 3u32), (2, 40), (3, 10), (4, 40)] {
        let segments = build_order(PooledArena::new(&pool), id, items, &mut wire)?;
        check_order(&wire, id, items)?;
        println!(
            "order {id}: {items:>2} items, {:>4} bytes framed, {segments} segment(s); \
             pool: {} buffers created, {} reused",
            wire.len(),
            pool.created.get(),
            pool.reused.get()
        );
    }

    // One arena kept across messages: reset keeps its buffers, so after
    // the first round the pool is not even asked.
    let mut arena = PooledArena::new(&pool);
    let before = (pool.created.get(), pool.reused.get());
    for id in 5..8u64 {
        arena.reset();
        build_order(&mut arena, id, 40, &mut wire)?;
        check_order(&wire, id, 40)?;
    }
    println!(
        "orders 5-7 on one reset arena: pool asked {} more time(s), {} new buffer(s)",
        pool.reused.get() - before.1 + pool.created.get() - before.0,
        pool.created.get() - before.0
    );
    Ok(())
}
