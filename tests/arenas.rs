//! The arena contract (see the `Arena` implementer notes) and the
//! properties of the built-in arenas: full arenas fail with `Err` and keep
//! what was written, reset re-zeroes and keeps memory, growth follows the
//! documented policies, the blanket impls for `&mut A` and `Box<A>` are
//! arenas, and an arena that breaks the contract makes operations fail
//! instead of panicking.

mod common;

use capnarena::{
    AllocError, Arena, ElementSize, Error, FixedArena, GrowthPolicy, Message, MessageReader,
    MultiSegmentArena, ReaderOptions, SegmentId, SingleSegmentArena, StructSize, Word,
    words_from_bytes,
};
use common::OneWordArena;
use common::build::{build_log, log_entries};

/// A word no arena writes on its own, to see what it touched.
const DIRTY: Word = Word::from_u64(0xdead_beef_dead_beef);

/// Builds the small message used throughout: a root of 1 data word and
/// 1 pointer with `value` in the data word and `text` at pointer 0.
fn build_small<A: Arena>(msg: &mut Message<A>, value: u64, text: &str) -> capnarena::Result<()> {
    let mut root = msg.init_root_struct(StructSize::new(1, 1))?;
    root.set::<u64>(0, value);
    root.set_text(0, text)
}

fn framed<A: Arena>(msg: &Message<A>) -> Vec<u8> {
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

// ---- full arenas: Err with the numbers, content intact, no panic ----

/// A `FixedArena` too small for a text fails with `Error::Alloc` carrying
/// the words asked for and the words left; what was written before stays
/// readable (the slot of the failed text stays null), framing still
/// works, and a smaller text that fits still goes in.
#[test]
fn fixed_arena_full_is_an_error_and_keeps_the_content() {
    let mut buf = [DIRTY; 8];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
    root.set::<u64>(0, 0x1122_3344);
    // Words used: 1 segment-table word, 1 root pointer, 2 of root: 4 of 8.
    // 40 bytes + NUL = 41 bytes = 6 words.
    let long = "0123456789012345678901234567890123456789";
    match root.set_text(0, long) {
        Err(Error::Alloc(AllocError {
            requested: 6,
            available: 4,
        })) => {}
        other => panic!("expected Alloc {{ requested: 6, available: 4 }}, got {other:?}"),
    }
    assert!(!root.has_pointer(0), "the failed text left its slot null");

    let bytes = framed(&msg);
    let words = words_from_bytes(&bytes).unwrap();
    let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    let r = reader.root().unwrap();
    assert_eq!(r.get::<u64>(0), 0x1122_3344);
    assert!(r.pointer(0).is_null());

    // 4 words are left: a 31-byte text (4 words with its NUL) fits exactly.
    let fits = "0123456789012345678901234567890";
    msg.get_root_struct(StructSize::new(1, 1))
        .unwrap()
        .set_text(0, fits)
        .unwrap();
    let r = msg.reader();
    assert_eq!(r.root().unwrap().get_text(0).unwrap(), fits);
    assert_eq!(msg.arena().used(), 8);
    assert_eq!(msg.arena().capacity(), 8);
    // Now nothing is left, even for one word.
    let err = msg
        .get_root_struct(StructSize::new(1, 1))
        .unwrap()
        .set_data(0, b"x")
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 1,
                available: 0
            })
        ),
        "{err:?}"
    );
    assert_eq!(msg.reader().root().unwrap().get_text(0).unwrap(), fits);
}

/// A `FixedArena` that cannot even hold the root pointer fails at the
/// root (the segment-table word and the root pointer: 2 words), for
/// `init_root` and for `framed_bytes` of an empty message.
#[test]
fn fixed_arena_too_small_for_the_root() {
    for len in 0..2usize {
        let mut buf = vec![DIRTY; len];
        let mut msg = Message::new(FixedArena::new(&mut buf));
        let err = msg.init_root_struct(StructSize::new(1, 0)).err().unwrap();
        assert!(
            matches!(err, Error::Alloc(AllocError { requested: 2, available }) if available == len as u64),
            "{len} words: {err:?}"
        );
        let err = msg.framed_bytes().err().unwrap();
        assert!(
            matches!(err, Error::Alloc(AllocError { requested: 2, .. })),
            "{len} words: {err:?}"
        );
        // The empty message still frames as a null root.
        let bytes = framed(&msg);
        assert_eq!(bytes, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
    // A root struct that does not fit after the two words.
    let mut buf = [DIRTY; 3];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let err = msg.init_root_struct(StructSize::new(2, 0)).err().unwrap();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 2,
                available: 1
            })
        ),
        "{err:?}"
    );
    assert!(msg.reader().root_pointer().unwrap().is_null());
}

