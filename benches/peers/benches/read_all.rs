//! read_all: every field of the `log` vector message
//! (`tests/vectors/log.bin` at the repository root) read in place and
//! folded into a checksum.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena_peers::capnarena_side as ca;
use capnarena_peers::{AlignedBytes, read_all_log};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

static LOG: &[u8] = include_bytes!("../../../tests/vectors/log.bin");

fn read_all(c: &mut Criterion) {
    let log = AlignedBytes::new(LOG);
    let log = log.as_bytes();
    let mut g = c.benchmark_group("read_all");
    g.throughput(Throughput::Bytes(log.len() as u64));
    g.bench_function("capnarena", |b| {
        b.iter(|| ca::read_all_log(black_box(log)).unwrap())
    });
    g.bench_function("capnp", |b| {
        b.iter(|| read_all_log(black_box(log)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, read_all);
criterion_main!(benches);
