//! Opening a one-segment framed message takes a short path (the table's
//! second half is the segment's size; the reader keeps that one slice). It
//! must see what the general path sees: the same segment, the same rest of
//! a stream, and the same errors with the same numbers for a truncated
//! segment or a segment limit of zero.

use capnarena::{
    Error, Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize, Word,
};

/// A framed one-segment message whose root holds `v` (3 words: table, root
/// pointer, data).
fn framed(v: u64) -> Vec<Word> {
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root_struct(StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, v);
    let mut out = Vec::new();
    msg.append_to(&mut out);
    capnarena::words_from_bytes(&out).unwrap()
}

/// The segment is the words after the table, segment 1 does not exist, and
/// the root reads back.
#[test]
fn one_segment_reads_its_words() {
    let words = framed(42);
    assert_eq!(words.len(), 3);
    let r = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    assert_eq!(r.segment_count(), 1);
    assert_eq!(r.segment(0).unwrap(), &words[1..]);
    assert!(r.segment(1).is_none());
    assert_eq!(r.root().unwrap().get::<u64>(0), 42);
    let r =
        MessageReader::from_bytes(Word::slice_as_bytes(&words), ReaderOptions::default()).unwrap();
    assert_eq!(r.root().unwrap().get::<u64>(0), 42);
}

/// In a stream of one-segment messages, each prefix read returns the words
/// after its message.
#[test]
fn prefix_returns_the_rest_of_the_stream() {
    let mut stream = framed(1);
    stream.extend(framed(2));
    let (r, rest) = MessageReader::from_words_prefix(&stream, ReaderOptions::default()).unwrap();
    assert_eq!(r.root().unwrap().get::<u64>(0), 1);
    assert_eq!(rest.len(), 3);
    let (r, rest) = MessageReader::from_words_prefix(rest, ReaderOptions::default()).unwrap();
    assert_eq!(r.root().unwrap().get::<u64>(0), 2);
    assert!(rest.is_empty());
}

/// A one-segment table declaring more words than follow is `Truncated`
/// with the bytes the table needs and the bytes there are.
#[test]
fn truncated_one_segment_is_an_error_with_its_numbers() {
    let words = framed(7);
    for cut in 1..words.len() {
        let got = MessageReader::from_words(&words[..cut], ReaderOptions::default());
        match got {
            Err(Error::Truncated { needed, available }) => {
                assert_eq!(needed, 24, "cut at {cut}");
                assert_eq!(available, cut as u64 * 8, "cut at {cut}");
            }
            Err(e) => panic!("cut at {cut}: {e}"),
            Ok(_) => panic!("cut at {cut}: read"),
        }
    }
}

/// A segment limit of zero refuses even one segment.
#[test]
fn segment_limit_zero_refuses_one_segment() {
    let words = framed(7);
    let got = MessageReader::from_words(&words, ReaderOptions::default().segment_limit(0));
    match got {
        Err(Error::SegmentLimitExceeded { count, limit }) => {
            assert_eq!((count, limit), (1, 0));
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("read with a segment limit of zero"),
    }
}

/// Reading the one-segment message into a message's arena (the stream
/// readers' path) gives the same single segment.
#[test]
fn read_into_a_message_has_one_segment() {
    let words = framed(9);
    let mut msg = Message::new(SingleSegmentArena::new());
    let r = msg
        .read_from_bytes(Word::slice_as_bytes(&words), ReaderOptions::default())
        .unwrap();
    assert_eq!(r.segment_count(), 1);
    assert_eq!(r.segment(0).unwrap(), &words[1..]);
    assert!(r.segment(1).is_none());
    assert_eq!(r.root().unwrap().get::<u64>(0), 9);
}
