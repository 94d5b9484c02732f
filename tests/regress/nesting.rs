//! Nesting deeper than the nesting limit. A hostile message can chain
//! pointers as deep as it has words; a reader that recursed once per level
//! (a deep copy, a canonicalizer, a traversal) would overflow the stack.
//! Every read path counts levels against `ReaderOptions::nesting_limit`
//! (default 64) and stops with `Error::NestingLimitExceeded { limit }`.
//!
//! The chains are built by hand: every word is the same pointer to the
//! next word, so a chain of N objects is N copies of one word and a null.

use capnarena::{
    ElementSize, Error, Message, PointerReader, ReaderOptions, SingleSegmentArena, Word,
};

use super::{each_path, expect_err, framed_bytes, msg, reader, reader_with};
use crate::common::walk::walk_message;

/// Struct pointer, offset 0 (the next word), 0 data words, 1 pointer: a
/// struct whose only pointer is this same word in the next struct.
const STRUCT_LINK: u64 = 0x0001_0000_0000_0000;
/// List pointer, offset 0 (the next word), size 6 (pointer), 1 element.
const LIST_LINK: u64 = 0x0000_000E_0000_0001;

/// `n` links, then a null pointer that ends the chain.
fn chain(link: u64, n: usize) -> Vec<u64> {
    let mut words = vec![link; n]; // words 0..n: the root and n - 1 links
    words.push(0); // word n: the last object's pointer, null
    words
}

/// Follows pointer 0 of each struct down a chain; returns the structs read
/// and the error that stopped it (`None`: it reached the null end).
fn follow_structs(mut p: PointerReader<'_>) -> (u32, Option<Error>) {
    let mut n = 0;
    while !p.is_null() {
        match p.get_struct() {
            Ok(s) => {
                n += 1;
                p = s.pointer(0);
            }
            Err(e) => return (n, Some(e)),
        }
    }
    (n, None)
}

/// A chain of 10,000 structs under the default limit: 64 levels are read,
/// the 65th is refused.
#[test]
fn chain_10000_default_limit() {
    let s0 = msg(&chain(STRUCT_LINK, 10_000));
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let (n, e) = follow_structs(r.root_pointer().unwrap());
    assert_eq!(n, 64);
    assert!(
        matches!(e, Some(Error::NestingLimitExceeded { limit: 64 })),
        "{e:?}"
    );
}

/// Exactly at the limit: a chain of 64 structs reads to its null end; 65
/// structs fail at the 65th.
#[test]
fn chain_at_and_past_limit() {
    let s0 = msg(&chain(STRUCT_LINK, 64));
    let segs: [&[Word]; 1] = [&s0];
    let (n, e) = follow_structs(reader(&segs).root_pointer().unwrap());
    assert_eq!((n, e.is_none()), (64, true), "{e:?}");

    let s0 = msg(&chain(STRUCT_LINK, 65));
    let segs: [&[Word]; 1] = [&s0];
    let (n, e) = follow_structs(reader(&segs).root_pointer().unwrap());
    assert_eq!(n, 64);
    assert!(
        matches!(e, Some(Error::NestingLimitExceeded { limit: 64 })),
        "{e:?}"
    );
}

/// A caller who trusts the input raises the limit: the 10,000-deep chain
/// then reads to its end (iteratively), 1 word charged per struct.
#[test]
fn chain_10000_raised_limit() {
    let s0 = msg(&chain(STRUCT_LINK, 10_000));
    let segs: [&[Word]; 1] = [&s0];
    let r = reader_with(&segs, ReaderOptions::new().nesting_limit(10_000));
    let (n, e) = follow_structs(r.root_pointer().unwrap());
    assert_eq!((n, e.is_none()), (10_000, true), "{e:?}");
    assert_eq!(r.traversal_remaining(), 8 * 1024 * 1024 - 10_000);
}

