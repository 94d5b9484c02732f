//! Deep messages on small stacks (issue 12, finding 7): deep copy,
//! canonicalisation and `is_canonical` run in constant stack (a loop over
//! an explicit work list), so the depth a nesting limit allows never
//! overflows a thread's stack, in debug and optimised builds alike.

use capnarena::{
    Error, Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize, words_from_bytes,
};

/// Stack of the threads the tests run on: 64 KiB.
const SMALL_STACK: usize = 64 * 1024;

/// Runs `f` on a thread with a 64 KiB stack and returns what it returns.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the thread finished without overflowing its stack")
}

/// A chain of `depth` structs below the root: each has one data word (its
/// depth plus one) and one pointer to the next; the last pointer is null,
/// so the chain is not canonical (its last struct keeps a null pointer
/// that canonical form trims).
fn chain(depth: u32) -> Message<SingleSegmentArena> {
    let size = StructSize::new(1, 1);
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut s = msg.init_root_struct(size).unwrap();
    s.set::<u64>(0, 1);
    for level in 1..=depth {
        s = s.into_pointer(0).init_struct(size).unwrap();
        s.set::<u64>(0, u64::from(level) + 1);
    }
    msg
}

/// The depth of the chain under `root`, checking each level's number.
fn depth_of(root: capnarena::StructReader<'_>) -> u32 {
    let mut s = root;
    let mut depth = 0;
    while s.has_pointer(0) {
        s = s.get_struct(0).unwrap();
        depth += 1;
        assert_eq!(s.get::<u64>(0), u64::from(depth) + 1);
    }
    depth
}

/// Copies and canonicalises the chain read from `framed` with `options`,
/// and checks the copies: the plain copy is the chain, the canonical one
/// is canonical and the source is not.
fn copy_everything(framed: &[u8], options: ReaderOptions, depth: u32) {
    let words = words_from_bytes(framed).unwrap();
    let reader = MessageReader::from_words(&words, options).unwrap();
    let root = reader.root().unwrap();
    let mut copy = Message::new(SingleSegmentArena::new());
    copy.set_root(&root).unwrap();
    let mut canonical = Message::new(SingleSegmentArena::new());
    let canonical_words = canonical.set_root_canonical(&root).unwrap().len();
    // The root pointer, two words for each struct but the last, one for
    // the last (its null pointer trimmed).
    assert_eq!(canonical_words, 1 + 2 * depth as usize + 1);
    let back = copy.reader_with_options(options);
    assert_eq!(depth_of(back.root().unwrap()), depth);
    // The copy read in place (its own reader) copies again, as deep.
    let mut again = Message::new(SingleSegmentArena::new());
    again.set_root(&copy.reader().root().unwrap()).unwrap();
    assert_eq!(depth_of(again.reader().root().unwrap()), depth);
    assert!(canonical.reader().is_canonical().unwrap());
    assert!(!copy.reader().is_canonical().unwrap());
    reader.reset_traversal();
    assert!(!reader.is_canonical().unwrap());
}

/// The deepest chain the nesting limit allows when raised to 10,000 (a
/// root and 9,999 levels) is copied, canonicalised and checked for
/// canonical form on a 64 KiB thread; one level more is the nesting
/// error, not an overflow.
#[test]
fn ten_thousand_levels_on_a_64_kib_stack() {
    let options = ReaderOptions::new().nesting_limit(10_000);
    let framed = {
        let mut msg = chain(9_999);
        msg.framed_bytes().unwrap().to_vec()
    };
    let too_deep = {
        let mut msg = chain(10_000);
        msg.framed_bytes().unwrap().to_vec()
    };
    on_small_stack(move || {
        copy_everything(&framed, options, 9_999);
        let words = words_from_bytes(&too_deep).unwrap();
        let reader = MessageReader::from_words(&words, options).unwrap();
        let mut copy = Message::new(SingleSegmentArena::new());
        match copy.set_root(&reader.root().unwrap()) {
            Err(Error::NestingLimitExceeded { limit: 10_000 }) => {}
            other => panic!("{other:?}"),
        }
        match copy.set_root_canonical(&reader.root().unwrap()) {
            Err(Error::NestingLimitExceeded { limit: 10_000 }) => {}
            other => panic!("{:?}", other.map(<[_]>::len)),
        }
    });
}

