//! A third-party arena, written outside the crate: segments are buffers
//! borrowed from a shared pool, handed back when the arena is dropped, so
//! message after message runs on the same few buffers.
//!
//! Nothing here needs `unsafe` or crate internals: `Arena` is a safe trait
//! and a message checks every place it resolves through it.
//!
//! Run with `cargo run --example pooled_arena`.

use capnarena::{Arena, ElementSize, Error, Message, MessageReader, ReaderOptions, StructSize};

// The pool and the arena, in a file of their own so the runtime's
// benchmarks measure this same arena.
#[path = "shared/pooled.rs"]
mod pooled;
use pooled::{BufferPool, PooledArena};

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
            pool.created(),
            pool.reused()
        );
    }

    // One arena kept across messages: reset keeps its buffers, so after
    // the first round the pool is not even asked.
    let mut arena = PooledArena::new(&pool);
    let before = (pool.created(), pool.reused());
    for id in 5..8u64 {
        arena.reset();
        build_order(&mut arena, id, 40, &mut wire)?;
        check_order(&wire, id, 40)?;
    }
    println!(
        "orders 5-7 on one reset arena: pool asked {} more time(s), {} new buffer(s)",
        pool.reused() - before.1 + pool.created() - before.0,
        pool.created() - before.0
    );
    Ok(())
}
