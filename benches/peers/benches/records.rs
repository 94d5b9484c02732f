//! Records (go-capnp's `A`: name text of 16 chars, i64 birthday, phone text
//! of 10 chars, i32, bool, f64):
//! - marshal/{fresh,reuse}: 1,000 pre-generated records built and framed in
//!   turn into a reused `Vec<u8>`;
//! - unmarshal/{copy,zero_copy}: those 1,000 framed records read, every
//!   field folded into a checksum;
//! - decode_stream: 10,000 records framed back to back in one buffer, read
//!   one after another (throughput in bytes).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena::SingleSegmentArena;
use capnarena_peers::capnarena_side::{self as ca, Reuse};
use capnarena_peers::{
    AlignedBytes, CHECKSUM_SEED, FramedRecords, MarshalReuse, RECORD_SCRATCH_WORDS, RECORDS,
    RECORDS_SEED, STREAM_RECORDS, decode_stream, frame_records, gen_records, marshal, mix,
    scratch_words, unmarshal_copy, unmarshal_zero_copy,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn marshal_benches(c: &mut Criterion) {
    let recs = gen_records(RECORDS, RECORDS_SEED);
    let mut out = Vec::new();

    let mut g = c.benchmark_group("marshal/fresh");
    g.throughput(Throughput::Elements(RECORDS as u64));
    g.bench_function("capnarena", |b| {
        b.iter(|| {
            for rec in &recs {
                ca::marshal(rec, &mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("capnp", |b| {
        b.iter(|| {
            for rec in &recs {
                marshal(rec, &mut out);
                black_box(&out);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("marshal/reuse");
    g.throughput(Throughput::Elements(RECORDS as u64));
    let mut ours = Reuse::new(SingleSegmentArena::new());
    g.bench_function("capnarena", |b| {
        b.iter(|| {
            for rec in &recs {
                ours.marshal(rec, &mut out).unwrap();
                black_box(&out);
            }
        })
    });
    let mut scratch = scratch_words(RECORD_SCRATCH_WORDS);
    let mut peer = MarshalReuse::new(capnp::Word::words_to_bytes_mut(&mut scratch));
    g.bench_function("capnp", |b| {
        b.iter(|| {
            for rec in &recs {
                peer.marshal(rec, &mut out);
                black_box(&out);
            }
        })
    });
    g.finish();
}

fn unmarshal_benches(c: &mut Criterion) {
    let framed = FramedRecords::new(&gen_records(RECORDS, RECORDS_SEED));

    let mut g = c.benchmark_group("unmarshal/copy");
    g.throughput(Throughput::Elements(RECORDS as u64));
    let mut ours = Reuse::new(SingleSegmentArena::new());
    g.bench_function("capnarena", |b| {
        b.iter(|| {
            framed.iter().fold(CHECKSUM_SEED, |h, r| {
                mix(h, ours.unmarshal_copy(r).unwrap())
            })
        })
    });
    g.bench_function("capnp", |b| {
        b.iter(|| {
            framed
                .iter()
                .fold(CHECKSUM_SEED, |h, r| mix(h, unmarshal_copy(r).unwrap()))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("unmarshal/zero_copy");
    g.throughput(Throughput::Elements(RECORDS as u64));
    g.bench_function("capnarena", |b| {
        b.iter(|| {
            framed.iter().fold(CHECKSUM_SEED, |h, r| {
                mix(h, ca::unmarshal_zero_copy(r).unwrap())
            })
        })
    });
    g.bench_function("capnp", |b| {
        b.iter(|| {
            framed.iter().fold(CHECKSUM_SEED, |h, r| {
                mix(h, unmarshal_zero_copy(r).unwrap())
            })
        })
    });
    g.finish();
}

fn decode_stream_bench(c: &mut Criterion) {
    let bytes = frame_records(STREAM_RECORDS);
    let words = capnarena::words_from_bytes(&bytes).unwrap();
    let aligned = AlignedBytes::new(&bytes);
    let mut g = c.benchmark_group("decode_stream");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("capnarena", |b| {
        b.iter(|| ca::decode_stream(black_box(&words)).unwrap())
    });
    g.bench_function("capnp", |b| {
        b.iter(|| decode_stream(black_box(aligned.as_bytes())).unwrap())
    });
    g.finish();
}

criterion_group!(
    benches,
    marshal_benches,
    unmarshal_benches,
    decode_stream_bench
);
criterion_main!(benches);