/// Finding 7: at the default limits, `set_root`, `set_root_canonical` and
/// `is_canonical` of a 64-deep chain (a root and 63 levels) needed about
/// 69 KiB of stack optimised and 300-440 KiB in a debug build, so a
/// 64 KiB thread aborted. They now run on one.
#[test]
fn default_limits_deepest_chain_on_a_64_kib_stack() {
    let framed = {
        let mut msg = chain(63);
        msg.framed_bytes().unwrap().to_vec()
    };
    on_small_stack(move || {
        copy_everything(&framed, ReaderOptions::default(), 63);
    });
}

/// The builder's own reader (`Message::reader`) of a 20,000-level chain
/// (nesting limit: the message's words) copies and canonicalises on a
/// 64 KiB thread.
#[test]
fn builder_reader_copies_deep_chains_on_a_64_kib_stack() {
    let msg = chain(20_000);
    let framed = {
        let mut out = Vec::new();
        msg.append_to(&mut out);
        out
    };
    on_small_stack(move || {
        let mut src = Message::new(SingleSegmentArena::new());
        let options = ReaderOptions::new().nesting_limit(30_000);
        src.set_root(
            &MessageReader::from_words(&words_from_bytes(&framed).unwrap(), options)
                .unwrap()
                .root()
                .unwrap(),
        )
        .unwrap();
        let reader = src.reader();
        assert!(!reader.is_canonical().unwrap());
        let mut copy = Message::new(SingleSegmentArena::new());
        copy.set_root(&reader.root().unwrap()).unwrap();
        let mut canonical = Message::new(SingleSegmentArena::new());
        let n = canonical
            .set_root_canonical(&reader.root().unwrap())
            .unwrap()
            .len();
        assert_eq!(n, 1 + 2 * 20_000 + 1);
        assert_eq!(depth_of(copy.reader().root().unwrap()), 20_000);
        assert!(canonical.reader().is_canonical().unwrap());
    });
}

/// A 100-level chain read with the default limits (nesting 64): the deep
/// copy, canonical form and the canonical check stop at the nesting limit
/// with an error, on a 64 KiB thread, in debug and optimised builds. A
/// copy over a message whose root is a 20,000-level chain zeroes that
/// chain first (see tests/zero_old.rs), on the same thread.
#[test]
fn hundred_levels_at_the_default_limits_on_a_64_kib_stack() {
    let framed = {
        let mut msg = chain(100);
        msg.framed_bytes().unwrap().to_vec()
    };
    let shallow = {
        let mut msg = chain(10);
        msg.framed_bytes().unwrap().to_vec()
    };
    on_small_stack(move || {
        let words = words_from_bytes(&framed).unwrap();
        let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
        let root = reader.root().unwrap();
        let mut copy = Message::new(SingleSegmentArena::new());
        match copy.set_root(&root) {
            Err(Error::NestingLimitExceeded { limit: 64 }) => {}
            other => panic!("{other:?}"),
        }
        let mut canonical = Message::new(SingleSegmentArena::new());
        match canonical.set_root_canonical(&root) {
            Err(Error::NestingLimitExceeded { limit: 64 }) => {}
            other => panic!("{:?}", other.map(<[_]>::len)),
        }
        reader.reset_traversal();
        match reader.is_canonical() {
            Err(Error::NestingLimitExceeded { limit: 64 }) => {}
            other => panic!("{other:?}"),
        }
        // Over a deep old root: zeroed, then the copy.
        let mut msg = chain(20_000);
        let words = words_from_bytes(&shallow).unwrap();
        let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
        msg.set_root(&reader.root().unwrap()).unwrap();
        assert_eq!(depth_of(msg.reader().root().unwrap()), 10);
        let used = msg.segment(0).unwrap().words();
        let set = used.iter().filter(|w| w.to_u64() != 0).count();
        assert_eq!(set, 1 + 2 * 10 + 1, "the copy's words alone are set");
    });
}