/// Reading a framed message into a `FixedArena` too small for it fails
/// with `Error::Alloc` (the segment's words and the room left) before
/// copying anything.
#[test]
fn fixed_arena_too_small_to_read_into() {
    let mut src = Message::new(SingleSegmentArena::new());
    build_small(&mut src, 7, "a text of some length").unwrap();
    let bytes = framed(&src);
    let seg_words = u64::from(src.segment(0).unwrap().len_words());
    assert_eq!(seg_words, 6, "root pointer, 2 root words, 3 text words");

    let mut buf = vec![DIRTY; 5];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let err = msg
        .read_from_bytes(&bytes, ReaderOptions::default())
        .err()
        .unwrap();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 6,
                available: 5
            })
        ),
        "{err:?}"
    );
    let err = msg
        .read_from(&bytes[..], ReaderOptions::default())
        .err()
        .unwrap();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 6,
                available: 5
            })
        ),
        "{err:?}"
    );
    // Exactly big enough works.
    let mut buf = vec![DIRTY; 6];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let r = msg
        .read_from_bytes(&bytes, ReaderOptions::default())
        .unwrap();
    assert_eq!(
        r.root().unwrap().get_text(0).unwrap(),
        "a text of some length"
    );
}

/// `SingleSegmentArena::with_limit` caps the segment: the allocation past
/// the limit is `Error::Alloc` with the words asked for and the words left,
/// and the content built so far stays readable.
#[test]
fn single_segment_limit_is_an_error() {
    // Table word + root pointer + root (1 data, 1 pointer) = 4 words; "hi"
    // needs 1 more.
    let mut msg = Message::new(SingleSegmentArena::new().with_limit(4));
    let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
    root.set::<u64>(0, 99);
    let err = root.set_text(0, "hi").unwrap_err();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 1,
                available: 0
            })
        ),
        "{err:?}"
    );
    let reader = msg.reader();
    let r = reader.root().unwrap();
    assert_eq!(r.get::<u64>(0), 99);
    assert!(r.pointer(0).is_null());
    assert_eq!(msg.framed_bytes().unwrap().len(), 4 * 8);

    // Past a limit of 5 by more than one word.
    let mut msg = Message::new(SingleSegmentArena::new().with_limit(5));
    let err = build_small(&mut msg, 1, "more than eight bytes").unwrap_err();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 3,
                available: 1
            })
        ),
        "{err:?}"
    );
    // The limit also bounds reads into the arena.
    let mut src = Message::new(SingleSegmentArena::new());
    build_small(&mut src, 1, "more than eight bytes").unwrap();
    let err = msg
        .read_from_bytes(&framed(&src), ReaderOptions::default())
        .err()
        .unwrap();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 6,
                available: 5
            })
        ),
        "{err:?}"
    );
}

/// `MultiSegmentArena::with_max_segments` makes the allocation that needs
/// one segment too many an `Error::Alloc`, with what was built intact.
#[test]
fn multi_segment_max_segments_is_an_error() {
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(3)
        .with_policy(GrowthPolicy::FixedSize(4))
        .with_max_segments(2);
    let mut msg = Message::new(arena);
    let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap(); // 4 words
    root.set::<u64>(0, 5);
    // A 3-word text goes to segment 1 with its landing pad (4 words).
    root.set_text(0, "seventeen bytes!!").unwrap();
    assert_eq!(msg.segment_count(), 2);
    let mut root = msg.get_root_struct(StructSize::new(1, 1)).unwrap();
    // Segment 0 is full: the text and its landing pad (2 words) need a
    // third segment.
    let err = root.set_text(0, "x").unwrap_err();
    assert!(
        matches!(
            err,
            Error::Alloc(AllocError {
                requested: 2,
                available: 0
            })
        ),
        "{err:?}"
    );
    let reader = msg.reader();
    let r = reader.root().unwrap();
    assert_eq!(r.get::<u64>(0), 5);
    assert_eq!(r.get_text(0).unwrap(), "seventeen bytes!!");
}

