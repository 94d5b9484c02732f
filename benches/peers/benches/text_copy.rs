//! text_copy: a list of 1,000 texts of 1,000 bytes deep-copied into another
//! message (the source read in place each time), next to a memcpy of the
//! copy's bytes.
//!
//! *fresh*: a new message each time (capnarena `SingleSegmentArena`, capnp
//! `Builder::new_default()`); *reuse*: a kept message reset (capnarena) or a
//! kept `ScratchSpaceHeapAllocator` (capnp).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena::SingleSegmentArena;
use capnarena_peers::capnarena_side::{self as ca, Reuse};
use capnarena_peers::{
    AlignedBytes, TEXT_COPY_SCRATCH_WORDS, TextCopyReuse, scratch_words, text_copy, texts_source,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn text_copy_bench(c: &mut Criterion) {
    let src = AlignedBytes::new(&texts_source());
    let src = src.as_bytes();
    let bytes = ca::text_copy(src).unwrap().bytes;
    let mut g = c.benchmark_group("text_copy");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("capnarena/fresh", |b| {
        b.iter(|| ca::text_copy(black_box(src)).unwrap())
    });
    g.bench_function("capnp/fresh", |b| {
        b.iter(|| text_copy(black_box(src)).unwrap())
    });
    let mut ours = Reuse::new(SingleSegmentArena::new());
    g.bench_function("capnarena/reuse", |b| {
        b.iter(|| ours.text_copy(black_box(src)).unwrap())
    });
    let mut scratch = scratch_words(TEXT_COPY_SCRATCH_WORDS);
    let mut peer = TextCopyReuse::new(capnp::Word::words_to_bytes_mut(&mut scratch));
    g.bench_function("capnp/reuse", |b| {
        b.iter(|| peer.copy(black_box(src)).unwrap())
    });
    let from = vec![0x5au8; bytes];
    let mut to = vec![0u8; bytes];
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            to.copy_from_slice(black_box(&from));
            black_box(&mut to);
        })
    });
    g.finish();
}

criterion_group!(benches, text_copy_bench);
criterion_main!(benches);
