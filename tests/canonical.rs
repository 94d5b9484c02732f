//! Canonical form against the reference tool's `NAME.canonical` vectors.

mod common;

use capnarena::{
    FixedArena, Message, MessageReader, ReaderOptions, SingleSegmentArena, Word, words_from_bytes,
};
use common::vector;

const NAMES: [&str; 5] = ["empty", "scalars", "lists", "full", "log"];
const FRAMINGS: [&str; 4] = ["bin", "seg1.bin", "seg3.bin", "seg16.bin"];

fn options() -> ReaderOptions {
    // log.seg1.bin has 1,186 segments.
    ReaderOptions::default().segment_limit(2000)
}

/// Canonicalizing every vector, from its one-segment framing and from
/// each many-segment framing (far and double-far pointers), gives exactly
/// the reference's canonical bytes.
#[test]
fn canonical_bytes_equal_the_reference() {
    for name in NAMES {
        let want = vector(&format!("{name}.canonical"));
        for framing in FRAMINGS {
            let words = words_from_bytes(&vector(&format!("{name}.{framing}"))).unwrap();
            let reader = MessageReader::from_words(&words, options()).unwrap();
            let mut msg = Message::new(SingleSegmentArena::new());
            let got = msg.set_root_canonical(&reader.root().unwrap()).unwrap();
            assert!(
                Word::slice_as_bytes(got) == &want[..],
                "{name}.{framing}: canonical form differs from {name}.canonical"
            );
        }
    }
}

/// The canonical vectors are canonical; the reference's ordinary
/// framings of the same messages, which keep untrimmed sections or several
/// segments, are not.
#[test]
fn is_canonical_tells_canonical_from_not() {
    for name in NAMES {
        let canonical = words_from_bytes(&vector(&format!("{name}.canonical"))).unwrap();
        let segs = [&canonical[..]];
        let reader = MessageReader::from_segments(&segs, ReaderOptions::default()).unwrap();
        assert!(reader.is_canonical().unwrap(), "{name}.canonical");

        for framing in FRAMINGS {
            let bytes = vector(&format!("{name}.{framing}"));
            let words = words_from_bytes(&bytes).unwrap();
            let reader = MessageReader::from_words(&words, options()).unwrap();
            // The framing is canonical exactly when its single segment
            // holds the canonical bytes.
            let body = &bytes[8..];
            let same =
                reader.segment_count() == 1 && body == &vector(&format!("{name}.canonical"))[..];
            assert_eq!(reader.is_canonical().unwrap(), same, "{name}.{framing}");
        }
    }
}

/// Canonicalizing into a fixed buffer works with no heap, and a buffer one
/// word too small is an error, not a panic.
#[test]
fn canonical_form_in_a_fixed_arena() {
    let want = vector("full.canonical");
    let words = words_from_bytes(&vector("full.seg3.bin")).unwrap();
    let reader = MessageReader::from_words(&words, options()).unwrap();
    let root = reader.root().unwrap();
    // One reserved word in front of segment 0 (see `Message::framed_bytes`).
    let needed = want.len() / 8 + 1;
    let mut buf = vec![Word::ZERO; needed];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    assert_eq!(
        Word::slice_as_bytes(msg.set_root_canonical(&root).unwrap()),
        &want[..]
    );

    let mut small = vec![Word::ZERO; needed - 1];
    let mut msg = Message::new(FixedArena::new(&mut small));
    assert!(matches!(
        msg.set_root_canonical(&root),
        Err(capnarena::Error::Alloc(_))
    ));
}