// ---- reset: zeroed again, memory kept ----

/// After words are handed out and dirtied, `reset` makes every arena
/// report no segments, and the same allocations again come back zeroed,
/// at the same places (segment 0, offset 0 first), also where the words
/// were last handed out by `allocate_overwritten` (which the arena need not
/// zero, and which comes back at the same places as `allocate`).
/// The same after `reset_for_overwrite`, and after a `reset` that follows
/// it. Run for a small message (zeroed on reset by the built-in arenas) and
/// a large one (zeroed on allocation).
fn reset_rezeroes<A: Arena>(name: &str, mut a: A) {
    reset_rezeroes_sizes(name, &mut a, &[2, 3, 5, 100, 1, 2000]);
    a.reset();
    reset_rezeroes_sizes(name, &mut a, &[2, 3, 5, 100, 1, 6000, 4, 1]);
}

fn reset_rezeroes_sizes<A: Arena>(name: &str, a: &mut A, sizes: &[u32]) {
    let mut places = Vec::new();
    for &len in sizes {
        let (s, o) = a.allocate(len, SegmentId(0)).unwrap();
        let words = &mut a.segment_mut(s)[o as usize..(o + len) as usize];
        assert!(
            words.iter().all(|w| *w == Word::ZERO),
            "{name}: fresh words"
        );
        words.fill(DIRTY);
        places.push((s, o));
    }
    assert_eq!(places[0], (SegmentId(0), 0), "{name}: first allocation");
    for round in 0..4 {
        // Round 1 starts as a read into the arena does: what the words
        // held may stay, but `allocate` still hands out zeroes.
        if round == 1 {
            a.reset_for_overwrite();
        } else {
            a.reset();
        }
        assert_eq!(a.segment_count(), 0, "{name}: no segments after reset");
        for (i, &len) in sizes.iter().enumerate() {
            // Rounds 1 and 2 hand out every other allocation overwritten,
            // each round the other half; rounds 0 and 3 all zeroed.
            let overwritten = (round == 1 || round == 2) && (i + round) % 2 == 0;
            let (s, o) = if overwritten {
                a.allocate_overwritten(len, SegmentId(0)).unwrap()
            } else {
                a.allocate(len, SegmentId(0)).unwrap()
            };
            assert_eq!((s, o), places[i], "{name}: round {round}, allocation {i}");
            let words = &mut a.segment_mut(s)[o as usize..(o + len) as usize];
            assert!(
                overwritten || words.iter().all(|w| *w == Word::ZERO),
                "{name}: round {round}, allocation {i} of {len} words is zeroed"
            );
            words.fill(DIRTY);
        }
    }
}

/// Every built-in arena, the blanket impls and the adversarial test arena
/// re-zero after reset.
#[test]
fn reset_rezeroes_every_arena() {
    reset_rezeroes("single", SingleSegmentArena::new());
    reset_rezeroes("multi", MultiSegmentArena::new());
    reset_rezeroes(
        "multi-tiny",
        MultiSegmentArena::new()
            .with_first_segment_words(1)
            .with_policy(GrowthPolicy::FixedSize(3)),
    );
    let mut buf = vec![DIRTY; 1 << 14];
    reset_rezeroes("fixed", FixedArena::new(&mut buf));
    reset_rezeroes("one-word", OneWordArena::default());
    let mut inner = MultiSegmentArena::new().with_first_segment_words(7);
    reset_rezeroes("&mut multi", &mut inner);
    reset_rezeroes("Box<single>", Box::new(SingleSegmentArena::new()));
    let boxed: Box<dyn Arena> = Box::new(MultiSegmentArena::new());
    reset_rezeroes("Box<dyn Arena>", boxed);
}

