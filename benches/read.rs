//! Reading a framed message: in place (`MessageReader::from_bytes`, zero
//! copy) and into a kept message's arena (`read_from_bytes`, one copy, any
//! alignment); each just opened (segment table and root) and with every
//! field of every person read; against a memcpy of the same bytes.
//!
//! `cargo bench --bench read`; throughput is the framed size.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::{
    LARGE_PEOPLE, SMALL_PEOPLE, addressbook_capnp::address_book, bench_memcpy, framed_book,
    walk_book,
};

fn reading(c: &mut Criterion) {
    let mut group = c.benchmark_group("read");
    let opts = ReaderOptions::default();
    for n in [SMALL_PEOPLE, LARGE_PEOPLE] {
        // 8-aligned copy of the framed bytes, as the in-place reader needs.
        let words = capnarena::words_from_bytes(&framed_book(n)).expect("whole words");
        let bytes = capnarena::Word::slice_as_bytes(&words);
        group.throughput(Throughput::Bytes(bytes.len() as u64));

        group.bench_function(BenchmarkId::new("zero_copy/open", n), |b| {
            b.iter(|| {
                let reader = MessageReader::from_bytes(black_box(bytes), opts).expect("valid");
                let book = reader.get_root::<address_book::Reader>().expect("a root");
                black_box(book.get_people().expect("a list").len())
            })
        });
        group.bench_function(BenchmarkId::new("zero_copy/every_field", n), |b| {
            b.iter(|| {
                let reader = MessageReader::from_bytes(black_box(bytes), opts).expect("valid");
                black_box(walk_book(&reader).expect("valid"))
            })
        });

        let mut msg = Message::new(SingleSegmentArena::new());
        group.bench_function(BenchmarkId::new("copy/open", n), |b| {
            b.iter(|| {
                let reader = msg.read_from_bytes(black_box(bytes), opts).expect("valid");
                let book = reader.get_root::<address_book::Reader>().expect("a root");
                black_box(book.get_people().expect("a list").len())
            })
        });
        group.bench_function(BenchmarkId::new("copy/every_field", n), |b| {
            b.iter(|| {
                let reader = msg.read_from_bytes(black_box(bytes), opts).expect("valid");
                black_box(walk_book(&reader).expect("valid"))
            })
        });

        bench_memcpy(&mut group, n, bytes.len());
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::criterion();
    targets = reading
}
criterion_main!(benches);
