//! Random allocate / write / reset sequences on every arena, checking the
//! `Arena` contract (see the trait's implementer notes):
//! - an allocation returns `len` words inside the segment it names, that
//!   segment exists (`id < segment_count()`), and a new segment is numbered
//!   `segment_count()` before the call;
//! - the words are zero, even where earlier (reset) allocations wrote;
//! - they overlap no other allocation since the last reset;
//! - words handed out never change, except by their owner's writes;
//! - after `reset`, `segment_count() == 0` and the first allocation is
//!   word 0 of segment 0;
//! - a failed allocation reports the words requested and changes nothing.
#![no_main]

use arbitrary::Arbitrary;
use capnarena::{
    AllocError, Arena, FixedArena, GrowthPolicy, MultiSegmentArena, SegmentId, SingleSegmentArena,
    Word,
};
use libfuzzer_sys::fuzz_target;

mod shared;
use shared::common::OneWordArena;

#[derive(Arbitrary, Debug)]
enum Op {
    Allocate { len: u8, hint: u8 },
    AllocateLarge { len: u16, hint: u8 },
    Reset,
}

#[derive(Arbitrary, Debug)]
struct Input {
    arena: u8,
    first: u8,
    grow: u8,
    ops: Vec<Op>,
}

/// One allocation since the last reset: where, and the tag its words hold.
struct Live {
    segment: u32,
    start: usize,
    len: usize,
    tag: u64,
}

fn pattern(tag: u64, i: usize) -> Word {
    Word::from_u64((tag << 32 | i as u64) | 1 << 63)
}

fn check_all(arena: &impl Arena, live: &[Live]) {
    for l in live {
        let seg = arena.segment(SegmentId(l.segment));
        for i in 0..l.len {
            assert_eq!(
                seg.get(l.start + i),
                Some(&pattern(l.tag, i)),
                "allocation {} (segment {}, words [{}, +{})) changed at word {i}",
                l.tag,
                l.segment,
                l.start,
                l.len
            );
        }
    }
}

fn run(arena: &mut impl Arena, ops: &[Op]) {
    arena.reset();
    assert_eq!(arena.segment_count(), 0, "a reset arena has no segments");
    let mut live: Vec<Live> = Vec::new();
    let mut tag = 0u64;
    let mut total = 0usize;
    for op in ops.iter().take(200) {
        let (len, hint) = match *op {
            Op::Reset => {
                arena.reset();
                live.clear();
                assert_eq!(arena.segment_count(), 0, "segment_count after reset");
                continue;
            }
            Op::Allocate { len, hint } => (u32::from(len), u32::from(hint)),
            Op::AllocateLarge { len, hint } => (u32::from(len), u32::from(hint)),
        };
        if total + len as usize > 1 << 20 {
            continue; // keep one execution's memory small
        }
        let before = arena.segment_count();
        let hint = if before == 0 { 0 } else { hint % (before + 1) };
        match arena.allocate(len, SegmentId(hint)) {
            Ok((SegmentId(s), o)) => {
                total += len as usize;
                let after = arena.segment_count();
                assert!(after >= before, "segment_count shrank: {before} -> {after}");
                assert!(s <= before, "new segment {s} skips numbers (had {before})");
                if len == 0 {
                    // The trait does not say where an empty allocation is
                    // (the crate never asks for one): it must only leave
                    // the arena consistent.
                    check_all(arena, &live);
                    continue;
                }
                assert!(
                    s < after,
                    "segment {s} returned, but segment_count is {after}"
                );
                if live.is_empty() && before == 0 {
                    assert_eq!((s, o), (0, 0), "first allocation after reset");
                }
                let seg = arena.segment_mut(SegmentId(s));
                let (start, n) = (o as usize, len as usize);
                assert!(
                    start + n <= seg.len(),
                    "words [{start}, +{n}) outside segment {s} of {} words",
                    seg.len()
                );
                for (i, w) in seg[start..start + n].iter_mut().enumerate() {
                    assert_eq!(*w, Word::ZERO, "word {i} of a new allocation is not zero");
                    *w = pattern(tag, i);
                }
                for l in &live {
                    let disjoint =
                        l.segment != s || l.start + l.len <= start || start + n <= l.start;
                    assert!(disjoint, "allocation overlaps allocation {}", l.tag);
                }
                live.push(Live {
                    segment: s,
                    start,
                    len: n,
                    tag,
                });
                tag += 1;
            }
            Err(AllocError { requested, .. }) => {
                assert_eq!(requested, u64::from(len), "AllocError::requested");
                assert_eq!(
                    arena.segment_count(),
                    before,
                    "a failed allocation added a segment"
                );
            }
        }
        check_all(arena, &live);
    }
}

fuzz_target!(|input: Input| {
    let first = u32::from(input.first) + 1;
    match input.arena % 5 {
        0 => run(
            &mut SingleSegmentArena::with_capacity(first as usize),
            &input.ops,
        ),
        1 => run(
            &mut SingleSegmentArena::new().with_limit(first as usize * 16),
            &input.ops,
        ),
        2 => {
            let policy = if input.grow & 1 == 0 {
                GrowthPolicy::GrowHeuristically
            } else {
                GrowthPolicy::FixedSize(u32::from(input.grow >> 1))
            };
            let mut a = MultiSegmentArena::new()
                .with_first_segment_words(first)
                .with_policy(policy)
                .with_max_segments(u32::from(input.grow % 16) + 1);
            run(&mut a, &input.ops);
            // The same arena again: reuse after a run must still keep the contract.
            run(&mut a, &input.ops);
        }
        3 => {
            let mut buf = vec![Word::from_u64(u64::MAX); first as usize * 4];
            let mut a = FixedArena::new(&mut buf);
            run(&mut a, &input.ops);
            run(&mut a, &input.ops);
        }
        _ => run(&mut OneWordArena::default(), &input.ops),
    }
});