/// `FixedArena` touches only what it hands out: the caller's words past
/// the used part keep their contents, and a message built over dirty
/// memory reads as zero wherever it did not write.
#[test]
fn fixed_arena_touches_only_what_it_hands_out() {
    let mut buf = vec![DIRTY; 64];
    let used = {
        let mut msg = Message::new(FixedArena::new(&mut buf));
        let mut root = msg.init_root_struct(StructSize::new(4, 2)).unwrap();
        root.set::<u8>(3, 1);
        let reader = msg.reader();
        let r = reader.root().unwrap();
        assert_eq!(
            (r.get::<u64>(0), r.get::<u64>(1), r.get::<u64>(3)),
            (1 << 24, 0, 0)
        );
        assert!(r.pointer(1).is_null());
        msg.arena().used()
    };
    assert_eq!(
        used, 8,
        "table word, root pointer, 4 data words, 2 pointers"
    );
    assert!(
        buf[used..].iter().all(|w| *w == DIRTY),
        "unused words untouched"
    );
    assert_eq!(buf[2], Word::from_u64(1 << 24), "the data word as built");
}

/// `reset` keeps every segment and its capacity: rebuilding the same
/// message after a reset uses the same segments at the same addresses
/// (no reallocation), on `MultiSegmentArena` and `SingleSegmentArena`,
/// through `Message::reset`, and the bytes come out the same.
#[test]
fn reset_keeps_capacity() {
    let mut msg = Message::new(MultiSegmentArena::new().with_first_segment_words(63));
    build_log(&mut msg).unwrap();
    let first = framed(&msg);
    let count = msg.segment_count();
    let capacity = msg.arena().capacity();
    let addrs: Vec<_> = msg.segments().map(|s| s.words().as_ptr()).collect();
    assert!(count > 3, "the log needs several segments from 64 words");
    for _ in 0..3 {
        msg.reset();
        assert_eq!(msg.arena().segment_count(), 0);
        build_log(&mut msg).unwrap();
        assert_eq!(msg.segment_count(), count);
        assert_eq!(msg.arena().capacity(), capacity);
        let again: Vec<_> = msg.segments().map(|s| s.words().as_ptr()).collect();
        assert_eq!(again, addrs, "the same segment memory");
        assert!(framed(&msg) == first, "the same bytes");
    }

    let mut msg = Message::new(SingleSegmentArena::new());
    build_log(&mut msg).unwrap();
    let first = framed(&msg);
    let capacity = msg.arena().capacity();
    let addr = msg.arena().segment(SegmentId(0)).as_ptr();
    for _ in 0..3 {
        msg.reset();
        assert_eq!(msg.arena().capacity(), capacity);
        build_log(&mut msg).unwrap();
        assert_eq!(msg.arena().capacity(), capacity);
        assert_eq!(msg.arena().segment(SegmentId(0)).as_ptr(), addr);
        assert!(framed(&msg) == first, "the same bytes");
    }
}

// ---- growth policies ----

/// Default `MultiSegmentArena`: a first segment of 1,024 words, then each
/// new segment as large as all segments so far (capacity doubles).
#[test]
fn multi_segment_default_growth_doubles() {
    let mut a = MultiSegmentArena::new();
    assert_eq!(a.capacity(), 0);
    assert_eq!(a.allocate(1, SegmentId(0)).unwrap(), (SegmentId(0), 0));
    assert_eq!(a.capacity(), 1024);
    assert_eq!(a.allocate(1023, SegmentId(0)).unwrap(), (SegmentId(0), 1));
    assert_eq!(a.capacity(), 1024);
    let mut expected_capacity = 1024u64;
    for seg in 1..5u32 {
        // Segment `seg` gets all the capacity so far: fill it exactly.
        let size = expected_capacity;
        assert_eq!(a.allocate(1, SegmentId(0)).unwrap(), (SegmentId(seg), 0));
        expected_capacity += size;
        assert_eq!(a.capacity(), expected_capacity, "after segment {seg}");
        assert_eq!(
            a.allocate(size as u32 - 1, SegmentId(seg)).unwrap(),
            (SegmentId(seg), 1),
            "segment {seg} holds {size} words"
        );
        assert_eq!(a.segment(SegmentId(seg)).len() as u64, size);
    }
    assert_eq!(a.segment_count(), 5);
    assert_eq!(a.capacity(), 1024 * 16);
}

