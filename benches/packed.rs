//! The packed encoding through the message API: `append_packed_to` (pack
//! into a kept `Vec<u8>`), `write_packed_to(io::sink())`, and
//! `read_packed_from_bytes` (unpack into a kept message's arena), against a
//! memcpy of the unpacked bytes.
//!
//! `cargo bench --bench packed`; throughput is the unpacked framed size.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::io;

use capnarena::{Message, ReaderOptions, SingleSegmentArena};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::{LARGE_PEOPLE, People, SMALL_PEOPLE, bench_memcpy, build_book};

fn packing(c: &mut Criterion) {
    let mut group = c.benchmark_group("packed");
    let opts = ReaderOptions::default();
    for n in [SMALL_PEOPLE, LARGE_PEOPLE] {
        let mut msg = Message::new(SingleSegmentArena::new());
        build_book(&mut msg, &People::new(n)).expect("building the address book");
        let size = msg.serialized_size();
        group.throughput(Throughput::Bytes(size as u64));

        let mut packed = Vec::new();
        msg.append_packed_to(&mut packed);
        group.bench_function(BenchmarkId::new("pack/append_packed_to", n), |b| {
            let mut out = Vec::with_capacity(packed.len());
            b.iter(|| {
                out.clear();
                msg.append_packed_to(&mut out);
                black_box(out.len())
            })
        });
        group.bench_function(BenchmarkId::new("pack/write_packed_to_sink", n), |b| {
            b.iter(|| {
                msg.write_packed_to(io::sink())
                    .expect("a sink takes everything")
            })
        });

        let mut inbox = Message::new(SingleSegmentArena::new());
        group.bench_function(BenchmarkId::new("unpack/read_packed_from_bytes", n), |b| {
            b.iter(|| {
                let reader = inbox
                    .read_packed_from_bytes(black_box(&packed), opts)
                    .expect("valid");
                black_box(reader.segment_count())
            })
        });

        bench_memcpy(&mut group, n, size);
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = packing
}
criterion_main!(benches);
