//! Packed encoding:
//! - pack: the 1 MiB growth message (one segment) packed into a reused
//!   `Vec<u8>`;
//! - unpack: that packed message unpacked into reused memory (capnarena: a
//!   kept message's arena; capnp: `read_message_no_alloc` into a kept word
//!   buffer);
//! - packed_stream: 10,000 records packed back to back, read one after
//!   another, every field (capnarena: into a kept message; capnp:
//!   `serialize_packed::try_read_message`, which allocates per message).
//!
//! Throughput is in unpacked (framed) bytes for pack and unpack, in packed
//! bytes for packed_stream.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena::SingleSegmentArena;
use capnarena_peers::capnarena_side::Reuse;
use capnarena_peers::{
    AlignedBytes, PackSource, STREAM_RECORDS, pack_message, pack_records, packed_stream, unpack,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn pack_unpack(c: &mut Criterion) {
    let mut ours = Reuse::new(SingleSegmentArena::new());
    let framed = ours.growth().unwrap().bytes;
    let mut framed_bytes = Vec::new();
    ours.message().append_to(&mut framed_bytes);
    let aligned = AlignedBytes::new(&framed_bytes);
    let peer = PackSource::from_framed(aligned.as_bytes()).unwrap();

    let mut out = Vec::new();
    let mut g = c.benchmark_group("pack");
    g.throughput(Throughput::Bytes(framed as u64));
    g.bench_function("capnarena", |b| b.iter(|| ours.pack(&mut out)));
    g.bench_function("capnp", |b| b.iter(|| pack_message(&peer, &mut out)));
    g.finish();

    ours.pack(&mut out);
    let packed = out.clone();
    let mut reader = Reuse::new(SingleSegmentArena::new());
    let mut words = Vec::new();
    let mut g = c.benchmark_group("unpack");
    g.throughput(Throughput::Bytes(framed as u64));
    g.bench_function("capnarena", |b| {
        b.iter(|| reader.unpack(black_box(&packed)).unwrap())
    });
    g.bench_function("capnp", |b| {
        b.iter(|| unpack(black_box(&packed), &mut words).unwrap())
    });
    g.finish();
}

fn stream(c: &mut Criterion) {
    let packed = pack_records(STREAM_RECORDS);
    let mut ours = Reuse::new(SingleSegmentArena::new());
    let mut g = c.benchmark_group("packed_stream");
    g.throughput(Throughput::Bytes(packed.len() as u64));
    g.bench_function("capnarena", |b| {
        b.iter(|| ours.packed_stream(black_box(&packed)).unwrap())
    });
    g.bench_function("capnp", |b| {
        b.iter(|| packed_stream(black_box(&packed)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, pack_unpack, stream);
criterion_main!(benches);