/// Under the heuristic, a request larger than the doubling gets a segment
/// twice its size (room for what it points to); a first request larger
/// than the first segment gets a segment of exactly its size.
#[test]
fn multi_segment_heuristic_large_requests() {
    let mut a = MultiSegmentArena::new().with_first_segment_words(15);
    assert_eq!(a.allocate(40, SegmentId(0)).unwrap(), (SegmentId(0), 0));
    assert_eq!(a.capacity(), 40);
    assert_eq!(a.allocate(100, SegmentId(0)).unwrap(), (SegmentId(1), 0));
    assert_eq!(a.capacity(), 40 + 200);
    assert_eq!(a.allocate(100, SegmentId(1)).unwrap(), (SegmentId(1), 100));
    // Segment 1 is full; the next gets the total so far (240).
    assert_eq!(a.allocate(1, SegmentId(1)).unwrap(), (SegmentId(2), 0));
    assert_eq!(a.capacity(), 480);
}

/// `GrowthPolicy::FixedSize(n)`: every new segment holds `n` words, or the
/// request when it is larger; allocations go to the hinted segment when it
/// has room, else to the last segment, else to a new one.
#[test]
fn multi_segment_fixed_size_growth() {
    let mut a = MultiSegmentArena::new()
        .with_first_segment_words(3)
        .with_policy(GrowthPolicy::FixedSize(6));
    assert_eq!(a.allocate(3, SegmentId(0)).unwrap(), (SegmentId(0), 0));
    assert_eq!(a.capacity(), 4);
    assert_eq!(a.allocate(2, SegmentId(0)).unwrap(), (SegmentId(1), 0));
    assert_eq!(a.capacity(), 10);
    assert_eq!(a.allocate(10, SegmentId(1)).unwrap(), (SegmentId(2), 0));
    assert_eq!(a.capacity(), 20, "a request past n gets its own size");
    // Hint 0 has one word left.
    assert_eq!(a.allocate(1, SegmentId(0)).unwrap(), (SegmentId(0), 3));
    // Hint 0 is full, the last segment (2) is full: segment 1 is not
    // tried, a new segment of 6 is made.
    assert_eq!(a.allocate(4, SegmentId(0)).unwrap(), (SegmentId(3), 0));
    assert_eq!(a.capacity(), 26);
    // Hint 1 has 4 words left.
    assert_eq!(a.allocate(4, SegmentId(1)).unwrap(), (SegmentId(1), 2));
    let lens: Vec<usize> = (0..4).map(|i| a.segment(SegmentId(i)).len()).collect();
    assert_eq!(lens, [4, 6, 10, 4]);
}

/// A message built on a `MultiSegmentArena` lays out segments by the
/// policy: with `FixedSize(n)`, an object larger than `n` words gets a
/// segment of exactly its size and its landing pad, no segment is larger
/// than `n` or the largest object and its pad, and the message reads back.
#[test]
fn multi_segment_policy_shapes_a_message() {
    let mut msg = Message::new(
        MultiSegmentArena::new()
            .with_first_segment_words(7)
            .with_policy(GrowthPolicy::FixedSize(8)),
    );
    build_log(&mut msg).unwrap();
    let lens: Vec<u32> = msg.segments().map(|s| s.len_words()).collect();
    assert!(lens.len() > 100, "{} segments", lens.len());
    // Segment 0: the root pointer and the 1-word root (the reserved table
    // word is not on the wire).
    assert_eq!(lens[0], 2);
    // Segment 1: the entry list's landing pad, its tag and 300 entries of
    // 4 words.
    assert_eq!(lens[1], 1202);
    // Everything else: texts and tag lists, each behind its landing pad
    // when it did not fit where its pointer is.
    let entries = log_entries();
    let largest_text = entries
        .iter()
        .flat_map(|e| std::iter::once(&e.message).chain(&e.tags))
        .map(|t| (t.len() as u32 + 1).div_ceil(8))
        .max()
        .unwrap();
    let largest_tags = entries.iter().map(|e| e.tags.len() as u32).max().unwrap();
    let bound = 8.max(largest_text + 1).max(largest_tags + 1);
    assert!(
        lens[2..].iter().all(|&l| l <= bound),
        "bound {bound}: {lens:?}"
    );
    assert!(lens[2..].contains(&8), "segments of n words: {lens:?}");
    let bytes = framed(&msg);
    // Vectored writing in batches frames the hundreds of segments alike.
    let mut written = Vec::new();
    msg.write_to(&mut written).unwrap();
    assert!(written == bytes, "write_to == append_to");
    let words = words_from_bytes(&bytes).unwrap();
    // More segments than a reader takes by default (512).
    let err = MessageReader::from_words(&words, ReaderOptions::default())
        .err()
        .unwrap();
    assert!(
        matches!(err, Error::SegmentLimitExceeded { count, limit: 512 } if count == lens.len() as u64),
        "{err:?}"
    );
    let options = ReaderOptions::default().segment_limit(1024);
    let r = MessageReader::from_words(&words, options).unwrap();
    let list = r
        .root()
        .unwrap()
        .get_list(0, ElementSize::InlineComposite)
        .unwrap();
    assert_eq!(list.len(), 300);
}

