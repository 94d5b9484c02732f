//! Heap allocations per operation of the owned-value columns (printed for
//! `benches/README.md`; run with `--nocapture`): encoding allocates nothing
//! on either side once the kept message and `Vec` have grown, and decoding
//! allocates per list, text and boxed struct (capnarena) or per list and
//! text (prost).

#[path = "../benches/prost_sets/mod.rs"]
mod prost_sets;

use capnarena_peers::alloc_count::{self, CountingAllocator};
use capnarena_peers::rsb::steps::SETS;
use prost_sets::{Op, Who, step};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations of the second iteration of a step (the first one grows the
/// kept buffers).
fn allocs(set: &str, op: Op, who: Who) -> u64 {
    let mut s = step(set, op, who).expect("the row exists");
    s();
    alloc_count::reset();
    s();
    alloc_count::count()
}

/// One test function, so that no other test thread allocates while
/// counting. Encoding, steady state, allocates nothing on both sides;
/// decoding's counts are printed.
#[test]
fn owned_value_allocations_per_op() {
    for set in SETS {
        let ours_value = allocs(set, Op::Decode, Who::Capnarena);
        let ours_ref = allocs(set, Op::DecodeRef, Who::Capnarena);
        let prost_decode = allocs(set, Op::Decode, Who::Prost);
        let ours_encode = allocs(set, Op::Encode, Who::Capnarena);
        let prost_encode = allocs(set, Op::Encode, Who::Prost);
        println!(
            "{set}: decode capnarena Value {ours_value}, ValueRef {ours_ref}, prost {prost_decode}; \
             encode capnarena {ours_encode}, prost {prost_encode}"
        );
        assert_eq!(ours_encode, 0, "{set}: capnarena encode allocates");
        assert_eq!(prost_encode, 0, "{set}: prost encode allocates");
        assert!(ours_ref <= ours_value, "{set}: ValueRef allocates more");
    }
}
