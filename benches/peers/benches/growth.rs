//! growth/{single,multi,fixed}/{fresh,reuse}: a root with a list of 65,536
//! `TextHolder` structs each holding "1234567" (about 1 MiB), built from an
//! empty arena, next to a memcpy of the same number of bytes.
//!
//! capnp side: *fresh* is `Builder::new_default()` (its `HeapAllocator`) for
//! single and multi, and a new `ScratchSpaceHeapAllocator` over a kept
//! buffer for fixed; *reuse* is one kept `ScratchSpaceHeapAllocator` (capnp
//! has no other way to reuse memory).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena::{Arena, FixedArena, MultiSegmentArena, SingleSegmentArena};
use capnarena_peers::capnarena_side::{self as ca, Reuse};
use capnarena_peers::{GROWTH_SCRATCH_WORDS, GROWTH_WORDS, GrowthReuse, scratch_words};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

/// Bytes of the message framed as one segment: table word and body.
const BYTES: usize = (1 + GROWTH_WORDS) * 8;

fn memcpy(g: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    let src = vec![0x5au8; BYTES];
    let mut dst = vec![0u8; BYTES];
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&src));
            black_box(&mut dst);
        })
    });
}

fn fresh(c: &mut Criterion) {
    for arena in ["single", "multi", "fixed"] {
        let mut g = c.benchmark_group(format!("growth/{arena}/fresh"));
        g.throughput(Throughput::Bytes(BYTES as u64));
        let mut buf = ca::fixed_buffer(GROWTH_SCRATCH_WORDS);
        let mut scratch = scratch_words(GROWTH_SCRATCH_WORDS);
        match arena {
            "single" => g.bench_function("capnarena", |b| {
                b.iter(|| ca::growth_build(SingleSegmentArena::new()).unwrap())
            }),
            "multi" => g.bench_function("capnarena", |b| {
                b.iter(|| ca::growth_build(MultiSegmentArena::new()).unwrap())
            }),
            _ => g.bench_function("capnarena", |b| {
                b.iter(|| ca::growth_build(FixedArena::new(&mut buf)).unwrap())
            }),
        };
        if arena == "fixed" {
            let s = capnp::Word::words_to_bytes_mut(&mut scratch);
            g.bench_function("capnp", |b| {
                b.iter(|| capnarena_peers::growth_build_scratch(s))
            });
        } else {
            g.bench_function("capnp", |b| b.iter(capnarena_peers::growth_build));
        }
        memcpy(&mut g);
        g.finish();
    }
}

fn reuse_one<A: Arena>(c: &mut Criterion, name: &str, arena: A) {
    let mut g = c.benchmark_group(format!("growth/{name}/reuse"));
    g.throughput(Throughput::Bytes(BYTES as u64));
    let mut ours = Reuse::new(arena);
    g.bench_function("capnarena", |b| b.iter(|| ours.growth().unwrap()));
    let mut scratch = scratch_words(GROWTH_SCRATCH_WORDS);
    let mut peer = GrowthReuse::new(capnp::Word::words_to_bytes_mut(&mut scratch));
    g.bench_function("capnp", |b| b.iter(|| peer.build()));
    memcpy(&mut g);
    g.finish();
}

fn reuse(c: &mut Criterion) {
    reuse_one(c, "single", SingleSegmentArena::new());
    reuse_one(c, "multi", MultiSegmentArena::new());
    let mut buf = ca::fixed_buffer(GROWTH_SCRATCH_WORDS);
    reuse_one(c, "fixed", FixedArena::new(&mut buf));
}

criterion_group!(benches, fresh, reuse);
criterion_main!(benches);