// ---- blanket impls and reuse ----

/// `&mut A` is an arena: a message borrows it, and after the message is
/// gone the arena (with its memory) builds the next message.
#[test]
fn mut_ref_arena_is_reused_after_the_message() {
    let mut arena = SingleSegmentArena::new();
    let first = {
        let mut msg = Message::new(&mut arena);
        build_small(&mut msg, 1, "first").unwrap();
        framed(&msg)
    };
    let capacity = arena.capacity();
    assert!(capacity > 0);
    let addr = arena.segment(SegmentId(0)).as_ptr();
    let mut msg = Message::new(&mut arena);
    build_small(&mut msg, 2, "second").unwrap();
    let second = framed(&msg);
    assert_ne!(first, second);
    assert_eq!(arena.capacity(), capacity, "memory kept");
    assert_eq!(arena.segment(SegmentId(0)).as_ptr(), addr);
    let words = words_from_bytes(&second).unwrap();
    let r = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    assert_eq!(r.root().unwrap().get_text(0).unwrap(), "second");

    // `&mut FixedArena` and `&mut Box<dyn Arena>` too.
    let mut buf = [DIRTY; 16];
    let mut fixed = FixedArena::new(&mut buf);
    let mut msg = Message::new(&mut fixed);
    build_small(&mut msg, 3, "third").unwrap();
    assert_eq!(msg.reader().root().unwrap().get::<u64>(0), 3);
    assert_eq!(fixed.used(), 5);
    let mut boxed: Box<dyn Arena> = Box::new(MultiSegmentArena::new());
    let mut msg = Message::new(&mut boxed);
    build_small(&mut msg, 4, "fourth").unwrap();
    assert_eq!(msg.reader().root().unwrap().get_text(0).unwrap(), "fourth");
}

/// `Box<A>` (and `Box<dyn Arena>`) is an arena and builds the same bytes
/// as `A` itself.
#[test]
fn boxed_arena_builds_the_same_bytes() {
    let mut plain = Message::new(MultiSegmentArena::new().with_first_segment_words(3));
    build_log(&mut plain).unwrap();
    let mut boxed = Message::new(Box::new(
        MultiSegmentArena::new().with_first_segment_words(3),
    ));
    build_log(&mut boxed).unwrap();
    let dynamic: Box<dyn Arena> = Box::new(MultiSegmentArena::new().with_first_segment_words(3));
    let mut dynamic = Message::new(dynamic);
    build_log(&mut dynamic).unwrap();
    assert!(plain.segment_count() > 1);
    assert!(framed(&plain) == framed(&boxed));
    assert!(framed(&plain) == framed(&dynamic));
}

/// `into_arena` gives the arena back with its memory: a new message on it
/// builds without growing, at the same address.
#[test]
fn into_arena_returns_the_arena_for_reuse() {
    let mut msg = Message::new(SingleSegmentArena::new());
    build_log(&mut msg).unwrap();
    let bytes = framed(&msg);
    let arena = msg.into_arena();
    let capacity = arena.capacity();
    let addr = arena.segment(SegmentId(0)).as_ptr();
    assert_eq!(arena.segment_count(), 1, "handed back as it was");
    let mut msg = Message::new(arena);
    assert_eq!(msg.arena().segment_count(), 0, "Message::new resets it");
    build_log(&mut msg).unwrap();
    assert!(framed(&msg) == bytes);
    assert_eq!(msg.arena().capacity(), capacity);
    assert_eq!(msg.arena().segment(SegmentId(0)).as_ptr(), addr);

    let mut multi = Message::new(MultiSegmentArena::new().with_first_segment_words(31));
    build_log(&mut multi).unwrap();
    let segs = multi.segment_count();
    let capacity = multi.arena().capacity();
    let arena = multi.into_arena();
    let mut multi = Message::new(arena);
    build_log(&mut multi).unwrap();
    assert_eq!(multi.segment_count(), segs);
    assert_eq!(multi.arena().capacity(), capacity);

    let mut buf = vec![DIRTY; 8192];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    build_log(&mut msg).unwrap();
    let fixed = msg.into_arena();
    let used = fixed.used();
    let mut msg = Message::new(fixed);
    build_log(&mut msg).unwrap();
    assert_eq!(msg.arena().used(), used);
    assert!(framed(&msg) == bytes);
}

