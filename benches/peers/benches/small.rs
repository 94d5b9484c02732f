//! small/{single,multi,fixed}/{fresh,reuse}: a root with two pointers, one
//! to a struct holding "1234567", one to a struct of 32 data bytes; built
//! and framed into a reused `Vec<u8>`.
//!
//! capnp side: *fresh* is `Builder::new_default()` for single and multi and
//! a new `ScratchSpaceHeapAllocator` over a kept buffer for fixed; *reuse*
//! is one kept `ScratchSpaceHeapAllocator`.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use capnarena::{Arena, FixedArena, MultiSegmentArena, SingleSegmentArena};
use capnarena_peers::capnarena_side::{self as ca, Reuse};
use capnarena_peers::{
    SMALL_SCRATCH_WORDS, SmallReuse, scratch_words, small_build_frame, small_build_frame_scratch,
};
use criterion::{Criterion, criterion_group, criterion_main};

fn fresh(c: &mut Criterion) {
    for arena in ["single", "multi", "fixed"] {
        let mut g = c.benchmark_group(format!("small/{arena}/fresh"));
        let mut out = Vec::new();
        let mut buf = ca::fixed_buffer(SMALL_SCRATCH_WORDS);
        match arena {
            "single" => g.bench_function("capnarena", |b| {
                b.iter(|| ca::small_single_fresh(&mut out).unwrap())
            }),
            "multi" => g.bench_function("capnarena", |b| {
                b.iter(|| ca::small_multi_fresh(&mut out).unwrap())
            }),
            _ => g.bench_function("capnarena", |b| {
                b.iter(|| ca::small_fixed_fresh(&mut buf, &mut out).unwrap())
            }),
        };
        if arena == "fixed" {
            let mut scratch = scratch_words(SMALL_SCRATCH_WORDS);
            let s = capnp::Word::words_to_bytes_mut(&mut scratch);
            g.bench_function("capnp", |b| {
                b.iter(|| small_build_frame_scratch(s, &mut out))
            });
        } else {
            g.bench_function("capnp", |b| b.iter(|| small_build_frame(&mut out)));
        }
        g.finish();
    }
}

fn reuse_one<A: Arena>(c: &mut Criterion, name: &str, arena: A) {
    let mut g = c.benchmark_group(format!("small/{name}/reuse"));
    let mut out = Vec::new();
    let mut ours = Reuse::new(arena);
    g.bench_function("capnarena", |b| b.iter(|| ours.small(&mut out).unwrap()));
    let mut scratch = scratch_words(SMALL_SCRATCH_WORDS);
    let mut peer = SmallReuse::new(capnp::Word::words_to_bytes_mut(&mut scratch));
    g.bench_function("capnp", |b| b.iter(|| peer.build_frame(&mut out)));
    g.finish();
}

fn reuse(c: &mut Criterion) {
    reuse_one(c, "single", SingleSegmentArena::new());
    reuse_one(c, "multi", MultiSegmentArena::new());
    let mut buf = ca::fixed_buffer(SMALL_SCRATCH_WORDS);
    reuse_one(c, "fixed", FixedArena::new(&mut buf));
}

criterion_group!(benches, fresh, reuse);
criterion_main!(benches);