/// The 10,000-deep chain, framed, on every read path, through everything
/// that recurses: a deep copy into a builder (`Message::set_root`), the
/// canonical form (`set_root_canonical`), `is_canonical`, and a full
/// traversal. Each stops with the nesting error; nothing overflows the
/// stack, and the copy holds at most the 64 levels it could read.
#[test]
fn chain_10000_through_copy_and_canonical() {
    let bytes = framed_bytes(&chain(STRUCT_LINK, 10_000));
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let r = r.unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let nesting = |e: &Error| matches!(e, Error::NestingLimitExceeded { limit: 64 });

        let mut m = Message::new(SingleSegmentArena::new());
        let e = expect_err(path, m.set_root(&r.root().unwrap()));
        assert!(nesting(&e), "{path}: set_root: {e:?}");
        assert!(m.segment(0).unwrap().len_words() <= 65, "{path}: copy grew");

        r.reset_traversal();
        let mut canon = Message::new(SingleSegmentArena::new());
        let e = expect_err(path, canon.set_root_canonical(&r.root().unwrap()));
        assert!(nesting(&e), "{path}: set_root_canonical: {e:?}");

        r.reset_traversal();
        let e = expect_err(path, r.is_canonical());
        assert!(nesting(&e), "{path}: is_canonical: {e:?}");

        r.reset_traversal();
        let walked = walk_message(&r, 64);
        assert!(walked.limit_errors > 0, "{path}: {walked:?}");
        assert_eq!(walked.structs, 64, "{path}: {walked:?}");
    });
}

/// A raised limit (1,000) still bounds a deep copy of the 10,000-deep
/// chain, at 1,000 levels. Deep copy recurses once per level, so a raised
/// limit needs a stack to match: in a debug build 1,000 levels overflow
/// the 2 MiB of a test thread, so this runs on a thread with 16 MiB.
#[test]
fn chain_10000_copy_raised_limit() {
    let copy = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            let s0 = msg(&chain(STRUCT_LINK, 10_000));
            let segs: [&[Word]; 1] = [&s0];
            let r = reader_with(&segs, ReaderOptions::new().nesting_limit(1000));
            let mut m = Message::new(SingleSegmentArena::new());
            let e = m.set_root(&r.root().unwrap()).unwrap_err();
            let words = m.segment(0).unwrap().len_words();
            (e, words)
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(
        matches!(copy.0, Error::NestingLimitExceeded { limit: 1000 }),
        "{:?}",
        copy.0
    );
    assert!(copy.1 <= 1001, "copy wrote {} words", copy.1);
}

/// Nesting through lists: 10,000 lists of one pointer, each holding the
/// next. Lists count as levels just as structs do.
#[test]
fn list_chain_10000() {
    let s0 = msg(&chain(LIST_LINK, 10_000));
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let mut p = r.root_pointer().unwrap();
    let mut n = 0;
    let e = loop {
        match p.get_list(ElementSize::Pointer) {
            Ok(l) => {
                n += 1;
                p = l.get_pointer(0);
            }
            Err(e) => break e,
        }
    };
    assert_eq!(n, 64);
    assert!(
        matches!(e, Error::NestingLimitExceeded { limit: 64 }),
        "{e:?}"
    );

    r.reset_traversal();
    let mut m = Message::new(SingleSegmentArena::new());
    assert_err!(
        m.root_pointer()
            .unwrap()
            .set_from(&r.root_pointer().unwrap()),
        Error::NestingLimitExceeded { limit: 64 }
    );
}

/// A nesting limit of 0 refuses even the root object.
#[test]
fn zero_limit_refuses_root() {
    let s0 = msg(&chain(STRUCT_LINK, 1));
    let segs: [&[Word]; 1] = [&s0];
    let r = reader_with(&segs, ReaderOptions::new().nesting_limit(0));
    assert_err!(r.root(), Error::NestingLimitExceeded { limit: 0 });
}