// ---- arenas that break the contract ----

/// An arena whose first allocation is not at word 0 of segment 0.
#[derive(Default)]
struct OffByOne(Vec<Word>);

impl Arena for OffByOne {
    fn segment_count(&self) -> u32 {
        u32::from(!self.0.is_empty())
    }
    fn segment(&self, id: SegmentId) -> &[Word] {
        if id.0 == 0 { &self.0 } else { &[] }
    }
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        if id.0 == 0 { &mut self.0 } else { &mut [] }
    }
    fn allocate(&mut self, len: u32, _hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        // Skips one word every time.
        let start = self.0.len() as u32 + 1;
        self.0.resize(start as usize + len as usize, Word::ZERO);
        Ok((SegmentId(0), start))
    }
    fn reset(&mut self) {
        self.0.clear();
    }
}

/// An arena that claims each allocation but reports segments `short` words
/// shorter than what it handed out, after its first `honest` allocations.
struct ShortSegments {
    words: Vec<Word>,
    honest: u32,
    short: usize,
}

impl Arena for ShortSegments {
    fn segment_count(&self) -> u32 {
        u32::from(!self.words.is_empty())
    }
    fn segment(&self, id: SegmentId) -> &[Word] {
        let n = self.words.len().saturating_sub(self.short);
        if id.0 == 0 { &self.words[..n] } else { &[] }
    }
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        let n = self.words.len().saturating_sub(self.short);
        if id.0 == 0 {
            &mut self.words[..n]
        } else {
            &mut []
        }
    }
    fn allocate(&mut self, len: u32, _hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        if self.honest == 0 {
            self.short = 1;
        } else {
            self.honest -= 1;
        }
        let start = self.words.len() as u32;
        self.words.resize(start as usize + len as usize, Word::ZERO);
        Ok((SegmentId(0), start))
    }
    fn reset(&mut self) {
        self.words.clear();
        self.short = 0;
    }
}

/// A contract-breaking arena makes building fail with
/// `Error::ArenaContract` naming the rule and the numbers, not panic.
#[test]
fn contract_violations_are_errors() {
    let mut msg = Message::new(OffByOne::default());
    let err = msg.init_root_struct(StructSize::new(1, 0)).err().unwrap();
    assert!(
        matches!(
            err,
            Error::ArenaContract {
                segment: 0,
                offset: 1,
                len: 2,
                ..
            }
        ),
        "{err:?}"
    );

    let mut msg = Message::new(ShortSegments {
        words: Vec::new(),
        honest: 1,
        short: 0,
    });
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).err();
    // The root struct's allocation (the second) is reported one word
    // short: its 1 word at builder offset 1 (arena offset 2) lies past
    // the segment the arena reports.
    let err = root.take().unwrap();
    assert!(
        matches!(
            err,
            Error::ArenaContract {
                segment: 0,
                offset: 1,
                len: 1,
                ..
            }
        ),
        "{err:?}"
    );
    // Framing and reading what is there still work without a panic.
    let bytes = framed(&msg);
    let words = words_from_bytes(&bytes).unwrap();
    let _ = MessageReader::from_words(&words, ReaderOptions::default())
        .and_then(|r| r.root().map(|s| s.get::<u64>(0)));
}

