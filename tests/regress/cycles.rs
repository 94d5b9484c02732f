//! Cycles and shared targets. Cap'n Proto pointers are offsets, so a
//! hostile message can point an object at itself or point many pointers at
//! one large object. Neither may loop or amplify without bound: a cycle
//! stops at the nesting limit (`Error::NestingLimitExceeded`) or, with
//! nesting unbounded, at the traversal limit; every visit of a shared
//! object is charged again, so reading one large struct through many
//! pointers stops at `Error::TraversalLimitExceeded` with the limit and
//! the size of the read that failed.

use capnarena::{
    ElementSize, Error, Message, PointerReader, ReaderOptions, SingleSegmentArena, Word,
};

use super::{each_path, framed_bytes, msg, reader, reader_with};
use crate::common::walk::walk_message;

const DEFAULT_LIMIT: u64 = 8 * 1024 * 1024;

/// Follows pointer 0 of each struct from `p` until a read fails; returns
/// the number of structs read and the error.
fn follow_structs(mut p: PointerReader<'_>) -> (u32, Error) {
    let mut n = 0;
    loop {
        match p.get_struct() {
            Ok(s) => {
                n += 1;
                p = s.pointer(0);
            }
            Err(e) => return (n, e),
        }
    }
}

/// The root struct's one pointer is the root pointer word itself: the
/// struct (0 data words, 1 pointer, at offset -1) is its own child.
#[test]
fn struct_points_to_itself() {
    let s0 = msg(&[
        0x0001_0000_FFFF_FFFC, // root: struct, offset -1 (word 0 itself), 0 data, 1 ptr
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let (n, e) = follow_structs(r.root_pointer().unwrap());
    assert_eq!(n, 64, "the nesting limit allows exactly 64 levels");
    assert!(
        matches!(e, Error::NestingLimitExceeded { limit: 64 }),
        "{e:?}"
    );
    assert_eq!(r.traversal_remaining(), DEFAULT_LIMIT - 64);
}

/// The same self-loop with the nesting limit out of the way: the
/// traversal limit (1,000 words, 1 per visit of the 1-word struct) stops
/// it after exactly 1,000 structs.
#[test]
fn struct_points_to_itself_traversal_bound() {
    let s0 = msg(&[
        0x0001_0000_FFFF_FFFC, // root: struct, offset -1 (word 0 itself), 0 data, 1 ptr
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let options = ReaderOptions::new()
        .nesting_limit(u32::MAX)
        .traversal_limit_words(1000);
    let r = reader_with(&segs, options);
    let (n, e) = follow_structs(r.root_pointer().unwrap());
    assert_eq!(n, 1000);
    assert!(
        matches!(
            e,
            Error::TraversalLimitExceeded {
                limit: 1000,
                requested: 1
            }
        ),
        "{e:?}"
    );
}

/// A struct whose pointer points back at itself (not the root word): one
/// level below the root, framed, on every read path; deep copy, canonical
/// check and a full traversal all stop with the nesting error.
#[test]
fn child_points_to_itself_every_path() {
    let bytes = framed_bytes(&[
        0x0001_0000_0000_0000, // root: struct, offset 0 (word 1), 0 data, 1 ptr
        0x0001_0000_FFFF_FFFC, // word 1 = the struct's ptr 0: struct, offset -1 (word 1), 0 data, 1 ptr
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let r = r.unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let (n, e) = follow_structs(r.root_pointer().unwrap());
        assert_eq!(n, 64, "{path}");
        assert!(
            matches!(e, Error::NestingLimitExceeded { limit: 64 }),
            "{path}: {e:?}"
        );

        r.reset_traversal();
        let mut m = Message::new(SingleSegmentArena::new());
        let e = m.set_root(&r.root().unwrap()).unwrap_err();
        assert!(
            matches!(e, Error::NestingLimitExceeded { limit: 64 }),
            "{path}: copy: {e:?}"
        );
        // Root pointer + 64 one-word structs at most (the reserved table
        // word is not part of segment 0 as the message frames it).
        assert!(m.segment(0).unwrap().len_words() <= 65, "{path}: copy grew");

        r.reset_traversal();
        let e = r.is_canonical().unwrap_err();
        assert!(
            matches!(e, Error::NestingLimitExceeded { limit: 64 }),
            "{path}: {e:?}"
        );

        r.reset_traversal();
        let walked = walk_message(&r, 64);
        assert!(walked.limit_errors > 0, "{path}: {walked:?}");
    });
}

/// A list of one pointer whose element points back at the list itself.
#[test]
fn list_contains_itself() {
    let s0 = msg(&[
        0x0000_000E_0000_0001, // root: list, offset 0 (word 1), size 6 (pointer), 1 element
        0x0000_000E_FFFF_FFFD, // element 0: list, offset -1 (word 1 = this list), size 6, 1 element
    ]);
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
}

/// Small amplification, every word by hand: 4 pointers to one 3-word
/// struct under a traversal limit of 10 words. The list costs 4, each
/// struct visit 3: the third visit asks for 3 with 0 left.
#[test]
fn shared_struct_small_limit() {
    let s0 = msg(&[
        0x0000_0026_0000_0001, // root: list, offset 0 (word 1), size 6 (pointer), 4 elements
        0x0000_0003_0000_000C, // element 0 (word 1): struct, offset 3 (word 5), 3 data words
        0x0000_0003_0000_0008, // element 1 (word 2): struct, offset 2 (word 5), 3 data words
        0x0000_0003_0000_0004, // element 2 (word 3): struct, offset 1 (word 5), 3 data words
        0x0000_0003_0000_0000, // element 3 (word 4): struct, offset 0 (word 5), 3 data words
        0x0000_0000_0000_0001, // word 5: the shared struct, data word 0
        0x0000_0000_0000_0002, // data word 1
        0x0000_0000_0000_0003, // data word 2
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader_with(&segs, ReaderOptions::new().traversal_limit_words(10));
    let list = r
        .root_pointer()
        .unwrap()
        .get_list(ElementSize::Pointer)
        .unwrap();
    assert_eq!(r.traversal_remaining(), 6);
    assert_eq!(list.get_pointer(0).get_struct().unwrap().get::<u64>(2), 3);
    assert_eq!(list.get_pointer(1).get_struct().unwrap().get::<u64>(0), 1);
    assert_eq!(r.traversal_remaining(), 0);
    assert_err!(
        list.get_pointer(2).get_struct(),
        Error::TraversalLimitExceeded {
            limit: 10,
            requested: 3
        }
    );
    // Re-reading on purpose is the caller's choice: the budget is restored.
    r.reset_traversal();
    assert_eq!(r.traversal_remaining(), 10);
}

/// Amplification at the default limit: 129 far pointers, all to one
/// landing pad, which points to one struct of 0xFFFF data words (512 KiB).
/// The message is 525 KiB; reading every element would visit 66 MiB. The
/// list costs 129 words, leaving 8,388,479; 127 visits of 65,535 words
/// leave 65,534, so the 128th visit fails asking for 65,535.
#[test]
fn many_pointers_to_one_big_struct() {
    const ELEMENT: u64 = 0x0000_0000_0000_0412; // far, single, pad word 130 of segment 0
    let mut words = vec![
        0x0000_040E_0000_0001, // root: list, offset 0 (word 1), size 6 (pointer), 129 elements
    ];
    words.extend([ELEMENT; 129]); // words 1..=129: the 129 elements, each the far pointer above
    words.push(0x0000_FFFF_0000_0000); // word 130: pad: struct, offset 0 (word 131), 0xFFFF data words
    words.resize(131 + 0xFFFF, 0); // words 131..: the struct's 65,535 data words, zero
    let s0 = msg(&words);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let list = r
        .root_pointer()
        .unwrap()
        .get_list(ElementSize::Pointer)
        .unwrap();
    assert_eq!(list.len(), 129);
    for i in 0..127 {
        let s = list.get_pointer(i).get_struct().unwrap();
        assert_eq!(s.data_bytes().len(), 0xFFFF * 8);
    }
    assert_eq!(r.traversal_remaining(), 65_534);
    assert_err!(
        list.get_pointer(127).get_struct(),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 65_535
        }
    );

    // A deep copy is charged the same way: it fails instead of writing
    // 66 MiB.
    r.reset_traversal();
    let mut m = Message::new(SingleSegmentArena::new());
    assert_err!(
        m.root_pointer()
            .unwrap()
            .set_from(&r.root_pointer().unwrap()),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 65_535
        }
    );
    let copied: u64 = m.segments().map(|s| u64::from(s.len_words())).sum();
    assert!(copied <= DEFAULT_LIMIT + 130, "copy wrote {copied} words");
}
