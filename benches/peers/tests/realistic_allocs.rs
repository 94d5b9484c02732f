//! Heap allocations per iteration of every realistic scenario, both sides,
//! counted with the counting global allocator. capnarena must allocate
//! nothing on every path that keeps its memory (everything but the fresh
//! builds). Run with `--nocapture` for the table `benches/README.md` quotes.
//!
//! One `#[test]` function does all the counting: the counter is
//! process-wide, so no other test may run beside it.

use capnarena_peers::alloc_count::{self, CountingAllocator};
use capnarena_peers::realistic::steps::{SCENARIOS, SCRATCH_WORDS, Side, step};
use capnarena_peers::scratch_words;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations of each of three iterations of `scenario` on `side`, after
/// one warm-up; panics unless all three are equal.
fn per_iter(scenario: &str, side: Side) -> u64 {
    let mut scratch = scratch_words(SCRATCH_WORDS);
    let mut s = step(
        scenario,
        side,
        capnp::Word::words_to_bytes_mut(&mut scratch),
    )
    .expect(scenario);
    s();
    let counts: Vec<u64> = (0..3)
        .map(|_| {
            alloc_count::reset();
            std::hint::black_box(s());
            alloc_count::count()
        })
        .collect();
    assert!(
        counts.iter().all(|&c| c == counts[0]),
        "{scenario} {side:?}: allocations differ between iterations: {counts:?}"
    );
    counts[0]
}

/// capnarena allocates nothing per iteration on its reuse paths (kept
/// message, in-place reads, kept output Vec), in every realistic scenario
/// but the two fresh builds.
#[test]
fn realistic_allocations_per_iteration() {
    let mut table =
        String::from("| scenario | allocs capnarena | allocs capnp |\n|---|---:|---:|\n");
    let mut failures = Vec::new();
    for &(name, _) in SCENARIOS {
        let ours = per_iter(name, Side::Capnarena);
        let theirs = per_iter(name, Side::Capnp);
        table += &format!("| {name} | {ours} | {theirs} |\n");
        if !name.ends_with("/fresh") && ours != 0 {
            failures.push(format!("{name}: {ours}"));
        }
    }
    println!("{table}");
    assert!(
        failures.is_empty(),
        "capnarena allocates on reuse paths: {failures:?}"
    );
}