/// Dirties `msg`'s arena: a message of long texts and data of `0xff`
/// bytes, bit lists of ones and struct lists, then the `log` vector read
/// into it.
fn dirty<A: Arena>(msg: &mut Message<A>) {
    let mut root = msg.init_root_struct(StructSize::new(4, 6)).unwrap();
    for i in 0..4 {
        root.set::<u64>(i, u64::MAX);
    }
    // Over 4,096 words (32 KiB): zeroed on allocation after it, not on
    // reset.
    root.set_text(0, &"~".repeat(40_000)).unwrap();
    root.set_data(1, &[0xff; 3000]).unwrap();
    let mut bits = root.init_list(2, ElementSize::Bit, 1000).unwrap();
    for i in 0..1000 {
        bits.set_bool(i, true);
    }
    let mut structs = root
        .init_struct_list(3, 300, StructSize::new(2, 1))
        .unwrap();
    for i in 0..300 {
        let mut s = structs.get_struct(i);
        s.set::<u64>(0, u64::MAX);
        s.set::<u64>(1, u64::MAX);
        s.set_text(0, "~~~~~~~~~~~~~~~").unwrap();
    }
    let log = common::vector("log.bin");
    let words = words_from_bytes(&log).unwrap();
    msg.read_from_bytes(
        Word::slice_as_bytes(&words),
        ReaderOptions::default().segment_limit(2048),
    )
    .unwrap();
}

/// `got == want`, reporting where they first differ.
fn same_bytes(got: &[u8], want: &[u8], what: &str) {
    if got != want {
        let at = got.iter().zip(want).position(|(a, b)| a != b);
        panic!(
            "{what}: {} bytes, want {}; first difference at byte {at:?}",
            got.len(),
            want.len()
        );
    }
}

/// What a message holds does not depend on what its arena held before:
/// built after a message of `0xff` bytes was built and another was read
/// into the same arena, each vector message (built field by field, and
/// deep-copied from the reference's bytes, which copies texts, data and
/// primitive lists whole) frames to the same bytes as on a fresh arena.
/// Guards the zeroing that arenas do on allocation instead of on reset,
/// and the callers of `allocate_overwritten` writing every byte.
#[test]
fn messages_after_dirty_messages_are_the_same_bytes() {
    fn check<A: Arena>(label: &str, mut make: impl FnMut() -> A) {
        for name in ["full", "scalars", "lists", "log"] {
            let mut fresh = Message::new(make());
            common::build::build_named(name, &mut fresh).unwrap();
            let want = framed(&fresh);

            let mut reused = Message::new(make());
            dirty(&mut reused);
            common::build::build_named(name, &mut reused).unwrap();
            same_bytes(
                &framed(&reused),
                &want,
                &format!("{label}: {name} built after dirt"),
            );

            let bin = common::vector(&format!("{name}.bin"));
            let words = words_from_bytes(&bin).unwrap();
            let src =
                MessageReader::from_words(&words, ReaderOptions::default().segment_limit(2048))
                    .unwrap();
            let mut copy_fresh = Message::new(make());
            copy_fresh.set_root(&src.root().unwrap()).unwrap();
            let want = framed(&copy_fresh);
            dirty(&mut reused);
            reused.set_root(&src.root().unwrap()).unwrap();
            same_bytes(
                &framed(&reused),
                &want,
                &format!("{label}: {name} copied after dirt"),
            );
        }
    }
    check("single", SingleSegmentArena::new);
    // A multi-segment arena lays out segments by the capacities it kept
    // from earlier messages; one segment large enough for every message
    // here keeps the layout the same as on a fresh arena.
    check("multi", || {
        MultiSegmentArena::new()
            .with_first_segment_words(1 << 16)
            .with_policy(GrowthPolicy::FixedSize(1 << 16))
    });
    check("one-word", OneWordArena::default);
    // Each fixed arena over its own dirty buffer, leaked to outlive the
    // messages `check` keeps side by side (a few MiB, once per test run).
    check("fixed", || FixedArena::new(Vec::leak(vec![DIRTY; 1 << 16])));
}

/// `with_first_segment_words(n)` is the words a message can fill, as
/// capnp's `first_segment_words` is: a message of exactly `n` words (root
/// pointer 1, struct 2, text 1) is one segment; with `n - 1` it is two.
/// The arena's segment table word is on top (regression: the message got
/// `n - 1` words and took two segments).
#[test]
fn first_segment_words_are_the_message_s() {
    let build = |words: u32| -> u32 {
        let mut msg = Message::new(MultiSegmentArena::new().with_first_segment_words(words));
        let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
        root.set_text(0, "seven").unwrap();
        msg.segment_count()
    };
    assert_eq!(build(4), 1);
    assert_eq!(build(3), 2);
}
