//! Building messages on every built-in arena and on a third-party one:
//! segment growth from empty (a new arena each time, *fresh*) and on memory
//! kept across messages (`reset`, *reuse*), against a memcpy of the same
//! bytes; and `reset` itself.
//!
//! `cargo bench --bench build`; throughput is the framed size of the
//! message each arena built.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena::{
    Arena, FixedArena, GrowthPolicy, Message, MultiSegmentArena, SingleSegmentArena, Word,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::{
    BufferPool, LARGE_PEOPLE, People, PooledArena, SMALL_PEOPLE, addressbook_capnp::address_book,
    bench_memcpy, build_book,
};

/// Words of the `FixedArena` buffer: room for the large book.
const FIXED_WORDS: usize = 1 << 17;
/// Words per pool buffer (64 KiB): the large book spans several.
const POOL_BUFFER_WORDS: usize = 8 * 1024;

/// Builds the book on a message over `arena`, returning its framed size.
fn build_fresh<A: Arena>(arena: A, people: &People) -> usize {
    let mut msg = Message::new(arena);
    build_book(&mut msg, people).expect("building the address book");
    msg.serialized_size()
}

/// Resets `msg` and builds the book on its kept memory.
fn build_reuse<A: Arena>(msg: &mut Message<A>, people: &People) -> usize {
    msg.reset();
    build_book(msg, people).expect("building the address book");
    msg.serialized_size()
}

/// Makes a fresh arena.
type MakeArena = fn() -> MultiSegmentArena;

/// The built-in multi-segment arenas measured, by name.
fn multi_arenas() -> [(&'static str, MakeArena); 3] {
    [
        ("multi/heuristic", MultiSegmentArena::new),
        ("multi/fixed_1024w", || {
            MultiSegmentArena::new().with_policy(GrowthPolicy::FixedSize(1024))
        }),
        ("multi/fixed_16384w", || {
            MultiSegmentArena::new()
                .with_first_segment_words(16 * 1024)
                .with_policy(GrowthPolicy::FixedSize(16 * 1024))
        }),
    ]
}

fn growth(c: &mut Criterion) {
    let mut group = c.benchmark_group("growth");
    for n in [SMALL_PEOPLE, LARGE_PEOPLE] {
        let people = People::new(n);

        let size = build_fresh(SingleSegmentArena::new(), &people);
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_function(BenchmarkId::new("single/fresh", n), |b| {
            b.iter(|| black_box(build_fresh(SingleSegmentArena::new(), &people)))
        });
        let mut msg = Message::new(SingleSegmentArena::new());
        group.bench_function(BenchmarkId::new("single/reuse", n), |b| {
            b.iter(|| black_box(build_reuse(&mut msg, &people)))
        });

        for (name, make) in multi_arenas() {
            group.throughput(Throughput::Bytes(build_fresh(make(), &people) as u64));
            group.bench_function(BenchmarkId::new(format!("{name}/fresh"), n), |b| {
                b.iter(|| black_box(build_fresh(make(), &people)))
            });
            let mut msg = Message::new(make());
            group.bench_function(BenchmarkId::new(format!("{name}/reuse"), n), |b| {
                b.iter(|| black_box(build_reuse(&mut msg, &people)))
            });
        }

        let mut buf = vec![Word::ZERO; FIXED_WORDS];
        group.throughput(Throughput::Bytes(
            build_fresh(FixedArena::new(&mut buf), &people) as u64,
        ));
        group.bench_function(BenchmarkId::new("fixed/fresh", n), |b| {
            b.iter(|| black_box(build_fresh(FixedArena::new(&mut buf), &people)))
        });
        let mut msg = Message::new(FixedArena::new(&mut buf));
        group.bench_function(BenchmarkId::new("fixed/reuse", n), |b| {
            b.iter(|| black_box(build_reuse(&mut msg, &people)))
        });

        // The pool keeps the buffers a dropped arena gives back, so a fresh
        // arena draws on warm buffers after the first iteration.
        let pool = BufferPool::new(POOL_BUFFER_WORDS);
        group.throughput(Throughput::Bytes(
            build_fresh(PooledArena::new(&pool), &people) as u64,
        ));
        group.bench_function(BenchmarkId::new("pooled/fresh", n), |b| {
            b.iter(|| black_box(build_fresh(PooledArena::new(&pool), &people)))
        });
        let mut msg = Message::new(PooledArena::new(&pool));
        group.bench_function(BenchmarkId::new("pooled/reuse", n), |b| {
            b.iter(|| black_box(build_reuse(&mut msg, &people)))
        });
        drop(msg);

        group.throughput(Throughput::Bytes(size as u64));
        bench_memcpy(&mut group, n, size);
    }
    group.finish();
}

/// Reset of a warmed message (its arena grown once by the large book), then
/// a new root with an empty list: what starting the next message costs on
/// each arena.
fn reset(c: &mut Criterion) {
    let mut group = c.benchmark_group("reset");
    let people = People::new(LARGE_PEOPLE);
    fn bench<A: Arena>(
        group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
        name: &str,
        arena: A,
        people: &People,
    ) {
        let mut msg = Message::new(arena);
        build_book(&mut msg, people).expect("building the address book");
        group.bench_function(name, |b| {
            b.iter(|| {
                msg.reset();
                msg.init_root::<address_book::Builder<_>>()
                    .expect("a root fits")
                    .init_people(0)
                    .expect("an empty list fits");
                black_box(msg.segment_count())
            })
        });
    }
    bench(&mut group, "single", SingleSegmentArena::new(), &people);
    for (name, make) in multi_arenas() {
        bench(&mut group, name, make(), &people);
    }
    let mut buf = vec![Word::ZERO; FIXED_WORDS];
    bench(&mut group, "fixed", FixedArena::new(&mut buf), &people);
    let pool = BufferPool::new(POOL_BUFFER_WORDS);
    bench(&mut group, "pooled", PooledArena::new(&pool), &people);
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = growth, reset
}
criterion_main!(benches);
