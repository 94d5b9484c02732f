//! reset: reset a warmed message and access its first segment again (a new
//! `Small` root, then segment 0's length).
//!
//! capnp has no reset: its closest equivalent drops the `Builder` and makes
//! a new one over a kept `ScratchSpaceHeapAllocator`
//! ([`capnarena_peers::ResetReuse`]).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use capnarena::{FixedArena, SingleSegmentArena};
use capnarena_peers::capnarena_side::{self as ca, Reuse};
use capnarena_peers::{ResetReuse, SMALL_SCRATCH_WORDS, scratch_words};
use criterion::{Criterion, criterion_group, criterion_main};

fn reset(c: &mut Criterion) {
    let mut g = c.benchmark_group("reset");
    let mut ours = Reuse::new(SingleSegmentArena::new());
    g.bench_function("capnarena", |b| b.iter(|| ours.reset_init_root().unwrap()));
    let mut buf = ca::fixed_buffer(SMALL_SCRATCH_WORDS);
    let mut fixed = Reuse::new(FixedArena::new(&mut buf));
    g.bench_function("capnarena_fixed", |b| {
        b.iter(|| fixed.reset_init_root().unwrap())
    });
    let mut scratch = scratch_words(SMALL_SCRATCH_WORDS);
    let mut peer = ResetReuse::new(capnp::Word::words_to_bytes_mut(&mut scratch));
    g.bench_function("capnp", |b| b.iter(|| peer.reset_init_root()));
    g.finish();
}

criterion_group!(benches, reset);
criterion_main!(benches);
