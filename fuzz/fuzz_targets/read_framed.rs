//! Untrusted framed bytes on every zero-copy and copying read path, then
//! the whole message traversed, canonical-checked and deep-copied. The
//! same bytes are also read as one bare segment (no table), so the fuzzer
//! controls pointer words directly.
#![no_main]

use capnarena::{Message, MessageReader, SingleSegmentArena, Word};
use libfuzzer_sys::fuzz_target;

mod shared;
use shared::{exercise, limits};

fuzz_target!(|data: &[u8]| {
    let options = limits();
    let words = shared::common::padded_words(data);
    let aligned = &Word::slice_as_bytes(&words)[..data.len()];

    let zero_copy = MessageReader::from_bytes(aligned, options);
    if let Ok(r) = &zero_copy {
        exercise(r, options);
    }
    if let Ok((r, _rest)) = MessageReader::from_words_prefix(&words, options) {
        exercise(&r, options);
    }
    let mut m = Message::new(SingleSegmentArena::new());
    let copied = m.read_from_bytes(data, options);
    // The copying path accepts exactly what the zero-copy path accepts,
    // less what it refuses to allocate (a declared size over the limit).
    match (&zero_copy, &copied) {
        (Ok(a), Ok(b)) => assert_eq!(exercise(a, options), exercise(b, options)),
        (Ok(_), Err(e)) => assert!(
            matches!(e, capnarena::Error::MessageTooLarge { .. }),
            "zero-copy read ok, copying read failed: {e:?}"
        ),
        (Err(e), Ok(_)) => panic!("copying read ok, zero-copy read failed: {e:?}"),
        (Err(_), Err(_)) => {}
    }

    let segs: [&[Word]; 1] = [&words];
    if let Ok(r) = MessageReader::from_segments(&segs, options) {
        exercise(&r, options);
    }
});
