//! The compatibility check over the whole conformance corpus: every file
//! compared with itself, and with a copy whose `:Int32` fields are
//! `:Int64`. Compiling the files is set up outside the timed loop.
//!
//! Run with `cargo bench -p capnarena-dynamic --bench compat`.

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use capnarena_dynamic::compat::{self, CompatSchema};
use criterion::{Criterion, criterion_group, criterion_main};

#[path = "../tests/common/corpus.rs"]
mod corpus;

fn bench(c: &mut Criterion) {
    let pairs: Vec<(CompatSchema, Option<CompatSchema>)> = corpus::PROJECTS
        .iter()
        .flat_map(|project| corpus::compile_project(project, &corpus::widen_int32))
        .collect();
    let mut group = c.benchmark_group("compat/corpus");
    group.bench_function("itself", |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|(old, _)| compat::check(old, old).findings.len())
                .sum::<usize>()
        })
    });
    group.bench_function("mutated", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter_map(|(old, new)| Some(compat::check(old, new.as_ref()?).findings.len()))
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
