//! The data-set suite (`capnarena_peers::rsb`): the four data sets of
//! rust_serialization_benchmark on their own schemas, capnarena and capnp in
//! one criterion group per set and column (`rsb/SET/COLUMN`, see
//! `capnarena_peers::rsb::steps::COLUMNS`), with rkyv's rows beside them
//! where rkyv has the column (`rsb_ref/rkyv_sets.rs`), and in the read
//! columns the format's floor (`format_floor`: the same loop over the same
//! bytes with no reader, `capnarena_peers::rsb::floor`).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena_peers::rsb::SCRATCH_WORDS;
use capnarena_peers::rsb::steps::{Side, floor_step, scenarios, step};
use capnarena_peers::scratch_words;
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "rsb_ref/rkyv_sets.rs"]
mod rkyv_sets;

fn rsb(c: &mut Criterion) {
    for name in scenarios() {
        let mut g = c.benchmark_group(&name);
        for (side, label) in [(Side::Capnarena, "capnarena"), (Side::Capnp, "capnp")] {
            let mut scratch = scratch_words(SCRATCH_WORDS);
            let mut s = step(&name, side, capnp::Word::words_to_bytes_mut(&mut scratch))
                .expect("every scenario has both sides");
            g.bench_function(label, |b| b.iter(|| black_box(s())));
        }
        let mut parts = name.split('/').skip(1);
        let (set, column) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        if let Some(mut s) = floor_step(&name) {
            g.bench_function("format_floor", |b| b.iter(|| black_box(s())));
        }
        for (label, mut s) in rkyv_sets::rows(set, column) {
            g.bench_function(label, |b| b.iter(|| black_box(s())));
        }
        g.finish();
    }
}

criterion_group!(benches, rsb);
criterion_main!(benches);
