//! Framing a built message for the wire: `append_to` (a copy into a kept
//! `Vec<u8>`), `write_to` (vectored: the segment table and each segment
//! handed to the writer as they are, here `io::sink()`), and
//! `framed_bytes` (a single-segment message as one slice, no copy),
//! against a memcpy of the same bytes.
//!
//! `cargo bench --bench frame`; throughput is the framed size.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::io;

use capnarena::{Arena, GrowthPolicy, Message, MultiSegmentArena, SingleSegmentArena};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::{LARGE_PEOPLE, People, SMALL_PEOPLE, bench_memcpy, build_book};

/// The book of `people` built on `arena`.
fn built<A: Arena>(arena: A, people: &People) -> Message<A> {
    let mut msg = Message::new(arena);
    build_book(&mut msg, people).expect("building the address book");
    msg
}

fn frame<A: Arena>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    n: u32,
    msg: &Message<A>,
) {
    let mut out = Vec::with_capacity(msg.serialized_size());
    group.bench_function(BenchmarkId::new(format!("{name}/append_to"), n), |b| {
        b.iter(|| {
            out.clear();
            msg.append_to(&mut out);
            black_box(out.len())
        })
    });
    group.bench_function(BenchmarkId::new(format!("{name}/write_to_sink"), n), |b| {
        b.iter(|| msg.write_to(io::sink()).expect("a sink takes everything"))
    });
}

fn framing(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame");
    for n in [SMALL_PEOPLE, LARGE_PEOPLE] {
        let people = People::new(n);

        let mut single = built(SingleSegmentArena::new(), &people);
        let size = single.serialized_size();
        group.throughput(Throughput::Bytes(size as u64));
        frame(&mut group, "single", n, &single);
        group.bench_function(BenchmarkId::new("single/framed_bytes", n), |b| {
            b.iter(|| black_box(single.framed_bytes().expect("one segment").len()))
        });

        // Many small segments: the segment table grows, `write_to` hands
        // out one slice per segment.
        let multi = built(
            MultiSegmentArena::new().with_policy(GrowthPolicy::FixedSize(1024)),
            &people,
        );
        group.throughput(Throughput::Bytes(multi.serialized_size() as u64));
        frame(&mut group, "multi_fixed_1024w", n, &multi);

        group.throughput(Throughput::Bytes(size as u64));
        bench_memcpy(&mut group, n, size);
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = framing
}
criterion_main!(benches);
