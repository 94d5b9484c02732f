//! Realistic scenarios on `schema/telemetry.capnp`, generated code on both
//! sides (capnarena-build and capnpc): build a deep report tree (fresh and
//! on kept memory), build a 4,096-node mesh list, read the tree, read a
//! stream of 10,000 small samples (in place, and through `io::Read` into
//! kept memory), deep-copy the tree, pack and unpack it. Each group times
//! capnarena and capnp; the steps are those of
//! `capnarena_peers::realistic::steps` (see `SCENARIOS` there).

// `criterion_group!` generates an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use capnarena_peers::realistic::steps::{SCENARIOS, SCRATCH_WORDS, Side, step};
use capnarena_peers::scratch_words;
use criterion::{Criterion, criterion_group, criterion_main};

fn realistic(c: &mut Criterion) {
    for &(name, _) in SCENARIOS {
        let mut g = c.benchmark_group(name);
        for (side, label) in [(Side::Capnarena, "capnarena"), (Side::Capnp, "capnp")] {
            let mut scratch = scratch_words(SCRATCH_WORDS);
            let mut s = step(name, side, capnp::Word::words_to_bytes_mut(&mut scratch))
                .expect("every scenario has both sides");
            g.bench_function(label, |b| b.iter(|| black_box(s())));
        }
        g.finish();
    }
}

criterion_group!(benches, realistic);
criterion_main!(benches);
